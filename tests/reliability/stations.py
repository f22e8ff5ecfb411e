"""Several director stations editing one server event at once, and the serial replay check.

Each station is a thread with its own engine (its own server connections). An edit reads the
match or team, decides what to do from what it read, and writes it with the version it read;
when another station got there first the edit is refused ("changed on another station") and
the station reads again and retries, as a director would. Every accepted edit is logged with
the version it was based on. Replaying the log serially (per match and per team, in version
order) on a fresh event must give exactly the database the stations produced.
"""

from __future__ import annotations

import functools
import random
import threading
from dataclasses import dataclass, field
from typing import Any

from director.domain.errors import ConflictError, UserError
from director.domain.rules import EventOptions, MatchRules
from director.domain.scoring import Game
from director.services.events import create_event
from director.services.games import correct_game, record_game, undo_last_game
from director.services.matches import create_match, get_match, list_matches
from director.services.teams import add_team, edit_team, get_team, list_teams
from director.store.engine import EventDatabase, create_database, open_database
from director.store.errors import CHANGED, known_database_error
from tests.reliability.child_writer import correctable, planned_games, toggled

PLAN_SEED = 11


def prepare(target: str, teams: int, matches: int) -> EventDatabase:
    db = create_database(target)
    with db.Session() as session, session.begin():
        create_event(session, "Stations", EventOptions(match=MatchRules(match_length=9)))
        ids = [add_team(session, f"Team {i}", (f"A{i}", f"B{i}")).value.id for i in range(teams)]
        rng = random.Random(3)
        for table in range(matches):
            a, b = rng.sample(ids, 2)
            create_match(session, a, b, table=table)
    return db


@functools.lru_cache(maxsize=4096)
def plan(rules: MatchRules, match_id: int) -> list[Game]:
    return planned_games(rules, PLAN_SEED, match_id)


@dataclass(frozen=True)
class Edit:
    """One accepted edit: what, on which row, based on which version of it."""

    kind: str  # record | undo | correct | paid | club
    target: int
    based_on: int
    value: Any = None  # game index for record/correct, the new paid/club value


@dataclass
class StationLog:
    edits: list[Edit] = field(default_factory=list)
    conflicts: int = 0
    refused: list[str] = field(default_factory=list)


def _changed_elsewhere(exc: BaseException) -> bool:
    """The refusal a station gets when another one changed the row first."""
    if isinstance(exc, ConflictError) or "changed on another station" in str(exc):
        return True
    return known_database_error(exc) == CHANGED


def _match_edit(db: EventDatabase, rng: random.Random, match_id: int) -> Edit:
    with db.Session() as session:
        info = get_match(session, match_id)
    planned = plan(info.rules, match_id)
    count, roll = len(info.games), rng.random()
    fixable = [i for i, g in enumerate(info.games) if correctable(g)]
    with db.Session() as session, session.begin():
        if count and (info.outcome.finished or roll < 0.15):
            undo_last_game(session, match_id, "station", version=info.version)
            return Edit("undo", match_id, info.version)
        if fixable and roll < 0.3:
            index = rng.choice(fixable)
            fixed = toggled(info.games[index])
            correct_game(session, info.game_ids[index], fixed, "station", version=info.version)
            return Edit("correct", match_id, info.version, index)
        record_game(session, match_id, planned[count], version=info.version)
        return Edit("record", match_id, info.version, count)


def _team_edit(db: EventDatabase, rng: random.Random, team_id: int) -> Edit:
    with db.Session() as session:
        team = get_team(session, team_id)
    with db.Session() as session, session.begin():
        if rng.random() < 0.5:
            edit_team(session, team_id, version=team.version, paid=not team.paid)
            return Edit("paid", team_id, team.version, not team.paid)
        club = f"Club {rng.randrange(1000)}"
        edit_team(session, team_id, version=team.version, club=club)
        return Edit("club", team_id, team.version, club)


def station(target: str, seed: int, edits: int, log: StationLog, start: threading.Barrier) -> None:
    db = open_database(target)
    rng = random.Random(seed)
    with db.Session() as session:
        match_ids = [m.id for m in list_matches(session)]
        team_ids = [t.id for t in list_teams(session)]
    start.wait()
    try:
        for _ in range(edits):
            on_match = rng.random() < 0.8
            target_id = rng.choice(match_ids if on_match else team_ids)
            while True:
                try:
                    edit = (_match_edit if on_match else _team_edit)(db, rng, target_id)
                except UserError as exc:
                    if not _changed_elsewhere(exc):
                        log.refused.append(str(exc))
                        raise
                    log.conflicts += 1
                except Exception as exc:
                    if not _changed_elsewhere(exc):
                        raise
                    log.conflicts += 1
                else:
                    log.edits.append(edit)
                    break
    finally:
        db.close()


def run_stations(target: str, stations: int, edits: int, seed: int) -> list[StationLog]:
    logs = [StationLog() for _ in range(stations)]
    start = threading.Barrier(stations)
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            station(target, seed * 100 + i, edits, logs[i], start)
        except BaseException as exc:  # reported by the caller, not lost in the thread
            errors.append(exc)
            start.abort()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(stations)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return logs


def serial_replay(db: EventDatabase, logs: list[StationLog]) -> None:
    """Apply every accepted edit, one at a time, each row's edits in the order of its versions."""
    edits = sorted(
        (e for log in logs for e in log.edits),
        key=lambda e: (e.kind in ("paid", "club"), e.target, e.based_on),
    )
    for edit in edits:
        with db.Session() as session, session.begin():
            if edit.kind in ("paid", "club"):
                change = {"paid": edit.value} if edit.kind == "paid" else {"club": edit.value}
                edit_team(session, edit.target, **change)
                continue
            info = get_match(session, edit.target)
            if edit.kind == "record":
                assert edit.value == len(info.games), (edit, len(info.games))
                record_game(session, edit.target, plan(info.rules, edit.target)[edit.value])
            elif edit.kind == "undo":
                undo_last_game(session, edit.target, "station")
            else:
                fixed = toggled(info.games[edit.value])
                correct_game(session, info.game_ids[edit.value], fixed, "station")


def snapshot(db: EventDatabase) -> dict[str, Any]:
    """The event as a director sees it: every match's games and scoreline, every team."""
    with db.Session() as session:
        matches: dict[int, tuple[tuple[Game, ...], str, str]] = {
            m.id: (m.games, str(m.outcome.score), m.outcome.result.value)
            for m in list_matches(session)
        }
        teams = {t.id: (t.name, t.club, t.paid, t.players) for t in list_teams(session)}
    return {"matches": matches, "teams": teams}
