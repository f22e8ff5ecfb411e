"""Every file the app writes: the old one or the new one, never half, never a stray temp file."""

from __future__ import annotations

import os
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
