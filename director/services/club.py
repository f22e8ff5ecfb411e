"""The club's use-cases: publishing an event's results, the rating list, a person, a season.

Two sessions meet here and never mix: the event's (read only) and the club's. Publishing reads
an event's finished matches (`event_results`), matches every player's name to a person with
nobody guessed (`match_names`: a name, an alias, an explicit mapping, or a new person; a name
several persons carry is refused until it is mapped), then replaces that event's results in
the club in the caller's one transaction (`publish`). Ratings, standings and records are the
domain's (`domain/rating.py`, `season.py`, `rivals.py`), recomputed from the stored results.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime

from sqlalchemy import delete, func, insert, select
from sqlalchemy.orm import Session

from director.domain.errors import UserError
from director.domain.numbers import typed_number
from director.domain.rating import (
    ClubResult,
    Outcome,
    PublishedResults,
    RatingChange,
    Ratings,
    Standing,
    Unrated,
    recompute,
)
from director.domain.rivals import Record, Rivals, nemesis_report, records_of
from director.domain.rules import Format
from director.domain.season import Season, SeasonRow, season_standings
from director.domain.wording import quoted
from director.store import models
from director.store.club_models import Alias, ClubEvent, ClubMatch, ClubSeason, Person

# --- the event's side --------------------------------------------------------------------


@dataclass(frozen=True)
class EventMatch:
    """A finished match of the event, its players by name (before they are persons)."""

    round: int
    finish: int
    side_a: tuple[str, ...]
    side_b: tuple[str, ...]
    score_a: int
    score_b: int
    outcome: Outcome
    length: int  # the length the match was paired with (a later change leaves it)
    unrated: Unrated | None = None
    reason: str = ""


@dataclass(frozen=True)
class EventResults:
    identity: str  # the same after a correction: publishing again replaces the event
    name: str
    event_date: date
    rounds: int
    format: str  # tandem / individual (RULES §10)
    matches: tuple[EventMatch, ...]
    persons: dict[str, int] = field(default_factory=dict)  # name: the id stored in the event
    players: tuple[str, ...] = ()  # every registered player, played or not

    def names(self) -> list[str]:
        """Every player's name once, in the order they first appear."""
        seen: dict[str, None] = {}
        for m in self.matches:
            for n in m.side_a + m.side_b:
                seen.setdefault(n, None)
        return list(seen)


def _identity(created: datetime) -> str:
    """The event's identity: the moment its file was created, which no correction changes."""
    if created.tzinfo is not None:
        created = created.astimezone(UTC).replace(tzinfo=None)
    return f"tandem:{created.isoformat(timespec='microseconds')}"


_OUTCOMES = {"A": Outcome.A_WON, "B": Outcome.B_WON, "draw": Outcome.DRAW}


def _players(session: Session) -> tuple[dict[int, tuple[str, ...]], dict[str, int]]:
    """Each team's players' names by board, and the person ids the event stored."""
    names: dict[int, tuple[str, ...]] = {}
    persons: dict[str, int] = {}
    for team_id, name, person in session.execute(
        select(models.Player.team_id, models.Player.name, models.Player.person_id).order_by(
            models.Player.team_id, models.Player.board
        )
    ):
        names[team_id] = (*names.get(team_id, ()), name)
        if person is not None:
            persons[name] = person
    return names, persons


def _the_event(session: Session) -> models.Event:
    event = session.scalars(select(models.Event)).first()
    if event is None:
        raise UserError("this file holds no event")
    return event


def event_players(session: Session) -> EventResults:
    """The event's registered players and the ids it stored (no results: `club link`)."""
    event = _the_event(session)
    names, persons = _players(session)
    players = tuple(n for team in names.values() for n in team)
    try:
        day = date.fromisoformat(event.event_date)
    except ValueError:
        day = date.min
    return EventResults(_identity(event.created_at), event.name, day, 0, event.format, (),
                        persons, players)  # fmt: skip


