"""RULES §12's ratings: the worked examples to 1e-9, Tandem and draws, unrated results, the
order of rating, and properties over random clubs (publishing order, republishing, zero sum)."""

from __future__ import annotations

import math
import random
from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from director.domain.errors import UserError
from director.domain.rating import (
    START_RATING,
    ClubResult,
    Outcome,
    PublishedResults,
    Unrated,
    change,
    expected,
    history_points,
    in_order,
    k_factor,
    provisional_split,
    recompute,
    shown,
)

DAY = date(2026, 1, 6)


def match(
    a: tuple[int, ...],
    b: tuple[int, ...],
    outcome: Outcome = Outcome.A_WON,
    length: int = 5,
    event: str = "e1",
    day: date = DAY,
    rnd: int = 1,
    finish: int = 1,
    unrated: Unrated | None = None,
    reason: str = "",
) -> ClubResult:
    return ClubResult(event, day, rnd, finish, a, b, length, outcome, unrated, reason)


# -- the worked examples ----------------------------------------------------------------------


def test_two_new_players_at_1500_to_5_move_by_22_36() -> None:
    ratings = recompute([match((1,), (2,), length=5)])
    exact = 10 * math.sqrt(5)  # 4 * K 5 * sqrt(5) * (1 - 1/2)
    assert ratings.rating(1) - START_RATING == pytest.approx(exact, abs=1e-9)
    assert START_RATING - ratings.rating(2) == pytest.approx(exact, abs=1e-9)
    assert shown(ratings.rating(1) - START_RATING) == "22.36"
    assert ratings.standings[1].experience == ratings.standings[2].experience == 5


def test_1600_with_experience_500_beats_a_new_1500_to_9() -> None:
    e = expected(1600, 1500, 9)
    exact_e = 1 / (1 + 10 ** (-0.15))  # (1500 - 1600) * 3 / 2000
    assert e == pytest.approx(exact_e, abs=1e-12)
    assert f"{e:.5f}" == "0.58550"
    assert k_factor(500) == 1.0 and k_factor(0) == 5.0
    gain = change(k_factor(500), 9, 1.0, e)
    loss = -change(k_factor(0), 9, 0.0, 1 - e)
    assert gain == pytest.approx(12 * (1 - exact_e), abs=1e-9)
    assert loss == pytest.approx(60 * (1 - exact_e), abs=1e-9)
    assert (shown(gain), shown(loss)) == ("4.97", "24.87")


def test_had_the_new_player_won_he_gains_35_13_and_the_1600_loses_7_03() -> None:
    e_new = expected(1500, 1600, 9)
    exact_e = 1 / (1 + 10 ** (-0.15))
    gain = change(k_factor(0), 9, 1.0, e_new)
    loss = -change(k_factor(500), 9, 0.0, 1 - e_new)
    assert gain == pytest.approx(60 * exact_e, abs=1e-9)
    assert loss == pytest.approx(12 * exact_e, abs=1e-9)
    assert (shown(gain), shown(loss)) == ("35.13", "7.03")


def test_k_falls_with_experience_to_one_at_400() -> None:
    assert [k_factor(x) for x in (0, 50, 100, 399, 400, 10_000)] == pytest.approx(
        [5, 4.5, 4, 1.01, 1, 1]
    )


def test_the_worked_1600_example_through_recompute() -> None:
    """W reaches experience 500 in 100 matches to 5 against one-off opponents; then the rule's
    figures follow from whatever rating W has, with K = 1 and the opponent's K = 5."""
    results = [match((1,), (1000 + i,), event=f"e{i:03}", length=5) for i in range(100)]
    before = recompute(results)
    w = before.rating(1)
    assert before.standings[1].experience == 500 and k_factor(500) == 1
    final = match((1,), (2,), length=9, event="z", day=DAY + timedelta(days=1))
    after = recompute([*results, final])
    e = expected(w, START_RATING, 9)
    assert after.rating(1) - w == pytest.approx(12 * (1 - e), abs=1e-9)
    assert START_RATING - after.rating(2) == pytest.approx(60 * (1 - e), abs=1e-9)


