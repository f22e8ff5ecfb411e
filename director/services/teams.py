"""Register, edit, withdraw and remove teams; the team list CSV."""

from __future__ import annotations

import contextlib
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from sqlalchemy import func, insert, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import flag_modified

from director.domain.changes import Area, Changed, Changes
from director.domain.errors import ConflictError, UserError
from director.domain.event import TeamInfo
from director.domain.rating import side_rating
from director.domain.rules import EventFormat, Format
from director.domain.teamlist import (
    MAX_NAME,
    PROGRESS_STEP,
    BadRow,
    ParsedTeamList,
    Progress,
    TeamRow,
    clean_name,
    decode,
    name_key,
    name_problem,
    parse_team_list,
    player_problem,
    seeds_by_rating,
    write_team_list,
)
from director.domain.wording import counted, quoted
from director.services import audit
from director.store import convert, models
from director.store.engine import savepoint
from director.store.errors import unique_violation


class Unset:
    """The default of an optional change: "leave as it is" (None means "clear")."""


UNSET = Unset()


def list_teams(session: Session, ids: Iterable[int] | None = None) -> list[TeamInfo]:
    """Teams in seed order; only those with `ids` when given.

    Read as plain rows: pages refresh the whole list after every change, and an ORM object
    per team and player costs more than the rest of a standings refresh."""
    teams = select(*models.Team.__table__.columns)
    players = select(
        models.Player.team_id, models.Player.board, models.Player.name, models.Player.person_id
    )
    if ids is not None:
        wanted = list(ids)
        teams = teams.where(models.Team.id.in_(wanted))
        players = players.where(models.Player.team_id.in_(wanted))
    names: dict[int, dict[int, str]] = defaultdict(dict)
    persons: dict[int, dict[int, int | None]] = defaultdict(dict)
    for team_id, board, name, person in session.execute(players):
        names[team_id][board] = name
        persons[team_id][board] = person
    rows = session.execute(teams.order_by(models.Team.seed, models.Team.id))
    return [convert.team_info(row, names[row.id], persons[row.id]) for row in rows]


def team_map(session: Session, ids: Iterable[int] | None = None) -> dict[int, TeamInfo]:
    return {t.id: t for t in list_teams(session, ids)}


def _row(session: Session, team_id: int) -> models.Team:
    row = session.get(models.Team, team_id)
    if row is None:
        raise UserError(f"there is no team with id {team_id}")
    return row


def get_team(session: Session, team_id: int) -> TeamInfo:
    return convert.team_info(_row(session, team_id))


def _clean(label: str, value: str, required: bool = True) -> str:
    problem = name_problem(label, value)
    if problem:
        raise UserError(problem)
    value = clean_name(value)
    if required and not value:
        raise UserError(f"{label} cannot be empty")
    if len(value) > MAX_NAME:
        raise UserError(f"{label} is longer than {MAX_NAME} characters")
    return value


def team_named(session: Session, name: str) -> int | None:
    """The id of the team with this name as a reader sees it (`teamlist.name_key`: case and
    width ignored, invisible characters dropped, in every script). Compared in Python: SQLite's
    lower() folds only ASCII."""
    wanted = name_key(name)
    rows = session.execute(select(models.Team.id, models.Team.name))
    return next((team_id for team_id, other in rows if name_key(other) == wanted), None)


def _check_unique(session: Session, name: str, team_id: int | None = None) -> None:
    clash = team_named(session, name)
    if clash is not None and clash != team_id:
        other = session.get(models.Team, clash)
        assert other is not None
        raise UserError(
            f"a {entrant_format(session).entrant} named {other.name!r} is already registered"
        )


def players_taken(session: Session, except_team: int | None = None) -> dict[str, str]:
    """Every registered player's `name_key` → their team's name (but `except_team`'s)."""
    rows = session.execute(
        select(models.Player.name, models.Team.name, models.Team.id).join(models.Team)
    )
    return {name_key(player): team for player, team, tid in rows if tid != except_team}


def _check_players(session: Session, players: tuple[str, str], team_id: int | None = None) -> None:
    problem = player_problem(players, players_taken(session, team_id))
    if problem:
        raise UserError(problem)


@contextlib.contextmanager
def _names_written(session: Session, recheck: Callable[[], None]) -> Iterator[None]:
    """The block's changes, under a savepoint: a name another station registered at the same
    moment (the unique index on the names' keys refused it, #27 §3) is told as one station
    tells it, by `recheck`, which reads again and now sees the other station's commit. (The
    savepoint begins before the changes: beginning one flushes what is pending.)"""
    try:
        with savepoint(session):
            yield
            session.flush()
    except IntegrityError as exc:
        if not unique_violation(exc):
            raise
        recheck()
        raise ConflictError(
            "another station has just registered the same name: the view is refreshed",
            Changes.of(Area.TEAMS),
        ) from None