def event_results(session: Session) -> EventResults:
    """The event's finished results, in each round's finish order (the last game recorded)."""
    event = _the_event(session)
    try:
        day = date.fromisoformat(event.event_date)
    except ValueError:
        raise UserError(
            f"{event.name}: the event has no date; set it (Event, the header) before publishing"
        ) from None
    names, persons = _players(session)
    players = tuple(n for team in names.values() for n in team)
    if Format(event.format).record.one_board:  # the entrant is a player: board 1's (RULES §10)
        names = {team: on[:1] for team, on in names.items()}
    last_game = (
        select(models.Game.match_id, func.max(models.Game.clock_seq).label("last"))
        .group_by(models.Game.match_id)
        .subquery()
    )
    rows = session.execute(
        select(models.Match, models.Round.number, last_game.c.last)
        .outerjoin(models.Round, models.Match.round_id == models.Round.id)
        .outerjoin(last_game, last_game.c.match_id == models.Match.id)
    ).all()
    by_round: dict[int, list[tuple[int, int, int, models.Match]]] = {}
    for match, number, last in rows:
        rnd = number or 1
        if match.team_b_id is not None and match.result not in _OUTCOMES:
            raise UserError(
                f"{event.name}: round {rnd} table {match.table_no} is not finished; "
                "publish the event when every match is"
            )
        by_round.setdefault(rnd, []).append((last or 0, match.table_no, match.id, match))
    matches: list[EventMatch] = []
    for rnd in sorted(by_round):
        for finish, (_l, _t, _i, m) in enumerate(sorted(by_round[rnd], key=lambda x: x[:3]), 1):
            side_a = names.get(m.team_a_id, ())
            if m.team_b_id is None:
                matches.append(EventMatch(rnd, finish, side_a, (), 0, 0, Outcome.A_WON,
                                          m.match_length, Unrated.BYE))  # fmt: skip
                continue
            unrated = Unrated.NO_SHOW if m.forfeit_by else None
            matches.append(
                EventMatch(rnd, finish, side_a, names.get(m.team_b_id, ()), m.final_a,
                           m.final_b, _OUTCOMES[m.result], m.match_length, unrated)
            )  # fmt: skip
    return EventResults(
        _identity(event.created_at), event.name, day, len(by_round), event.format,
        tuple(matches), persons, players,
    )  # fmt: skip


# --- matching names to persons ----------------------------------------------------------


def normal(name: str) -> str:
    """A name as it is compared: case and runs of spaces do not tell persons apart."""
    return " ".join(name.split()).casefold()


@dataclass(frozen=True)
class NameMatch:
    """How one name of the event was matched: `how` is "registered" (the id the event stored
    when the player was picked from the club), "person", "alias", "mapped" or "new" (`person`
    None: a person is created), or "ambiguous" (`candidates`: refused)."""

    name: str
    how: str
    person: int | None = None
    candidates: tuple[int, ...] = ()

    def describe(self) -> str:
        if self.how == "new":
            return f"{self.name}: new person"
        if self.how == "ambiguous":
            ids = ", ".join(f"#{c}" for c in self.candidates)
            return f"{self.name}: several persons carry this name ({ids})"
        return f"{self.name}: person #{self.person} ({self.how})"


