"""A Tandem match from its games: the scoreline, pairs, the end of the match (RULES §3, §4, §6.3).

`score_match` reads the games in the order they finished and returns everything a desk, a
report or `replay` needs: each game's points and whether it counted, the running score, the
state of the pair being played, the result, and every rule a game broke.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from director.domain.cube import CubeRegime, PairCubeRule, pair_cube_rule
from director.domain.rules import MatchRules, Side
from director.domain.scoring import Game, extra_game_points, game_points, game_problems, pip_points


@dataclass(frozen=True)
class Score:
    a: int = 0
    b: int = 0

    def __getitem__(self, side: Side) -> int:
        return self.a if side is Side.A else self.b

    def plus(self, side: Side, n: int) -> Score:
        return Score(self.a + n, self.b) if side is Side.A else Score(self.a, self.b + n)

    def as_dict(self) -> dict[str, int]:
        return {"A": self.a, "B": self.b}

    def __str__(self) -> str:
        return f"{self.a}–{self.b}"


class Result(StrEnum):
    A = "A"
    B = "B"
    DRAW = "draw"
    UNFINISHED = "unfinished"


@dataclass(frozen=True)
class Problem:
    """A rule a game (or the record) breaks; pair and board name the game when there is one."""

    text: str
    pair: int | None = None
    board: int | None = None

    def __str__(self) -> str:
        if self.pair is None:
            return self.text
        return f"pair {self.pair}, board {self.board}: {self.text}"


@dataclass(frozen=True)
class GameLine:
    game: Game
    points: int  # 0 when the game did not count
    pip_points: int
    counted: bool  # False: abandoned under rule 4′
    score: Score  # the team score after this game


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
    current_pair: int  # the pair being played (or the last one, once the match is over)
    boards_done: frozenset[int]  # boards of the current pair whose game is recorded
    pair_start: Score  # the score when the current pair started
    cube_rule: PairCubeRule  # the cube rule of the current pair
    cube_board: int | None  # the board that used the cube in the current pair, if any
    decided_by: Result = field(default=Result.UNFINISHED)  # the result on game points alone

    @property
    def finished(self) -> bool:
        return self.result is not Result.UNFINISHED

    def away(self, side: Side) -> int:
        return max(0, self.rules.match_length - self.score[side])


def score_match(
    rules: MatchRules, games: Sequence[Game], team_names: tuple[str, str] = ("A", "B")
) -> MatchOutcome:
    """Score a match from its games in the order they finished."""
    return _Scorer(rules, team_names).run(games)


class _Scorer:
    def __init__(self, rules: MatchRules, team_names: tuple[str, str]) -> None:
        self.rules = rules
        self.names = team_names
        self.score = Score()
        self.pips = Score()
        self.lines: list[GameLine] = []
        self.problems: list[Problem] = []
        self.pair = 1
        self.boards_done: set[int] = set()
        self.pair_start = Score()
        self.cube_board: int | None = None
        self.decided: Result = Result.UNFINISHED

    def rule_now(self) -> PairCubeRule:
        return pair_cube_rule(self.rules, self.pair_start.a, self.pair_start.b, self.names)

    def run(self, games: Sequence[Game]) -> MatchOutcome:
        for game in games:
            self.add(game)
        if self.decided is Result.UNFINISHED and len(self.boards_done) == 2:
            self.start_next_pair()
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
            current_pair=self.pair,
            boards_done=frozenset(self.boards_done),
            pair_start=self.pair_start,
            cube_rule=self.rule_now(),
            cube_board=self.cube_board,
            decided_by=self.decided,
        )

    def problem(self, game: Game, text: str) -> None:
        self.problems.append(Problem(text, game.pair, game.board))

    def add(self, game: Game) -> None:
        if self.decided is not Result.UNFINISHED:
            self.add_after_decision(game)
            return
        if game.pair == self.pair + 1 and len(self.boards_done) == 2:
            self.start_next_pair()
        if game.pair != self.pair:
            self.problem(
                game,
                f"pair {game.pair} cannot follow pair {self.pair}: pairs are played in order "
                "and a pair starts only when both games of the one before are recorded",
            )
            return
        if game.board in self.boards_done:
            self.problem(game, f"board {game.board} already has a game in pair {game.pair}")
            return
        self.boards_done.add(game.board)
        field_problems = game_problems(self.rules.scoring, game)
        if field_problems:
            for text in field_problems:
                self.problem(game, text)
            return
        self.check_cube(game)
        points = game_points(self.rules.scoring, game)
        pips = pip_points(self.rules.scoring, game)
        self.score = self.score.plus(game.winner, points)
        self.pips = self.pips.plus(game.winner, pips)
        self.lines.append(GameLine(game, points, pips, True, self.score))
        self.decide(game)

    def add_after_decision(self, game: Game) -> None:
        abandoned = (
            self.rules.winner_required
            and game.pair == self.pair
            and game.board in (1, 2)
            and game.board not in self.boards_done
        )
        if not abandoned:
            self.problem(game, f"the match was already decided ({self.decided_text()})")
            return
        self.boards_done.add(game.board)
        for text in game_problems(self.rules.scoring, game):
            self.problem(game, text)
        self.lines.append(GameLine(game, 0, 0, False, self.score))

    def decided_text(self) -> str:
        if self.decided is Result.DRAW:
            return f"a draw at {self.score}"
        name = self.names[0] if self.decided is Result.A else self.names[1]
        return f"team {name} won at {self.score}"

    def check_cube(self, game: Game) -> None:
        if not game.used_cube:
            return
        rule = self.rule_now()
        at = f"the pair started at {self.pair_start}"
        if rule.regime is CubeRegime.NO_CUBE:
            self.problem(game, f"the cube was used but {rule.reason} ({at}; RULES §4)")
        elif rule.regime is CubeRegime.ONE_CUBE and self.cube_board not in (None, game.board):
            self.problem(
                game,
                f"both boards (1 and 2) used the cube in one-cube pair {game.pair}: "
                f"{rule.reason}, {at} (RULES §4)",
            )
        if self.cube_board is None:
            self.cube_board = game.board

    def decide(self, game: Game) -> None:
        n = self.rules.match_length
        if self.rules.winner_required:
            if self.score[game.winner] >= n:
                self.decided = Result(game.winner.value)
            return
        if len(self.boards_done) < 2:
            return  # rule 4: the other game of the pair is always played out
        reached = [side for side in Side if self.score[side] >= n]
        if len(reached) == 2:
            self.decided = Result.DRAW
        elif reached:
            self.decided = Result(reached[0].value)

    def start_next_pair(self) -> None:
        self.pair += 1
        self.boards_done = set()
        self.pair_start = self.score
        self.cube_board = None

    def adjusted(self) -> tuple[Score, Score, Result]:
        """RULES §6.3: pip points convert to extra game points once the match has ended."""
        if self.decided is Result.UNFINISHED or not self.rules.scoring.is_pip_squeeze:
            return Score(), self.score, self.decided
        margin = self.pips.a - self.pips.b
        bonus = extra_game_points(self.rules.scoring, margin)
        extra = Score(bonus, 0) if margin > 0 else Score(0, bonus) if margin < 0 else Score()
        final = Score(self.score.a + extra.a, self.score.b + extra.b)
        if final.a > final.b:
            return extra, final, Result.A
        if final.b > final.a:
            return extra, final, Result.B
        return extra, final, self.decided