# what registering the other format's entrant is told (RULES §1, §10)
PLAYERS_NOT_TEAMS = "this event's entrants are players: register a player, not a team"
TEAMS_NOT_PLAYERS = "this event's entrants are teams: register a team with its two players"
# a Tandem team's boards, each with its player (RULES §1)
PAIR_BOARDS = Format.TANDEM.record.boards


def _board_players(players: tuple[str, str]) -> tuple[str, str]:
    """A team's players as typed, board by board, cleaned; an empty one refused by board."""
    p1, p2 = (
        _clean(f"the board {board} player", name)
        for board, name in zip(PAIR_BOARDS, players, strict=True)
    )
    return p1, p2


def _person(person: int | None) -> int | None:
    if person is not None and person < 1:
        raise UserError(f"the club has no person #{person}")
    return person


def _current_round(session: Session) -> int:
    return session.scalar(select(func.max(models.Round.number))) or 0


def add_team(
    session: Session,
    name: str,
    players: tuple[str, str],
    club: str = "",
    rating: int | None = None,
    seed: int | None = None,
    persons: tuple[int | None, int | None] = (None, None),
) -> Changed[TeamInfo]:
    """Register a team; `persons` are its players' ids in the club's register when they were
    picked from it (the event keeps them and runs without the club)."""
    if _one_board(session):
        raise UserError(PLAYERS_NOT_TEAMS)
    name = _clean("the team name", name)
    p1, p2 = _board_players(players)
    club = _clean("the club", club, required=False)
    _check_unique(session, name)
    _check_players(session, (p1, p2))
    if seed is not None and seed < 1:
        raise UserError("the seed must be 1 or more")
    if seed is None:
        seed = (session.scalar(select(func.max(models.Team.seed))) or 0) + 1
    row = models.Team(
        name=name, club=club, rating=rating, seed=seed, joined_round=_current_round(session) + 1
    )
    row.players = [
        models.Player(board=b, name=p, person_id=_person(person))
        for b, p, person in zip(PAIR_BOARDS, (p1, p2), persons, strict=True)
    ]

    def recheck() -> None:
        _check_unique(session, name)
        _check_players(session, (p1, p2))

    with _names_written(session, recheck):
        session.add(row)
    return Changed(convert.team_info(row), Changes.of(Area.TEAMS))


def add_player(
    session: Session,
    name: str,
    club: str = "",
    rating: int | None = None,
    seed: int | None = None,
    person: int | None = None,
) -> Changed[TeamInfo]:
    """Register a player in an individual event (RULES §10): the player is the entrant, under
    the player's own name, on the one board; a name is entered once, compared as `name_key`
    does (case and spacing ignored). `person` is the player's id in the club's register."""
    if not _one_board(session):
        raise UserError(TEAMS_NOT_PLAYERS)
    name = _clean("the player's name", name)
    club = _clean("the club", club, required=False)
    clash = team_named(session, name)
    if clash is not None:
        other = session.get(models.Team, clash)
        assert other is not None
        raise UserError(f"a player named {other.name!r} is already registered")
    if seed is not None and seed < 1:
        raise UserError("the seed must be 1 or more")
    if seed is None:
        seed = (session.scalar(select(func.max(models.Team.seed))) or 0) + 1
    row = models.Team(
        name=name, club=club, rating=rating, seed=seed, joined_round=_current_round(session) + 1
    )
    row.players = [models.Player(board=1, name=name, person_id=_person(person))]
    session.add(row)
    session.flush()
    return Changed(convert.team_info(row), Changes.of(Area.TEAMS))


