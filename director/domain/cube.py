"""The doubling cube of one board, the one-cube rule of a pair and the Crawford rule of a game
(RULES §2, §4, §10).

`pair_cube_rule` decides, from the score when a pair starts, which boards may double;
`crawford_cube_rule` decides it for a game of a one-board match, from the score it starts at
and whether the match's Crawford game was already played; `unit_cube_rule` asks the match's
format which of the two applies. `board_may_double` answers for one board at one moment, with
the reason the UI shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum

from director.domain.boards import ByBoard
from director.domain.errors import UserError
from director.domain.rules import ALL_BOARDS, MAX_CUBE, CubeRule, MatchRules, Side


class CubeError(UserError):
    """A cube action the rules do not allow at this moment."""


@dataclass(frozen=True)
class Cube:
    """One board's cube: its value, its owner (None while centred) and a pending offer."""

    value: int = 1
    owner: Side | None = None
    offered_by: Side | None = None

    def may_offer(self, side: Side) -> bool:
        """The owner (anyone while centred) may offer the next value, up to 64."""
        return (
            self.offered_by is None
            and self.value < MAX_CUBE
            and (self.owner is None or self.owner is side)
        )

    def offer(self, side: Side) -> Cube:
        if self.offered_by is not None:
            raise CubeError("a double is already on offer")
        if self.value >= MAX_CUBE:
            raise CubeError(f"the cube is at {MAX_CUBE}, it cannot go higher")
        if self.owner is not None and self.owner is not side:
            raise CubeError(f"team {self.owner} owns the cube; only they may double")
        return replace(self, offered_by=side)

    def take(self) -> Cube:
        """The take doubles the value and gives ownership to the taker."""
        if self.offered_by is None:
            raise CubeError("no double is on offer")
        return Cube(value=self.value * 2, owner=self.offered_by.other, offered_by=None)

    def passed(self) -> tuple[Side, int]:
        """A pass ends the game: the doubler wins the value before the offer."""
        if self.offered_by is None:
            raise CubeError("no double is on offer")
        return self.offered_by, self.value

    def withdraw(self) -> Cube:
        """Undo a pending offer (a mis-click at the desk, not a rule of play)."""
        return replace(self, offered_by=None)


def _fresh_cubes() -> ByBoard[Cube]:
    return ByBoard.each(ALL_BOARDS, lambda _: Cube())


@dataclass(frozen=True)
class LiveCubes:
    """The live cube of each board of the pair being played (kept by the desk while the games
    are on), by board. An offer withdrawn as a mis-click leaves no trace here: it never
    happened."""

    cubes: ByBoard[Cube] = field(default_factory=_fresh_cubes)

    @classmethod
    def at(cls, cubes: Mapping[int, Cube]) -> LiveCubes:
        """Fresh cubes on every board but those given."""
        live = cls()
        for board, cube in cubes.items():
            live = live.with_board(board, cube)
        return live

    def of(self, board: int) -> Cube:
        """The cube of `board`; a board no format has is refused, not read as another."""
        try:
            return self.cubes[board]
        except KeyError:
            raise CubeError(f"there is no board {board}") from None

    def with_board(self, board: int, cube: Cube) -> LiveCubes:
        """These cubes with `board`'s replaced."""
        try:
            return LiveCubes(self.cubes.replaced(board, cube))
        except KeyError:
            raise CubeError(f"there is no board {board}") from None

    def sent(self, board: int) -> bool:
        """A double was offered on this board in this pair (on offer now, or taken)."""
        cube = self.of(board)
        return cube.value > 1 or cube.offered_by is not None


class CubeRegime(StrEnum):
    FREE = "free"  # both boards may double
    ONE_CUBE = "one-cube"  # only the first board to double may use the cube
    NO_CUBE = "no-cube"  # nobody may double in this pair


@dataclass(frozen=True)
class PairCubeRule:
    regime: CubeRegime
    reason: str
    crawford: bool = False  # RULES §10: this game is the match's Crawford game
    post_crawford: bool = False  # RULES §10: the Crawford game was played before this game


def away(match_length: int, points: int) -> int:
    return match_length - points


