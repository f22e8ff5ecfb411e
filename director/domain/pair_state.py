"""The state of the pair being played: the one place that answers the desk's questions.

`score_match` builds a `PairState` for every pair as it reads the games and keeps the last one
on its outcome (`outcome.pair_state`). It knows the pair's cube regime (RULES §4), its cube
board, derived from the recorded games and the live offers (a withdrawn offer never happened),
whether each board and the match are still live, and the problems a proposed game would
break, in the words `replay`, `import-match`, the services and the desk all show.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import NamedTuple

from director.domain.cube import (
    CubeRegime,
    LiveCubes,
    PairCubeRule,
    board_may_double,
    unit_cube_rule,
)
from director.domain.rules import ALL_BOARDS, End, EventFormat, MatchRules, Side
from director.domain.score import Problem, Result, Score
from director.domain.scoring import Game, game_problems, required_fields


class Permission(NamedTuple):
    """An answer the desk shows: allowed or not, and why."""

    allowed: bool
    reason: str


@dataclass(frozen=True)
class PairState:
    """One pair of a match at one moment: its number, the score it started at, its cube rule,
    the boards whose game is recorded, the board that used the cube, and whether the match
    was decided (on game points; rule 4′ may still take the abandoned game)."""

    rules: MatchRules
    names: tuple[str, str]
    number: int = 1
    start: Score = field(default_factory=Score)
    cube_rule: PairCubeRule = field(
        default_factory=lambda: PairCubeRule(CubeRegime.FREE, "both boards may double")
    )
    boards_done: frozenset[int] = frozenset()
    games_cube_board: int | None = None  # the first recorded game of the pair that used the cube
    cubes: LiveCubes = field(default_factory=LiveCubes)
    decided: Result = Result.UNFINISHED
    decided_at: Score = field(default_factory=Score)
    # RULES §6.3: once decided, the result and score on the adjusted totals (a pip squeeze
    # may turn a draw into a win); what a message names
    final_result: Result = Result.UNFINISHED
    final_at: Score = field(default_factory=Score)
    crawford_played: bool = False  # RULES §10: an earlier game of the match was the Crawford game

    # -- what the desk asks --------------------------------------------------------------

    @property
    def event_format(self) -> EventFormat:
        return self.rules.event_format

    @property
    def boards(self) -> tuple[int, ...]:
        """The boards of this match's format (RULES §1, §10)."""
        return self.event_format.boards

    @property
    def regime(self) -> CubeRegime:
        return self.cube_rule.regime

    @property
    def cube_board(self) -> int | None:
        """RULES §4: the first board of the pair on which a double was sent, derived from its
        recorded games, then from the live cubes of the boards still being played."""
        if self.games_cube_board is not None:
            return self.games_cube_board
        live = [b for b in self.boards if b not in self.boards_done and self.cubes.sent(b)]
        return live[0] if live else None

    @property
    def match_live(self) -> bool:
        """The match is still being played: no result on game points yet."""
        return self.decided is Result.UNFINISHED

    def board_live(self, board: int) -> bool:
        """This board's game of the pair is being played (not recorded, match not over)."""
        return self.match_live and board in self.boards and board not in self.boards_done

    def game_left(self) -> tuple[int, int] | None:
        """(board, cube) of the pair's one game still to play once another board's game is
        recorded, on RULES §9's model: the 2-cube game unless the recorded game used the cube,
        or the live cube's value once turned. None at a pair's start or after the match."""
        left = [b for b in self.boards if b not in self.boards_done]
        if not self.boards_done or len(left) != 1 or not self.match_live:
            return None
        model = 1 if self.games_cube_board is not None else 2
        return left[0], max(model, self.cubes.of(left[0]).value)

    def may_double(self, board: int) -> Permission:
        """RULES §4 live: may this board send the cube now, and why (not)."""
        if not self.match_live:
            return Permission(False, "the match is over")
        if board in self.boards_done:
            return Permission(False, f"board {board}'s game of this pair is recorded")
        allowed, reason = board_may_double(self.cube_rule, board, self.cube_board)
        return Permission(allowed, reason)

    @property
    def crawford_label(self) -> str:
        """RULES §10, the scoreline's word for the game being played: 'Crawford',
        'post-Crawford', or '' (before the Crawford game, or a format without it)."""
        if self.cube_rule.crawford:
            return "Crawford"
        return "post-Crawford" if self.cube_rule.post_crawford else ""

    def cube_text(self) -> str:
        """The pair's cube rule in words, with where the cube is, e.g. 'one-cube pair: team B
        is 2-away; the cube is on board 1'."""
        board = self.cube_board
        return board_may_double(self.cube_rule, board or 1, board)[1]

    def pass_game(self, board: int) -> Game:
        """The game a pass on this board ends: the doubler wins the cube value before the
        offer (RULES §2). Raises CubeError when no double is on offer."""
        winner, value = self.cubes.of(board).passed()
        return Game(pair=self.number, board=board, winner=winner, end=End.PASS, cube=value)

    def time_forfeit(self, board: int, flagged: Side) -> Game:
        """RULES §5's proposal when `flagged`'s time ran out on `board`: the opponent wins by
        time on the board's live cube (no cube: 1), nobody borne off yet (the clock's entry
        asks), so the scorer gives the most the game could still give."""
        scoring = self.rules.scoring
        return Game(
            pair=self.number,
            board=board,
            winner=flagged.other,
            end=End.TIME,
            cube=self.cubes.of(board).value if scoring.variant.has_cube else 1,
            loser_borne_off=0 if "loser_borne_off" in required_fields(scoring, End.TIME) else None,
        )

    def decided_text(self) -> str:
        """The result as the match's score gives it: the adjusted totals (RULES §6.3)."""
        result, at = self.final_result, self.final_at
        if result is Result.UNFINISHED:  # a state not made by the scorer: game points
            result, at = self.decided, self.decided_at
        if result is Result.DRAW:
            return f"a draw at {at}"
        name = self.names[0] if result is Result.A else self.names[1]
        return f"{self.event_format.entrant} {name} won at {at}"

    def abandons(self, game: Game) -> bool:
        """Rule 4′: the other game of the deciding pair, recorded after the match ended; it
        scores nothing but is checked like any game (RULES §4)."""
        return (
            self.decided is not Result.UNFINISHED
            and self.rules.winner_required
            and game.pair == self.number
            and game.board in self.boards
            and game.board not in self.boards_done
        )

    def problems_of(self, game: Game) -> list[Problem]:
        """Every rule the game breaks if it is the next one recorded in this match, each
        naming the game (pair and board).

        The scorer asks this of every game it reads, so a record, an import and the desk are
        refused in the same words."""
        place = self.event_format.where(game.pair, game.board)
        return [Problem(text, game.pair, game.board, place) for text in self._problem_texts(game)]

    def refusal(self, game: Game) -> str:
        """The problems of `game` as one message ('' when it may be recorded)."""
        return "; ".join(str(p) for p in self.problems_of(game))

    def _problem_texts(self, game: Game) -> list[str]:
        if game.pair < 1 or game.board not in ALL_BOARDS:  # no pair or board to place it in
            return [*game_problems(self.rules.scoring, game)]
        if not self.match_live and not self.abandons(game):
            return [f"the match was already decided ({self.decided_text()})"]
        fmt = self.event_format
        if game.board in ALL_BOARDS and game.board not in self.boards:
            boards = " or ".join(str(b) for b in self.boards)
            return [
                f"board {game.board} is not a board of this match "
                f"(board {boards}; RULES {fmt.section})"
            ]
        if fmt.one_board and game.pair != self.number:
            return [
                f"game {game.pair} cannot follow game {self.number}: games are numbered in the "
                "order they are played"
            ]
        if game.pair != self.number:
            return [
                f"pair {game.pair} cannot follow pair {self.number}: pairs are played in order "
                "and a pair starts only when both games of the one before are recorded"
            ]
        if game.board in self.boards_done:
            return [f"board {game.board} already has a game in pair {game.pair}"]
        out: list[str] = [*game_problems(self.rules.scoring, game)]
        if game.end is End.TIME and not fmt.game_forfeit:
            out.append(
                "a flag loses the match, not the game: no game of this match ends on time "
                f"(RULES {fmt.section})"
            )
        if game.agreed_level is not None and not self.rules.agreed_lower_forfeit:
            out.append("this event does not apply rule 5′: an agreed level is refused (RULES §5)")
        return out or self.cube_problems(game)

    def cube_problems(self, game: Game) -> list[str]:
        if not game.used_cube:
            return []
        at = f"the {self.event_format.unit} started at {self.start}"
        if self.cube_rule.crawford:
            return [
                f"the cube was used in the {self.cube_rule.reason} ({at}; "
                f"RULES {self.event_format.section})"
            ]
        if self.regime is CubeRegime.NO_CUBE:
            return [f"the cube was used but {self.cube_rule.reason} ({at}; RULES §4)"]
        board = self.cube_board
        if self.regime is CubeRegime.ONE_CUBE and board not in (None, game.board):
            return [
                f"both boards (1 and 2) used the cube in one-cube pair {game.pair}: "
                f"{self.cube_rule.reason}, {at}; the cube is on board {board}, dead here "
                "(RULES §4)"
            ]
        return []

    # -- how the scorer moves it on ---------------------------------------------------------

    def with_game(self, game: Game) -> PairState:
        """The state once this (valid) game is recorded."""
        board = self.games_cube_board
        if board is None and game.used_cube and self.rules.scoring.variant.has_cube:
            board = game.board
        return replace(self, boards_done=self.boards_done | {game.board}, games_cube_board=board)

    def next_pair(self, score: Score, names: tuple[str, str]) -> PairState:
        return PairState(
            rules=self.rules,
            names=names,
            number=self.number + 1,
            start=score,
            cube_rule=unit_cube_rule(
                self.rules, score.a, score.b, names, crawford_played=self.crawford_played_after
            ),
            crawford_played=self.crawford_played_after,
        )

    @property
    def crawford_played_after(self) -> bool:
        """RULES §10: once this pair or game is over, has the match had its Crawford game?"""
        return self.crawford_played or self.cube_rule.crawford

    @property
    def complete(self) -> bool:
        return len(self.boards_done) == len(self.boards)


def first_pair(rules: MatchRules, names: tuple[str, str]) -> PairState:
    return PairState(rules, names, cube_rule=unit_cube_rule(rules, 0, 0, names))
