"""Database failures a person can act on, turned into a clear sentence (STYLE habit 6).

SQLite and PostgreSQL word the same trouble differently; each needle below is matched in the
driver's lower-cased message. A failure not listed here is a bug and keeps its traceback.
"""

from __future__ import annotations

import errno
import sqlite3

from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.orm.exc import StaleDataError

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
MESSAGES = (
    # SQLite
    ("database or disk is full", FULL),
    ("disk is full", FULL),
    ("readonly database", READ_ONLY),
    ("database is locked", "the event file is busy in another program: nothing was saved; "
     "try again in a moment"),
    ("disk i/o error", "the disk reported an error: nothing was saved; check the drive "
     "(a removed USB stick?) and open the event again"),
    ("unable to open database file", "the event file cannot be opened: check that the drive "
     "and folder are there and writable"),
    ("malformed", "the event file is damaged: restore it from a backup "
     "(tandem-director backups FILE)"),
    ("not a database", "this is not a Tandem Director event file"),
    # PostgreSQL
    ("no space left on device", FULL),
    ("could not extend file", FULL),
    ("read-only transaction", "the database server accepts no changes (read-only): nothing "
     "was saved; ask whoever runs the server"),
    ("could not serialize access", CHANGED),
    ("deadlock detected", CHANGED),
    ("duplicate key value", "another station has just entered the same thing: the view is "
     "refreshed, check it before entering it again"),
)  # fmt: skip
CONNECTING = (
    ("password authentication failed", "the database server refused the user name or password"),
    ("does not exist", "the database server has no such database or user: check the address"),
    ("connection", "the database server cannot be reached: check the network and the server"),
    ("server", "the database server cannot be reached: check the network and the server"),
    ("timeout", "the database server cannot be reached: check the network and the server"),
)


def known_database_error(exc: BaseException) -> str | None:
    """The message for an environment failure, or None when it is a bug."""
    if isinstance(exc, StaleDataError):
        return CHANGED
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EROFS):
        return FULL if exc.errno == errno.ENOSPC else READ_ONLY
    if isinstance(exc, OperationalError | DBAPIError | sqlite3.Error):
        text = str(getattr(exc, "orig", exc)).lower()
        for needle, message in MESSAGES:
            if needle in text:
                return message
        if isinstance(exc, OperationalError):
            for needle, message in CONNECTING:
                if needle in text:
                    return message
    return None
