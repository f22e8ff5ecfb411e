"""A player's next match and where a loss sends them (RULES §11)."""

from __future__ import annotations

import random

from director.domain.brackets.draw import Draw, MatchKey, Result
from director.domain.brackets.next_match import NextMatch, next_match
from director.domain.brackets.plan import (
    CONSOLATION,
    MAIN,
    PLANS,
    Bracket,
    BracketPlan,
    ready_made,
)


def k(bracket: str, rnd: int, number: int) -> MatchKey:
    return MatchKey(bracket, rnd, number)


def test_a_round_one_player_plays_now_and_drops_to_the_consolation_if_beaten() -> None:
    draw = Draw(ready_made("consolation"), list(range(1, 9)))
    now = draw.progress()
    assert next_match(now, 4) == NextMatch(k(MAIN, 1, 2), True, k(CONSOLATION, 1, 1))
    assert next_match(now, 7) == NextMatch(k(MAIN, 1, 3), True, k(CONSOLATION, 1, 2))


def test_a_bye_holder_waits_and_still_drops_as_a_round_one_loser() -> None:
    draw = Draw(ready_made("consolation"), list(range(1, 7)))
    now = draw.progress()
    assert next_match(now, 1) == NextMatch(k(MAIN, 2, 1), False, k(CONSOLATION, 1, 1))
    after = draw.progress([Result(k(MAIN, 1, 2), 4)])
    assert next_match(after, 4) == NextMatch(k(MAIN, 2, 1), True, None)  # won round 1: out
    assert next_match(after, 5) == NextMatch(k(CONSOLATION, 1, 1), False, None)


def test_progressive_later_rounds_the_play_off_and_the_final() -> None:
    draw = Draw(ready_made("progressive-consolation"), list(range(1, 9)))
    r1 = [Result(k(MAIN, 1, j), w) for j, w in enumerate((1, 4, 2, 3), 1)]
    now = draw.progress(r1)
    assert next_match(now, 4) == NextMatch(k(MAIN, 2, 1), True, k(CONSOLATION, 2, 2))
    played = draw.progress([*r1, Result(k(MAIN, 2, 1), 1), Result(k(MAIN, 2, 2), 2)])
    assert next_match(played, 1) == NextMatch(k(MAIN, 3, 1), True, None)
    plan = BracketPlan("play-off", (Bracket(MAIN, (5,), third_place=True),))
    semis = Draw(plan, list(range(1, 5))).progress([Result(k(MAIN, 1, 1), 1)])
    assert next_match(semis, 2) == NextMatch(k(MAIN, 1, 2), True, k(MAIN, 2, 2), 4)  # 4 waits
    assert next_match(semis, 4) == NextMatch(k(MAIN, 2, 2), False, None)  # the play-off
    out = Draw(ready_made("single"), list(range(1, 5))).progress([Result(k(MAIN, 1, 1), 1)])
    assert next_match(out, 4) == NextMatch(None, False, None)


def test_a_loser_goes_where_next_match_said_on_random_nights() -> None:
    rng = random.Random(11)
    for plan in PLANS:
        for n in (3, 6, 11, 16, 27, 40, 64):
            draw = Draw(plan, list(range(1, n + 1)))
            results: list[Result] = []
            said: list[tuple[int, MatchKey]] = []
            while ready := draw.progress(results).ready():
                now = draw.progress(results)
                p = rng.choice(ready)
                winner, loser = rng.sample((p.player_a, p.player_b), 2)
                where = next_match(now, loser)
                assert where.match == p.key and where.ready
                if where.if_lost is not None:
                    said.append((loser, where.if_lost))
                results.append(Result(p.key, winner))
            end = draw.progress(results)
            assert end.complete
            for loser, target in said:
                assert loser in end.of(target)[1], (plan.name, n, loser, target)


def test_if_lost_names_who_waits_there_only_once_they_are_known() -> None:
    """The phones' "if you lose" must not promise an opponent the draw does not know yet: the
    slot's other seat is named once its player is there, else it is open (and may turn out a
    bye, when nobody comes to meet them)."""
    draw = Draw(ready_made("consolation"), list(range(1, 9)))
    now = draw.progress([Result(k(MAIN, 1, 1), 1)])  # 8 lost: waits in consolation 1-1
    assert next_match(now, 4) == NextMatch(k(MAIN, 1, 2), True, k(CONSOLATION, 1, 1), 8)
    assert next_match(now, 7) == NextMatch(k(MAIN, 1, 3), True, k(CONSOLATION, 1, 2), None)
    assert next_match(draw.progress(), 4).if_lost_against is None