def match_names(
    session: Session,
    names: list[str],
    mapping: dict[str, int] | None = None,
    registered: dict[str, int] | None = None,
) -> list[NameMatch]:
    """Each name's person: mapped explicitly, else the id the event stored (`registered`),
    else by name or alias, else new; never guessed."""
    mapping = {normal(k): v for k, v in (mapping or {}).items()}
    stored = {normal(k): (k, v) for k, v in (registered or {}).items()}
    wanted = set(mapping.values()) | {v for _k, v in stored.values()}
    known = set(session.scalars(select(Person.id).where(Person.id.in_(wanted))))
    if missing := sorted(set(mapping.values()) - known):
        raise UserError(f"the club has no person #{missing[0]}")
    for key, (name, pid) in stored.items():
        if pid not in known and key not in mapping:
            raise UserError(
                f"{name} was registered as person #{pid}, whom this club does not have: "
                "is it the event's club? (or map the name: --map NAME=ID)"
            )
    by_name: dict[str, set[int]] = {}
    for pid, name in session.execute(select(Person.id, Person.name)):
        by_name.setdefault(normal(name), set()).add(pid)
    by_alias: dict[str, set[int]] = {}
    for pid, name in session.execute(select(Alias.person_id, Alias.name)):
        by_alias.setdefault(normal(name), set()).add(pid)
    out: list[NameMatch] = []
    for name in names:
        key = normal(name)
        if key in mapping:
            out.append(NameMatch(name, "mapped", mapping[key]))
        elif key in stored:
            out.append(NameMatch(name, "registered", stored[key][1]))
        elif (found := by_name.get(key) or by_alias.get(key, set())) and len(found) == 1:
            out.append(NameMatch(name, "person" if key in by_name else "alias", min(found)))
        elif found:
            out.append(NameMatch(name, "ambiguous", None, tuple(sorted(found))))
        else:
            out.append(NameMatch(name, "new"))
    return out


def match_event(
    session: Session,
    results: EventResults,
    mapping: dict[str, int] | None = None,
    *,
    every_player: bool = False,
) -> list[NameMatch]:
    """The names of the event's results (or of `every_player` registered) matched: the ids the
    event stored first, then `match_names`' steps."""
    names = list(results.players) if every_player else results.names()
    return match_names(session, names, mapping, results.persons)


# --- persons: registering from the club -------------------------------------------------


@dataclass(frozen=True)
class PersonHit:
    """A person found while the name is typed; `alias` is the earlier name that matched."""

    id: int
    name: str
    club: str
    country: str
    alias: str = ""

    def describe(self) -> str:
        where = ", ".join(x for x in (self.club, self.country) if x)
        return (f"{self.name} #{self.id}" + (f" ({where})" if where else "")
                + (f", once {self.alias}" if self.alias else ""))  # fmt: skip


def search_persons(session: Session, text: str, limit: int = 20) -> list[PersonHit]:
    """The persons whose name or alias holds `text` (case and spacing ignored), names that
    begin with it first; `#12` finds the person of that id."""
    want = normal(text)
    if not want:
        return []
    rows = session.execute(select(Person.id, Person.name, Person.club, Person.country)).all()
    person = {pid: (name, club, country) for pid, name, club, country in rows}
    if (pid := typed_number(want.lstrip("#"))) is not None and (found := person.get(pid)):
        return [PersonHit(pid, *found)]
    hits: dict[int, tuple[int, str, str]] = {}
    for pid, (name, _c, _n) in person.items():
        key = normal(name)
        if want in key:
            hits[pid] = (0 if key.startswith(want) else 1, key, "")
    for pid, alias in session.execute(select(Alias.person_id, Alias.name)):
        key = normal(alias)
        if pid not in hits and want in key:
            hits[pid] = (0 if key.startswith(want) else 1, normal(person[pid][0]), alias)
    ranked = sorted(hits.items(), key=lambda kv: (kv[1][0], kv[1][1], kv[0]))[:limit]
    return [PersonHit(pid, *person[pid], alias) for pid, (_r, _k, alias) in ranked]


def add_person(session: Session, name: str, club: str = "", country: str = "") -> int:
    """A new person in the register (a name typed that the club did not have); its id."""
    name = " ".join(name.split())
    if not name:
        raise UserError("a person needs a name")
    if len(name) > 100:
        raise UserError("a person's name has at most 100 characters")
    row = Person(name=name, club=club.strip(), country=country.strip())
    session.add(row)
    session.flush()
    return row.id


# --- publishing ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Published:
    event: str
    matches: int
    created: tuple[int, ...]  # persons created for new names
    replaced: bool  # the event had been published before: its old results are gone


