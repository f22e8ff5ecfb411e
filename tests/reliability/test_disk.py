"""Result entry on a full disk or a read-only file: a clear message, nothing lost or broken."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import text

from director.domain.errors import UserError
from director.services.backups import backup_now
from director.services.games import record_game
from director.services.matches import get_match, list_matches, stored_differences
from director.store.backup import backup_folder
from director.store.engine import EventDatabase, ReadOnlyEventError, open_database, open_event
from director.store.errors import FULL, READ_ONLY, known_database_error
from director.store.files import atomic_write
from director.store.integrity import database_problems
from director.store.lock import lock_path
from tests.reliability.child_writer import planned_games
from tests.reliability.kill_harness import prepare_event
from tests.reliability.media import IS_ROOT, fill, page_limit, read_only_file, small_disk


def _enter_next_game(db: EventDatabase, rng: random.Random) -> tuple[int, int] | str:
    """Record one game the way the app does; (match, game id), or the message a person sees."""
    with db.Session() as session:
        matches = [m for m in list_matches(session) if not m.outcome.finished]
    match = rng.choice(matches)
    game = planned_games(match.rules, 1, match.id)[len(match.games)]
    try:
        with db.Session() as session, session.begin():
            after = record_game(session, match.id, game).value
    except UserError:
        raise
    except Exception as exc:
        known = known_database_error(exc)
        if known is None:
            raise
        return known
    return match.id, after.game_ids[-1]


def _games(db: EventDatabase) -> set[tuple[int, int]]:
    with db.Session() as session:
        return {(m.id, g) for m in list_matches(session) for g in m.game_ids}


def _assert_sound(event: Path, committed: set[tuple[int, int]]) -> None:
    db = open_event(str(event), make_backup=False)
    try:
        assert database_problems(db) == []
        with db.Session() as session:
            assert stored_differences(session) == []
        assert _games(db) == committed
        assert isinstance(_enter_next_game(db, random.Random(5)), tuple)  # it works again
    finally:
        db.close()


def _full_disk(folder: Path, real_disk: bool) -> None:
    event = folder / "full.tandem"
    prepare_event(event, teams=8, matches=40)  # more than the few free pages can hold
    db = open_event(str(event))
    assert db.report.backup is not None
    target = folder / "teams.csv"
    target.write_bytes(b"old")
    filler = fill(folder, leave=160_000) if real_disk else None
    if filler is None:
        page_limit(db, extra_pages=0)
    rng = random.Random(3)
    committed = _games(db)
    message = None
    for _ in range(400):
        outcome = _enter_next_game(db, rng)
        if isinstance(outcome, str):
            message = outcome
            break
        committed.add(outcome)
    assert message == FULL, "the disk never filled up"
    assert len(committed) > 0
    assert _games(db) == committed  # the failed entry left nothing behind; the rest is there
    for _ in range(5):  # entering more gives the same clear message (or fits, if small enough)
        outcome = _enter_next_game(db, rng)
        if isinstance(outcome, str):
            assert outcome == FULL
        else:
            committed.add(outcome)
    assert _games(db) == committed
    if filler is not None:
        # the other files we write fail as clearly, and leave the old file and no temp file
        with pytest.raises(UserError, match="the disk is full"):
            atomic_write(target, b"x" * 400_000)
        assert target.read_bytes() == b"old"
        with pytest.raises(UserError, match="no backup made: the disk is (nearly )?full"):
            backup_now(db, "by hand")
        assert not list(backup_folder(event).glob(".*"))
        assert [p.name for p in folder.iterdir() if p.name.startswith(".")] == []
    db.close()
    if filler is not None:
        filler.unlink()
    _assert_sound(event, committed)


def test_result_entry_on_a_full_disk_fails_clearly_and_keeps_every_committed_result(
    tmp_path: Path,
) -> None:
    if IS_ROOT:
        with small_disk(tmp_path / "disk", "2m") as disk:
            _full_disk(disk, real_disk=True)
    else:
        _full_disk(tmp_path, real_disk=False)


def test_a_full_database_page_limit_gives_the_same_clear_message(tmp_path: Path) -> None:
    """The fallback used without root: SQLite's own SQLITE_FULL, at the same commit."""
    _full_disk(tmp_path, real_disk=False)