def edit_team(
    session: Session,
    team_id: int,
    *,
    version: int | None = None,
    name: str | None = None,
    players: tuple[str, str] | None = None,
    persons: tuple[int | None, int | None] | None = None,
    club: str | None = None,
    rating: int | None | Unset = UNSET,
    seed: int | None = None,
    paid: bool | None = None,
    present: bool | None = None,
) -> Changed[TeamInfo]:
    row = _row(session, team_id)
    if version is not None and row.version != version:
        raise ConflictError(
            f"team {row.name!r} was changed on another station: the view is refreshed",
            Changes.of(Area.TEAMS),
        )
    before = convert.team_info(row)
    one_board = _one_board(session)
    if one_board and players is not None:
        raise UserError("this event's entrants are players: a player is edited by name")
    name_label = "the player's name" if one_board else "the team name"

    def recheck() -> None:
        session.expire_all()
        if name is not None:
            _check_unique(session, _clean(name_label, name), team_id)
        if players is not None:
            _check_players(session, _board_players(players), team_id)

    with _names_written(session, recheck):
        if name is not None:
            new_name = _clean(name_label, name)
            _check_unique(session, new_name, team_id)  # before the change: no autoflush of a clash
            row.name = new_name
            if one_board:  # the entrant is its one player, under the same name (RULES §10)
                for player in row.players:
                    if name_key(player.name) != name_key(new_name):
                        player.person_id = None  # another name: not the person picked before
                    player.name = new_name
        if players is not None:
            names = _board_players(players)
            _check_players(session, names, team_id)
            if names != before.players:
                for player in row.players:  # a swap of boards must not clash with itself
                    player.name_key = f"\x01{player.id}"
                session.flush()
            by_board = dict(zip(PAIR_BOARDS, names, strict=True))
            # a person goes with the name picked for it (a swap of boards keeps both); another
            # name is not the person picked for the old one
            picked = {name_key(p.name): p.person_id for p in row.players}
            for player in row.players:
                player.name = by_board[player.board]
                player.person_id = picked.get(name_key(player.name))
            if names != before.players:
                # the players are the team's: their change bumps the team's version, so another
                # station's edit against the old view is refused (the version check is the UPDATE)
                flag_modified(row, "name")
        if persons is not None:
            for player in row.players:
                player.person_id = _person(persons[player.board - 1])
            flag_modified(row, "name")
        if club is not None:
            row.club = _clean("the club", club, required=False)
        if not isinstance(rating, Unset):
            row.rating = rating  # None clears it
        if seed is not None:
            if seed < 1:
                raise UserError("the seed must be 1 or more")
            row.seed = seed
        if paid is not None:
            row.paid = paid
        if present is not None:
            row.present = present

    after = convert.team_info(row)
    if (after.name, after.players, after.persons) != (before.name, before.players, before.persons):
        audit.log(session, "edit team", f"team {team_id}", before.__dict__, after.__dict__)
    return Changed(after, Changes.of(Area.TEAMS))


def has_played(session: Session, team_id: int) -> bool:
    count = session.scalar(
        select(func.count())
        .select_from(models.Match)
        .where(or_(models.Match.team_a_id == team_id, models.Match.team_b_id == team_id))
    )
    return bool(count)


def remove_team(session: Session, team_id: int) -> Changed[None]:
    row = _row(session, team_id)
    if has_played(session, team_id):
        raise UserError(f"team {row.name!r} is in a pairing already: withdraw it instead")
    session.delete(row)
    audit.log(session, "remove team", f"team {team_id}", convert.team_info(row).__dict__)
    session.flush()
    return Changed(None, Changes.of(Area.TEAMS))


def withdraw_team(session: Session, team_id: int, reinstate: bool = False) -> Changed[TeamInfo]:
    """Withdrawn teams are not paired from the next round on; their results stand (RULES §8)."""
    row = _row(session, team_id)
    row.withdrawn_after_round = None if reinstate else _current_round(session)
    audit.log(session, "reinstate team" if reinstate else "withdraw team", f"team {team_id}")
    session.flush()
    return Changed(convert.team_info(row), Changes.of(Area.TEAMS))


@dataclass(frozen=True)
class ImportResult:
    imported: tuple[TeamInfo, ...]
    skipped: tuple[BadRow, ...]
    warnings: tuple[str, ...] = ()  # imported, but worth the director's eye (see `_warnings`)


@dataclass(frozen=True)
class TeamListPreview:
    parsed: ParsedTeamList
    seeds: tuple[int, ...]  # the seed each good row is imported with (`import_seeds`)


def preview_team_list(
    session: Session, data: bytes | str, progress: Progress | None = None
) -> TeamListPreview:
    """Parse a team list against the event's teams without writing anything: the rows, the
    bad rows with their reasons, and the seed each good row will get. A long list tells
    `progress(rows done, rows)` as it goes; an exception it raises (a cancel) stops it."""
    text = decode(data) if isinstance(data, bytes) else data
    names = (t.name for t in list_teams(session))
    parsed = parse_team_list(text, names, progress, existing_players=players_taken(session),
                             one_board=_one_board(session))  # fmt: skip
    return TeamListPreview(parsed, tuple(import_seeds(session, parsed)))


