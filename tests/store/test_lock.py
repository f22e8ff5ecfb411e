"""One app per event file: a second opener is told where it is open; a dead holder is no holder."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select

from director.services.teams import add_team
from director.store import models
from director.store.backup import OPEN_MARKER
from director.store.engine import open_database, open_event
from director.store.lock import EventInUseError, acquire, lock_path, read_holder

HOLDER = """
import sys
from director.store.backup import OPEN_MARKER
from director.store.engine import open_event
db = open_event(sys.argv[1])
print("open", flush=True)
sys.stdin.readline()
db.close()
print("closed", flush=True)
"""


class Holder:
    """Another app instance: a real process that has the event open."""

    def __init__(self, event: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", HOLDER, str(event)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        assert self.proc.stdout.readline() == "open\n"

    def close(self) -> None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write("\n")
        self.proc.stdin.flush()
        assert self.proc.stdout.readline() == "closed\n"
        self.proc.wait(timeout=10)
        self.proc.stdin.close()
        self.proc.stdout.close()

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.close()
        self.proc.stdout.close()


@pytest.fixture
def holder(event_path: Path) -> Iterator[Holder]:
    other = Holder(event_path)
    yield other
    if other.proc.poll() is None:
        other.kill()


def test_a_second_app_is_told_where_the_event_is_open(event_path: Path, holder: Holder) -> None:
    where = rf"open elsewhere \(by pid {holder.proc.pid} on host"
    with pytest.raises(EventInUseError, match=where):
        open_event(str(event_path))
    found = read_holder(event_path)
    assert found is not None and found.pid == holder.proc.pid
    holder.close()
    assert not lock_path(event_path).exists()
    assert read_holder(event_path) is None
    db = open_event(str(event_path))
    assert not db.report.unclean  # the other app closed it properly
    db.close()


def test_the_same_process_cannot_open_an_event_twice(event_path: Path) -> None:
    db = open_event(str(event_path))
    with pytest.raises(EventInUseError, match=f"pid {os.getpid()}"):
        open_event(str(event_path))
    db.close()
    open_event(str(event_path)).close()


def test_a_killed_app_leaves_a_stale_lock_that_is_recognised(
    event_path: Path, holder: Holder
) -> None:
    pid = holder.proc.pid
    holder.kill()
    assert lock_path(event_path).exists()  # the file stays: the OS lock is what counts
    assert read_holder(event_path) is None
    db = open_event(str(event_path))
    try:
        assert db.report.unclean
        assert db.report.full_check
        assert f"pid {pid}" in db.report.left_by
    finally:
        db.close()
    again = open_event(str(event_path))
    assert not again.report.unclean
    again.close()


def test_an_open_mark_in_a_copied_file_is_an_unclean_shutdown(
    event_path: Path, tmp_path: Path
) -> None:
    """A copy taken while the app had the file open has no lock file beside it, but says so."""
    db = open_event(str(event_path))
    copy = tmp_path / "copy.tandem"
    shutil.copy(event_path, copy)
    for companion in ("-wal", "-shm"):
        if Path(f"{event_path}{companion}").exists():
            shutil.copy(f"{event_path}{companion}", f"{copy}{companion}")
    db.close()
    opened = open_event(str(copy))
    assert opened.report.unclean and opened.report.full_check
    opened.close()


def test_one_shot_commands_read_without_the_lock(event_path: Path, holder: Holder) -> None:
    for args in (["check", str(event_path)], ["backups", str(event_path)]):
        done = subprocess.run(
            [sys.executable, "-m", "director.cli", *args],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
    db = open_database(str(event_path), read_only=True)
    with db.Session() as session:
        assert session.scalars(select(models.Team)).all() == []
    db.close()


def test_a_lock_on_a_missing_event_does_not_create_it(tmp_path: Path) -> None:
    event = tmp_path / "gone.tandem"
    lock = acquire(event)
    assert not event.exists()
    lock.release()
    assert not lock_path(event).exists()


def test_closing_releases_the_lock_and_the_mark(event_path: Path) -> None:
    db = open_event(str(event_path))
    with db.Session() as session, session.begin():
        add_team(session, "Closers", ("Ann", "Bob"))
    assert lock_path(event_path).exists()
    db.close()
    assert not lock_path(event_path).exists()
    plain = open_database(str(event_path), read_only=True)
    with plain.Session() as session:
        assert OPEN_MARKER not in session.scalars(select(models.Meta.key)).all()
    plain.close()
