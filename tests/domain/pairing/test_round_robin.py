"""Round robin: FIDE Berger tables (RULES §8)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from director.domain.pairing.model import TeamEntry
from director.domain.pairing.round_robin import (
    berger_table,
    pair_round_robin,
    round_robin_rounds,
    round_robin_schedule,
)
from tests.domain.pairing.pairing_helpers import changed, make_teams, pairs_of

FIDE_BERGER_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]


def test_berger_table_for_six_is_fides() -> None:
    assert berger_table(6) == FIDE_BERGER_6


def test_berger_table_for_four_and_an_odd_field_uses_the_dummy() -> None:
    assert berger_table(4) == [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
    assert berger_table(3) == berger_table(4)


@pytest.mark.parametrize("n", range(2, 17))
def test_everyone_meets_everyone_once(n: int) -> None:
    schedule = round_robin_schedule(make_teams(n))
    assert len(schedule) == round_robin_rounds(n) == n - 1 + n % 2
    pairs = Counter(frozenset(p.teams) for rp in schedule for p in rp.pairings if p.team_b)
    assert set(pairs) == {frozenset(c) for c in combinations(range(1, n + 1), 2)}
    assert set(pairs.values()) == {1}
    byes = Counter(p.team_a for rp in schedule for p in rp.pairings if p.team_b is None)
    assert byes == (Counter(range(1, n + 1)) if n % 2 else Counter())


def test_round_one_of_six_teams() -> None:
    assert pairs_of(round_robin_schedule(make_teams(6))[0]) == [(1, 6), (2, 5), (3, 4)]


def test_schedule_follows_seeds_not_ids() -> None:
    teams = [TeamEntry(100 + i, f"T{i}", seed=5 - i) for i in range(4)]  # ids 100..103
    first = round_robin_schedule(teams)[0]
    assert pairs_of(first) == [(103, 100), (102, 101)]  # seed 1 v seed 4, seed 2 v seed 3


def test_odd_field_bye_comes_last() -> None:
    rp = round_robin_schedule(make_teams(5))[0]
    assert pairs_of(rp) == [(2, 5), (3, 4), (1, None)]
    assert [p.table for p in rp.pairings] == [1, 2, 3]


def test_double_round_robin_repeats_with_sides_exchanged() -> None:
    schedule = round_robin_schedule(make_teams(4), double=True)
    assert len(schedule) == round_robin_rounds(4, double=True) == 6
    for first, second in zip(schedule[:3], schedule[3:], strict=True):
        assert pairs_of(second) == [(b, a) for a, b in pairs_of(first)]


def test_withdrawn_team_leaves_its_opponent_a_bye() -> None:
    teams = changed(make_teams(6), 3, withdrawn_after_round=1)
    rp = pair_round_robin(teams, 2)
    assert pairs_of(rp) == [(6, 4), (1, 2), (5, None)]  # 5 was to meet 3
    assert rp.warnings and "T3" in rp.warnings[0]
    assert pairs_of(pair_round_robin(teams, 1)) == [(1, 6), (2, 5), (3, 4)]


def test_late_entrant_is_scheduled_but_sits_out_before_joining() -> None:
    teams = changed(make_teams(4), 4, joined_round=2)
    assert pairs_of(pair_round_robin(teams, 1)) == [(2, 3), (1, None)]
    assert pairs_of(pair_round_robin(teams, 2)) == [(4, 3), (1, 2)]


def test_team_withdrawn_before_the_start_is_not_in_the_schedule() -> None:
    teams = changed(make_teams(5), 5, withdrawn_after_round=0)
    assert round_robin_rounds(4) == len(round_robin_schedule(teams)) == 3


def test_round_out_of_range() -> None:
    with pytest.raises(ValueError, match="rounds 1 to 3"):
        pair_round_robin(make_teams(4), 4)
    assert round_robin_schedule(make_teams(1)) == []
