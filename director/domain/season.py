"""Season standings of the club (RULES §12): persons ranked by season points, ties by rating.

By default a person scores 1 point for each rated match won in the season and 1/2 for a Tandem
draw (each player of a Tandem team scores for the team); the club may instead give points by
final place in each event of the season (`SeasonPoints.PLACES`, a table of points for places
1, 2, 3, …; a shared place scores that place's points for each person sharing it).

How the rest calls it: `services/club.py` gathers the club's `ClubResult`s (and, for points by
place, each event's final places as `EventPlaces`), computes the ratings once with
`domain.rating.recompute` and calls `season_standings`; the Club page, the season PDF, the
phones and `club season` show the rows as they come.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from enum import StrEnum

from director.domain.errors import UserError
from director.domain.rating import ClubResult, Outcome, Ratings


@dataclass(frozen=True, slots=True)
class Season:
    """A season the club names: its first and last day, both included."""

    name: str
    first: date
    last: date

    def __post_init__(self) -> None:
        if self.last < self.first:
            raise UserError(f"season {self.name}: last day {self.last} is before the first "
                            f"{self.first}")  # fmt: skip

    def holds(self, day: date) -> bool:
        return self.first <= day <= self.last


class SeasonPoints(StrEnum):
    WINS = "wins"  # 1 a rated win, 1/2 a Tandem draw
    PLACES = "places"  # the club's points for each final place in an event


@dataclass(frozen=True, slots=True)
class EventPlaces:
    """An event's final places: person id → place (1 the winner; shared places repeat)."""

    event: str
    event_date: date
    places: Mapping[int, int]


@dataclass(frozen=True, slots=True)
class SeasonRow:
    place: int
    shared: bool  # tied with another row on points and rating
    person: int
    points: float
    rating: float


def _points_by_wins(season: Season, results: Iterable[ClubResult]) -> dict[int, float]:
    points: dict[int, float] = {}
    for r in results:
        if not r.rated or not season.holds(r.event_date):
            continue
        for p in r.side_a + r.side_b:
            points.setdefault(p, 0.0)
        if r.outcome is Outcome.DRAW:
            for p in r.side_a + r.side_b:
                points[p] += 0.5
        else:
            for p in r.side_a if r.outcome is Outcome.A_WON else r.side_b:
                points[p] += 1.0
    return points


def _points_by_place(
    season: Season, places: Iterable[EventPlaces], table: Sequence[float]
) -> dict[int, float]:
    if not table:
        raise UserError("points by place need the points of place 1 at least")
    points: dict[int, float] = {}
    for event in places:
        if not season.holds(event.event_date):
            continue
        for person, place in event.places.items():
            if place < 1:
                raise UserError(f"event {event.event}: place {place} (places start at 1)")
            won = table[place - 1] if place <= len(table) else 0.0
            points[person] = points.get(person, 0.0) + won
    return points


def season_standings(
    season: Season,
    results: Iterable[ClubResult],
    ratings: Ratings,
    by: SeasonPoints = SeasonPoints.WINS,
    places: Iterable[EventPlaces] = (),
    place_points: Sequence[float] = (),
) -> list[SeasonRow]:
    """Everyone who played in the season, most points first, ties broken by rating."""
    if by is SeasonPoints.WINS:
        points = _points_by_wins(season, results)
    else:
        points = _points_by_place(season, places, place_points)
    order = sorted(points, key=lambda p: (-points[p], -ratings.rating(p), p))
    rows: list[SeasonRow] = []
    for i, p in enumerate(order):
        key = (points[p], ratings.rating(p))
        place = i + 1
        if rows and (rows[-1].points, rows[-1].rating) == key:
            place = rows[-1].place
        rows.append(SeasonRow(place, False, p, points[p], ratings.rating(p)))
    shared = {r.place for r in rows if sum(1 for o in rows if o.place == r.place) > 1}
    return [SeasonRow(r.place, r.place in shared, r.person, r.points, r.rating) for r in rows]