# -- Tandem ---------------------------------------------------------------------------------


def test_a_tandem_team_is_rated_at_the_mean_of_its_players_each_with_their_own_k() -> None:
    first = [match((1,), (9,), length=5, event="a", finish=i) for i in range(1, 21)]  # 1: exp 100
    base = recompute(first)
    r1 = base.rating(1)
    tandem = match((1, 2), (3, 4), length=7, event="b", day=DAY + timedelta(days=1))
    after = recompute([*first, tandem])
    e = expected((r1 + START_RATING) / 2, START_RATING, 7)
    assert after.rating(1) - r1 == pytest.approx(4 * 4 * math.sqrt(7) * (1 - e), abs=1e-9)
    assert after.rating(2) - START_RATING == pytest.approx(4 * 5 * math.sqrt(7) * (1 - e), abs=1e-9)
    for loser in (3, 4):
        assert START_RATING - after.rating(loser) == pytest.approx(
            4 * 5 * math.sqrt(7) * (1 - e), abs=1e-9
        )
    assert after.standings[1].experience == 107 and after.standings[4].experience == 7


def test_a_tandem_draw_scores_half() -> None:
    first = [match((1,), (9,), length=9, event="a")]
    r1 = recompute(first).rating(1)
    draw = match((1, 2), (3, 4), Outcome.DRAW, length=5, event="b", day=DAY + timedelta(days=1))
    after = recompute([*first, draw])
    e_a = expected((r1 + START_RATING) / 2, START_RATING, 5)
    k1 = k_factor(9)
    assert after.rating(1) - r1 == pytest.approx(4 * k1 * math.sqrt(5) * (0.5 - e_a), abs=1e-9)
    assert after.rating(3) - START_RATING == pytest.approx(
        4 * 5 * math.sqrt(5) * (0.5 - (1 - e_a)), abs=1e-9
    )
    assert after.rating(3) > START_RATING > after.rating(2)  # the weaker team gains from a draw


def test_two_equal_teams_drawing_change_nothing() -> None:
    after = recompute([match((1, 2), (3, 4), Outcome.DRAW)])
    assert all(after.rating(p) == START_RATING for p in (1, 2, 3, 4))
    assert all(after.standings[p].experience == 5 for p in (1, 2, 3, 4))


# -- unrated and provisional ----------------------------------------------------------------


def test_byes_no_shows_and_director_marked_matches_are_not_rated() -> None:
    results = [
        match((1,), (), unrated=Unrated.BYE),
        match((1,), (2,), finish=2, unrated=Unrated.NO_SHOW),
        match((3,), (4,), finish=3, unrated=Unrated.DIRECTOR, reason="wrong board set up"),
    ]
    assert all(r.problems() == [] for r in results)
    assert recompute(results).standings == {}


def test_a_match_lost_on_time_is_rated_like_any_win() -> None:
    assert recompute([match((1,), (2,))]).rating(1) > START_RATING


@pytest.mark.parametrize(
    ("result", "words"),
    [
        (match((1,), (), unrated=None), "bye and unrated"),
        (match((1,), (2,), unrated=Unrated.BYE), "a bye has no side_b"),
        (match((1,), (2,), unrated=Unrated.DIRECTOR), "needs the director's reason"),
        (match((1,), (2,), Outcome.DRAW), "only a Tandem match can be drawn"),
        (match((1,), (2, 3)), "side_b has 2 players"),
        (match((1,), (1,)), "on both sides"),
        (match((1,), (2,), length=0), "length must be at least 1"),
        (match((1, 2, 3), (4, 5, 6)), "side_a has 3 players"),
        (match((1,), (2,), rnd=0), "round and finish order start at 1"),
    ],
)
def test_a_result_that_breaks_the_rules_names_its_field(result: ClubResult, words: str) -> None:
    assert any(words in p for p in result.problems()), result.problems()
    with pytest.raises(UserError, match=words):
        PublishedResults().publish(result.event, [result])


