"""Planted links cannot turn the event lock against another file (issue 14, item 6).

A lock file that is a symlink or a hard link to another event, an event file with a second
name (its own -wal and -shm beside it), and a lock file deleted while the event is open must
never let a write land in the wrong file or a second writer in.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from director.domain.errors import UserError
from director.services.teams import add_team, list_teams
from director.store.engine import open_database, open_event
from director.store.lock import EventInUseError, lock_path
from tests.store.test_lock import Holder

EXE = str(Path(sys.executable).with_name("tandem-director"))


@pytest.fixture
def autumn(event_path: Path) -> Path:
    other = event_path.with_name("autumn.tandem")
    shutil.copy(event_path, other)
    return other


@pytest.mark.parametrize("link", [os.symlink, os.link], ids=["symlink", "hard link"])
def test_a_lock_file_planted_as_a_link_to_another_event_is_refused(
    event_path: Path, autumn: Path, link: object
) -> None:
    before = autumn.read_bytes()
    assert callable(link)
    link(autumn, lock_path(event_path))
    with pytest.raises(UserError, match="lock file"):
        open_event(str(event_path))
    assert autumn.read_bytes() == before
    db = open_database(str(autumn), read_only=True)
    db.close()


def test_an_event_file_with_a_second_name_is_refused(event_path: Path) -> None:
    second = event_path.with_name("same.tandem")
    os.link(event_path, second)
    for name in (event_path, second):
        with pytest.raises(UserError, match="hard link"):
            open_event(str(name))


def test_a_refused_hard_link_leaves_no_lock_file_and_every_byte_as_it_was(
    event_path: Path,
) -> None:
    """The refusal left `FILE.lock` behind (and the next open of that name was then told the
    event had not been closed cleanly). Through the command line too: one line, status 2."""
    second = event_path.with_name("same.tandem")
    os.link(event_path, second)
    before = sorted(p.name for p in event_path.parent.iterdir()), event_path.read_bytes()
    for name in (event_path, second):
        with pytest.raises(UserError, match="hard link"):
            open_event(str(name))
        done = subprocess.run(
            [EXE, "pair", str(name)], check=False, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 2 and "hard link" in done.stderr, done.stderr
        assert len(done.stderr.splitlines()) == 1
    after = sorted(p.name for p in event_path.parent.iterdir()), event_path.read_bytes()
    assert after == before


def test_a_second_writer_is_refused_even_when_the_lock_file_was_deleted(event_path: Path) -> None:
    first = Holder(event_path)
    try:
        lock_path(event_path).unlink()
        with pytest.raises(EventInUseError, match="open elsewhere"):
            open_event(str(event_path))
    finally:
        first.close()
    db = open_event(str(event_path))  # and once it is closed, it opens
    db.close()


def test_a_write_is_refused_once_the_event_file_was_replaced_under_the_app(
    event_path: Path, autumn: Path
) -> None:
    db = open_event(str(event_path))
    try:
        moved = event_path.with_name("moved.tandem")
        os.rename(event_path, moved)
        os.rename(autumn, event_path)  # another file now has the event's name
        with pytest.raises(UserError, match="replaced"), db.Session() as s, s.begin():
            add_team(s, "Lost Team", ("A", "B"))
    finally:
        db.close()
    check = open_database(str(event_path), read_only=True)
    with check.Session() as session:
        assert list_teams(session) == []
    check.close()
