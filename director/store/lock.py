"""One app at a time per event file: a lock file beside the event, held with an OS lock.

`FILE.lock` says who holds the event (pid, host, since when) so a second opener can be told
where it is open. The truth is the OS lock on that file (`flock` on POSIX, `msvcrt.locking` on
Windows), not its presence: the OS drops the lock when the holder dies, so a lock file left by
a crashed or killed app is recognised as stale, and its presence tells the next opener that the
event was not closed cleanly.

Planted links cannot turn the lock against another file: the lock file is opened without
following a symlink and refused when it is not a plain file with one name (writing the
holder's line into a link would overwrite what it points to). On POSIX the event file itself is
`flock`ed too, for the whole session: the lock belongs to the file, not to its name, so a
deleted lock file does not let a second app in, and an event with a second name (a hard link,
which would get its own -wal and -shm and so lose commits) is refused. SQLite's own locks are
`fcntl` byte-range locks, independent of `flock` on local disks.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import socket
import stat
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

    event_fd: int | None = None  # the event file, flocked (POSIX)
    event_path: Path | None = None

    def check(self) -> None:
        """Before a commit: the event's name still is the file this app locked."""
        if self._released or self.event_fd is None or self.event_path is None:
            return
        try:
            same = os.path.samestat(os.fstat(self.event_fd), os.stat(self.event_path))
        except OSError:
            same = False
        if not same:
            raise UserError(
                f"{self.event_path.name} was moved or replaced by another program while it was "
                "open: nothing was saved; close the event and open it again"
            )

    def follow(self) -> None:
        """After this app renamed a new file into the event's name (an upgrade): lock that one."""
        if self.event_fd is None or self.event_path is None:
            return
        old, self.event_fd = self.event_fd, _lock_event_file(self.event_path)
        os.close(old)

    def release(self) -> None:
        if self._released:
            return
        self._released = True
        if self.event_fd is not None:
            os.close(self.event_fd)  # drops the flock on the event file
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
        fd = _open_lock_file(event, path)
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
            raise _in_use(event, holder)
        if not _same_file(fd, path):
            # the previous holder removed the file between our open and our lock: try again
            _unlock(fd)
            os.close(fd)
            continue
        previous = _read(fd)
        try:
            event_fd = _lock_event_file(event) if sys.platform != "win32" else None
        except BaseException:  # in use by another name, or a hard link: refused
            if not previous.strip():  # the lock file is this call's: leave none behind
                with contextlib.suppress(OSError):
                    path.unlink()
            _unlock(fd)
            os.close(fd)
            raise
        me = Holder.me()
        try:
            os.ftruncate(fd, 0)
            _write_at0(fd, me)
            os.fsync(fd)
        except OSError as exc:
            if not previous.strip():  # the lock file is this call's: leave none behind
                with contextlib.suppress(OSError):
                    path.unlink()
            _unlock(fd)
            os.close(fd)
            if event_fd is not None:
                os.close(event_fd)
            why = "the disk is full" if exc.errno == errno.ENOSPC else exc.strerror
            raise LockUnavailableError(
                f"cannot open {event.name} for editing: writing {path.name} failed ({why}); "
                "nothing was changed"
            ) from None
        stale = Holder.parse(previous) if previous.strip() else None
        unreadable = bool(previous.strip()) and stale is None
        return EventLock(path, fd, me, stale, unreadable, event_fd=event_fd, event_path=event)
    raise EventInUseError(f"{event.name} is being opened and closed by another program: retry")


def _in_use(event: Path, holder: Holder | None) -> EventInUseError:
    who = holder.describe() if holder else "by another program"
    return EventInUseError(
        f"{event.name} is open elsewhere ({who}): close it there first, or open a copy of the file"
    )


def _open_lock_file(event: Path, path: Path) -> int:
    """The lock file, never through a link: refused when it is not a plain file of its own."""
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _planted(event, path, "is a symbolic link") from None
        raise LockUnavailableError(
            f"cannot open {event.name} for editing: the lock file {path.name} cannot be "
            f"written ({exc.strerror}); is the folder read-only?"
        ) from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1:
        os.close(fd)
        what = "is not a plain file" if not stat.S_ISREG(info.st_mode) else "is a hard link"
        raise _planted(event, path, what)
    return fd


def _planted(event: Path, path: Path, what: str) -> LockUnavailableError:
    return LockUnavailableError(
        f"cannot open {event.name} for editing: its lock file {path.name} {what} (to another "
        "file, which writing the lock would overwrite); remove it and try again"
    )


def _lock_event_file(event: Path) -> int | None:
    """flock the event file itself (POSIX): held by whoever holds the event, whatever its name.

    None when there is no event file yet (a restore in place of a deleted one)."""
    try:
        fd = os.open(event, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    try:
        info = os.fstat(fd)
        if info.st_nlink != 1:
            raise LockUnavailableError(
                f"cannot open {event.name} for editing: the file has another name too (a hard "
                "link), and two names of one event would each keep their own recent changes; "
                "copy the file instead and open the copy"
            )
        if not _try_lock(fd):
            raise _in_use(event, None)
    except BaseException:
        os.close(fd)
        raise
    return fd


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
