"""Random tournaments through the real engines: a seed replays one exactly."""

from __future__ import annotations

import random

import pytest

from director.domain.pairing.simulate import SimulationPlan, random_plan, simulate
from director.domain.rules import PairingSystem


@pytest.mark.parametrize("system", list(PairingSystem))
def test_a_seed_replays_the_same_tournament(system: PairingSystem) -> None:
    plan = SimulationPlan(system=system, teams=8, rounds=3)
    first = simulate(random.Random(42), plan)
    assert simulate(random.Random(42), plan) == first
    assert len(first.teams) == 8
    assert {r.round for r in first.results} == {r.round for r in first.rounds}


def test_every_team_of_a_round_plays_once_in_it() -> None:
    event = simulate(random.Random(7), SimulationPlan(teams=9, rounds=4))
    for paired in event.rounds:
        seen = [team for p in paired.pairings for team in p.teams]
        assert len(seen) == len(set(seen)), paired.round


def test_random_plans_stay_within_their_bounds() -> None:
    rng = random.Random(3)
    plans = [random_plan(rng) for _ in range(20)]
    assert all(plan.teams >= 3 for plan in plans)
