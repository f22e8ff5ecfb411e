"""The first look at an event file (#24 point 6): its teams read with the standard library's
sqlite3, the same values the services give, and only where the app's open would find nothing
to say; its lock taken first and kept for the open."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from director.domain.errors import UserError
from director.services.events import get_event
from director.services.teams import edit_team, list_teams, withdraw_team
from director.store.backup import OPEN_MARKER
from director.store.engine import open_database, open_event
from director.store.first_look import take_first_look
from director.store.lock import EventInUseError, acquire
from tests.event_files import read_back, seed_teams
from tests.reliability.upgrade_kill import older_event
from tests.store.test_hostile_files import HOSTILE, tamper


def fingerprint(path: Path) -> tuple[str, list[str]]:
    """The file's bytes and what lies beside it: a look changes neither."""
    beside = sorted(p.name for p in path.parent.iterdir() if p.name != path.name)
    return hashlib.sha256(path.read_bytes()).hexdigest(), beside


def varied_teams(path: Path) -> None:
    """Teams in several states: rated, withdrawn, paid, present, a club."""
    seed_teams(path, 5, clubs=True)
    db = open_database(str(path))
    try:
        with db.Session() as session, session.begin():
            teams = list_teams(session)
            edit_team(session, teams[1].id, version=teams[1].version, rating=1720, paid=True)
            edit_team(session, teams[2].id, version=teams[2].version, present=True)
            withdraw_team(session, teams[3].id, False)
    finally:
        db.close()


def test_the_first_look_shows_what_the_services_read_and_writes_nothing(event_path: Path) -> None:
    varied_teams(event_path)
    before = fingerprint(event_path)
    glance = take_first_look(str(event_path))
    try:
        assert glance.look is not None and glance.lock is not None
        # the same domain values, field for field (a bool is a bool, as SQLAlchemy gives it)
        assert glance.look.teams == read_back(event_path, list_teams)
        assert [type(t.paid) for t in glance.look.teams] == [bool] * 5
        assert glance.look.info == read_back(event_path, get_event)
        # only the lock file beside it, held for the open: nothing else written
        after = fingerprint(event_path)
        assert after[0] == before[0]
        assert after[1] == sorted([*before[1], "event.tandem.lock"])
        with pytest.raises(EventInUseError):
            acquire(event_path.resolve())
    finally:
        assert glance.lock is not None
        glance.lock.release()


def test_the_open_keeps_the_lock_the_look_took(event_path: Path) -> None:
    seed_teams(event_path, 2)
    glance = take_first_look(str(event_path))
    assert glance.lock is not None and glance.look is not None
    db = open_event(str(event_path), make_backup=False, lock=glance.lock)
    try:
        assert db.lock is glance.lock and db.marked
        with db.Session() as session:
            assert list_teams(session) == glance.look.teams
    finally:
        db.close()
    acquire(event_path.resolve()).release()  # given back on close


@pytest.mark.parametrize("statements", list(HOSTILE.values()), ids=list(HOSTILE))
def test_a_file_with_objects_the_schema_does_not_define_gets_no_look_and_the_open_refuses_it(
    event_path: Path, statements: list[str]
) -> None:
    seed_teams(event_path, 2)
    tamper(event_path, statements)
    glance = take_first_look(str(event_path))
    assert glance.look is None and glance.lock is not None
    with pytest.raises(UserError, match="holds things a Tandem Director event never has"):
        open_event(str(event_path), lock=glance.lock)
    acquire(event_path.resolve()).release()  # the refusal gave the lock back


BAD_VALUES = {
    "a seed that is text": "UPDATE team SET seed = 'first' WHERE id = 1",
    "a paid flag of 7": "UPDATE team SET paid = 7 WHERE id = 1",
    "a name longer than its column": "UPDATE team SET name = printf('%.500c', 'x') WHERE id = 1",
    "a player's board as a real": "UPDATE player SET board = 1.5 WHERE id = 1",
    "a scoring the rules do not have": "UPDATE event SET scoring = 'golf'",
}


@pytest.mark.parametrize("statement", list(BAD_VALUES.values()), ids=list(BAD_VALUES))
def test_a_value_the_app_never_writes_gets_no_look(event_path: Path, statement: str) -> None:
    seed_teams(event_path, 2)
    with sqlite3.connect(event_path) as connection:
        connection.execute("PRAGMA ignore_check_constraints = ON")
        connection.execute(statement)
    connection.close()
    glance = take_first_look(str(event_path))
    assert glance.look is None and glance.lock is not None
    glance.lock.release()


def test_an_event_left_open_by_a_crash_gets_no_look(event_path: Path) -> None:
    """The open checks it in full first (the mark in the file, or a lock left behind)."""
    seed_teams(event_path, 2)
    with sqlite3.connect(event_path) as connection:
        connection.execute("INSERT INTO meta VALUES (?, 'pid 1 on elsewhere')", (OPEN_MARKER,))
    connection.close()
    glance = take_first_look(str(event_path))
    assert glance.look is None and glance.lock is not None
    db = open_event(str(event_path), make_backup=False, lock=glance.lock)
    try:
        assert db.report.unclean and db.report.full_check  # as without a look
    finally:
        db.close()


def test_a_lock_left_by_a_killed_app_is_kept_for_the_open(event_path: Path) -> None:
    seed_teams(event_path, 2)
    child = "import sys, os; from pathlib import Path; from director.store.lock import acquire\n"
    child += "acquire(Path(sys.argv[1]).resolve()); os._exit(0)"  # killed: its lock file stays
    subprocess.run([sys.executable, "-c", child, str(event_path)], check=True, timeout=60)
    glance = take_first_look(str(event_path))
    assert glance.look is None and glance.lock is not None
    assert glance.lock.previous_left_behind
    db = open_event(str(event_path), make_backup=False, lock=glance.lock)
    try:
        assert db.report.unclean  # the lock's word reached the open
    finally:
        db.close()


def test_an_older_file_gets_no_look_and_is_upgraded_by_the_open(tmp_path: Path) -> None:
    path = older_event(tmp_path / "old.tandem", teams=3)
    glance = take_first_look(str(path))
    assert glance.look is None and glance.lock is not None
    db = open_event(str(path), make_backup=False, lock=glance.lock)
    try:
        assert db.backup_made is not None
    finally:
        db.close()


def test_a_file_open_elsewhere_or_not_an_event_gets_no_lock_and_no_look(
    event_path: Path, tmp_path: Path
) -> None:
    held = acquire(event_path.resolve())
    glance = take_first_look(str(event_path))
    held.release()
    assert glance.lock is None and glance.look is None
    text = tmp_path / "notes.tandem"
    text.write_text("not an event")
    fifo = tmp_path / "pipe.tandem"
    os.mkfifo(fifo)
    for target in (text, fifo, tmp_path, tmp_path / "missing.tandem"):
        glance = take_first_look(str(target))
        assert glance.lock is None and glance.look is None
