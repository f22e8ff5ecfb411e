"""Swiss pairing: worked examples (RULES §8)."""

from __future__ import annotations

import random

import pytest

from director.domain.pairing import swiss
from director.domain.pairing.checker import check_event
from director.domain.pairing.model import MatchResult, Outcome, PairingOptions, RoundPairing
from director.domain.pairing.simulate import SimulationPlan, simulate
from director.domain.pairing.swiss import clear_leader, pair_swiss, swiss_field
from director.domain.rules import LateEntry, PairingSystem, RoundOne
from director.domain.standings import compute_standings
from tests.domain.pairing.pairing_helpers import changed, make_teams, pairs_of, play, result

OPTIONS = PairingOptions()


def test_round_one_by_seed_is_top_half_v_bottom_half() -> None:
    rp = pair_swiss(make_teams(8), [], OPTIONS, 1)
    assert pairs_of(rp) == [(1, 5), (2, 6), (3, 7), (4, 8)]
    assert [p.table for p in rp.pairings] == [1, 2, 3, 4]
    assert rp.warnings == ()


def test_round_one_odd_field_gives_the_bye_to_the_last_seed() -> None:
    rp = pair_swiss(make_teams(9), [], OPTIONS, 1)
    assert pairs_of(rp) == [(1, 5), (2, 6), (3, 7), (4, 8), (9, None)]


def test_round_one_random_is_reproducible_from_its_seed() -> None:
    teams = make_teams(12)
    options = [PairingOptions(round_one=RoundOne.RANDOM, random_seed=s) for s in range(5)]
    first = [pairs_of(pair_swiss(teams, [], o, 1)) for o in options]
    again = [pairs_of(pair_swiss(teams, [], o, 1)) for o in options]
    assert first == again
    assert len({tuple(p) for p in first}) > 1
    assert any(p != pairs_of(pair_swiss(teams, [], OPTIONS, 1)) for p in first)


def test_round_two_pairs_inside_score_groups() -> None:
    teams = make_teams(8)
    results = play(pair_swiss(teams, [], OPTIONS, 1))  # 1, 2, 3, 4 win
    assert pairs_of(pair_swiss(teams, results, OPTIONS, 2)) == [(1, 3), (2, 4), (5, 7), (6, 8)]


def test_odd_score_group_floats_its_lowest_team_down() -> None:
    teams = make_teams(6)
    results = play(pair_swiss(teams, [], OPTIONS, 1))  # 1-4, 2-5, 3-6: 1, 2, 3 win
    assert pairs_of(pair_swiss(teams, results, OPTIONS, 2)) == [(1, 2), (3, 4), (5, 6)]


def test_bye_goes_to_the_lowest_ranked_team_that_has_had_none() -> None:
    teams = make_teams(3)
    r1 = pair_swiss(teams, [], OPTIONS, 1)
    assert pairs_of(r1) == [(1, 2), (3, None)]
    results = play(r1)  # 1 beats 2
    r2 = pair_swiss(teams, results, OPTIONS, 2)
    assert (2, None) in pairs_of(r2)  # 2 is last and has had no bye
    results += play(r2, winner=max)  # 3 beats 1
    r3 = pair_swiss(teams, results, OPTIONS, 3)
    # 2 is last again but had the bye: it goes to 1, the only team without one.
    assert pairs_of(r3) == [(3, 2), (1, None)]
    assert r3.warnings == ()


def test_a_forfeit_win_counts_as_a_bye_for_the_bye() -> None:
    teams = make_teams(3)
    results = [result(1, 1, 3, Outcome.FORFEIT_B), result(1, 2, None)]
    rp = pair_swiss(teams, results, OPTIONS, 2)
    assert (1, None) in pairs_of(rp)  # 3 won by forfeit, 2 had the bye


def test_no_rematch_while_one_can_be_avoided() -> None:
    teams = make_teams(4)
    results: list[MatchResult] = []
    seen = set()
    for rnd in (1, 2, 3):
        rp = pair_swiss(teams, results, OPTIONS, rnd)
        for a, b in pairs_of(rp):
            assert frozenset((a, b)) not in seen
            seen.add(frozenset((a, b)))
        results += play(rp)
    assert len(seen) == 6


def test_unavoidable_rematch_is_paired_with_a_warning() -> None:
    teams = make_teams(2)
    results = play(pair_swiss(teams, [], OPTIONS, 1))
    rp = pair_swiss(teams, results, OPTIONS, 2)
    assert pairs_of(rp) == [(1, 2)]
    assert len(rp.warnings) == 1 and "meet again" in rp.warnings[0]


def test_second_bye_only_when_nobody_else_can_have_it() -> None:
    teams = make_teams(3)
    results: list[MatchResult] = []
    for rnd in (1, 2, 3):
        results += play(pair_swiss(teams, results, OPTIONS, rnd))
    rp = pair_swiss(teams, results, OPTIONS, 4)
    assert any("already had a bye" in w for w in rp.warnings)
    assert any("meet again" in w for w in rp.warnings)


