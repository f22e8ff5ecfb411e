"""One app at a time per event file: a lock file beside the event, held with an OS lock.

`FILE.lock` says who holds the event (pid, host, since when) so a second opener can be told
where it is open. The truth is the OS lock on that file (`flock` on POSIX, `msvcrt.locking` on
Windows), not its presence: the OS drops the lock when the holder dies, so a lock file left by
a crashed or killed app is recognised as stale, and its presence tells the next opener that the
event was not closed cleanly.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import socket
import sys
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from director.domain.errors import UserError

LOCK_SUFFIX = ".lock"
_WINDOWS_LOCK_OFFSET = 1 << 20  # Windows locks a byte range: lock one far from the text
_ATTEMPTS = 5


class EventInUseError(UserError):
    """The event is open in another app (or another window of this one)."""


class LockUnavailableError(UserError):
    """The lock file cannot be written (read-only folder or medium)."""


@dataclass(frozen=True)
class Holder:
    """Who holds (or held) an event file."""

    pid: int
    host: str
    since: str  # local time, ISO 8601, for people

    @classmethod
    def me(cls) -> Holder:
        return cls(os.getpid(), socket.gethostname(), datetime.now().isoformat(timespec="seconds"))

    def text(self) -> str:
        return json.dumps({"pid": self.pid, "host": self.host, "since": self.since}) + "\n"

    @classmethod
    def parse(cls, text: str) -> Holder | None:
        try:
            data = json.loads(text)
            return cls(int(data["pid"]), str(data["host"]), str(data["since"]))
        except (ValueError, TypeError, KeyError):
            return None

    def describe(self) -> str:
        return f"by pid {self.pid} on host {self.host} since {self.since.replace('T', ' ')}"


def lock_path(event: Path) -> Path:
    return event.with_name(event.name + LOCK_SUFFIX)


@dataclass
class EventLock:
    """A held lock; `stale` is the holder a crashed app left behind, if any."""

    path: Path
    fd: int
    holder: Holder
    stale: Holder | None = None
    stale_unreadable: bool = False  # a lock file was there but its text was not ours
    _released: bool = field(default=False, repr=False)

    @property
    def previous_left_behind(self) -> bool:
        """The last app to hold this event did not release it: it crashed or was killed."""
        return self.stale is not None or self.stale_unreadable

    def release(self) -> None:
        if self._released:
            return
        self._released = True
        if sys.platform == "win32":
            # Windows cannot delete an open file: unlock, close, then remove
            _unlock(self.fd)
            os.close(self.fd)
            with contextlib.suppress(OSError):
                self.path.unlink()
        else:
            # remove while still holding the lock, so nobody locks a file that is going away
            with contextlib.suppress(OSError):
                self.path.unlink()
            os.close(self.fd)  # closing drops the flock


def acquire(event: Path) -> EventLock:
    """Take the event's lock or raise EventInUseError naming the holder."""
    path = lock_path(event)
    for _ in range(_ATTEMPTS):
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise LockUnavailableError(
                f"cannot open {event.name} for editing: the lock file {path.name} cannot be "
                f"written ({exc.strerror}); is the folder read-only?"
            ) from None
        try:
            locked = _try_lock(fd)
        except OSError as exc:  # a drive without file locks (some network shares)
            os.close(fd)
            raise LockUnavailableError(
                f"cannot open {event.name} for editing: its drive does not support file locks "
                f"({exc.strerror}); copy the event to a local disk"
            ) from None
        if not locked:
            holder = Holder.parse(_read(fd))
            os.close(fd)
            who = holder.describe() if holder else "by another program"
            raise EventInUseError(
                f"{event.name} is open elsewhere ({who}): close it there first, "
                "or open a copy of the file"
            )
        if not _same_file(fd, path):
            # the previous holder removed the file between our open and our lock: try again
            _unlock(fd)
            os.close(fd)
            continue
        previous = _read(fd)
        me = Holder.me()
        try:
            os.ftruncate(fd, 0)
            _write_at0(fd, me)
            os.fsync(fd)
        except OSError as exc:
            _unlock(fd)
            os.close(fd)
            raise LockUnavailableError(
                f"cannot open {event.name} for editing: writing {path.name} failed ({exc.strerror})"
            ) from None
        stale = Holder.parse(previous) if previous.strip() else None
        unreadable = bool(previous.strip()) and stale is None
        return EventLock(path, fd, me, stale, unreadable)
    raise EventInUseError(f"{event.name} is being opened and closed by another program: retry")


def read_holder(event: Path) -> Holder | None:
    """Who holds the event now, or None when nobody does (a left-over file is not a holder)."""
    path = lock_path(event)
    try:
        fd = os.open(path, os.O_RDWR)
    except OSError:
        return None
    try:
        if _try_lock(fd):
            _unlock(fd)
            return None
        return Holder.parse(_read(fd))
    except OSError:
        return None  # no file locks on this drive: nobody can be said to hold it
    finally:
        os.close(fd)


def _read(fd: int) -> str:
    os.lseek(fd, 0, os.SEEK_SET)
    data = os.read(fd, 4096)
    return data.decode("utf-8", errors="replace")


def _write_at0(fd: int, holder: Holder) -> None:
    os.lseek(fd, 0, os.SEEK_SET)
    os.write(fd, holder.text().encode())


def _same_file(fd: int, path: Path) -> bool:
    try:
        return os.path.samestat(os.fstat(fd), os.stat(path))
    except FileNotFoundError:
        return False


if sys.platform == "win32":
    import msvcrt

    def _try_lock(fd: int) -> bool:
        os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        with contextlib.suppress(OSError):
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                return False
            raise
        return True

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)
