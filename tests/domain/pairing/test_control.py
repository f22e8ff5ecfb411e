"""Warnings for the director's own pairings, and swapping teams."""

from __future__ import annotations

import pytest

from director.domain.errors import UserError
from director.domain.pairing.control import check_manual, give_bye, pair_together, swap_teams
from director.domain.pairing.model import Pairing
from tests.domain.pairing.pairing_helpers import changed, make_teams, result


def test_a_clean_round_has_no_warning() -> None:
    history = [result(1, 1, 3), result(1, 2, 4)]
    assert check_manual([Pairing(1, 1, 2), Pairing(2, 3, 4)], make_teams(4), history) == []


def test_every_kind_of_warning() -> None:
    teams = changed(changed(make_teams(7), 6, withdrawn_after_round=1), 7, joined_round=3)
    history = [result(1, 1, 3), result(1, 2, 4), result(1, 5, None), result(1, 6, None)]
    pairings = [
        Pairing(1, 1, 3),  # rematch
        Pairing(2, 1, 2),  # 1 twice
        Pairing(3, 6, 7),  # 6 withdrew, 7 not yet joined
        Pairing(3, 5, None),  # table 3 twice, 5 had a bye
        Pairing(4, 9, None),  # unknown team, two byes
    ]
    warnings = check_manual(pairings, teams, history, forbidden_pairs={frozenset((1, 3))})
    text = "\n".join(warnings)
    assert "table 3 is used 2 times" in text
    assert "T1 is paired 2 times" in text
    assert "T6 is paired but withdrew after round 1" in text
    assert "T7 is paired but joins only in round 3" in text
    assert "T4 is missing" in text
    assert "unknown team 9 is paired" in text
    assert "2 byes" in text
    assert "T5 has the bye but already had a bye" in text
    assert "T1 v T3 is a rematch (they met in round 1)" in text
    assert "T1 v T3 is a forbidden pair" in text


def test_round_defaults_to_the_one_after_the_history() -> None:
    teams = changed(make_teams(4), 4, withdrawn_after_round=1)
    history = [result(1, 1, 2), result(1, 3, 4)]
    assert check_manual([Pairing(1, 1, 3), Pairing(2, 2, None)], teams, history) == []
    assert check_manual([Pairing(1, 1, 3), Pairing(2, 2, 4)], teams, [], round_no=1) == []


def test_swap_teams_between_tables() -> None:
    pairings = [Pairing(1, 1, 2), Pairing(2, 3, 4), Pairing(3, 5, None)]
    assert swap_teams(pairings, 2, 3) == (Pairing(1, 1, 3), Pairing(2, 2, 4), Pairing(3, 5, None))
    assert swap_teams(pairings, 5, 1)[0] == Pairing(1, 5, 2)
    assert swap_teams(pairings, 1, 2)[0] == Pairing(1, 2, 1)
    with pytest.raises(ValueError, match="team 8"):
        swap_teams(pairings, 1, 8)


ROUND = (Pairing(1, 1, 2), Pairing(2, 3, 4), Pairing(3, 5, None))


def test_pair_two_teams_directly_their_opponents_meet_in_their_place() -> None:
    assert pair_together(ROUND, 1, 3) == (Pairing(1, 1, 3), Pairing(2, 2, 4), Pairing(3, 5, None))
    # with the bye holder: its table keeps the bye for the freed opponent
    assert pair_together(ROUND, 4, 5) == (Pairing(1, 1, 2), Pairing(2, 4, 5), Pairing(3, 3, None))


def test_a_team_not_in_the_round_can_be_paired_with_the_bye_holder() -> None:
    """A late arrival after publishing: it takes the bye's place and nobody is left out."""
    assert pair_together(ROUND, 6, 5) == (Pairing(1, 1, 2), Pairing(2, 3, 4), Pairing(3, 6, 5))
    with pytest.raises(UserError, match="already paired together"):
        pair_together(ROUND, 1, 2)
    with pytest.raises(UserError, match="itself"):
        pair_together(ROUND, 1, 1)


def test_give_the_bye_moves_it_and_the_old_holder_plays_in_its_place() -> None:
    assert give_bye(ROUND, 4) == (Pairing(1, 1, 2), Pairing(2, 3, 5), Pairing(3, 4, None))
    with pytest.raises(UserError, match="has the bye already"):
        give_bye(ROUND, 5)


def test_a_bye_in_a_round_without_one_leaves_the_opponent_a_bye_too_and_is_warned() -> None:
    even = (Pairing(1, 1, 2), Pairing(2, 3, 4))
    edited = give_bye(even, 1)
    assert edited == (Pairing(1, 2, None), Pairing(2, 3, 4), Pairing(3, 1, None))
    assert "2 byes: T2, T1" in check_manual(edited, make_teams(4), [], round_no=1)