def publish(session: Session, results: EventResults, matched: list[NameMatch]) -> Published:
    """Replace the event's results in the club (the caller's one transaction)."""
    if refused := [m for m in matched if m.how == "ambiguous"]:
        raise UserError(refused[0].describe() + ": map it (--map NAME=ID) to publish")
    person: dict[str, int] = {}
    created: list[int] = []
    for m in matched:
        if m.person is None:
            row = Person(name=" ".join(m.name.split()))
            session.add(row)
            session.flush()
            created.append(row.id)
            person[m.name] = row.id
        else:
            person[m.name] = m.person
    if missing := [n for n in results.names() if n not in person]:
        raise UserError(f"{missing[0]}: no person matched to this name")
    club = [_club_result(results, m, person) for m in results.matches]
    PublishedResults().publish(results.identity, club)  # the domain's checks, or UserError
    old = session.scalar(select(ClubEvent.id).where(ClubEvent.identity == results.identity))
    if old is not None:
        session.execute(delete(ClubMatch).where(ClubMatch.event_id == old))
        session.execute(delete(ClubEvent).where(ClubEvent.id == old))
    event = ClubEvent(identity=results.identity, name=results.name, rounds=results.rounds,
                      event_date=results.event_date.isoformat(), format=results.format)  # fmt: skip
    session.add(event)
    session.flush()
    session.execute(
        insert(ClubMatch),
        [_match_row(event.id, r, m) for r, m in zip(club, results.matches, strict=True)],
    )
    return Published(results.name, len(club), tuple(created), old is not None)


def withdraw_all(session: Session) -> None:
    """Every published result gone (persons, aliases and seasons stay): a rebuild's start."""
    session.execute(delete(ClubMatch))
    session.execute(delete(ClubEvent))


def _club_result(results: EventResults, m: EventMatch, person: dict[str, int]) -> ClubResult:
    return ClubResult(
        results.identity, results.event_date, m.round, m.finish,
        tuple(person[n] for n in m.side_a), tuple(person[n] for n in m.side_b),
        m.length, m.outcome, m.unrated, m.reason,
    )  # fmt: skip


def _match_row(event_id: int, r: ClubResult, m: EventMatch) -> dict[str, object]:
    a, b = r.side_a, r.side_b
    return {
        "event_id": event_id, "round": r.round, "finish": r.finish, "length": r.length,
        "a1": a[0], "a2": a[1] if len(a) > 1 else None,
        "b1": b[0] if b else None, "b2": b[1] if len(b) > 1 else None,
        "score_a": m.score_a, "score_b": m.score_b, "outcome": r.outcome.value,
        "unrated": r.unrated.value if r.unrated else None, "reason": r.reason,
    }  # fmt: skip


# --- reading the club ---------------------------------------------------------------------


def club_results(session: Session) -> list[ClubResult]:
    """Every published result, as the domain rates them. A club opens with all of them
    (100,000 and more), so they are read as the driver's plain rows, each event's identity and
    date read once, not joined onto every match: the ORM's rows and the join took most of the
    Club page's second."""
    events = {
        eid: (ident, date.fromisoformat(day))
        for eid, ident, day in session.execute(
            select(ClubEvent.id, ClubEvent.identity, ClubEvent.event_date)
        )
    }
    outcomes = {o.value: o for o in Outcome}
    unrated: dict[str | None, Unrated | None] = {u.value: u for u in Unrated}
    unrated[None] = None  # a rated match
    table = ClubMatch.__table__
    columns = ("event_id", "round", "finish", "a1", "a2", "b1", "b2", "length", "outcome",
               "unrated", "reason")  # fmt: skip
    query = select(*(table.c[c] for c in columns))
    compiled = str(query.compile(dialect=session.get_bind().dialect))
    cursor = session.connection().connection.cursor()  # the DBAPI's own: no Row objects
    try:
        cursor.execute(compiled)
        rows = cursor.fetchall()
    finally:
        cursor.close()
    out: list[ClubResult] = []
    add = out.append
    with _collector_paused():
        for event_id, rnd, fin, a1, a2, b1, b2, length, outcome, why, reason in rows:
            ident, day = events[event_id]
            add(ClubResult(
                ident, day, rnd, fin, (a1,) if a2 is None else (a1, a2),
                () if b1 is None else (b1,) if b2 is None else (b1, b2),
                length, outcomes[outcome], unrated[why], reason,
            ))  # fmt: skip
    return out


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector held off while the results are built: 300,000 new tuples
    (none in a cycle) ran its rounds over and over, two thirds of the read (1.9 s against
    0.6 s). Where it is off already (the GUI runs it on its own thread) this changes nothing."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@dataclass(frozen=True)
