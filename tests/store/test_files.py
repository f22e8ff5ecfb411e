"""Every file the app writes: the old one or the new one, never half, never a stray temp file."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
from pathlib import Path

import pytest

from director.domain.errors import UserError
from director.store.files import atomic_write, atomic_write_text, atomic_writer


def test_a_new_file_gets_the_usual_permissions_not_the_temp_files(tmp_path: Path) -> None:
    target = tmp_path / "teams.csv"
    atomic_write_text(target, "team,player1,player2\n")
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask
    assert target.read_text() == "team,player1,player2\n"


def test_replacing_keeps_the_files_permissions(tmp_path: Path) -> None:
    target = tmp_path / "standings.pdf"
    target.write_bytes(b"old")
    target.chmod(0o640)
    atomic_write(target, b"new")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert target.read_bytes() == b"new"


def test_a_writer_that_fails_half_way_leaves_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "report.pdf"
    target.write_bytes(b"the old report")
    with pytest.raises(RuntimeError), atomic_writer(target) as handle:
        handle.write(b"half of a new rep")
        raise RuntimeError("the report generator crashed")
    assert target.read_bytes() == b"the old report"
    assert [p.name for p in tmp_path.iterdir()] == ["report.pdf"]


def test_writing_where_it_cannot_be_written_says_why(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="does not exist"):
        atomic_write(tmp_path / "missing" / "x.csv", b"x")
    with pytest.raises(UserError, match="is a folder"):
        atomic_write(tmp_path, b"x")


def _database(path: Path) -> bytes:
    """An SQLite file (an event's or a club's), as the app makes them; its bytes."""
    with contextlib.closing(sqlite3.connect(path)) as connection, connection:
        connection.execute("CREATE TABLE event (name TEXT)")
        connection.execute("INSERT INTO event VALUES ('Spring Open')")
    return path.read_bytes()


def test_an_output_never_replaces_an_event_or_club_file(tmp_path: Path) -> None:
    """`report standings ev.tandem -o ev.tandem` replaced the event by its own standings: a
    report, an export or a match record is never written over a database."""
    event = tmp_path / "Spring Open.tandem"
    before = _database(event)
    with pytest.raises(UserError, match="is an event or club file"):
        atomic_write(event, b"%PDF-1.4")
    with pytest.raises(UserError, match="is an event or club file"):
        atomic_write_text(event, "team,player1,player2\n")
    assert event.read_bytes() == before
    link = tmp_path / "latest.pdf"
    link.symlink_to(event)  # through a link, the same file
    with pytest.raises(UserError, match="is an event or club file"):
        atomic_write(link, b"%PDF-1.4")
    assert event.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["Spring Open.tandem", "latest.pdf"]


@pytest.mark.parametrize("suffix", ["-wal", "-shm", "-journal", ".lock"])
def test_an_output_never_replaces_a_file_the_event_keeps_beside_it(
    tmp_path: Path, suffix: str
) -> None:
    """Its write-ahead log holds the latest results until a checkpoint; its lock says who
    has it open: neither is any output's to replace."""
    event = tmp_path / "night.tandem"
    _database(event)
    companion = tmp_path / f"night.tandem{suffix}"
    companion.write_bytes(b"the event's own")
    with pytest.raises(UserError, match="belongs to the event or club file night.tandem"):
        atomic_write(companion, b"%PDF-1.4")
    assert companion.read_bytes() == b"the event's own"
    plain = tmp_path / f"notes.txt{suffix}"  # beside no database: an ordinary name
    atomic_write(plain, b"fine")
    assert plain.read_bytes() == b"fine"


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0,
    reason="gives the link to another user (CI runs as root)",
)
def test_a_link_another_user_planted_in_a_shared_folder_is_not_followed(tmp_path: Path) -> None:
    """In a folder anyone may write to (sticky, as /tmp), `report.pdf -> ~/.bashrc` made by
    someone else would have had the director's report replace that file: refused, as the
    kernel's protected_symlinks refuses such a link to open(); the director's own links there
    and any link elsewhere are followed as before."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    precious = tmp_path / "precious.txt"
    precious.write_bytes(b"mine")
    planted = shared / "report.pdf"
    planted.symlink_to(precious)
    os.lchown(planted, 65534, 65534)  # nobody's
    with pytest.raises(UserError, match="a link another user made"):
        atomic_write(planted, b"%PDF-1.4")
    assert precious.read_bytes() == b"mine" and planted.is_symlink()
    own = shared / "own.pdf"
    own.symlink_to(precious)
    atomic_write(own, b"%PDF-1.4")
    assert precious.read_bytes() == b"%PDF-1.4"
    private = tmp_path / "private.pdf"  # not a shared folder: followed whoever made it
    private.symlink_to(precious)
    os.lchown(private, 65534, 65534)
    atomic_write(private, b"again")
    assert precious.read_bytes() == b"again"
