"""Knockout: seeded bracket, byes to the top seeds, consolation (RULES §8)."""

from __future__ import annotations

import pytest

from director.domain.pairing.knockout import (
    bracket_order,
    knockout_rounds,
    next_knockout_round,
    pair_knockout,
    seeded_slots,
)
from director.domain.pairing.model import MatchResult, Outcome
from tests.domain.pairing.pairing_helpers import changed, make_teams, pairs_of, play


def test_bracket_order() -> None:
    assert bracket_order(1) == [1]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_order(16)[:8] == [1, 16, 8, 9, 4, 13, 5, 12]
    with pytest.raises(ValueError, match="power of two"):
        bracket_order(6)


def test_sixteen_seeds_round_one() -> None:
    rp = pair_knockout(make_teams(16), [], 1)
    assert pairs_of(rp) == [
        (1, 16), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14), (6, 11),
    ]  # fmt: skip
    assert [p.table for p in rp.pairings] == list(range(1, 9))


def test_byes_go_to_the_top_seeds() -> None:
    rp = pair_knockout(make_teams(12), [], 1)
    byes = sorted(p.team_a for p in rp.pairings if p.team_b is None)
    assert byes == [1, 2, 3, 4]
    assert (8, 9) in pairs_of(rp) and (5, 12) in pairs_of(rp)


def test_one_and_two_meet_only_in_the_final_when_favourites_win() -> None:
    teams = make_teams(16)
    results: list[MatchResult] = []
    for rnd in range(1, knockout_rounds(16) + 1):
        rp = pair_knockout(teams, results, rnd)
        if rnd < 4:
            assert (1, 2) not in pairs_of(rp)
        results += play(rp)  # the better seed (lower id) wins
    assert pairs_of(rp) == [(1, 2)]
    assert knockout_rounds(16) == 4


def test_next_round_comes_from_the_winners() -> None:
    teams = make_teams(8)
    r1 = pair_knockout(teams, [], 1)
    results = play(r1, winner=max)  # the underdogs win: 8, 5, 7, 6
    r2 = pair_knockout(teams, results, 2)
    assert pairs_of(r2) == [(8, 5), (7, 6)]
    assert pairs_of(next_knockout_round(r1, {1: 8, 2: 5, 3: 7, 4: 6})) == [(8, 5), (7, 6)]


def test_a_draw_stops_the_bracket() -> None:
    teams = make_teams(4)
    draw = [MatchResult(1, 1, 1, 4, 5, 5, Outcome.DRAW), MatchResult(1, 2, 2, 3, 5, 1, Outcome.A)]
    with pytest.raises(ValueError, match="no winner"):
        pair_knockout(teams, draw, 2)
    with pytest.raises(ValueError, match="no winner"):
        next_knockout_round(pair_knockout(teams, [], 1), {2: 2})


def test_withdrawn_winner_gives_its_next_opponent_a_bye() -> None:
    teams = changed(make_teams(4), 1, withdrawn_after_round=1)
    results = play(pair_knockout(teams, [], 1))  # 1 and 2 win
    rp = pair_knockout(teams, results, 2)
    assert pairs_of(rp) == [(2, None)]
    assert "T2 goes through on a bye: T1 has withdrawn" in rp.warnings


def test_consolation_bracket_for_first_round_losers() -> None:
    teams = make_teams(8)
    results = play(pair_knockout(teams, [], 1, consolation=True))  # 5, 6, 7, 8 lose
    rp = pair_knockout(teams, results, 2, consolation=True)
    assert pairs_of(rp) == [(1, 4), (2, 3), (5, 8), (6, 7)]
    assert [p.table for p in rp.pairings] == [1, 2, 3, 4]
    results += play(rp)
    final = pair_knockout(teams, results, 3, consolation=True)
    assert pairs_of(final) == [(1, 2), (5, 6)]
    assert knockout_rounds(8, consolation=True) == 3


def test_rounds_needed() -> None:
    assert [knockout_rounds(n) for n in (1, 2, 3, 4, 5, 9, 16, 17)] == [0, 1, 2, 2, 3, 4, 4, 5]
    assert knockout_rounds(10, consolation=True) == 4
    with pytest.raises(ValueError, match="no round 3"):
        pair_knockout(make_teams(4), [], 3)


def test_seeded_slots_of_five() -> None:
    assert seeded_slots([10, 20, 30, 40, 50]) == [(10, None), (40, 50), (20, None), (30, None)]