def test_publishing_refuses_a_finish_order_twice_and_another_events_result() -> None:
    with pytest.raises(UserError, match="finish order 1 twice"):
        PublishedResults().publish("e1", [match((1,), (2,)), match((3,), (4,))])
    with pytest.raises(UserError, match="published as e2"):
        PublishedResults().publish("e2", [match((1,), (2,))])
    with pytest.raises(UserError, match="2 different dates"):
        later = match((3,), (4,), finish=2, day=DAY + timedelta(1))
        PublishedResults().publish("e1", [match((1,), (2,)), later])


def test_provisional_below_experience_100() -> None:
    results = [match((1,), (2,), length=9, finish=i) for i in range(1, 12)]  # 11 x 9 = 99
    ratings = recompute(results)
    assert ratings.standings[1].experience == 99 and ratings.standings[1].provisional
    one_more = recompute([*results, match((1,), (3,), length=1, finish=12)])
    assert one_more.standings[1].experience == 100 and not one_more.standings[1].provisional
    assert one_more.standings[3].provisional


def test_shown_with_two_decimals() -> None:
    assert [shown(x) for x in (1500, 1522.3606797, 1477.639320)] == [
        "1500.00",
        "1522.36",
        "1477.64",
    ]


# -- order ----------------------------------------------------------------------------------


def test_results_are_rated_by_event_date_round_and_finish_order_not_as_given() -> None:
    late = match((1,), (2,), event="b", day=DAY + timedelta(days=7))
    r2 = match((1,), (3,), event="a", rnd=2, finish=1)
    r1b = match((3,), (1,), event="a", rnd=1, finish=2)
    r1a = match((2,), (3,), event="a", rnd=1, finish=1)
    assert in_order([late, r2, r1b, r1a]) == [r1a, r1b, r2, late]
    assert recompute([late, r2, r1b, r1a]) == recompute([r1a, r1b, r2, late])
    # the order matters: the same results rated otherwise give other ratings
    assert recompute([r1a, r1b, r2, late]).rating(1) != recompute(
        [
            ClubResult(
                r.event,
                r.event_date,
                r.round,
                5 - r.finish if r.event == "a" and r.round == 1 else r.finish,
                r.side_a,
                r.side_b,
                r.length,
                r.outcome,
            )
            for r in (r1a, r1b, r2, late)
        ]  # fmt: skip
    ).rating(1)


def test_a_correction_in_an_old_event_rerates_everything_after_it() -> None:
    old = match((1,), (2,), event="old")
    new = match((1,), (3,), event="new", day=DAY + timedelta(days=7))
    club = PublishedResults()
    club.publish("new", [new])
    club.publish("old", [old])
    before = recompute(club.results())
    club.publish("old", [match((1,), (2,), Outcome.B_WON, event="old")])
    after = recompute(club.results())
    assert after.rating(3) != before.rating(3)  # 3 played only in the later event
    assert len(club.results()) == 2
    club.withdraw("old")
    assert recompute(club.results()) == recompute([new])


def test_history_has_one_point_per_player_and_match_in_order() -> None:
    results = [
        match((1,), (2,), finish=1),
        match((1, 2), (3, 4), event="t", day=DAY + timedelta(1)),
    ]
    ratings = recompute(results, history=True)
    points = [(c.person, c.result.event) for c in ratings.history]
    assert points == [(1, "e1"), (2, "e1"), (1, "t"), (2, "t"), (3, "t"), (4, "t")]
    ones = [c for c in ratings.history if c.person == 1]
    assert ones[0].after == ones[1].before and ones[1].after == ratings.rating(1)
    assert [c.experience_before for c in ones] == [0, 5]
    assert ratings.ranked()[0].person == 1


