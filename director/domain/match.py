"""A Tandem match from its games: the scoreline, pairs, the end of the match (RULES §3, §4, §6.3).

`score_match` reads the games in the order they finished and returns everything a desk, a
report or `replay` needs: each game's points and whether it counted, the running score, the
state of the pair being played, the result, and every rule a game broke.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from director.domain.cube import LiveCubes, PairCubeRule
from director.domain.pair_state import PairState, first_pair
from director.domain.paper import PaperError, paper_result
from director.domain.rules import MatchRules, Side
from director.domain.score import Problem, Result, Score
from director.domain.scoring import Game, extra_game_points, game_points, pip_points

__all__ = ["GameLine", "MatchOutcome", "Problem", "Result", "Score", "score_match", "scored"]


@dataclass(frozen=True)
class GameLine:
    game: Game
    points: int  # 0 when the game did not count
    pip_points: int
    counted: bool  # False: abandoned under rule 4′
    score: Score  # the team score after this game
    crawford: bool = False  # RULES §10: it was the match's Crawford game


@dataclass(frozen=True)
class MatchOutcome:
    rules: MatchRules
    lines: tuple[GameLine, ...]
    score: Score
    pip_points: Score
    extra: Score
    final: Score
    result: Result
    problems: tuple[Problem, ...]
    pair_state: PairState  # the pair being played (or the last one, once the match is over)
    decided_by: Result = Result.UNFINISHED  # the result on game points alone
    lost_on_time: Side | None = None  # RULES §10: the player whose reserve ran out
    from_paper: bool = False  # the final score was typed from paper, without games (#24)

    @property
    def finished(self) -> bool:
        return self.result is not Result.UNFINISHED

    def away(self, side: Side) -> int:
        return max(0, self.rules.match_length - self.score[side])

    # the pair state's answers under the names the pages have used
    @property
    def current_pair(self) -> int:
        return self.pair_state.number

    @property
    def boards_done(self) -> frozenset[int]:
        return self.pair_state.boards_done

    @property
    def pair_start(self) -> Score:
        return self.pair_state.start

    @property
    def cube_rule(self) -> PairCubeRule:
        return self.pair_state.cube_rule

    @property
    def cube_board(self) -> int | None:
        return self.pair_state.cube_board


def score_match(
    rules: MatchRules,
    games: Sequence[Game],
    team_names: tuple[str, str] = ("A", "B"),
    live: Mapping[int, LiveCubes] | None = None,
    lost_on_time: Side | None = None,
    paper: Score | None = None,
) -> MatchOutcome:
    """Score a match from its games in the order they finished.

    `live` holds the desk's live cubes by pair number: the pair being played takes its own,
    so its cube board counts an offer made before any game of the pair is recorded.
    `lost_on_time` is the player whose match reserve ran out after these games (RULES §10).
    `paper` is a final score typed from a paper scoresheet: the match has no games, and the
    score must be one its rules can end at (`domain/paper.py`)."""
    scorer = _Scorer(rules, team_names, live or {})
    if paper is not None:
        return scorer.from_paper(paper, games)
    return scorer.run(games, lost_on_time)


# outcomes remembered: every match of a 1,000-team night of 16 rounds (fewer than the
# matches listed would score every one each time: the least recently used goes first). About
# 6.6 kB each with its games (the 256-player knockout's 508 matches kept 3.4 MB): 54 MB at most
SCORED_KEPT = 8192


def scored(
    rules: MatchRules,
    games: tuple[Game, ...],
    team_names: tuple[str, str],
    live: tuple[tuple[int, LiveCubes], ...] = (),
    lost_on_time: Side | None = None,
    paper: Score | None = None,
) -> MatchOutcome:
    """`score_match`, remembered by its arguments (values, all of them compared): a listing
    of every match read again after one result scores only the match that changed (the
    Rounds page scored all 508 matches of a 256-player night on each refresh). Its lines
    carry the very Game objects of `games`, as score_match's do: the desk finds a game's line
    by identity."""
    first, outcome = _remembered(rules, games, team_names, live, lost_on_time, paper)
    if all(a is b for a, b in zip(first, games, strict=True)):
        return outcome
    place = {id(game): k for k, game in enumerate(first)}  # `first` is kept: ids are stable
    lines = tuple(replace(line, game=games[place[id(line.game)]]) for line in outcome.lines)
    return replace(outcome, lines=lines)


@lru_cache(maxsize=SCORED_KEPT)
def _remembered(
    rules: MatchRules,
    games: tuple[Game, ...],
    team_names: tuple[str, str],
    live: tuple[tuple[int, LiveCubes], ...],
    lost_on_time: Side | None,
    paper: Score | None,
) -> tuple[tuple[Game, ...], MatchOutcome]:
    return games, score_match(rules, games, team_names, dict(live), lost_on_time, paper)


class _Scorer:
    def __init__(
        self, rules: MatchRules, team_names: tuple[str, str], live: Mapping[int, LiveCubes]
    ) -> None:
        self.rules = rules
        self.live = live
        self.names = team_names
        self.score = Score()
        self.pips = Score()
        self.lines: list[GameLine] = []
        self.problems: list[Problem] = []
        self.state = self.with_live(first_pair(rules, team_names))
        self.flagged: Side | None = None

    def with_live(self, state: PairState) -> PairState:
        """A pair starts with the live cubes the desk keeps for it (none in a record)."""
        return replace(state, cubes=self.live.get(state.number, LiveCubes()))

    def run(self, games: Sequence[Game], lost_on_time: Side | None = None) -> MatchOutcome:
        for game in games:
            self.add(game)
        if lost_on_time is not None:
            self.flag(lost_on_time)
        if self.state.match_live and self.state.complete:
            self.state = self.with_live(self.state.next_pair(self.score, self.names))
        extra, final, result = self.adjusted()
        return MatchOutcome(
            rules=self.rules,
            lines=tuple(self.lines),
            score=self.score,
            pip_points=self.pips,
            extra=extra,
            final=final,
            result=result,
            problems=tuple(self.problems),
            pair_state=self.state,
            decided_by=self.state.decided,
            lost_on_time=self.flagged,
        )

    def from_paper(self, score: Score, games: Sequence[Game]) -> MatchOutcome:
        self.score = score
        if games:
            self.problems.append(Problem("a result from paper has no games: its games decide"))
        else:
            try:
                result = paper_result(self.rules, score)
            except PaperError as refusal:
                self.problems.append(Problem(f"the result from paper {score}: {refusal}"))
            else:
                self.state = replace(
                    self.state, decided=result, decided_at=score, final_result=result,
                    final_at=score,
                )  # fmt: skip
        return replace(self.run(()), from_paper=True)

    def flag(self, loser: Side) -> None:
        """RULES §10: a player whose match reserve runs out loses the match at once; the
        winner's score is raised to N, the loser's stays. (In Tandem a flag loses a game,
        rule 5: the game says so, the match does not.)"""
        fmt = self.rules.event_format
        if fmt.game_forfeit:
            self.problems.append(
                Problem(f"a flag loses a game in a {fmt.label} match, not the match (RULES §5)")
            )
            return
        if not self.state.match_live:
            self.problems.append(
                Problem(f"the match was already decided ({self.state.decided_text()})")
            )
            return
        winner = loser.other
        raised = max(self.score[winner], self.rules.match_length)
        self.score = self.score.plus(winner, raised - self.score[winner])
        self.state = replace(self.state, decided=Result(winner.value), decided_at=self.score)
        self.flagged = loser

    def add(self, game: Game) -> None:
        state = self.state
        if state.match_live and game.pair == state.number + 1 and state.complete:
            self.state = state = self.with_live(state.next_pair(self.score, self.names))
        found = state.problems_of(game)
        if found:
            self.problems += found
            if game.pair == state.number and state.board_live(game.board):
                # the board has had its game, even a wrong one: no second report about it
                self.state = replace(state, boards_done=state.boards_done | {game.board})
            return
        if state.abandons(game):
            self.state = state.with_game(game)
            self.lines.append(GameLine(game, 0, 0, False, self.score))
            return
        points = game_points(self.rules.scoring, game)
        pips = pip_points(self.rules.scoring, game)
        self.score = self.score.plus(game.winner, points)
        self.pips = self.pips.plus(game.winner, pips)
        crawford = state.cube_rule.crawford
        self.lines.append(GameLine(game, points, pips, True, self.score, crawford))
        self.state = state.with_game(game)
        self.decide(game)

    def decide(self, game: Game) -> None:
        n = self.rules.match_length
        decided = Result.UNFINISHED
        # rule 4′, or a one-board match (RULES §10): it ends the moment a game reaches N
        if self.rules.winner_required or not self.rules.event_format.pair_end_rules:
            if self.score[game.winner] >= n:
                decided = Result(game.winner.value)
        elif self.state.complete:  # rule 4: the other game of the pair is always played out
            reached = [side for side in Side if self.score[side] >= n]
            if len(reached) == 2:
                decided = Result.DRAW
            elif reached:
                decided = Result(reached[0].value)
        if decided is not Result.UNFINISHED:
            self.state = replace(self.state, decided=decided, decided_at=self.score)
            _, final, result = self.adjusted()  # no game after this one scores (RULES §6.3)
            self.state = replace(self.state, final_result=result, final_at=final)

    def adjusted(self) -> tuple[Score, Score, Result]:
        """RULES §6.3: pip points convert to extra game points once the match has ended."""
        decided = self.state.decided
        squeeze = self.rules.scoring.variant.squeeze
        # a match lost on time adds no extra game points, whatever the pip points (RULES §10)
        if decided is Result.UNFINISHED or squeeze is None or self.flagged is not None:
            return Score(), self.score, decided
        margin = self.pips.a - self.pips.b
        bonus = extra_game_points(self.rules.scoring, margin)
        extra = Score(bonus, 0) if margin > 0 else Score(0, bonus) if margin < 0 else Score()
        final = Score(self.score.a + extra.a, self.score.b + extra.b)
        if final.a > final.b:
            return extra, final, Result.A
        if final.b > final.a:
            return extra, final, Result.B
        return extra, final, decided