def test_forbidden_pair_is_avoided() -> None:
    options = PairingOptions(forbidden_pairs=frozenset({frozenset((1, 3))}))
    rp = pair_swiss(make_teams(4), [], options, 1)
    assert {frozenset(p) for p in pairs_of(rp)}.isdisjoint({frozenset((1, 3))})
    assert rp.warnings == ()


def test_unavoidable_forbidden_pair_is_paired_with_a_warning() -> None:
    options = PairingOptions(forbidden_pairs=frozenset({frozenset((1, 2))}))
    rp = pair_swiss(make_teams(2), [], options, 1)
    assert pairs_of(rp) == [(1, 2)]
    assert "forbidden" in rp.warnings[0]


def test_same_club_is_avoided_only_when_asked() -> None:
    teams = changed(changed(make_teams(4), 1, club="Ace"), 3, club="Ace")
    assert (1, 3) in pairs_of(pair_swiss(teams, [], OPTIONS, 1))
    rp = pair_swiss(teams, [], PairingOptions(avoid_same_club=True), 1)
    assert (1, 3) not in pairs_of(rp)


def test_late_entry_enters_with_zero_or_bye_equivalent_points() -> None:
    teams = changed(make_teams(5), 5, joined_round=2)
    r1 = pair_swiss(teams, [], OPTIONS, 1)
    assert all(5 not in p for p in pairs_of(r1))
    results = play(r1)
    zero = swiss_field(teams, results, OPTIONS, 2)
    assert zero.units[5] == 0 and zero.order[-1] == 5
    bye_equivalent = PairingOptions(late_entry=LateEntry.BYE_EQUIVALENT)
    field = swiss_field(teams, results, bye_equivalent, 2)
    assert field.units[5] == 2 and field.group[5] == 0


def test_withdrawn_team_is_not_paired_from_the_next_round() -> None:
    teams = changed(make_teams(5), 2, withdrawn_after_round=1)
    r1 = pair_swiss(teams, [], OPTIONS, 1)
    assert any(2 in p for p in pairs_of(r1))
    r2 = pair_swiss(teams, play(r1), OPTIONS, 2)
    assert all(2 not in p for p in pairs_of(r2))
    assert len(r2.pairings) == 2


def test_tables_follow_the_ranking_and_the_bye_comes_last() -> None:
    rp = pair_swiss(make_teams(7), [], OPTIONS, 1)
    assert [p.table for p in rp.pairings] == [1, 2, 3, 4]
    assert rp.pairings[-1].team_b is None


def test_clear_leader() -> None:
    teams = make_teams(4)
    results = [result(1, 1, 2), result(1, 3, 4), result(2, 1, 3), result(2, 2, 4)]
    rows = compute_standings(teams, results)
    assert clear_leader(rows, 2.0) == 1  # 4 points, the next has 2
    assert clear_leader(rows, 2.0, rounds_left=1) is None  # 3 could still reach 4
    rows = compute_standings(teams, results[:2])
    assert clear_leader(rows, 2.0) is None  # 1 and 3 share the lead
    assert clear_leader([], 2.0) is None


def _random_swiss(teams_count: int, rounds: int, seed: int) -> list[RoundPairing]:
    plan = SimulationPlan(system=PairingSystem.SWISS, teams=teams_count, rounds=rounds)
    event = simulate(random.Random(seed), plan)
    assert check_event(event.teams, event.rounds, event.results, event.options) == []
    return list(event.rounds)


def test_large_field_uses_segments_and_stays_correct() -> None:
    rounds = _random_swiss(151, 6, seed=3)
    assert all(len(rp.pairings) == 76 for rp in rounds)


@pytest.mark.parametrize("seed", range(12))
def test_small_segments_merge_and_fall_back_correctly(
    monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    monkeypatch.setattr(swiss, "EXACT_LIMIT", 5)
    monkeypatch.setattr(swiss, "SEGMENT_MIN", 4)
    monkeypatch.setattr(swiss, "SEGMENT_MAX", 6)
    monkeypatch.setattr(swiss, "WINDOW", 3)
    _random_swiss(7 + seed, 8, seed)


def test_round_seven_of_a_hundred_teams_pairs_everyone_without_a_rematch() -> None:
    # its speed is a figure of tests/benchmarks/bench_pairing.py, never a timed unit test
    teams = make_teams(100)
    rng = random.Random(5)
    results: list[MatchResult] = []
    for rnd in range(1, 7):
        results += play(pair_swiss(teams, results, OPTIONS, rnd), lambda a, b: rng.choice((a, b)))
    seventh = pair_swiss(teams, results, OPTIONS, 7)
    met = {frozenset((r.team_a, r.team_b)) for r in results}
    pairs = [frozenset(pair) for pair in pairs_of(seventh)]
    assert len(pairs) == 50
    assert {t for pair in pairs for t in pair} == {t.id for t in teams}
    assert not met & set(pairs)
