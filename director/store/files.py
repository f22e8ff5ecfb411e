"""Writing a file so that a crash leaves either the old file or the new one, never half of one.

Every file the app writes (exports, reports, match records, settings, backups) goes through
here: a temp file in the same folder, fsync, rename over the target, fsync the folder.

The name given is where the file is meant to go, not always what gets renamed: a symbolic link
is followed to its target, which is replaced while the link stays (so `latest.csv -> exports/
2026-03-12.csv` keeps pointing there); a target that is not a regular file (`/dev/stdout`, a
pipe, a terminal) is written in place, never replaced; and `-` is standard output.

Never replaced by an output: an event or club file (an SQLite database: `report -o` naming the
event itself would have put a PDF in its place) and what one keeps beside it (its write-ahead
log, its lock); and a link another user made in a folder anyone may write to (as /tmp) is not
followed, as the kernel's `protected_symlinks` refuses it to `open`: writing through it would
replace whatever that user pointed it at.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from director.domain.errors import UserError
from director.store.integrity import SQLITE_HEADER
from director.store.lock import LOCK_SUFFIX


def _reason(exc: OSError) -> str:
    if exc.errno == errno.ENOSPC:
        return "the disk is full; free some space and try again"
    if exc.errno == errno.EROFS:
        return "the disk is read-only"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    return exc.strerror or str(exc)


def _new_mode(target: Path) -> int:
    """The mode the file had, or what a plain `open` would give (mkstemp's 0600 is too tight)."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


STDOUT = "-"
# what SQLite (its write-ahead log and shared memory, a rollback journal) and the app's lock
# keep beside a database, under the database's name and this ending
COMPANIONS = ("-wal", "-shm", "-journal", LOCK_SUFFIX)
_MAX_LINKS = 40  # as the kernel's limit on the links one name may go through


def _is_database(path: Path) -> bool:
    """A regular file that starts as SQLite's (never opened if it is a pipe: that blocks)."""
    try:
        return path.is_file() and file_header(path) == SQLITE_HEADER
    except UserError:  # unreadable: nothing the app could open as its database either
        return False


def _refuse_a_database(target: Path) -> None:
    """An output never replaces an event or club file, nor what one keeps beside it."""
    if _is_database(target):
        raise UserError(
            f"cannot write {target}: it is an event or club file; choose another name for the "
            "output"
        )
    for ending in COMPANIONS:
        if target.name.endswith(ending) and target.name != ending:
            owner = target.with_name(target.name.removesuffix(ending))
            if _is_database(owner):
                raise UserError(
                    f"cannot write {target}: it belongs to the event or club file "
                    f"{owner.name}; choose another name for the output"
                )


def _refuse_a_planted_link(name: Path) -> None:
    """Each link `name` goes through, refused when another user made it in a shared folder
    (sticky and writable by all, as /tmp) that is not theirs: the kernel's rule for
    `protected_symlinks`, which a path resolved here would otherwise get round."""
    if not hasattr(os, "geteuid"):  # Windows: links there are made by administrators
        return
    hop = name
    for _ in range(_MAX_LINKS):
        try:
            if not hop.is_symlink():
                return
            folder = hop.parent.stat()
            made_by = hop.lstat().st_uid
            shared = folder.st_mode & stat.S_ISVTX and folder.st_mode & stat.S_IWOTH
            if shared and made_by not in (os.geteuid(), folder.st_uid):
                raise UserError(
                    f"cannot write {name}: it is a link another user made in a shared folder "
                    f"({hop.parent}); choose another name"
                )
            hop = hop.parent / os.readlink(hop)
        except OSError:
            return  # a broken or looping link: realpath and the write say what is wrong


def _in_place(target: Path) -> bool:
    """A target that exists and is not a regular file (or folder): a device, a pipe, a socket."""
    try:
        mode = target.stat().st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


@contextlib.contextmanager
def _writing_in_place(target: Path) -> Iterator[BinaryIO]:
    try:
        handle = target.open("wb")
    except OSError as exc:
        raise UserError(f"cannot write {target}: {_reason(exc)}") from None
    try:
        with handle:
            yield handle
    except OSError as exc:
        raise UserError(f"cannot write {target}: {_reason(exc)}") from None


@contextlib.contextmanager
def _writing_stdout() -> Iterator[BinaryIO]:
    yield sys.stdout.buffer
    sys.stdout.buffer.flush()


@contextlib.contextmanager
def atomic_writer(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """A binary handle whose content replaces `path` only when the block ends without error.

    `-` writes to standard output; a symlink's target is replaced (the link stays); a device
    or pipe is written in place.
    """
    if os.fspath(path) == STDOUT:
        with _writing_stdout() as handle:
            yield handle
        return
    _refuse_a_planted_link(Path(path))
    target = Path(os.path.realpath(path))  # through every link, to the file meant
    if _in_place(target):
        with _writing_in_place(target) as handle:
            yield handle
        return
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise UserError(f"cannot write {target}: the folder {folder} does not exist")
    if target.is_dir():
        raise UserError(f"cannot write {target}: it is a folder")
    _refuse_a_database(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise UserError(f"cannot write {target}: {_reason(exc)}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(OSError):
            os.chmod(tmp, _new_mode(target))
        os.replace(tmp, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise UserError(f"cannot write {target}: {_reason(exc)}") from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    sync_folder(folder)


def atomic_write(path: str | os.PathLike[str], data: bytes) -> None:
    """Temp file in the same folder, fsync, rename over the target, fsync the folder."""
    with atomic_writer(path) as handle:
        handle.write(data)


def atomic_write_text(path: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> None:
    atomic_write(path, text.encode(encoding))


def sync_file(path: Path) -> None:
    """Force a finished file's content to the disk."""
    with path.open("rb+") as handle:
        os.fsync(handle.fileno())


def sync_folder(folder: Path) -> None:
    """Make a rename in `folder` durable (POSIX needs the folder itself synced)."""
    if os.name != "posix":
        return  # Windows cannot open a folder to fsync it; NTFS journals the rename
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


STALE_SECONDS = 600  # a working file this old is no run's any more, whoever made it


def remove_stale_work(folder: Path, prefix: str) -> None:
    """Working files (with their `-wal`, `-shm`, `-journal`) a killed run left in `folder`,
    named `PREFIX<pid>-…`: removed when that process is gone from this computer or the file
    is older than STALE_SECONDS. A live run's files are left alone."""
    import re
    import time

    now = time.time()
    for path in folder.glob(f"{prefix}*"):
        found = re.match(r"(?:keep-)?(\d+)", path.name[len(prefix) :])
        with contextlib.suppress(OSError):
            old = now - path.lstat().st_mtime > STALE_SECONDS
            if old or (found is not None and not _alive(int(found.group(1)))):
                path.unlink()


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    if sys.platform == "win32":  # no signal 0: only the age tells there
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def file_header(path: Path) -> bytes:
    """The first 16 bytes; a file this user may not read is told in one line."""
    try:
        with path.open("rb") as handle:
            return handle.read(16)
    except OSError as exc:
        raise UserError(f"cannot open {path}: {exc.strerror}") from None


def read_limited(
    path: str | os.PathLike[str], what: str, limit: int, shown: str | None = None
) -> bytes:
    """At most `limit` bytes of a regular file, whatever size it claims (a FIFO waited
    forever, /dev/zero or a 20 GB sparse file ran out of memory, a 5 GB one took 20 s to
    refuse); `what` it should be, for the refusal, which names the file as `shown` (its path
    when None)."""
    name = os.fspath(path) if shown is None else shown
    try:
        # non-blocking: opening a FIFO would wait for a writer; fstat of the very file read
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(descriptor, "rb") as handle:
            mode = os.fstat(descriptor).st_mode
            if stat.S_ISDIR(mode):
                raise UserError(f"{name} is a folder, not {what}")
            if not stat.S_ISREG(mode):
                raise UserError(f"{name} is not a regular file (a pipe or a device): not {what}")
            data = handle.read(limit + 1)
    except FileNotFoundError:
        raise UserError(f"{name} does not exist") from None
    except IsADirectoryError:
        raise UserError(f"{name} is a folder, not {what}") from None
    except OSError as exc:
        raise UserError(f"cannot read {name}: {exc.strerror}") from None
    if len(data) > limit:
        raise UserError(f"{name} is larger than {limit // 1_000_000} MB: not {what}")
    return data


def check_regular(path: Path, kind: str = "an event file") -> None:
    """Never open a FIFO, a device or a folder as an event (or a backup, or a club: `kind`):
    reading one can block forever."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise UserError(f"{path} does not exist") from None
    except OSError as exc:
        raise UserError(f"cannot open {path}: {exc.strerror}") from None
    if stat.S_ISDIR(mode):
        raise UserError(f"{path} is a folder, not {kind}")
    if not stat.S_ISREG(mode):
        raise UserError(f"{path} is not a regular file (a pipe or a device), not {kind}")
