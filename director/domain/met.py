"""The Tandem match equity table under the rule book's stated model (RULES §9).

Model: each game is won by either side with probability ½; a win is a gammon with probability
g, a backgammon with probability b, otherwise a single. In every pair one game is played on a
2-cube and the other on a 1-cube. The pair's two results are added; a pair after which both
teams have reached their target is a draw, counted as half a win (rule 4).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import cache

from director.domain.errors import UserError

DEFAULT_GAMMON_RATE = 0.28
DEFAULT_BACKGAMMON_RATE = 0.0
DEFAULT_SIZE = 6
MAX_SIZE = 64


class MetError(UserError):
    """Parameters outside the model."""


@dataclass(frozen=True)
class MetParameters:
    gammon_rate: float = DEFAULT_GAMMON_RATE
    backgammon_rate: float = DEFAULT_BACKGAMMON_RATE
    size: int = DEFAULT_SIZE

    def check(self) -> None:
        if not 0.0 <= self.gammon_rate <= 1.0:
            raise MetError("the gammon rate must be between 0 and 1")
        if not 0.0 <= self.backgammon_rate <= 1.0:
            raise MetError("the backgammon rate must be between 0 and 1")
        if self.gammon_rate + self.backgammon_rate > 1.0:
            raise MetError("gammon rate + backgammon rate cannot exceed 1")
        if not 1 <= self.size <= MAX_SIZE:
            raise MetError(f"the table size must be from 1 to {MAX_SIZE}")

    def model_text(self, on: date | None = None) -> str:
        day = (on or date.today()).isoformat()
        return (
            "Model: every game is won by either side with probability 1/2; "
            f"gammon rate g = {self.gammon_rate:g}, backgammon rate b = {self.backgammon_rate:g}; "
            "in every pair one game is played on a 2-cube and the other on a 1-cube; "
            "a pair after which both teams reach their target is a draw, counted as half a win. "
            f"Entry (i, j): chance that the team needing i points wins against a team needing j. "
            f"Computed {day}."
        )


def _pair_outcomes(g: float, b: float) -> list[tuple[int, int, float]]:
    """(points to us, points to them, probability) for one pair: a 2-cube game and a 1-cube game."""
    single = 1.0 - g - b
    levels = [(lvl, p) for lvl, p in ((1, single), (2, g), (3, b)) if p > 0.0]
    per_game: dict[int, list[tuple[int, int, float]]] = {}
    for cube in (2, 1):
        outcomes = []
        for lvl, p in levels:
            outcomes.append((cube * lvl, 0, 0.5 * p))
            outcomes.append((0, cube * lvl, 0.5 * p))
        per_game[cube] = outcomes
    merged: dict[tuple[int, int], float] = {}
    for us1, them1, p1 in per_game[2]:
        for us2, them2, p2 in per_game[1]:
            key = (us1 + us2, them1 + them2)
            merged[key] = merged.get(key, 0.0) + p1 * p2
    return [(us, them, p) for (us, them), p in sorted(merged.items())]


def match_equity_table(params: MetParameters) -> list[list[float]]:
    """table[i-1][j-1] = equity of the team needing i against the team needing j."""
    params.check()
    outcomes = _pair_outcomes(params.gammon_rate, params.backgammon_rate)

    @cache
    def equity(i: int, j: int) -> float:
        total = 0.0
        for us, them, p in outcomes:
            ni, nj = i - us, j - them
            if ni <= 0 and nj <= 0:
                total += 0.5 * p
            elif ni <= 0:
                total += p
            elif nj > 0:
                total += p * equity(ni, nj)
        return total

    n = params.size
    # Fill from small needs upward so the recursion never runs deep.
    for total_need in range(2, 2 * n + 1):
        for i in range(max(1, total_need - n), min(n, total_need - 1) + 1):
            equity(i, total_need - i)
    return [[equity(i, j) for j in range(1, n + 1)] for i in range(1, n + 1)]


def equity_at(params: MetParameters, need_us: int, need_them: int) -> float:
    """The equity of one score, for the match desk (needs above the table size are computed)."""
    size = max(params.size, need_us, need_them)
    table = match_equity_table(MetParameters(params.gammon_rate, params.backgammon_rate, size))
    return table[need_us - 1][need_them - 1]


def equity_with_one_game_left(
    params: MetParameters, need_us: int, need_them: int, cube: int
) -> float:
    """The equity in the middle of a pair, under the same model: one game of the pair is left,
    played on `cube`. A need of 0 or less is a team that reached its target in the pair's
    recorded game (rule 4: it has not won yet). Once the game is over, the pair decides: a win,
    a draw counted ½, or the next pair at the table's entry."""
    params.check()
    single = 1.0 - params.gammon_rate - params.backgammon_rate
    total = 0.0
    for level, p in ((1, single), (2, params.gammon_rate), (3, params.backgammon_rate)):
        for us, them in ((cube * level, 0), (0, cube * level)):
            i, j = need_us - us, need_them - them
            if i <= 0 and j <= 0:
                total += 0.5 * p * 0.5
            elif i <= 0:
                total += 0.5 * p
            elif j > 0:
                total += 0.5 * p * equity_at(params, i, j)
    return total
