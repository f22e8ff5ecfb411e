"""Database failures a person can act on, turned into a clear sentence (STYLE habit 6)."""

from __future__ import annotations

import sqlite3

from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.orm.exc import StaleDataError

MESSAGES = (
    ("disk is full", "the disk is full: nothing was saved; free some space and enter it again"),
    ("database or disk is full", "the disk is full: nothing was saved; free space and retry"),
    ("readonly database", "the event file is read-only: nothing was saved; copy it somewhere "
     "writable and open the copy"),
    ("database is locked", "the event file is busy in another program: nothing was saved; "
     "try again in a moment"),
    ("disk i/o error", "the disk reported an error: nothing was saved; check the drive"),
    ("malformed", "the event file is damaged: restore it from a backup"),
    ("not a database", "this is not a Tandem Director event file"),
)  # fmt: skip


def known_database_error(exc: BaseException) -> str | None:
    """The message for an environment failure, or None when it is a bug."""
    if isinstance(exc, StaleDataError):
        return (
            "this was changed on another station since you opened it: the view is refreshed, "
            "check it and enter the change again"
        )
    if isinstance(exc, OperationalError | DBAPIError | sqlite3.Error):
        text = str(getattr(exc, "orig", exc)).lower()
        for needle, message in MESSAGES:
            if needle in text:
                return message
        if isinstance(exc, OperationalError) and "connection" in text:
            return "the database server cannot be reached: check the network and the server"
    return None
