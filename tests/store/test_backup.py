"""Rotating, checked backups; restore that never destroys; a damaged file moved aside."""

from __future__ import annotations

import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from director.domain.errors import UserError
from director.services.audit import entries
from director.services.backups import (
    backup_after_pairing,
    backup_after_round,
    backup_now,
    list_backups,
    restore_backup,
    restore_candidates,
    set_aside_files,
)
from director.services.teams import add_team, list_teams
from director.store.backup import KEEP, backup_folder
from director.store.engine import CorruptEventError, EventDatabase, open_database, open_event
from director.store.integrity import file_problems
from director.store.lock import EventInUseError


def _team_names(event: Path) -> list[str]:
    db = open_database(str(event), read_only=True)
    try:
        with db.Session() as session:
            return [t.name for t in list_teams(session)]
    finally:
        db.close()


def _add(db: EventDatabase, name: str) -> None:
    with db.Session() as session, session.begin():
        add_team(session, name, (f"{name} 1", f"{name} 2"))


def _damage(path: Path) -> None:
    """Overwrite the middle of the file with garbage, as a failing disk would."""
    size = path.stat().st_size
    with path.open("r+b") as handle:
        handle.seek(size // 2)
        handle.write(random.Random(size).randbytes(8192))


def test_opening_makes_a_checked_single_file_backup(event_path: Path) -> None:
    db = open_event(str(event_path))
    db.close()
    made = db.report.backup
    assert made is not None and made.parent == backup_folder(event_path.resolve())
    assert file_problems(made) == []
    assert not Path(f"{made}-wal").exists()
    connection = sqlite3.connect(made)
    assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    meta = dict(connection.execute("SELECT key, value FROM meta").fetchall())
    connection.close()
    assert meta["backup_reason"] == "open"
    assert "open_by" not in meta  # restoring it must not look like a crash
    [info] = list_backups(event_path)
    assert info.good and info.reason == "open" and [w for w, _n in info.held] == ["teams", "games"]


def test_reopening_an_unchanged_event_keeps_the_older_backups(event_path: Path) -> None:
    db = open_event(str(event_path))
    _add(db, "Round Two")
    assert backup_after_pairing(db, 2) is not None
    db.close()
    for _ in range(KEEP + 2):  # opening it many times must not push the round backup out
        open_event(str(event_path)).close()
    reasons = [b.reason for b in list_backups(event_path)]
    assert "round 2 paired" in reasons
    assert len(reasons) == 2


def test_only_the_newest_backups_are_kept(event_path: Path) -> None:
    db = open_event(str(event_path), make_backup=False)
    made = []
    for n in range(KEEP + 3):
        _add(db, f"Team {n}")
        path = backup_after_round(db, n + 1)
        assert path is not None
        made.append(path)
    leftover = backup_folder(event_path.resolve()) / ".event-1-2.tmp"  # a backup killed mid-way
    leftover.write_bytes(b"half")
    backup_now(db)
    db.close()
    kept = list_backups(event_path)
    assert len(kept) == KEEP + 1  # the newest KEEP milestones, and the one by hand
    assert kept[0].reason == "by hand" and kept[1].reason == f"round {KEEP + 3} finished"
    assert {b.path for b in kept} >= set(made[-KEEP:])
    assert not leftover.exists()
    assert dict(kept[1].held)["teams"] == KEEP + 3


def test_restore_puts_the_backup_back_and_keeps_the_replaced_file(event_path: Path) -> None:
    db = open_event(str(event_path))
    _add(db, "Before")
    good = backup_now(db, "before the mistake")
    assert good is not None
    _add(db, "Mistake")
    db.close()
    done = restore_backup(event_path, good, "the mistake")
    assert done.replaced is not None and done.replaced.name.startswith("event.tandem.replaced-")
    assert _team_names(event_path) == ["Before"]
    assert _team_names(done.replaced) == ["Before", "Mistake"]  # nothing is ever lost
    assert set_aside_files(event_path) == [done.replaced]
    db = open_event(str(event_path))
    assert not db.report.unclean
    with db.Session() as session:
        last = entries(session)[-1]
    db.close()
    assert (last.action, last.reason) == ("restore", "the mistake")


def test_restore_is_refused_while_the_event_is_open(event_path: Path) -> None:
    db = open_event(str(event_path))
    made = db.report.backup
    assert made is not None
    with pytest.raises(EventInUseError):
        restore_backup(event_path, made)
    db.close()
    assert set_aside_files(event_path) == []


def test_a_damaged_backup_is_not_restored(event_path: Path, tmp_path: Path) -> None:
    db = open_event(str(event_path))
    made = db.report.backup
    db.close()
    assert made is not None
    bad = tmp_path / "bad.tandem"
    bad.write_bytes(made.read_bytes())
    _damage(bad)
    before = event_path.read_bytes()
    with pytest.raises(UserError, match="cannot be restored"):
        restore_backup(event_path, bad)
    assert event_path.read_bytes() == before
    assert set_aside_files(event_path) == []


def test_a_damaged_event_is_moved_aside_and_the_good_backups_offered(event_path: Path) -> None:
    db = open_event(str(event_path))
    _add(db, "Saved")
    good = backup_now(db, "by hand")
    db.close()
    _damage(event_path)
    damaged = event_path.read_bytes()
    with pytest.raises(CorruptEventError) as caught:
        open_event(str(event_path))
    assert caught.value.moved_to is not None
    assert caught.value.moved_to.read_bytes() == damaged  # moved, untouched
    assert not event_path.exists()
    assert caught.value.backups[0] == good
    assert "tandem-director restore" in str(caught.value)
    assert [b.path for b in restore_candidates(event_path)][0] == good
    restore_backup(event_path, good)
    assert _team_names(event_path) == ["Saved"]
    assert set_aside_files(event_path) == [caught.value.moved_to]


def test_a_wiped_event_with_backups_is_treated_as_damaged(event_path: Path) -> None:
    open_event(str(event_path)).close()
    event_path.write_bytes(b"\0" * 8192)  # what some file systems leave after a power cut
    with pytest.raises(CorruptEventError):
        open_event(str(event_path))
    assert list(event_path.parent.glob("event.tandem.corrupt-*"))


def test_a_file_that_is_not_an_event_is_left_alone(tmp_path: Path) -> None:
    stranger = tmp_path / "notes.tandem"
    stranger.write_text("shopping list\n")
    with pytest.raises(UserError, match="not a Tandem Director event"):
        open_event(str(stranger))
    assert stranger.read_text() == "shopping list\n"
    assert list(tmp_path.iterdir()) == [stranger]


def test_a_server_event_is_backed_up_by_the_server() -> None:
    with pytest.raises(UserError, match="pg_dump"):
        list_backups("postgresql://director@server/spring_open")
    with pytest.raises(UserError, match="pg_dump"):
        restore_backup("postgresql://director@server/spring_open", "x.tandem")


def test_a_file_set_aside_with_its_wal_restores_with_its_last_commits(event_path: Path) -> None:
    db = open_event(str(event_path))
    _add(db, "Last Commit")  # in the -wal file only, while the app still has it open
    aside = event_path.with_name("copy-while-open.tandem")
    aside.write_bytes(event_path.read_bytes())
    Path(f"{aside}-wal").write_bytes(Path(f"{event_path}-wal").read_bytes())
    db.close()
    restore_backup(event_path, aside)
    assert _team_names(event_path) == ["Last Commit"]


def test_restoring_from_a_copy_of_an_event_leaves_nothing_beside_the_copy(
    event_path: Path, tmp_path: Path
) -> None:
    """An event file kept on a stick (WAL mode, closed cleanly) restored the event and left a
    `-wal` and a `-shm` beside itself: a read-only connection cannot remove them."""
    copy = tmp_path / "stick" / "friday.tandem"
    copy.parent.mkdir()
    shutil.copy(event_path, copy)
    db = open_event(str(copy))
    _add(db, "From The Stick")
    db.close()
    assert copy.read_bytes()[18:20] == b"\x02\x02"  # the header's WAL mode (file format 2)
    before = sorted(p.name for p in copy.parent.iterdir())
    assert "friday.tandem-wal" not in before and "friday.tandem-shm" not in before
    restore_backup(event_path, copy)
    assert _team_names(event_path) == ["From The Stick"]
    assert sorted(p.name for p in copy.parent.iterdir()) == before