def pair_cube_rule(
    rules: MatchRules, score_a: int, score_b: int, team_names: tuple[str, str] = ("A", "B")
) -> PairCubeRule:
    """How the cube works in a pair that starts at this score (RULES §4).

    Teams are told apart by side, never by name (RULES §2): the names only word the reason.
    """
    variant = rules.scoring.variant
    if not variant.has_cube:
        return PairCubeRule(CubeRegime.NO_CUBE, f"{variant.label} has no doubling cube")
    if rules.match_length == 1:
        return PairCubeRule(CubeRegime.NO_CUBE, "a match to 1 point has no doubling")
    aways = {
        side: away(rules.match_length, score)
        for side, score in zip(Side, (score_a, score_b), strict=True)
    }
    name = dict(zip(Side, team_names, strict=True))
    if rules.no_cube_at_one_away:
        one_away = {side: a for side, a in aways.items() if a == 1}
        if one_away:
            return PairCubeRule(
                CubeRegime.NO_CUBE,
                f"no cube at 1-away: {_who(one_away, name)}, neither board may double",
            )
    close = {side: a for side, a in aways.items() if 1 <= a <= rules.one_cube_threshold}
    if close:
        return PairCubeRule(CubeRegime.ONE_CUBE, f"one-cube pair: {_who(close, name)}")
    return PairCubeRule(CubeRegime.FREE, "both boards may double")


def is_crawford_game(rules: MatchRules, score_a: int, score_b: int, played: bool) -> bool:
    """RULES §10: the game that starts right after a player first reaches N − 1, in a match to
    N ≥ 2; `played` says whether an earlier game of the match was the Crawford game."""
    n = rules.match_length
    return n >= 2 and not played and max(score_a, score_b) == n - 1


def crawford_cube_rule(
    rules: MatchRules,
    score_a: int,
    score_b: int,
    names: tuple[str, str] = ("A", "B"),
    *,
    played: bool = False,
) -> PairCubeRule:
    """How the cube works in a game of a one-board match that starts at this score, given
    whether the match's Crawford game was already played (RULES §10). The Crawford game and
    everything after it are derived from the games, so undoing one re-derives them."""
    variant = rules.scoring.variant
    post = played and rules.match_length >= 2
    if not variant.has_cube:
        return PairCubeRule(
            CubeRegime.NO_CUBE, f"{variant.label} has no doubling cube", post_crawford=post
        )
    if rules.match_length == 1:
        return PairCubeRule(CubeRegime.NO_CUBE, "a match to 1 point has no doubling")
    if is_crawford_game(rules, score_a, score_b, played):
        name = dict(zip(Side, names, strict=True))
        one_away = [
            side
            for side, s in zip(Side, (score_a, score_b), strict=True)
            if s == rules.match_length - 1
        ]
        return PairCubeRule(
            CubeRegime.NO_CUBE, f"Crawford game: {name[one_away[0]]} is 1-away", crawford=True
        )
    if post:
        return PairCubeRule(
            CubeRegime.FREE, "post-Crawford: either player may double", post_crawford=True
        )
    return PairCubeRule(CubeRegime.FREE, "either player may double")


def unit_cube_rule(
    rules: MatchRules,
    score_a: int,
    score_b: int,
    names: tuple[str, str] = ("A", "B"),
    *,
    crawford_played: bool = False,
) -> PairCubeRule:
    """The cube rule of the next pair or game of a match, as its format's record says."""
    if rules.event_format.cube_rule is CubeRule.CRAWFORD:
        return crawford_cube_rule(rules, score_a, score_b, names, played=crawford_played)
    return pair_cube_rule(rules, score_a, score_b, names)


def _who(aways: dict[Side, int], name: dict[Side, str]) -> str:
    """Every team that makes the rule, closest first: 'team X is 2-away', 'both teams are
    1-away' or 'team X is 1-away, team Y 2-away'."""
    if len(aways) == 2 and len(set(aways.values())) == 1:
        return f"both teams are {aways[Side.A]}-away"
    (first, a), *rest = sorted(aways.items(), key=lambda item: item[1])
    return ", ".join(
        [f"team {name[first]} is {a}-away", *(f"team {name[s]} {b}-away" for s, b in rest)]
    )


def board_may_double(rule: PairCubeRule, board: int, cube_board: int | None) -> tuple[bool, str]:
    """May `board` send the cube now, given the pair's rule and its cube board so far?"""
    if rule.regime is CubeRegime.NO_CUBE:
        return False, rule.reason
    if rule.regime is CubeRegime.ONE_CUBE:
        if cube_board is None:
            return True, f"{rule.reason}; the first board to double takes the cube"
        if cube_board != board:
            return False, f"{rule.reason}; the cube is on board {cube_board}, dead here"
        return True, f"{rule.reason}; the cube is on board {cube_board}"
    return True, rule.reason
