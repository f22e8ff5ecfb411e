"""`pair_round` and `planned_rounds`: each pairing system through the one entry point."""

from __future__ import annotations

from dataclasses import replace

import pytest

from director.domain.pairing.engine import pair_round, planned_rounds
from director.domain.pairing.model import PairingOptions
from director.domain.rules import PairingSystem
from tests.domain.pairing.pairing_helpers import make_teams

SWISS = PairingOptions(system=PairingSystem.SWISS, rounds=4)
ROBIN = PairingOptions(system=PairingSystem.ROUND_ROBIN)
KNOCKOUT = PairingOptions(system=PairingSystem.KNOCKOUT)


def test_a_swiss_has_the_rounds_the_event_says() -> None:
    assert planned_rounds(make_teams(16), SWISS) == 4
    assert planned_rounds(make_teams(16), replace(SWISS, rounds=0)) == 0  # until one is clear


@pytest.mark.parametrize(("teams", "rounds"), [(2, 1), (4, 3), (5, 5), (8, 7)])
def test_a_round_robin_meets_everyone_once_or_twice(teams: int, rounds: int) -> None:
    assert planned_rounds(make_teams(teams), ROBIN) == rounds
    assert planned_rounds(make_teams(teams), replace(ROBIN, double_round_robin=True)) == 2 * rounds


def test_a_team_withdrawn_before_round_one_is_not_scheduled() -> None:
    teams = make_teams(5)
    teams[4] = replace(teams[4], withdrawn_after_round=0)
    assert planned_rounds(teams, ROBIN) == 3  # four teams


@pytest.mark.parametrize(("teams", "rounds"), [(2, 1), (5, 3), (8, 3), (9, 4)])
def test_a_knockout_halves_the_field_each_round(teams: int, rounds: int) -> None:
    assert planned_rounds(make_teams(teams), KNOCKOUT) == rounds


@pytest.mark.parametrize("options", [SWISS, ROBIN, KNOCKOUT], ids=["swiss", "robin", "knockout"])
def test_round_one_pairs_every_team_once_whatever_the_system(options: PairingOptions) -> None:
    teams = make_teams(6)
    paired = pair_round(teams, [], options, 1)
    assert paired.round == 1
    seen = [team for p in paired.pairings for team in p.teams]
    assert sorted(seen) == [t.id for t in teams]