def test_a_persons_chart_points_are_the_start_and_each_rating_after_provisional_first() -> None:
    """The points the Club page's chart and the PDF card plot: 1500 at match 0, then the rating
    after each rated match with its day; provisional while the experience is under 100."""
    results = [match((1,), (2,), length=9, finish=i) for i in range(1, 12)]  # 99 experience
    results.append(match((1,), (3,), length=1, day=DAY + timedelta(7)))  # 100: established
    results.append(match((3,), (1,), length=3, day=DAY + timedelta(14)))
    ratings = recompute(results, history=True)
    mine = [c for c in ratings.history if c.person == 1]
    points = history_points(mine)
    assert [p.match for p in points] == list(range(14))
    assert [p.rating for p in points] == [START_RATING, *(c.after for c in mine)]
    assert points[-1].rating == ratings.rating(1)
    assert [p.day for p in points[:2]] == [None, DAY] and points[-1].day == DAY + timedelta(14)
    assert [p.experience for p in points[11:]] == [99, 100, 103]
    provisional, established = provisional_split(points)
    assert provisional == points[:13] and established == points[12:]  # joined at match 12
    assert provisional_split(points[:12]) == (points[:12], [])
    assert history_points([]) == [] and provisional_split([]) == ([], [])


# -- a literal reading of the rule, to compare with the fast loop ---------------------------


def by_the_rule(results: list[ClubResult]) -> dict[int, tuple[float, int]]:
    rating: dict[int, float] = {}
    exp: dict[int, int] = {}
    for r in sorted((r for r in results if r.unrated is None), key=lambda r: r.order):

        def team(side: tuple[int, ...]) -> float:
            return sum(rating.get(p, 1500.0) for p in side) / len(side)

        if r.outcome is Outcome.DRAW:
            deltas = {}
            for side, other in ((r.side_a, r.side_b), (r.side_b, r.side_a)):
                e = expected(team(side), team(other), r.length)
                for p in side:
                    deltas[p] = 4 * k_factor(exp.get(p, 0)) * math.sqrt(r.length) * (0.5 - e)
        else:
            w, loser = (r.side_a, r.side_b) if r.outcome is Outcome.A_WON else (r.side_b, r.side_a)
            e = 1 / (1 + 10 ** ((team(loser) - team(w)) * math.sqrt(r.length) / 2000))
            deltas = {p: 4 * k_factor(exp.get(p, 0)) * math.sqrt(r.length) * (1 - e) for p in w}
            deltas |= {p: -4 * k_factor(exp.get(p, 0)) * math.sqrt(r.length) * (1 - e)
                       for p in loser}  # fmt: skip
        for p, d in deltas.items():
            rating[p] = rating.get(p, 1500.0) + d
            exp[p] = exp.get(p, 0) + r.length
    return {p: (rating[p], exp[p]) for p in rating}


