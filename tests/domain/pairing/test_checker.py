"""The independent checker catches broken pairings, and only real violations."""

from __future__ import annotations

import ast
import inspect
import random
from dataclasses import replace

from director.domain.pairing import checker, checker_brackets, checker_swiss
from director.domain.pairing.checker import Violation, check_event
from director.domain.pairing.model import (
    MatchResult,
    Outcome,
    Pairing,
    PairingOptions,
    RoundPairing,
    TeamEntry,
)
from director.domain.pairing.simulate import SimulationPlan, simulate
from director.domain.rules import PairingSystem
from tests.domain.pairing.pairing_helpers import changed, make_teams, play

SWISS = PairingOptions()


def rnd(number: int, *pairs: tuple[int, int | None]) -> RoundPairing:
    return RoundPairing(number, tuple(Pairing(i, a, b) for i, (a, b) in enumerate(pairs, 1)))


def check(
    teams: list[TeamEntry], rounds: list[RoundPairing], options: PairingOptions = SWISS
) -> list[Violation]:
    results: list[MatchResult] = []
    for rp in rounds:
        results += play(rp)  # the lower id wins
    return check_event(teams, rounds, results, options)


def rules(violations: list[Violation]) -> list[str]:
    return [v.rule for v in violations]


def test_a_correct_swiss_passes() -> None:
    teams = make_teams(6)
    rounds = [rnd(1, (1, 4), (2, 5), (3, 6)), rnd(2, (1, 2), (3, 4), (5, 6))]
    assert check(teams, rounds) == []


def test_avoidable_rematch() -> None:
    rounds = [rnd(1, (1, 3), (2, 4)), rnd(2, (1, 3), (2, 4))]
    found = check(make_teams(4), rounds)
    assert rules(found) == ["rematch"]
    assert found[0].round == 2 and set(found[0].teams) == {1, 2, 3, 4}
    assert "where 0 would do" in found[0].text


def test_unavoidable_rematch_is_not_a_violation() -> None:
    assert check(make_teams(2), [rnd(1, (1, 2)), rnd(2, (1, 2))]) == []


def test_double_bye() -> None:
    found = check(make_teams(4), [rnd(1, (1, 3), (2, None), (4, None))])
    assert rules(found) == ["double-bye"]
    assert found[0].teams == (2, 4)


def test_team_missing() -> None:
    found = check(make_teams(4), [rnd(1, (1, 3))])
    assert rules(found) == ["team-missing", "team-missing"]
    assert {v.teams for v in found} == {(2,), (4,)}
    assert "T2 is active but not paired" in found[0].text + found[1].text


def test_team_twice_and_unknown_team() -> None:
    found = check(make_teams(4), [rnd(1, (1, 3), (1, 2), (4, 9))])
    assert sorted(rules(found)) == ["team-twice", "unknown-team"]


def test_withdrawn_team_paired() -> None:
    teams = changed(make_teams(4), 4, withdrawn_after_round=1)
    found = check(teams, [rnd(1, (1, 3), (2, 4)), rnd(2, (1, 2), (3, 4))])
    assert rules(found) == ["not-active"]
    assert "withdrew after round 1" in found[0].text


def test_bye_to_a_team_that_had_one() -> None:
    rounds = [rnd(1, (1, 3), (2, 4), (5, None)), rnd(2, (1, 2), (3, 4), (5, None))]
    found = check(make_teams(5), rounds)
    assert rules(found) == ["bye-repeat"]
    assert found[0].teams[0] == 5


def test_bye_not_to_the_lowest_ranked() -> None:
    found = check(make_teams(5), [rnd(1, (2, 4), (3, 5), (1, None))])
    assert rules(found) == ["bye-rank"]
    assert found[0].teams == (1, 5)


def test_avoidable_forbidden_pair() -> None:
    options = PairingOptions(forbidden_pairs=frozenset({frozenset((1, 3))}))
    found = check(make_teams(4), [rnd(1, (1, 3), (2, 4))], options)
    assert rules(found) == ["forbidden"]


