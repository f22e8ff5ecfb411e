"""RULES §12 season standings: 1 point a rated win, 1/2 a Tandem draw, ties by rating; or
points by final place."""

from __future__ import annotations

from datetime import date

import pytest

from director.domain.errors import UserError
from director.domain.rating import ClubResult, Outcome, Unrated, recompute
from director.domain.season import EventPlaces, Season, SeasonPoints, season_standings

SPRING = Season("Spring 2026", date(2026, 3, 1), date(2026, 5, 31))


def result(
    event: str,
    day: date,
    finish: int,
    a: tuple[int, ...],
    b: tuple[int, ...],
    outcome: Outcome = Outcome.A_WON,
    unrated: Unrated | None = None,
) -> ClubResult:
    return ClubResult(event, day, 1, finish, a, b, 5, outcome, unrated)


def test_a_point_a_rated_win_half_a_tandem_draw_nothing_outside_the_season() -> None:
    d = date(2026, 3, 10)
    results = [
        result("n1", d, 1, (1,), (2,)),
        result("n1", d, 2, (1,), (3,)),
        result("n1", d, 3, (3,), (2,), unrated=Unrated.NO_SHOW),  # no point: not rated
        result("t1", d, 1, (1, 2), (3, 4), Outcome.DRAW),
        result("t1", d, 2, (2, 4), (1, 3), Outcome.A_WON),
        result("old", date(2026, 2, 1), 1, (4,), (1,)),  # before the season
    ]
    ratings = recompute(results)
    rows = season_standings(SPRING, results, ratings)
    points = {r.person: r.points for r in rows}
    assert points == {1: 2.5, 2: 1.5, 3: 0.5, 4: 1.5}
    assert [r.person for r in rows][0] == 1 and [r.place for r in rows][0] == 1
    # 2 and 4 tie on points: the better rating first
    two_four = [r for r in rows if r.person in (2, 4)]
    assert two_four[0].rating > two_four[1].rating
    assert [r.place for r in two_four] == [2, 3]
    assert not any(r.shared for r in rows)


def test_equal_points_and_equal_ratings_share_a_place() -> None:
    d = date(2026, 4, 1)
    results = [result("n", d, 1, (1,), (2,)), result("n", d, 2, (3,), (4,))]
    rows = season_standings(SPRING, results, recompute(results))
    assert [(r.place, r.shared) for r in rows] == [(1, True), (1, True), (3, True), (3, True)]


def test_points_by_final_place_in_each_event() -> None:
    places = [
        EventPlaces("n1", date(2026, 3, 3), {1: 1, 2: 2, 3: 3, 4: 3}),
        EventPlaces("n2", date(2026, 3, 10), {2: 1, 1: 2, 5: 9}),
        EventPlaces("x", date(2025, 3, 10), {5: 1}),  # another season
    ]
    rows = season_standings(
        SPRING, [], recompute([]), SeasonPoints.PLACES, places, place_points=(10, 6, 4)
    )
    assert {r.person: r.points for r in rows} == {1: 16, 2: 16, 3: 4, 4: 4, 5: 0}
    assert [r.place for r in rows] == [1, 1, 3, 3, 5]


def test_bad_seasons_and_place_tables_are_refused_naming_them() -> None:
    with pytest.raises(UserError, match="Autumn: last day"):
        Season("Autumn", date(2026, 11, 1), date(2026, 9, 1))
    with pytest.raises(UserError, match="points of place 1"):
        season_standings(SPRING, [], recompute([]), SeasonPoints.PLACES, [], ())
    with pytest.raises(UserError, match="event n: place 0"):
        season_standings(SPRING, [], recompute([]), SeasonPoints.PLACES,
                         [EventPlaces("n", date(2026, 4, 1), {1: 0})], (3,))  # fmt: skip
