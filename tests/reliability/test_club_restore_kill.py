"""Killed while restoring a backup, the club is the one before or the one after, never half,
and every file it replaced is kept."""

from __future__ import annotations

import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from director.services import club
from director.services.backups import set_aside_files
from director.store.backup import backup_now
from director.store.club import create_club, open_club
from director.store.integrity import integrity_problems

pytestmark = pytest.mark.slow


def _backup_of(path: Path, persons: int, folder: Path) -> Path:
    """The club with `persons` persons, backed up by the club's own backup, copied aside."""
    db = open_club(str(path), make_backup=False)
    try:
        with db.Session() as s, s.begin():
            for n in range(persons):
                club.add_person(s, f"Person {persons}-{n}")
        made = backup_now(db, f"with {persons}")
    finally:
        db.close()
    assert made is not None
    return Path(shutil.copy(made, folder / f"{persons}.club"))


def test_a_restore_killed_at_any_moment_leaves_the_club_before_or_after(tmp_path: Path) -> None:
    path = tmp_path / "kill.club"
    create_club(str(path)).close()
    kept = tmp_path / "kept"
    kept.mkdir()
    small = _backup_of(path, 3, kept)
    big = _backup_of(path, 4000, kept)  # 3 + 4000 persons
    rng = random.Random(30)
    acknowledged = 0
    for _ in range(12):
        proc = subprocess.Popen(
            [sys.executable, "-m", "tests.reliability.club_restore_child", str(path),
             str(small), str(big)],
            stdout=subprocess.PIPE, text=True, cwd=Path(__file__).parents[2],
        )  # fmt: skip
        try:
            assert proc.stdout is not None
            proc.stdout.readline()  # one restore done: kill during a later one
            time.sleep(rng.uniform(0.0, 0.5))
        finally:
            proc.send_signal(signal.SIGKILL)
        said = [int(line) for line in proc.stdout.read().split()]
        proc.stdout.close()
        proc.wait()
        assert path.is_file(), "the club's own name names no file"
        db = open_club(str(path), make_backup=False)  # the stale lock is recognised
        try:
            assert integrity_problems(db) == []
            with db.Session() as s:
                persons = len(club.club_table(s))
        finally:
            db.close()
        assert persons in (3, 4003), "half a restore in the club"
        acknowledged += len(said)
        for aside in set_aside_files(path):  # every replaced file is whole
            if not Path(f"{aside}-wal").exists():
                with sqlite3.connect(f"file:{aside}?mode=ro", uri=True) as c:
                    assert c.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert acknowledged > 0
