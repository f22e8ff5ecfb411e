"""`tandem-director upgrade FILE` and the app's open upgrade an older file on a copy (item 1)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from director.domain.errors import UserError
from director.store.engine import head_revision, open_database
from director.store.upgrade import stored_revision
from tests.reliability.upgrade_kill import HELD, OLDEST, older_event, state_after_open

EXE = str(Path(sys.executable).with_name("tandem-director"))


def test_the_upgrade_command_upgrades_and_keeps_the_original(tmp_path: Path) -> None:
    path = older_event(tmp_path / "old cup.tandem")
    done = subprocess.run(
        [EXE, "upgrade", str(path)], check=False, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    [kept] = tmp_path.glob("old cup.tandem.before-upgrade-*")
    assert done.stdout.splitlines() == [f"upgraded {path}; the original is kept as {kept}"]
    assert stored_revision(path) == head_revision()
    assert stored_revision(kept) == OLDEST
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    again = subprocess.run(
        [EXE, "upgrade", str(path)], check=False, capture_output=True, text=True, timeout=60
    )
    assert again.returncode == 0
    assert again.stdout.strip() == f"{path} is already at the current version"
    assert state_after_open(path)[1:] == HELD


def test_an_older_file_is_not_upgraded_by_a_read_only_command(tmp_path: Path) -> None:
    path = older_event(tmp_path / "old.tandem")
    with pytest.raises(UserError, match="tandem-director upgrade"):
        open_database(str(path), read_only=True)
    assert stored_revision(path) == OLDEST
