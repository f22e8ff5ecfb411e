"""Database failures a person can act on, turned into a clear sentence (STYLE habit 6).

Failures are told apart by their codes, never by the words of a message (qutebrowser
`misc/sql.py`): SQLite's primary result code (`sqlite_errorcode & 0xFF`) and PostgreSQL's
SQLSTATE. The one exception is a PostgreSQL connection that fails before the server answers:
libpq reports those with no SQLSTATE, so the words of libpq's own message are all there is.
A failure not listed here is a bug and keeps its traceback.
"""

from __future__ import annotations

import errno
import sqlite3
from dataclasses import dataclass

from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm.exc import StaleDataError


@dataclass(frozen=True)
class KnownFailure:
    message: str
    conflict: bool = False  # another station got there first: the view must be refreshed


FULL = (
    "the disk is full: nothing was saved, what was saved before is safe; free some space "
    "and enter it again"
)
READ_ONLY = (
    "the event file is read-only: nothing was saved, what was saved before is safe; "
    "copy the file somewhere writable and open the copy"
)
CHANGED = (
    "this was changed on another station since you opened it: the view is refreshed, "
    "check it and enter the change again"
)
DISK_FULL = KnownFailure(FULL)
FILE_READ_ONLY = KnownFailure(READ_ONLY)
LOST_RACE = KnownFailure(CHANGED, conflict=True)
UNREACHABLE = KnownFailure(
    "the database server cannot be reached: check the network and the server"
)
SQLITE_CODES = {
    sqlite3.SQLITE_FULL: DISK_FULL,
    sqlite3.SQLITE_READONLY: FILE_READ_ONLY,
    sqlite3.SQLITE_BUSY: KnownFailure(
        "the event file is busy in another program: nothing was saved; try again in a moment"
    ),
    sqlite3.SQLITE_LOCKED: KnownFailure(
        "the event file is busy in another program: nothing was saved; try again in a moment"
    ),
    sqlite3.SQLITE_IOERR: KnownFailure(
        "the disk reported an error: nothing was saved; check the drive (a removed USB "
        "stick?) and open the event again"
    ),
    sqlite3.SQLITE_CANTOPEN: KnownFailure(
        "the event file cannot be opened: check that the drive and folder are there and writable"
    ),
    sqlite3.SQLITE_CORRUPT: KnownFailure(
        "the event file is damaged: restore it from a backup (tandem-director backups FILE)"
    ),
    sqlite3.SQLITE_NOTADB: KnownFailure("this is not a Tandem Director event file"),
}
# extended codes that say more than their primary one: SQLite's index of recent changes (-shm)
# could not grow, which on a local disk means it is full. Reading an event copied with its
# -wal needs that 32 KB: "the disk reported an error (a removed USB stick?)" sent people
# looking for the wrong fault, and "nothing was saved" is no news to a reader
SQLITE_IOERR_SHMSIZE = 4874
SQLITE_EXTENDED = {
    SQLITE_IOERR_SHMSIZE: KnownFailure(
        "the disk is full: reading the event's recent changes needs about 32 KB free beside "
        "it; free some space and try again (nothing was changed)"
    ),
}
SQLSTATES = {
    "53100": DISK_FULL,  # disk_full (also "could not extend file")
    "25006": KnownFailure(  # read_only_sql_transaction
        "the database server accepts no changes (read-only): nothing was saved; ask whoever "
        "runs the server"
    ),
    "40001": LOST_RACE,  # serialization_failure
    "40P01": LOST_RACE,  # deadlock_detected
    "23505": KnownFailure(  # unique_violation
        "another station has just entered the same thing: the view is refreshed, check it "
        "before entering it again",
        conflict=True,
    ),
    "28P01": KnownFailure("the database server refused the user name or password"),
    "28000": KnownFailure("the database server refused the user name or password"),
    "3D000": KnownFailure("the database server has no such database or user: check the address"),
}
SQLSTATE_CLASSES = {"08": UNREACHABLE, "57": UNREACHABLE}  # connection; server shut down
# libpq's words for a connection refused before any SQLSTATE exists (see the module's doc)
CONNECTING = (
    ("password authentication failed", SQLSTATES["28P01"]),
    ("does not exist", SQLSTATES["3D000"]),
)


def classify(exc: BaseException) -> KnownFailure | None:
    """What a person should be told about an environment failure, or None for a bug."""
    if isinstance(exc, StaleDataError):
        return LOST_RACE
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EROFS):
        return DISK_FULL if exc.errno == errno.ENOSPC else FILE_READ_ONLY
    cause: BaseException | None = exc.orig if isinstance(exc, DBAPIError) else exc
    if isinstance(cause, sqlite3.Error):
        code = getattr(cause, "sqlite_errorcode", None)
        if code is None:
            return None
        return SQLITE_EXTENDED.get(code) or SQLITE_CODES.get(code & 0xFF)
    sqlstate = getattr(cause, "sqlstate", None)
    if isinstance(sqlstate, str):
        return SQLSTATES.get(sqlstate) or SQLSTATE_CLASSES.get(sqlstate[:2])
    if cause is not None and _is_postgres_connect_failure(cause):
        text = str(cause).lower()
        return next((known for words, known in CONNECTING if words in text), UNREACHABLE)
    return None


def _is_postgres_connect_failure(cause: BaseException) -> bool:
    try:
        import psycopg
    except ImportError:  # the postgres extra is not installed: no server was ever used
        return False
    return isinstance(cause, psycopg.OperationalError)


def contended(exc: BaseException) -> bool:
    """Another writer was in the way (SQLite busy or locked, a PostgreSQL serialization
    failure or deadlock, a row changed meanwhile): the same work may simply be tried again."""
    failure = classify(exc)
    busy = SQLITE_CODES[sqlite3.SQLITE_BUSY], SQLITE_CODES[sqlite3.SQLITE_LOCKED]
    return failure is not None and (failure.conflict or failure in busy)


def known_database_error(exc: BaseException) -> str | None:
    """The message for an environment failure, or None when it is a bug."""
    failure = classify(exc)
    return None if failure is None else failure.message


SQLITE_CONSTRAINT_UNIQUE = 2067  # SQLite's extended result code (Python 3.11's sqlite3 lacks it)


def unique_violation(exc: BaseException) -> bool:
    """A unique index refused a row: PostgreSQL's SQLSTATE 23505, SQLite's extended code."""
    cause = exc.orig if isinstance(exc, DBAPIError) else exc
    if isinstance(cause, sqlite3.Error):
        return getattr(cause, "sqlite_errorcode", None) == SQLITE_CONSTRAINT_UNIQUE
    return getattr(cause, "sqlstate", None) == "23505"
