"""The pairing engines' values: who plays when, results, the history of earlier rounds."""

from __future__ import annotations

import pytest

from director.domain.pairing.model import (
    History,
    MatchResult,
    Outcome,
    Pairing,
    TeamEntry,
    by_seed,
    numbered,
)
from tests.domain.pairing.pairing_helpers import result


def test_a_team_plays_from_the_round_it_joined_to_the_round_it_withdrew_after() -> None:
    late = TeamEntry(1, "Late", 1, joined_round=3, withdrawn_after_round=5)
    assert [r for r in range(1, 8) if late.active_in(r)] == [3, 4, 5]
    assert late.takes_part
    assert not TeamEntry(2, "Gone", 2, withdrawn_after_round=0).takes_part
    assert not TeamEntry(3, "Never", 3, joined_round=4, withdrawn_after_round=3).takes_part


def test_a_bye_is_a_result_without_team_b_and_nothing_else_is() -> None:
    with pytest.raises(ValueError, match="a bye has no team B"):
        MatchResult(1, 1, 1, None, outcome=Outcome.A)
    with pytest.raises(ValueError, match="a bye has no team B"):
        MatchResult(1, 1, 1, 2, outcome=Outcome.BYE)


@pytest.mark.parametrize(
    ("outcome", "winner", "free"),
    [
        (Outcome.A, 1, None),
        (Outcome.B, 2, None),
        (Outcome.DRAW, None, None),
        (Outcome.UNFINISHED, None, None),
        (Outcome.FORFEIT_A, 1, 1),
        (Outcome.FORFEIT_B, 2, 2),
    ],
)
def test_who_won_and_who_won_without_playing(
    outcome: Outcome, winner: int | None, free: int | None
) -> None:
    match = MatchResult(1, 1, 1, 2, outcome=outcome)
    assert (match.winner, match.free_winner) == (winner, free)
    bye = MatchResult(1, 2, 3, None, outcome=Outcome.BYE)
    assert bye.winner == bye.free_winner == 3


def test_the_history_counts_meetings_byes_and_free_wins_before_a_round() -> None:
    results = [
        result(1, 1, 2),
        result(1, 3, None),
        result(2, 2, 1, Outcome.B),
        result(2, 3, 4, Outcome.FORFEIT_A),
        result(3, 1, 3),
    ]
    history = History.of(results, before_round=3)
    assert history.met(1, 2) == history.met(2, 1) == 2
    assert history.met(1, 3) == 0  # round 3 is not before round 3
    assert history.first_met[frozenset((1, 2))] == 1
    assert history.byes == {3: 1}
    assert history.free_wins == {3: 2}  # the bye and the forfeit win
    assert History.of(results).met(1, 3) == 1


def test_seed_order_and_table_numbers_are_always_the_same() -> None:
    teams = [TeamEntry(5, "E", 2), TeamEntry(2, "B", 1), TeamEntry(4, "D", 2)]
    assert [t.id for t in by_seed(teams)] == [2, 4, 5]
    tables = numbered([(7, None), (1, 2), (3, 4)])
    assert tables == (Pairing(1, 1, 2), Pairing(2, 3, 4), Pairing(3, 7, None))
    assert tables[2].teams == (7,) and tables[0].teams == (1, 2)
