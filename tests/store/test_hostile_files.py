"""Event files made or changed by another program are refused before anything runs (item 7)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from director.domain.errors import UserError
from director.services.backups import restore_backup
from director.store.engine import open_database, open_event

EXE = str(Path(sys.executable).with_name("tandem-director"))

HOSTILE = {
    "a meta view that recurses forever": [
        "DROP TABLE meta",
        "CREATE VIEW meta AS WITH RECURSIVE r(key, value) AS (SELECT 'k', 'v' UNION ALL "
        "SELECT key, value FROM r) SELECT key, value FROM r",
    ],
    "a trigger that flips winners": [
        "CREATE TRIGGER flip AFTER INSERT ON game BEGIN "
        "UPDATE game SET winner = CASE NEW.winner WHEN 'A' THEN 'B' ELSE 'A' END "
        "WHERE id = NEW.id; END",
    ],
    "a trigger that swallows inserts": [
        "CREATE TRIGGER swallow BEFORE INSERT ON team BEGIN SELECT RAISE(IGNORE); END",
    ],
    "an extra table": ["CREATE TABLE notes_of_mine (x)"],
    "an extra index": ["CREATE INDEX ix_mine ON team (club)"],
}


def run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([EXE, *args], check=False, capture_output=True, text=True, timeout=60)


def tamper(path: Path, statements: list[str]) -> None:
    connection = sqlite3.connect(path)
    for statement in statements:
        connection.execute(statement)
    connection.commit()
    connection.close()


@pytest.mark.parametrize("statements", list(HOSTILE.values()), ids=list(HOSTILE))
def test_a_file_with_objects_the_schema_does_not_define_is_refused(
    event_path: Path, statements: list[str]
) -> None:
    tamper(event_path, statements)
    for opener in (
        lambda: open_event(str(event_path)),
        lambda: open_database(str(event_path)),
        lambda: open_database(str(event_path), read_only=True),
    ):
        with pytest.raises(UserError, match="holds things a Tandem Director event never has"):
            opener()
    assert not event_path.with_name("event.tandem.lock").exists()


def test_check_of_a_hostile_file_says_so_in_one_line(event_path: Path) -> None:
    tamper(event_path, HOSTILE["a meta view that recurses forever"])
    done = run(["check", str(event_path)])
    assert done.returncode == 2
    assert 'view "meta"' in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("command", ["check", "standings", "export-teams"])
def test_a_fifo_is_never_opened_as_an_event(tmp_path: Path, command: str) -> None:
    fifo = tmp_path / "pipe.tandem"
    os.mkfifo(fifo)
    extra = [str(tmp_path / "out.csv")] if command == "export-teams" else []
    done = run([command, str(fifo), *extra])
    assert done.returncode == 2, done.stderr
    assert "not a regular file" in done.stderr
    with pytest.raises(UserError, match="not a regular file"):
        open_event(str(fifo))


def test_a_hostile_backup_is_not_restored_and_the_event_is_untouched(
    event_path: Path, tmp_path: Path
) -> None:
    fake = tmp_path / "fake.tandem"
    tamper(fake, ["CREATE TABLE event (x)"])
    before = event_path.read_bytes()
    with pytest.raises(UserError, match="cannot be restored"):
        restore_backup(event_path, fake)
    assert event_path.read_bytes() == before
    assert list(tmp_path.glob("event.tandem.replaced-*")) == []


@pytest.mark.parametrize("kind", ["pipe", "folder"])
def test_a_backup_that_is_not_a_file_is_named_for_what_it_is(
    event_path: Path, tmp_path: Path, kind: str
) -> None:
    """A FIFO or a folder given as the backup is refused before anything reads it, in words
    that say what it is (it used to be told "does not exist")."""
    odd = tmp_path / "odd.tandem"
    os.mkfifo(odd) if kind == "pipe" else odd.mkdir()
    before = event_path.read_bytes()
    with pytest.raises(UserError, match="is a folder|not a regular file"):
        restore_backup(event_path, odd)
    assert event_path.read_bytes() == before
