"""Writing a file so that a crash leaves either the old file or the new one, never half of one."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from director.domain.errors import UserError


def atomic_write(path: str | os.PathLike[str], data: bytes) -> None:
    """Temp file in the same folder, fsync, rename over the target, fsync the folder."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise UserError(f"cannot write {target}: the folder {folder} does not exist")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise UserError(f"cannot write {target}: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise UserError(f"cannot write {target}: {exc.strerror}") from None
    _sync_folder(folder)


def _sync_folder(folder: Path) -> None:
    if os.name != "posix":
        return  # Windows cannot open a folder to fsync it; NTFS journals the rename
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