def import_seeds(session: Session, parsed: ParsedTeamList) -> list[int]:
    """The seed of each good row: its own, else by its rating after every seed already given
    (the event's and the list's), the unrated last in list order."""
    top = session.scalar(select(func.max(models.Team.seed))) or 0
    return seeds_by_rating([(r.rating, r.seed) for r in parsed.rows], top)


def import_teams(
    session: Session,
    data: bytes | str,
    skip_bad_rows: bool = False,
    progress: Progress | None = None,
) -> Changed[ImportResult]:
    """Import every row, or nothing when a row is bad unless `skip_bad_rows`. A long list tells
    `progress(steps done, steps)` as it goes: reading the rows, writing the teams, writing the
    players; an exception it raises (a cancel) rolls everything back with the transaction."""
    text = decode(data) if isinstance(data, bytes) else data

    def told(done: int, total: int, stage: int) -> None:
        if progress is not None:
            progress(stage * total + done, 3 * total)

    parsed = parse_team_list(
        text,
        (t.name for t in list_teams(session)),
        lambda d, t: told(d, t, 0),
        existing_players=players_taken(session),
        one_board=_one_board(session),
    )
    if parsed.bad and not skip_bad_rows:
        lines = "\n".join(str(b) for b in parsed.bad)
        raise UserError(f"{counted(len(parsed.bad), 'bad row')}, nothing imported:\n{lines}")
    # one pass, bulk INSERTs: the list was checked against every registered name above,
    # so a row costs no query of its own (100,000 rows import in seconds, not hours)
    joined = _current_round(session) + 1
    seeds = import_seeds(session, parsed)  # what the preview showed
    teams = []
    for r, seed in zip(parsed.rows, seeds, strict=True):
        teams.append({"name": r.team, "club": r.club, "rating": r.rating, "seed": seed,
                      "joined_round": joined, "paid": False, "present": False,
                      "version": 1})  # fmt: skip
    ids: list[int] = []
    if teams:
        n = len(teams)
        try:
            with savepoint(session):  # a name raced in by another station: see below
                ids = _insert_list(session, parsed, teams, told)
        except IntegrityError as exc:
            if not unique_violation(exc):
                raise
            _refuse_raced_list(session, text)
        told(n, n, 2)
    imported = tuple(
        TeamInfo(team_id, r.team, r.players, r.club, r.rating, seed, joined)
        for team_id, r, seed in zip(ids, parsed.rows, seeds, strict=True)
    )
    return Changed(ImportResult(imported, parsed.bad, _warnings(imported)), Changes.of(Area.TEAMS))


def _insert_list(
    session: Session,
    parsed: ParsedTeamList,
    teams: list[dict[str, str | int | None]],
    told: Callable[[int, int, int], None],
) -> list[int]:
    """The checked list's teams, then their players, in bulk INSERTs; the new teams' ids."""
    n = len(teams)
    before = session.scalar(select(func.max(models.Team.id))) or 0
    for start in range(0, n, PROGRESS_STEP):  # executemany in slices, to tell progress
        told(start, n, 1)
        session.execute(insert(models.Team), teams[start : start + PROGRESS_STEP])
    new = session.execute(select(models.Team.name, models.Team.id).where(models.Team.id > before))
    by_name = {name: team_id for name, team_id in new}
    ids = [by_name[r.team] for r in parsed.rows]
    players = [
        {"team_id": team_id, "board": board, "name": name}
        for team_id, r in zip(ids, parsed.rows, strict=True)
        for board, name in enumerate(r.players, start=1)  # an individual entrant: board 1
    ]
    per_team = len(players) // n
    for start in range(0, n, PROGRESS_STEP):
        told(start, n, 2)
        session.execute(
            insert(models.Player), players[per_team * start : per_team * (start + PROGRESS_STEP)]
        )
    return ids


def _refuse_raced_list(session: Session, text: str) -> None:
    """Another station registered a name of this list as it was written: read the list again
    against what is registered now and say which rows, as the import on one station does."""
    parsed = parse_team_list(
        text,
        (t.name for t in list_teams(session)),
        existing_players=players_taken(session),
        one_board=_one_board(session),
    )
    lines = "\n".join(str(b) for b in parsed.bad) or "another station has just registered one"
    raise ConflictError(
        f"{counted(max(len(parsed.bad), 1), 'bad row')}, nothing imported:\n{lines}",
        Changes.of(Area.TEAMS),
    )