class RatingRow:
    id: int
    name: str
    rating: float
    experience: int
    provisional: bool
    matches: int


def person_names(session: Session) -> dict[int, str]:
    return {pid: name for pid, name in session.execute(select(Person.id, Person.name))}


def rating_list(session: Session, results: list[ClubResult] | None = None) -> list[RatingRow]:
    """The rating list, best first: everyone who played a rated match."""
    ratings = recompute(club_results(session) if results is None else results)
    names = person_names(session)
    return [_row(s, names[s.person]) for s in ratings.ranked()]


@dataclass(frozen=True)
class ClubRow:
    """A person on the Club page: their place and rating once they played a rated match."""

    id: int
    name: str
    place: int | None
    rating: float | None
    experience: int
    matches: int
    provisional: bool


def club_table(session: Session) -> list[ClubRow]:
    """Every person: the rated in rating order, then the rest by name."""
    rated = rating_list(session)
    out = [ClubRow(r.id, r.name, n, r.rating, r.experience, r.matches, r.provisional)
           for n, r in enumerate(rated, 1)]  # fmt: skip
    seen = {r.id for r in rated}
    rest = sorted(((pid, name) for pid, name in person_names(session).items() if pid not in seen),
                  key=lambda x: (normal(x[1]), x[0]))  # fmt: skip
    return out + [ClubRow(pid, name, None, None, 0, 0, True) for pid, name in rest]


def person_ratings(session: Session) -> dict[int, float]:
    """Every rated person's rating now (what an event seeds by)."""
    return {p: s.rating for p, s in recompute(club_results(session)).standings.items()}


def _row(s: Standing, name: str) -> RatingRow:
    return RatingRow(s.person, name, s.rating, s.experience, s.provisional, s.matches)


def find_person(session: Session, text: str) -> int:
    """A person by id (`#12` or `12`), name or alias; a name two persons carry is refused."""
    pid = typed_number(text.strip().lstrip("#"))
    if pid is not None and session.get(Person, pid) is not None:
        return pid
    want = normal(text)
    found = {
        pid for pid, name in session.execute(select(Person.id, Person.name))
        if normal(name) == want
    } or {
        pid for pid, alias in session.execute(select(Alias.person_id, Alias.name))
        if normal(alias) == want
    }  # fmt: skip
    if not found:
        raise UserError(f"the club has no person called {quoted(text.strip())}")
    if len(found) > 1:
        ids = ", ".join(f"#{p}" for p in sorted(found))
        raise UserError(f"several persons are called {quoted(text.strip())} ({ids}): give the id")
    return found.pop()


@dataclass(frozen=True)
class EventPlayed:
    name: str
    event_date: str
    matches: int


@dataclass(frozen=True)
class PersonView:
    id: int
    name: str
    club: str
    country: str
    aliases: tuple[str, ...]
    standing: Standing | None
    history: tuple[RatingChange, ...]
    events: tuple[EventPlayed, ...]
    records: tuple[Record, ...]
    rivals: Rivals | None
    names: dict[int, str]


