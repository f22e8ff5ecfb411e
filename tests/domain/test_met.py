"""RULES §9: the Tandem match equity table under the stated model."""

from __future__ import annotations

import math

import pytest

from director.domain.met import MetError, MetParameters, equity_at, match_equity_table


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