def _warnings(teams: tuple[TeamInfo, ...]) -> tuple[str, ...]:
    """Names with characters no font can print: they would print as empty boxes."""
    from director.reports.fonts import unprintable  # reportlab: only when importing

    # each distinct character is looked up once: a big list shares most of its letters
    everything = {ch for t in teams for value in (t.name, *t.players) for ch in value}
    anywhere = set(unprintable("".join(sorted(everything))))
    if not anywhere:
        return ()
    out = []
    for team in teams:
        for label, value in (("team", team.name), *(("player", p) for p in team.players)):
            if not value:
                continue
            missing = "".join(dict.fromkeys(ch for ch in value if ch in anywhere))
            if missing:
                codes = ", ".join(f"U+{ord(c):04X}" for c in missing)
                out.append(
                    f"{label} {quoted(value)}: no font here prints {quoted(missing)} ({codes}); "
                    "reports show empty boxes there"
                )
    return tuple(out)


def export_teams(session: Session) -> str:
    rows = (
        TeamRow(0, t.name, t.by_board.get(1, ""), t.by_board.get(2, ""), t.club, t.rating, t.seed)
        for t in list_teams(session)
    )
    return write_team_list(rows, one_board=_one_board(session))


def _one_board(session: Session) -> bool:
    """An event whose format has one board lists players, not teams (RULES §10)."""
    return len(entrant_format(session).boards) == 1


def entrant_format(session: Session) -> EventFormat:
    """The event's format record: who enters ("team" or "player") and on how many boards."""
    from director.services.events import get_event

    return get_event(session).options.match.event_format


def seeding_refusal(session: Session) -> str:
    """Why the teams cannot be seeded again by rating now ('' when they can)."""
    if _current_round(session):
        return "round 1 is paired: the seeds it was paired by stay (undo the round first)"
    if session.scalar(select(func.count()).where(models.Team.rating.is_not(None))) == 0:
        return "no team has a rating"
    return ""


def seed_by_rating(session: Session) -> Changed[list[TeamInfo]]:
    """Seed every team again by rating, highest first (the unrated after, in their seed
    order), before round 1 is paired; audited with the seeds before and after."""
    refusal = seeding_refusal(session)
    if refusal:
        raise UserError(f"cannot seed by rating: {refusal}")
    teams = list_teams(session)  # in seed order
    seeds = seeds_by_rating([(t.rating, None) for t in teams])
    rows = {row.id: row for row in session.scalars(select(models.Team))}
    for team, seed in zip(teams, seeds, strict=True):
        rows[team.id].seed = seed
    before = {t.id: t.seed for t in teams}
    after = {t.id: s for t, s in zip(teams, seeds, strict=True)}
    audit.log(session, "seed by rating", "teams", before, after, "seeded by rating")
    session.flush()
    return Changed(list_teams(session), Changes.of(Area.TEAMS))


def link_persons(session: Session, persons: dict[str, int]) -> Changed[list[TeamInfo]]:
    """Store each named player's person id from the club's register (`club link`): an event
    registered without the club carries its ids from then on. Audited; a name the event has
    no player for is refused."""
    by_key = {row.name_key: row for row in session.scalars(select(models.Player))}
    before: dict[str, int | None] = {}
    for name, person in persons.items():
        row = by_key.get(name_key(name))
        if row is None:
            raise UserError(f"the event has no player called {quoted(name)}")
        before[row.name] = row.person_id
        row.person_id = _person(person)
    after = {row.name: row.person_id for row in by_key.values() if row.name in before}
    if before != after:
        audit.log(session, "link persons", "players", before, after, "picked from the club")
    session.flush()
    return Changed(list_teams(session), Changes.of(Area.TEAMS))


def seed_by_club_rating(session: Session, ratings: dict[int, float]) -> Changed[list[TeamInfo]]:
    """Each team whose players are all persons of the club takes their club rating (the
    mean, RULES §12, rounded), then every team is seeded by rating (`seed_by_rating`); a team
    with a player the club does not know keeps its rating. `ratings`: the club's, by person."""
    if _current_round(session):
        raise UserError(f"cannot seed by rating: {seeding_refusal(session)}")
    boards = len(entrant_format(session).boards)
    rows = {row.id: row for row in session.scalars(select(models.Team))}
    before: dict[str, int | None] = {}
    after: dict[str, int | None] = {}
    for team in list_teams(session):
        rating = side_rating(team.persons[:boards], ratings)
        if rating is not None and round(rating) != team.rating:
            before[team.name], after[team.name] = team.rating, round(rating)
            rows[team.id].rating = round(rating)
    if after:
        audit.log(session, "club ratings", "teams", before, after, "the club's ratings")
    session.flush()
    return seed_by_rating(session)