def person_view(session: Session, person: int) -> PersonView:
    row = session.get(Person, person)
    if row is None:
        raise UserError(f"the club has no person #{person}")
    results = club_results(session)
    ratings: Ratings = recompute(results, history=True)
    mine = [r for r in results if person in r.side_a or person in r.side_b]
    events: dict[str, int] = {}
    for r in mine:
        events[r.event] = events.get(r.event, 0) + 1
    shown = session.execute(
        select(ClubEvent.identity, ClubEvent.name, ClubEvent.event_date)
        .where(ClubEvent.identity.in_(list(events)))
        .order_by(ClubEvent.event_date)
    )
    rivals = [x for x in nemesis_report(results) if x.person == person]
    aliases = session.scalars(
        select(Alias.name).where(Alias.person_id == person).order_by(Alias.id)
    )
    return PersonView(
        row.id, row.name, row.club, row.country, tuple(aliases),
        ratings.standings.get(person),
        tuple(c for c in ratings.history if c.person == person),
        tuple(EventPlayed(n, d, events[i]) for i, n, d in shown),
        tuple(records_of(mine, person)), rivals[0] if rivals else None,
        person_names(session),
    )  # fmt: skip


def add_season(session: Session, name: str, first: str, last: str) -> Season:
    name = name.strip()
    if not name:
        raise UserError("a season needs a name")
    try:
        days = date.fromisoformat(first), date.fromisoformat(last)
    except ValueError:
        raise UserError(f"season {quoted(name)}: dates are written YYYY-MM-DD") from None
    season = Season(name, *days)
    if session.scalar(select(ClubSeason.id).where(ClubSeason.name == name)) is not None:
        raise UserError(f"the club already has a season called {quoted(name)}")
    session.add(ClubSeason(name=name, first_day=first, last_day=last))
    return season


def seasons(session: Session) -> list[Season]:
    return [
        Season(n, date.fromisoformat(f), date.fromisoformat(la))
        for n, f, la in session.execute(
            select(ClubSeason.name, ClubSeason.first_day, ClubSeason.last_day).order_by(
                ClubSeason.first_day
            )
        )
    ]


def season_table(session: Session, name: str | None) -> tuple[Season, list[SeasonRow]]:
    """A season's standings (the latest season when no name is given)."""
    known = seasons(session)
    if not known:
        raise UserError("the club has no season yet: add one (club season CLUB NAME --from --to)")
    chosen = known[-1] if name is None else next((s for s in known if s.name == name), None)
    if chosen is None:
        raise UserError(f"the club has no season called {quoted(name)}")
    results = club_results(session)
    return chosen, season_standings(chosen, results, recompute(results))


def add_alias(session: Session, person: int, new_name: str) -> None:
    """The person's name changes; the old one stays as an alias (results under it match)."""
    row = session.get(Person, person)
    if row is None:
        raise UserError(f"the club has no person #{person}")
    if not new_name.strip():
        raise UserError("a person needs a name")
    session.add(Alias(person_id=person, name=row.name))
    row.name = " ".join(new_name.split())


def public_club(session: Session) -> dict[str, object]:
    """What the phones show of the club (served by `serve --club`): the rating list and the
    latest season's standings, by name only; nothing about a person beyond the results."""
    from director.domain.rating import shown

    results = club_results(session)
    ratings = recompute(results)
    names = person_names(session)
    rows = [{"place": n, "name": names[s.person], "rating": shown(s.rating),
             "experience": s.experience, "provisional": s.provisional}
            for n, s in enumerate(ratings.ranked(), 1)]  # fmt: skip
    known = seasons(session)
    season: dict[str, object] | None = None
    if known:
        chosen = known[-1]
        season = {
            "name": chosen.name, "first": chosen.first.isoformat(),
            "last": chosen.last.isoformat(),
            "rows": [{"place": f"{r.place}=" if r.shared else str(r.place),
                      "name": names[r.person], "points": r.points, "rating": shown(r.rating)}
                     for r in season_standings(chosen, results, ratings)],
        }  # fmt: skip
    return {"ratings": rows, "season": season}
