"""The doubling cube of one board, and the one-cube rule of a pair (RULES §2, §4).

`pair_cube_rule` decides, from the score when a pair starts, which boards may double;
`board_may_double` answers for one board at one moment, with the reason the UI shows.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

from director.domain.errors import UserError
from director.domain.rules import MAX_CUBE, MatchRules, Side


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


@dataclass(frozen=True)
class LiveCubes:
    """The live cube of each board of the pair being played (kept by the desk while the games
    are on). An offer withdrawn as a mis-click leaves no trace here: it never happened."""

    board1: Cube = field(default_factory=Cube)
    board2: Cube = field(default_factory=Cube)

    def of(self, board: int) -> Cube:
        return self.board1 if board == 1 else self.board2

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
