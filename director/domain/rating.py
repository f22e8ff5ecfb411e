"""Club ratings: the FIBS formula, recomputed from every published result in order (RULES §12).

Everyone starts at 1500 with experience 0. In a rated match to N the side with rating R_A
against R_B expects E_A = 1 / (1 + 10^((R_B - R_A) * sqrt(N) / 2000)) and scores S_A (1 for a
win, 0 for a loss, 1/2 for a Tandem draw); each of its players changes by
4 * K * sqrt(N) * (S_A - E_A), K = max(1, 5 - experience / 100) with the player's experience
before the match, and then gains N of experience. A Tandem side's rating is the mean of its
two players' ratings; each player keeps their own K. This one formula is the rule's "W gains
4 K_W sqrt(N) (1 - E), L loses 4 K_L sqrt(N) (1 - E)" for a win and its "(1/2 - E)" for a draw.

Ratings are derived, never stored as truth: `recompute` replays every rated result in the
order of `ClubResult.order` (event date, event, round, the order in which the round's matches
finished), whatever order the events were published in. `PublishedResults` holds what each
event published; publishing an event again replaces that event's results whole.

How the rest calls it (the store and GUI wiring comes later): the club's store keeps one row
per published result and turns them into `ClubResult`s; `services/club.py` publishes an
event's results through `PublishedResults.publish` (one transaction replacing that event's
rows), then calls `recompute(results)` for the rating list (`Standing.rating`,
`Standing.provisional`, shown with `shown`) and `recompute(results, history=True).history`
for a person's chart (`history_points`); the CLI's `club ratings --json` prints
`Standing.rating` unrounded.
Season standings are `domain/season.py`'s, head-to-head and the nemesis report
`domain/rivals.py`'s; both read the same `ClubResult`s.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum
from operator import attrgetter
from typing import NamedTuple

from director.domain.errors import UserError
from director.domain.rules import FORMATS

START_RATING = 1500.0
PROVISIONAL_BELOW = 100  # experience under which a rating is marked provisional


class Unrated(StrEnum):
    """Why a result does not change ratings (RULES §12: byes, no-shows, the director's say)."""

    BYE = "bye"
    NO_SHOW = "no-show forfeit"
    DIRECTOR = "marked unrated by the director"


class Outcome(StrEnum):
    """The result from side A's point of view; `DRAW` only in Tandem (rule 4)."""

    A_WON = "a"
    B_WON = "b"
    DRAW = "draw"


_SCORE_A = {Outcome.A_WON: 1.0, Outcome.B_WON: 0.0, Outcome.DRAW: 0.5}


class ClubResult(NamedTuple):
    """One finished match of a published event, its players by person id.

    A side is one person (an individual match) or two (a Tandem team); `side_b` is empty for
    a bye. `finish` is the match's place in the order its round's matches finished (1 first).
    A named tuple, immutable like a frozen dataclass: a club reads 100,000 of them when it
    opens, and a frozen dataclass's `__init__` (a setattr per field) took 0.6 s of that.
    """

    event: str
    event_date: date
    round: int
    finish: int
    side_a: tuple[int, ...]
    side_b: tuple[int, ...]
    length: int
    outcome: Outcome
    unrated: Unrated | None = None
    reason: str = ""  # the director's reason when `unrated` is DIRECTOR

    @property
    def order(self) -> tuple[date, str, int, int]:
        """Where the result is rated: event date, event, round, finish order (RULES §12)."""
        return (self.event_date, self.event, self.round, self.finish)

    @property
    def rated(self) -> bool:
        return self.unrated is None

    @property
    def score_a(self) -> float:
        return _SCORE_A[self.outcome]

    def problems(self) -> list[str]:
        """What is wrong with this result, in words naming the field; empty when it is fine."""
        out: list[str] = []
        where = f"event {self.event} round {self.round} match {self.finish}"
        if self.round < 1 or self.finish < 1:
            out.append(f"{where}: round and finish order start at 1")
        if self.length < 1:
            out.append(f"{where}: length must be at least 1 point, not {self.length}")
        if len(self.side_a) not in {len(f.boards) for f in FORMATS}:  # a player a board
            out.append(f"{where}: side_a has {len(self.side_a)} players (1 or 2)")
        if self.side_b and len(self.side_b) != len(self.side_a):
            out.append(f"{where}: side_b has {len(self.side_b)} players, side_a has "
                       f"{len(self.side_a)}")  # fmt: skip
        players = self.side_a + self.side_b
        if len(set(players)) != len(players):
            out.append(f"{where}: a person plays on both sides or twice")
        if not self.side_b and self.unrated is not Unrated.BYE:
            out.append(f"{where}: a match without side_b is a bye and unrated as one")
        if self.side_b and self.unrated is Unrated.BYE:
            out.append(f"{where}: a bye has no side_b")
        if self.outcome is Outcome.DRAW and len(self.side_a) != 2:
            out.append(f"{where}: only a Tandem match can be drawn")
        if self.unrated is Unrated.DIRECTOR and not self.reason.strip():
            out.append(f"{where}: a match marked unrated needs the director's reason")
        return out


def side_rating(persons: Sequence[int | None], ratings: Mapping[int, float]) -> float | None:
    """A side's club rating for seeding: the mean of its players' ratings, as a Tandem team is
    rated (a person not rated yet counts the start, 1500); None when a player is no person
    of the club."""
    if not persons or any(p is None for p in persons):
        return None
    return sum(ratings.get(p, START_RATING) for p in persons if p is not None) / len(persons)


def expected(rating: float, opponent: float, length: int) -> float:
    """E: the expected score of a side rated `rating` against `opponent` in a match to N."""
    return 1.0 / (1.0 + math.pow(10.0, (opponent - rating) * math.sqrt(length) / 2000.0))


def k_factor(experience: float) -> float:
    """K = max(1, 5 - experience / 100), with the experience before the match."""
    return max(1.0, 5.0 - experience / 100.0)


def change(k: float, length: int, score: float, expectation: float) -> float:
    """One player's rating change: 4 * K * sqrt(N) * (S - E)."""
    return 4.0 * k * math.sqrt(length) * (score - expectation)


def shown(rating: float) -> str:
    """A rating as people see it: two decimals (the JSON keeps it unrounded)."""
    return f"{rating:.2f}"


@dataclass(frozen=True, slots=True)
class Standing:
    """A person's rating now: derived from their rated matches, never edited."""

    person: int
    rating: float
    experience: int
    matches: int

    @property
    def provisional(self) -> bool:
        return self.experience < PROVISIONAL_BELOW


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One person's change in one rated match: a point of their rating history."""

    person: int
    result: ClubResult
    before: float
    after: float
    experience_before: int


@dataclass(frozen=True)
class Ratings:
    standings: dict[int, Standing]
    history: tuple[RatingChange, ...] = ()

    def rating(self, person: int) -> float:
        s = self.standings.get(person)
        return START_RATING if s is None else s.rating

    def ranked(self) -> list[Standing]:
        """The rating list: best first, ties by more experience, then by id."""
        return sorted(self.standings.values(), key=lambda s: (-s.rating, -s.experience, s.person))


_IN_EVENT = attrgetter("round", "finish")


def in_order(results: Iterable[ClubResult]) -> list[ClubResult]:
    """The results in the order they are rated, whatever order they were published in:
    `ClubResult.order`. Sorted event by event (dates and names compared once per event, not
    once per match: a third of the time of a 100,000-match club otherwise)."""
    events: dict[tuple[date, str], list[ClubResult]] = {}
    for r in results:
        events.setdefault((r.event_date, r.event), []).append(r)
    out: list[ClubResult] = []
    for key in sorted(events):
        out += sorted(events[key], key=_IN_EVENT)
    return out


def recompute(results: Iterable[ClubResult], history: bool = False) -> Ratings:
    """Every person's rating from all published results, rated in order (RULES §12)."""
    rated = in_order(r for r in results if r.unrated is None)
    if history:
        return _with_history(rated)
    # the 100,000-match club is recomputed whenever a result is published: one dict look-up
    # per player and match, [rating, experience, matches] in one list, individual matches
    # without the loops a Tandem team needs
    state: dict[int, list[float]] = {}
    sqrt = math.sqrt
    for r in rated:
        n = r.length
        root = sqrt(n)
        a, b = r.side_a, r.side_b
        if len(a) == 1:
            pa = state.get(a[0])
            if pa is None:
                pa = state[a[0]] = [START_RATING, 0.0, 0.0]
            pb = state.get(b[0])
            if pb is None:
                pb = state[b[0]] = [START_RATING, 0.0, 0.0]
            step = (
                4.0
                * root
                * (_SCORE_A[r.outcome] - 1.0 / (1.0 + 10.0 ** ((pb[0] - pa[0]) * root / 2000.0)))
            )
            k = 5.0 - pa[1] / 100.0
            pa[0] += step * (k if k > 1.0 else 1.0)
            pa[1] += n
            pa[2] += 1
            k = 5.0 - pb[1] / 100.0
            pb[0] -= step * (k if k > 1.0 else 1.0)
            pb[1] += n
            pb[2] += 1
            continue
        team: list[list[float]] = []
        for p in a + b:
            s = state.get(p)
            if s is None:
                s = state[p] = [START_RATING, 0.0, 0.0]
            team.append(s)
        ra = (team[0][0] + team[1][0]) / 2.0
        rb = (team[2][0] + team[3][0]) / 2.0
        step = (
            4.0 * root * (_SCORE_A[r.outcome] - 1.0 / (1.0 + 10.0 ** ((rb - ra) * root / 2000.0)))
        )
        for i, s in enumerate(team):
            k = 5.0 - s[1] / 100.0
            s[0] += (step if i < 2 else -step) * (k if k > 1.0 else 1.0)
            s[1] += n
            s[2] += 1
    return Ratings({p: Standing(p, s[0], int(s[1]), int(s[2])) for p, s in state.items()})


def _with_history(rated: list[ClubResult]) -> Ratings:
    """As `recompute`, with every player's change in every match (a person's chart)."""
    rating: dict[int, float] = {}
    experience: dict[int, int] = {}
    played: dict[int, int] = {}
    changes: list[RatingChange] = []
    for r in rated:
        root = math.sqrt(r.length)
        a, b = r.side_a, r.side_b
        ra = sum(rating.get(p, START_RATING) for p in a) / len(a)
        rb = sum(rating.get(p, START_RATING) for p in b) / len(b)
        step = 4.0 * root * (_SCORE_A[r.outcome] - expected(ra, rb, r.length))
        for side, sign in ((a, 1.0), (b, -1.0)):
            for p in side:
                x = experience.get(p, 0)
                before = rating.get(p, START_RATING)
                after = before + sign * step * k_factor(x)
                rating[p] = after
                experience[p] = x + r.length
                played[p] = played.get(p, 0) + 1
                changes.append(RatingChange(p, r, before, after, x))
    return Ratings(
        {p: Standing(p, rating[p], experience[p], played[p]) for p in rating}, tuple(changes)
    )


class HistoryPoint(NamedTuple):
    """A point of a person's rating chart: their rating after their `match`-th rated match (0:
    the start, before the first), the experience it came with, and the day it was played."""

    match: int
    rating: float
    experience: int
    day: date | None  # None for the start

    @property
    def provisional(self) -> bool:
        return self.experience < PROVISIONAL_BELOW


def history_points(history: Sequence[RatingChange]) -> list[HistoryPoint]:
    """A person's rating history (their `RatingChange`s, in order) as their chart draws it: the
    start, then the rating after each rated match. The Club page and the PDF card plot these."""
    if not history:
        return []
    first = history[0]
    return [HistoryPoint(0, first.before, first.experience_before, None)] + [
        HistoryPoint(i, c.after, c.experience_before + c.result.length, c.result.event_date)
        for i, c in enumerate(history, 1)
    ]


def chart_range(points: Sequence[HistoryPoint]) -> tuple[float, float]:
    """The rating axis of a chart of `points`: the lowest and highest rating, with a margin."""
    ratings = [p.rating for p in points]
    low, high = min(ratings), max(ratings)
    pad = max(5.0, (high - low) * 0.1)
    return low - pad, high + pad


def provisional_split(
    points: Sequence[HistoryPoint],
) -> tuple[list[HistoryPoint], list[HistoryPoint]]:
    """The chart's two lines: the provisional part, up to the first point that is not (so that
    the lines join), and the established part from there; either may be empty."""
    settled = next((i for i, p in enumerate(points) if not p.provisional), len(points))
    return list(points[: settled + 1]), list(points[settled:])


@dataclass
class PublishedResults:
    """What each event published to the club; publishing again replaces that event's results.

    The store keeps the same shape in its tables; this is the rule it follows, so that a
    corrected event re-rates everything after it and nothing else."""

    events: dict[str, tuple[ClubResult, ...]] = field(default_factory=dict)

    def publish(self, event: str, results: Sequence[ClubResult]) -> None:
        problems = [p for r in results for p in r.problems()]
        problems += [f"result of event {r.event} published as {event}" for r in results
                     if r.event != event]  # fmt: skip
        seen: set[tuple[int, int]] = set()
        for r in results:
            if (r.round, r.finish) in seen:
                problems.append(f"event {event} round {r.round}: finish order {r.finish} twice")
            seen.add((r.round, r.finish))
        dates = {r.event_date for r in results}
        if len(dates) > 1:
            problems.append(f"event {event}: its results carry {len(dates)} different dates")
        if problems:
            raise UserError("; ".join(problems))
        self.events[event] = tuple(results)

    def withdraw(self, event: str) -> None:
        self.events.pop(event, None)

    def results(self) -> list[ClubResult]:
        return [r for rs in self.events.values() for r in rs]
