"""An event on read-only media can be viewed: checked, printed, its standings read (item 11).

As root a real read-only file system is used (a small tmpfs remounted read-only); SQLite
cannot create the event's `-shm` file there, which a WAL-mode file otherwise needs.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from director.store.engine import open_database, open_event
from director.store.lock import LockUnavailableError
from tests.reliability.media import IS_ROOT, small_disk

EXE = str(Path(sys.executable).with_name("tandem-director"))

pytestmark = pytest.mark.skipif(not IS_ROOT, reason="a read-only mount needs root")


@pytest.fixture
def cd(tmp_path: Path, template_event: Path) -> Iterator[Path]:
    with small_disk(tmp_path / "cd") as folder:
        shutil.copy(template_event, folder / "event.tandem")
        subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
        yield folder / "event.tandem"


def test_an_event_on_read_only_media_can_be_viewed(cd: Path, tmp_path: Path) -> None:
    for args in (
        ["check", str(cd)],
        ["standings", str(cd)],
        ["report", "teams", str(cd), "-o", str(tmp_path / "teams.pdf")],
    ):
        done = subprocess.run([EXE, *args], check=False, capture_output=True, text=True,
                              timeout=120)  # fmt: skip
        assert done.returncode == 0, (args, done.stderr)
    db = open_database(str(cd), read_only=True)  # the app's "Open view-only"
    db.close()
    with pytest.raises(LockUnavailableError, match="read-only"):
        open_event(str(cd))
