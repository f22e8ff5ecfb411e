"""The independent bracket checker: silent on draws played by the plan, and naming each way a
stored draw can break RULES §11."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from director.domain.brackets.checker import DrawnMatch, check_draw
from director.domain.brackets.draw import Draw
from director.domain.brackets.plan import CONSOLATION, LAST_CHANCE, MAIN, ready_made
from tests.domain.brackets.bracket_helpers import play_out

FIELD = list(range(1, 9))


def night(plan: str = "consolation") -> list[DrawnMatch]:
    """Eight players, the better seed winning every match: as the store would hold it."""
    draw = Draw(ready_made(plan), FIELD)
    played = play_out(draw, random.Random(3))
    return played.drawn(draw.progress(played.results))


def test_a_draw_played_by_the_plan_has_no_problem() -> None:
    for plan in ("single", "consolation", "progressive-consolation", "consolation-last-chance"):
        assert check_draw(ready_made(plan), FIELD, night(plan)) == []


def find(matches: list[DrawnMatch], bracket: str, rnd: int, number: int) -> int:
    return next(i for i, m in enumerate(matches)
                if (m.bracket, m.round, m.number) == (bracket, rnd, number))  # fmt: skip


def test_round_one_out_of_standard_order_is_named() -> None:
    matches = night()
    i, j = find(matches, MAIN, 1, 1), find(matches, MAIN, 1, 2)
    a, b = matches[i], matches[j]
    matches[i] = replace(a, player_b=b.player_b, winner=a.player_a)  # 1 v 5, 4 v 8
    matches[j] = replace(b, player_b=a.player_b)
    problems = check_draw(ready_made("consolation"), FIELD, matches)
    assert any("belongs in main round 1 match" in p for p in problems), problems


def test_a_wrong_length_is_named() -> None:
    matches = night()
    i = find(matches, CONSOLATION, 1, 1)
    matches[i] = replace(matches[i], length=7)
    assert "consolation round 1 match 1: played to 7, the plan says 5" in check_draw(
        ready_made("consolation"), FIELD, matches
    )


def test_playing_on_after_a_loss_and_entering_without_one_are_named() -> None:
    matches = night()
    semi = matches[find(matches, MAIN, 2, 1)]
    loser = semi.player_b if semi.winner == semi.player_a else semi.player_a
    i = find(matches, MAIN, 3, 1)
    matches[i] = replace(matches[i], player_b=loser, winner=None)
    problems = check_draw(ready_made("consolation"), FIELD, matches)
    assert any("plays on after losing main round 2 match 1" in p for p in problems), problems
    fresh = night()
    i = find(fresh, CONSOLATION, 1, 1)
    winner_of_main = fresh[find(fresh, MAIN, 3, 1)].winner
    assert winner_of_main is not None
    fresh[i] = replace(fresh[i], player_a=winner_of_main, winner=None)
    problems = check_draw(ready_made("consolation"), FIELD, fresh)
    assert any("without having lost in main" in p for p in problems), problems


def test_a_player_in_two_unfinished_matches_or_withdrawn_is_named() -> None:
    draw = Draw(ready_made("consolation"), FIELD)
    now = [DrawnMatch(MAIN, 1, j, p.player_a, p.player_b, 7)
           for j, p in enumerate(draw.progress().ready(), 1)]  # fmt: skip
    assert check_draw(ready_made("consolation"), FIELD, now) == []
    assert any("has withdrawn" in p for p in check_draw(ready_made("consolation"), FIELD, now, [8]))
    twice = [*now, DrawnMatch(CONSOLATION, 1, 1, 1, 5, 5)]
    problems = check_draw(ready_made("consolation"), FIELD, twice)
    assert any("1 is also in the unfinished main round 1 match 1" in p for p in problems)


def test_a_fed_player_in_the_wrong_slot_or_fed_when_not_planned_is_named() -> None:
    matches = night("progressive-consolation")
    i, j = find(matches, CONSOLATION, 2, 1), find(matches, CONSOLATION, 2, 2)
    a, b = matches[i], matches[j]
    matches[i], matches[j] = replace(a, player_b=b.player_b), replace(b, player_b=a.player_b)
    problems = check_draw(ready_made("progressive-consolation"), FIELD, matches)
    assert any("belongs in consolation round 2 match" in p for p in problems), problems
    plain = night("consolation")
    semi = plain[find(plain, MAIN, 2, 1)]
    lost = semi.player_b if semi.winner == semi.player_a else semi.player_a
    i = find(plain, CONSOLATION, 2, 1)
    plain[i] = replace(plain[i], player_b=lost, winner=None)
    problems = check_draw(ready_made("consolation"), FIELD, plain)
    assert any("the plan does not feed to consolation" in p for p in problems), problems


def test_a_runner_up_feeds_nobody_and_unknown_rounds_are_named() -> None:
    matches = night("consolation-last-chance")
    final = matches[find(matches, CONSOLATION, 2, 1)]
    loser = final.player_b if final.winner == final.player_a else final.player_a
    i = find(matches, LAST_CHANCE, 1, 1)
    matches[i] = replace(matches[i], player_a=loser, winner=None)
    problems = check_draw(ready_made("consolation-last-chance"), FIELD, matches)
    assert any("runner-up feeds no bracket" in p for p in problems), problems
    odd = [DrawnMatch(MAIN, 9, 1, 1, 2, 7), DrawnMatch("plate", 1, 1, 1, 2, 7)]
    problems = check_draw(ready_made("consolation"), FIELD, odd)
    assert len(problems) == 2 and all("no such bracket round" in p for p in problems)


@pytest.mark.parametrize("winner", [5, None])
def test_a_winner_who_did_not_play_and_a_stranger_are_named(winner: int | None) -> None:
    bad = [
        DrawnMatch(MAIN, 1, 1, 1, 8, 7, winner if winner else 1),
        DrawnMatch(MAIN, 1, 2, 4, 42, 7),
    ]
    problems = check_draw(ready_made("single"), FIELD, bad)
    assert ("main round 1 match 1: the winner 5 does not play in it" in problems) == bool(winner)
    assert "main round 1 match 2: 42 is not an entrant" in problems
