"""Random events through the engines and the independent checker; Swiss properties."""

from __future__ import annotations

import random
from collections import Counter

import networkx as nx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from director.domain.pairing.checker import check_event
from director.domain.pairing.model import (
    MatchResult,
    Outcome,
    Pairing,
    PairingOptions,
    RoundPairing,
    TeamEntry,
)
from director.domain.pairing.simulate import SimulationPlan, random_plan, simulate
from director.domain.pairing.swiss import pair_swiss
from director.domain.rules import LateEntry, MatchPointScheme, PairingSystem

EVENTS = 330


def test_random_events_of_every_system_pass_the_checker() -> None:
    systems: Counter[PairingSystem] = Counter()
    features: Counter[str] = Counter()
    for seed in range(EVENTS):
        rng = random.Random(seed)
        plan = random_plan(rng, 3, 40)
        event = simulate(rng, plan)
        violations = check_event(event.teams, event.rounds, event.results, event.options)
        assert violations == [], (seed, plan, violations)
        systems[plan.system] += 1
        features["late"] += any(t.joined_round > 1 for t in event.teams)
        features["withdrawn"] += any(t.withdrawn_after_round is not None for t in event.teams)
        features["forbidden"] += bool(event.options.forbidden_pairs)
        features["warnings"] += any(rp.warnings for rp in event.rounds)
    assert min(systems.values()) >= 80
    assert min(features.values()) >= 20


def test_simulation_is_reproducible_and_consistent() -> None:
    plan = SimulationPlan(system=PairingSystem.KNOCKOUT, teams=13, match_length=7)
    first = simulate(random.Random(9), plan)
    assert first == simulate(random.Random(9), plan)
    assert all(r.outcome is not Outcome.DRAW for r in first.results)  # rule 4′ in knockout
    paired = {(rp.round, p.team_a, p.team_b) for rp in first.rounds for p in rp.pairings}
    assert paired == {(r.round, r.team_a, r.team_b) for r in first.results}
    for r in first.results:
        if r.outcome in (Outcome.A, Outcome.B):
            assert max(r.score_a, r.score_b) >= 7


def test_swiss_until_one_team_is_clear_stops() -> None:
    plan = SimulationPlan(system=PairingSystem.SWISS, teams=16, rounds=0)
    event = simulate(random.Random(4), plan)
    assert 1 <= len(event.rounds) <= 12


@st.composite
def swiss_histories(draw: st.DrawFn) -> tuple[list[TeamEntry], list[MatchResult], PairingOptions]:
    """A field and any history at all (not necessarily a Swiss one), to pair the next round."""
    n = draw(st.integers(1, 18))
    past = draw(st.integers(0, 6))
    teams = []
    for i in range(1, n + 1):
        joined = draw(st.integers(1, past + 1)) if draw(st.booleans()) else 1
        withdrawn = draw(st.none() | st.integers(0, past + 1))
        club = draw(st.sampled_from([None, "A", "B"]))
        teams.append(TeamEntry(i, f"T{i}", i, club, None, withdrawn, joined))
    results = []
    for rnd in range(1, past + 1):
        active = [t.id for t in teams if t.active_in(rnd)]
        order = draw(st.permutations(active))
        for table, i in enumerate(range(0, len(order), 2), start=1):
            if i + 1 == len(order):
                results.append(MatchResult(rnd, table, order[i], None, 0, 0, Outcome.BYE))
                continue
            outcome = draw(st.sampled_from([o for o in Outcome if o is not Outcome.BYE]))
            scores = draw(st.tuples(st.integers(0, 9), st.integers(0, 9)))
            results.append(MatchResult(rnd, table, order[i], order[i + 1], *scores, outcome))
    pairs = st.tuples(st.integers(1, n), st.integers(1, n)).filter(lambda p: p[0] != p[1])
    forbidden = draw(st.lists(pairs, max_size=4))
    options = PairingOptions(
        match_points=draw(st.sampled_from(list(MatchPointScheme))),
        late_entry=draw(st.sampled_from(list(LateEntry))),
        avoid_same_club=draw(st.booleans()),
        forbidden_pairs=frozenset(frozenset(p) for p in forbidden),
    )
    return teams, results, options


def _fewest_rematches(active: list[int], met: set[frozenset[int]]) -> int:
    graph = nx.Graph()
    graph.add_nodes_from(active)
    for i, a in enumerate(active):
        if len(active) % 2:
            graph.add_edge(a, "bye", weight=1)
        for b in active[i + 1 :]:
            graph.add_edge(a, b, weight=0 if frozenset((a, b)) in met else 1)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return sum(1 for a, b in matching if graph[a][b]["weight"] == 0)


@settings(
    max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(swiss_histories())
def test_swiss_round_properties(
    history: tuple[list[TeamEntry], list[MatchResult], PairingOptions],
) -> None:
    teams, results, options = history
    round_no = max((r.round for r in results), default=0) + 1
    rp = pair_swiss(teams, results, options, round_no)
    seen = Counter(t for p in rp.pairings for t in p.teams)
    active = [t.id for t in teams if t.active_in(round_no)]
    assert set(seen) == set(active)  # every active team paired or given the bye, no other
    assert set(seen.values()) <= {1}  # nobody twice
    byes = [p for p in rp.pairings if p.team_b is None]
    assert len(byes) == len(active) % 2  # one bye exactly when the field is odd
    met = {frozenset((r.team_a, r.team_b)) for r in results if r.team_b is not None}
    rematches = sum(1 for p in rp.pairings if p.team_b and frozenset(p.teams) in met)
    assert rematches == _fewest_rematches(active, met)  # none when the field allows it

    past = [
        RoundPairing(
            rnd,
            tuple(Pairing(r.table, r.team_a, r.team_b) for r in results if r.round == rnd),
        )
        for rnd in range(1, round_no)
    ]
    violations = check_event(teams, [*past, rp], results, options)
    assert [v for v in violations if v.round == round_no] == []