@st.composite
def club(draw: st.DrawFn) -> list[list[ClubResult]]:
    """Events of random dates (some on the same day), each singles or Tandem, 1-3 rounds."""
    events: list[list[ClubResult]] = []
    for e in range(draw(st.integers(1, 5))):
        day = DAY + timedelta(days=draw(st.integers(0, 3)))
        tandem = draw(st.booleans())
        size = 2 if tandem else 1
        out: list[ClubResult] = []
        for rnd in range(1, draw(st.integers(1, 3)) + 1):
            people = draw(st.permutations(range(1, 11)))
            tables = draw(st.integers(1, len(people) // (2 * size)))
            for t in range(tables):
                seat = people[2 * size * t : 2 * size * (t + 1)]
                outcomes = [Outcome.A_WON, Outcome.B_WON] + ([Outcome.DRAW] if tandem else [])
                unrated = draw(st.sampled_from([None, None, None, Unrated.NO_SHOW]))
                out.append(ClubResult(
                    f"ev{e}", day, rnd, t + 1, tuple(seat[:size]), tuple(seat[size:]),
                    draw(st.sampled_from([1, 3, 5, 7, 9, 11])), draw(st.sampled_from(outcomes)),
                    unrated,
                ))  # fmt: skip
        events.append(out)
    return events


@settings(max_examples=150, deadline=None)
@given(club(), st.randoms(use_true_random=False))
def test_ratings_do_not_depend_on_the_order_events_were_published_in(
    events: list[list[ClubResult]], rng: random.Random
) -> None:
    one_pass = recompute([r for ev in events for r in ev])
    club_ = PublishedResults()
    shuffled = events[:]
    rng.shuffle(shuffled)
    for ev in shuffled:
        results = ev[:]
        rng.shuffle(results)
        club_.publish(ev[0].event, results)
    assert recompute(club_.results()) == one_pass
    literal = by_the_rule([r for ev in events for r in ev])
    assert set(literal) == set(one_pass.standings)
    for p, (rating, exp) in literal.items():
        assert one_pass.standings[p].rating == pytest.approx(rating, abs=1e-9)
        assert one_pass.standings[p].experience == exp


@settings(max_examples=150, deadline=None)
@given(club(), st.data())
def test_republishing_a_corrected_event_equals_publishing_it_corrected_at_first(
    events: list[list[ClubResult]], data: st.DataObject
) -> None:
    which = data.draw(st.integers(0, len(events) - 1))
    wrong = events[which]
    flip = {Outcome.A_WON: Outcome.B_WON, Outcome.B_WON: Outcome.A_WON, Outcome.DRAW: Outcome.A_WON}
    corrected = [ClubResult(r.event, r.event_date, r.round, r.finish, r.side_a, r.side_b,
                            r.length, flip[r.outcome], r.unrated) for r in wrong]  # fmt: skip
    corrected = corrected[: data.draw(st.integers(1, len(corrected)))]  # a match removed too
    first = PublishedResults()
    for ev in events:
        first.publish(ev[0].event, ev)
    first.publish(wrong[0].event, corrected)
    right = PublishedResults()
    for i, ev in enumerate(events):
        right.publish(ev[0].event, corrected if i == which else ev)
    assert recompute(first.results()) == recompute(right.results())


@settings(max_examples=150, deadline=None)
@given(club())
def test_a_match_changes_the_total_rating_by_zero_when_the_ks_are_equal(
    events: list[list[ClubResult]],
) -> None:
    ratings = recompute([r for ev in events for r in ev], history=True)
    by_match: dict[tuple[object, ...], list[tuple[float, float]]] = {}
    for c in ratings.history:
        by_match.setdefault(c.result.order, []).append(
            (k_factor(c.experience_before), c.after - c.before)
        )
    for changes in by_match.values():
        if len({k for k, _ in changes}) == 1:
            assert sum(d for _, d in changes) == pytest.approx(0, abs=1e-9)


def test_a_match_between_equal_ks_sums_to_zero_at_any_ratings() -> None:
    for ra, rb, n in ((1500, 1500, 5), (1700, 1450, 11), (1300, 1900, 1)):
        e = expected(ra, rb, n)
        assert change(3, n, 1, e) + change(3, n, 0, 1 - e) == pytest.approx(0, abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(club())
def test_the_history_pass_rates_as_the_fast_pass(events: list[list[ClubResult]]) -> None:
    results = [r for ev in events for r in ev]
    fast, slow = recompute(results), recompute(results, history=True)
    assert fast.standings.keys() == slow.standings.keys()
    for p, s in fast.standings.items():
        assert s.rating == pytest.approx(slow.standings[p].rating, abs=1e-9)
        assert (s.experience, s.matches) == (
            slow.standings[p].experience,
            slow.standings[p].matches,
        )


def test_a_sides_seeding_rating_is_its_players_mean_and_needs_every_person() -> None:
    from director.domain.rating import side_rating

    ratings = {1: 1600.0, 2: 1450.0}
    assert side_rating((1, 2), ratings) == 1525.0
    assert side_rating((1, 9), ratings) == 1550.0  # #9 not rated yet: the start, 1500
    assert side_rating((1,), ratings) == 1600.0
    assert side_rating((1, None), ratings) is None
    assert side_rating((), ratings) is None
