"""RULES §9: the Tandem match equity table under the stated model."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from director.domain.met import (
    MetError,
    MetParameters,
    equity_at,
    equity_with_one_game_left,
    match_equity_table,
)


def test_rules_9_worked_1_away_1_away_is_even() -> None:
    # both need 1: A wins both games (1/4), split = both reach = draw (1/2 x 1/2), B both (0)
    assert match_equity_table(MetParameters(size=1)) == [[0.5]]


def test_rules_9_worked_1_away_2_away_by_hand() -> None:
    # need 1 v need 2, g = 0.28, b = 0. Pair: a 2-cube game and a 1-cube game.
    # We win the 2-cube game (1/2): we reach; they reach only if they win the 1-cube game with
    # a gammon (2 points): 1/2 x 0.28 -> draw. So 1/2 x (1 - 0.14 + 0.14 x 1/2) = 0.465.
    # We lose the 2-cube game (1/2): they reach; we reach if we win the 1-cube game: draw 1/2.
    # So 1/2 x 1/2 x 1/2 = 0.125. Total 0.59.
    table = match_equity_table(MetParameters(size=2))
    assert math.isclose(table[0][1], 0.59, abs_tol=1e-12)
    assert math.isclose(table[1][0], 0.41, abs_tol=1e-12)


def test_rules_9_symmetry_entries_sum_to_one() -> None:
    table = match_equity_table(MetParameters(gammon_rate=0.2, backgammon_rate=0.05, size=8))
    for i in range(8):
        assert math.isclose(table[i][i], 0.5, abs_tol=1e-12)
        for j in range(8):
            assert math.isclose(table[i][j] + table[j][i], 1.0, abs_tol=1e-12)


def test_rules_9_needing_fewer_points_is_never_worse() -> None:
    table = match_equity_table(MetParameters(size=10))
    for i in range(10):
        for j in range(9):
            assert table[i][j] <= table[i][j + 1] + 1e-12
            assert table[j + 1][i] <= table[j][i] + 1e-12


@pytest.mark.parametrize(
    "params",
    [MetParameters(gammon_rate=1.2), MetParameters(0.7, 0.5), MetParameters(size=0)],
)
def test_rules_9_parameters_outside_the_model_are_refused(params: MetParameters) -> None:
    with pytest.raises(MetError):
        match_equity_table(params)


def test_equity_at_beyond_the_table_size() -> None:
    assert math.isclose(equity_at(MetParameters(size=6), 9, 9), 0.5, abs_tol=1e-12)


def test_model_text_states_the_parameters_and_date() -> None:
    import datetime

    text = MetParameters(0.3, 0.01, 6).model_text(datetime.date(2026, 12, 1))
    assert "g = 0.3" in text and "b = 0.01" in text and "2026-12-01" in text


def _reference_table(g: Fraction, b: Fraction, size: int) -> list[list[Fraction]]:
    """An independent reference for RULES §9, in exact fractions and by another method: the
    chance of every score after k pairs, carried forward until every path has ended.

    The rule book gives no printed table, so this small reference implementation stands in
    for one: it shares no code with `director.domain.met` (no recursion, no float)."""
    half = Fraction(1, 2)
    levels = [(1, 1 - g - b), (2, g), (3, b)]
    game = {cube: [(side, cube * lvl, half * p) for side in (0, 1) for lvl, p in levels if p]
            for cube in (1, 2)}  # fmt: skip
    table = []
    for i in range(1, size + 1):
        row = []
        for j in range(1, size + 1):
            alive = {(i, j): Fraction(1)}
            equity = Fraction(0)
            while alive:
                after: dict[tuple[int, int], Fraction] = {}
                for (ni, nj), p in alive.items():
                    for s1, pts1, p1 in game[2]:
                        for s2, pts2, p2 in game[1]:
                            us = (pts1 if s1 == 0 else 0) + (pts2 if s2 == 0 else 0)
                            them = (pts1 if s1 == 1 else 0) + (pts2 if s2 == 1 else 0)
                            mi, mj, q = ni - us, nj - them, p * p1 * p2
                            if mi <= 0:
                                equity += q if mj > 0 else q / 2
                            elif mj > 0:
                                after[(mi, mj)] = after.get((mi, mj), Fraction(0)) + q
                alive = after
            row.append(equity)
        table.append(row)
    return table


def test_rules_9_every_value_of_the_default_6_by_6_table() -> None:
    """All 36 entries at the defaults (g = 0.28, b = 0) against the exact reference."""
    table = match_equity_table(MetParameters())
    reference = _reference_table(Fraction(28, 100), Fraction(0), 6)
    assert len(table) == 6 and all(len(row) == 6 for row in table)
    for i in range(6):
        for j in range(6):
            assert math.isclose(table[i][j], float(reference[i][j]), abs_tol=1e-12), (i + 1, j + 1)


def test_rules_9_every_value_with_backgammons_too() -> None:
    table = match_equity_table(MetParameters(gammon_rate=0.2, backgammon_rate=0.05, size=5))
    reference = _reference_table(Fraction(1, 5), Fraction(1, 20), 5)
    for i in range(5):
        for j in range(5):
            assert math.isclose(table[i][j], float(reference[i][j]), abs_tol=1e-12), (i + 1, j + 1)


def test_rules_9_exact_value_with_b_above_0_by_hand() -> None:
    # need 1 v need 3. Win the 2-cube game (1/2): we reach; they draw only with a backgammon on
    # the 1-cube game (1/2 x b): 1/2 (1 - b/4). Lose it (1/2): a single leaves them 1 short, and
    # the 1-cube game decides (1/2); a gammon or backgammon reaches 3, and we draw only by
    # winning the 1-cube game: 1/2 ((1 - g - b)/2 + (g + b)/4). Sum: 3/4 - g/8 - b/4.
    g, b = 0.2, 0.1
    table = match_equity_table(MetParameters(gammon_rate=g, backgammon_rate=b, size=3))
    assert math.isclose(table[0][2], 3 / 4 - g / 8 - b / 4, abs_tol=1e-12)  # 0.7
    assert math.isclose(table[0][2], 0.7, abs_tol=1e-12)


def test_rules_9_a_team_at_n_with_a_2_cube_game_left_wins_or_draws() -> None:
    """Team A reached N on the pair's 1-cube game; board 2's game, on the 2-cube, decides only
    between A's win and a draw (rule 4): B wins it half the time, and any win of B's takes B
    to N. The table's "1-away v 2-away" (59 %) is not this state."""
    params = MetParameters()
    assert equity_with_one_game_left(params, 0, 2, cube=2) == pytest.approx(0.75)
    # on a 1-cube only B's gammon (0.5 × 0.28) draws
    assert equity_with_one_game_left(params, -1, 2, cube=1) == pytest.approx(1 - 0.14 / 2)
    assert equity_with_one_game_left(params, 0, 0, cube=1) == 0.5  # both at N: a draw


def test_rules_9_a_pair_is_its_first_game_then_the_game_left() -> None:
    """The table's entry at a pair's start is the chance after its 2-cube game averaged over
    that game's outcomes, with the 1-cube game left (and the other way round)."""
    params = MetParameters(gammon_rate=0.3, backgammon_rate=0.05, size=6)
    table = match_equity_table(params)
    levels = ((1, 0.65), (2, 0.3), (3, 0.05))
    for i in range(1, 7):
        for j in range(1, 7):
            for first, left in ((2, 1), (1, 2)):
                after = sum(
                    0.5 * p * equity_with_one_game_left(params, i - us, j - them, cube=left)
                    for level, p in levels
                    for us, them in ((first * level, 0), (0, first * level))
                )
                assert after == pytest.approx(table[i - 1][j - 1], abs=1e-12)