def test_result_entry_on_a_read_only_file_fails_clearly_and_changes_nothing(
    tmp_path: Path,
) -> None:
    event = tmp_path / "readonly.tandem"
    prepare_event(event, teams=4, matches=2)
    db = open_database(str(event))
    first = _enter_next_game(db, random.Random(1))
    assert isinstance(first, tuple)
    committed = _games(db)
    db.close()
    before = event.read_bytes()
    with read_only_file(event):
        db = open_database(str(event))
        with db.Session() as session:
            assert get_match(session, first[0]).game_ids[-1] == first[1]  # reading works
        assert _enter_next_game(db, random.Random(2)) == READ_ONLY
        assert _games(db) == committed
        db.close()
        # the app is told at once when it opens the file, and leaves no lock file behind
        with pytest.raises(ReadOnlyEventError, match="read-only"):
            open_event(str(event))
        assert not lock_path(event).exists()
        teams = tmp_path / "late.csv"
        teams.write_text("team,player1,player2\nLate Comers,Ann,Bob\n", encoding="utf-8")
        cli = subprocess.run(
            [sys.executable, "-m", "director.cli", "import-teams", str(event), str(teams)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert cli.returncode == 2
        [line] = cli.stderr.splitlines()  # one clear line, no traceback
        assert line.startswith("tandem-director: ") and line.endswith(READ_ONLY)
    assert event.read_bytes() == before
    _assert_sound(event, committed)


def test_a_read_only_copy_can_still_be_viewed(tmp_path: Path, template_event: Path) -> None:
    event = tmp_path / "archive.tandem"
    shutil.copy(template_event, event)
    with read_only_file(event):
        db = open_database(str(event), read_only=True)
        with db.Session() as session:
            assert list_matches(session) == []
        db.close()


EXE = str(Path(sys.executable).with_name("tandem-director"))


@pytest.mark.skipif(not IS_ROOT, reason="a real full disk needs root (a tmpfs)")
def test_reading_on_a_full_disk_says_the_disk_is_full(tmp_path: Path, template_event: Path) -> None:
    """An event copied with its recent changes (`-wal`) but without SQLite's index (`-shm`)
    needs 32 KB to read: on a full disk `check`, `standings`, `export-match` and `report`
    said "the disk reported an error … a removed USB stick?" and "nothing was saved"."""
    source = tmp_path / "source.tandem"
    shutil.copy(template_event, source)
    db = open_database(str(source))
    with small_disk(tmp_path / "disk", "2m") as disk:
        try:
            with db.Session() as session, session.begin():
                session.execute(text("UPDATE event SET name = 'Recent'"))
            event = disk / "event.tandem"
            shutil.copy(source, event)  # as it is while an app has it open: the -wal holds
            shutil.copy(f"{source}-wal", f"{event}-wal")  # the latest commit
        finally:
            db.close()
        fill(disk, 0)
        for args in (
            ["check", str(event)],
            ["standings", str(event)],
            ["report", "standings", str(event), "-o", str(tmp_path / "r.pdf")],
        ):
            done = subprocess.run(
                [EXE, *args], check=False, capture_output=True, text=True, timeout=120
            )
            assert done.returncode == 2, done
            assert "the disk is full" in done.stderr and "USB" not in done.stderr, done.stderr
            assert "nothing was saved" not in done.stderr
            assert len(done.stderr.splitlines()) == 1


@pytest.mark.skipif(not IS_ROOT, reason="a real full disk needs root (a tmpfs)")
def test_a_command_refused_on_a_full_disk_leaves_no_lock_file(
    tmp_path: Path, template_event: Path
) -> None:
    """`import-teams` on a full disk was refused ("writing FILE.lock failed") and left an empty
    `FILE.lock` behind, which the next open took for an app that had not closed cleanly."""
    with small_disk(tmp_path / "disk", "2m") as disk:
        event = disk / "event.tandem"
        shutil.copy(template_event, event)
        csv = tmp_path / "teams.csv"
        csv.write_text("team,player1,player2\nA,a1,a2\n", encoding="utf-8")
        fill(disk, 0)
        before = sorted(p.name for p in disk.iterdir())
        done = subprocess.run(
            [EXE, "import-teams", str(event), str(csv)],
            check=False, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert done.returncode == 2, done
        assert "the disk is full" in done.stderr, done.stderr
        assert sorted(p.name for p in disk.iterdir()) == before