def test_needless_floats() -> None:
    rounds = [rnd(1, (1, 4), (2, 5), (3, 6)), rnd(2, (1, 5), (2, 6), (3, 4))]
    found = check(make_teams(6), rounds)
    assert rules(found) == ["float"]
    assert "3 score-group boundaries where 1 would do" in found[0].text


def test_round_robin_not_berger() -> None:
    options = PairingOptions(system=PairingSystem.ROUND_ROBIN)
    assert check(make_teams(4), [rnd(1, (1, 4), (2, 3))], options) == []
    found = check(make_teams(4), [rnd(1, (1, 2), (3, 4))], options)
    assert rules(found) == ["berger"]
    assert "expected 1 v 4, 2 v 3" in found[0].text


def test_round_robin_with_a_withdrawn_team() -> None:
    options = PairingOptions(system=PairingSystem.ROUND_ROBIN)
    teams = changed(make_teams(4), 3, withdrawn_after_round=1)
    rounds = [rnd(1, (1, 4), (2, 3)), rnd(2, (4, 3), (1, 2))]
    assert rules(check(teams, rounds, options)) == ["not-active", "berger"]
    assert check(teams, [rounds[0], rnd(2, (1, 2), (4, None))], options) == []


def test_knockout_bracket_not_seeded() -> None:
    options = PairingOptions(system=PairingSystem.KNOCKOUT)
    good = rnd(1, (1, 8), (4, 5), (2, 7), (3, 6))
    assert check(make_teams(8), [good], options) == []
    found = check(make_teams(8), [rnd(1, (1, 2), (3, 4), (5, 6), (7, 8))], options)
    assert rules(found) == ["bracket"]


def test_knockout_next_round_not_from_the_winners() -> None:
    options = PairingOptions(system=PairingSystem.KNOCKOUT)
    r1 = rnd(1, (1, 8), (4, 5), (2, 7), (3, 6))
    assert check(make_teams(8), [r1, rnd(2, (1, 4), (2, 3))], options) == []
    found = check(make_teams(8), [r1, rnd(2, (1, 2), (3, 4))], options)
    assert rules(found) == ["bracket"] and found[0].round == 2


def test_knockout_byes_and_a_match_without_winner() -> None:
    options = PairingOptions(system=PairingSystem.KNOCKOUT)
    r1 = rnd(1, (1, None), (2, 3))
    assert check(make_teams(3), [r1], options) == []
    results = [MatchResult(1, 1, 1, None, outcome=Outcome.BYE), MatchResult(1, 2, 2, 3)]
    found = check_event(make_teams(3), [r1, rnd(2, (1, 2))], results, options)
    assert rules(found) == ["bracket"] and "no winner" in found[0].text


def test_checker_does_not_use_the_engines() -> None:
    for module in (checker, checker_brackets, checker_swiss):
        tree = ast.parse(inspect.getsource(module))
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        assert not imported & {
            "director.domain.pairing.swiss",
            "director.domain.pairing.swiss_matching",
            "director.domain.pairing.round_robin",
            "director.domain.pairing.knockout",
            "director.domain.pairing.engine",
        }


def test_pairing_that_ignores_the_scores_is_caught() -> None:
    plan = SimulationPlan(system=PairingSystem.SWISS, teams=12, rounds=2, forfeit_rate=0)
    event = simulate(random.Random(2), plan)
    teams = [replace(t, withdrawn_after_round=None, joined_round=1) for t in event.teams]
    ids = [t.id for t in sorted(teams, key=lambda t: t.seed)]
    naive = rnd(3, *[(ids[i], ids[i + 1]) for i in range(0, 12, 2)])  # seed order
    rounds = [*event.rounds, naive]
    results = [*event.results, *play(naive)]
    found = check_event(teams, rounds, results, event.options)
    assert found and {v.round for v in found} == {3}
    assert set(rules(found)) <= {"rematch", "float"}
