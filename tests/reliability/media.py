"""Real full disks and read-only files for the tests, also when the tests run as root.

Root ignores file permissions, so `chmod` alone proves nothing in CI. As root a full disk is a
small tmpfs mounted for the test, and a read-only file is made immutable (`chattr +i`), which
root cannot write either. Without root, a read-only file is `chmod 0444`, and a full disk is
SQLite's own page limit (`max_page_count`), which fails a commit with the same SQLITE_FULL as
a full disk. Each helper checks that its condition really holds before the test relies on it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

from sqlalchemy import event

from director.store.engine import EventDatabase

IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


@contextlib.contextmanager
def small_disk(folder: Path, size: str = "2m") -> Iterator[Path]:
    """A folder on a tmpfs of `size` (root only; the caller falls back to `page_limit`)."""
    folder.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], check=True)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=True)


def fill(folder: Path, leave: int) -> Path:
    """Fill the disk under `folder` until only about `leave` bytes are free; returns the filler."""
    filler = folder / "filler.bin"
    chunk = b"\0" * 65536
    with filler.open("wb", buffering=0) as handle:
        try:
            while handle.write(chunk):
                pass
        except OSError as exc:
            assert exc.errno == errno.ENOSPC, exc
    free = shutil.disk_usage(folder).free
    assert free < 65536, f"the disk under {folder} is not full ({free} bytes free)"
    with filler.open("rb+") as handle:
        handle.truncate(max(0, filler.stat().st_size - leave))
    return filler


def page_limit(db: EventDatabase, extra_pages: int) -> None:
    """Without root: every new connection may grow the file by `extra_pages` pages at most."""

    def limit(dbapi_connection: object, _record: object) -> None:
        cursor = dbapi_connection.cursor()  # type: ignore[attr-defined]
        pages = cursor.execute("PRAGMA page_count").fetchone()[0]
        cursor.execute(f"PRAGMA max_page_count = {pages + extra_pages}")
        cursor.close()

    db.engine.dispose()
    event.listen(db.engine, "connect", limit)


@contextlib.contextmanager
def read_only_file(path: Path) -> Iterator[str]:
    """Make `path` unwritable for this process (even as root); yields how it was done."""
    if IS_ROOT:
        subprocess.run(["chattr", "+i", str(path)], check=True)
        how = "chattr +i (immutable, refused even to root)"
    else:
        path.chmod(0o444)
        how = "chmod 0444"
    try:
        with contextlib.suppress(PermissionError, OSError), path.open("r+b"):
            raise AssertionError(f"{path} is still writable after {how}")
        yield how
    finally:
        if IS_ROOT:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        else:
            path.chmod(0o644)
