"""The first look at an event file the app opens: the rows of its first page, read with the
standard library's sqlite3 while the database layer loads (#24 point 6).

SQLAlchemy (some 200 modules, and the mapped classes configured) was most of the time from
`tandem-director FILE` to the event's teams on screen. The window shows them from this look
first, then opens the event as it always does (`store.engine.open_event`, on the database
layer), behind the page already shown; until then the person's clicks and keys are held back.

The look is taken only where the open would find nothing to say; everything else declines
(`None`) and the event opens as before, whose checks then say what they find:

- a regular file that starts as an SQLite file and this user may write (a read-only one is
  offered view-only by the open);
- the event's lock taken first (`store.lock`: no planted link, no second name, no other app
  holding it); it is handed to the open, which keeps it: the look never releases a lock
  that tells of an unclean close;
- the last app to hold it closed it cleanly (no stale lock, no open mark in the file: after a
  crash the open runs the full integrity check first);
- read on a read-only connection that writes nothing (`integrity.glance_uri`), whose schema
  is exactly what the migrations make at the newest revision (`schema.checked_revision`: no
  trigger, view or changed table runs or misleads; an older file is upgraded by the open),
  and passes SQLite's `quick_check` and `foreign_key_check`, as a clean open requires;
- every value read is of its column's declared type, within its declared length, NULL only
  where the column allows it (the open's scan of every stored value follows, before any
  change, and closes the event if it refuses one: `EventContext.values_passed`).

The rows become the same domain values the services make, through `store.convert`.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from director.domain.errors import UserError
from director.domain.event import EventInfo, TeamInfo
from director.store import convert
from director.store.backup import OPEN_MARKER
from director.store.files import check_regular, file_header
from director.store.integrity import SQLITE_HEADER, connection_problems, glance_uri
from director.store.lock import EventLock, acquire
from director.store.revisions import head_revision
from director.store.schema import checked_revision
from director.store.targets import is_url


@dataclass(frozen=True)
class FirstLook:
    """What the teams page shows of the event: the event's name and options, its teams."""

    info: EventInfo
    teams: list[TeamInfo]


@dataclass(frozen=True)
class Glance:
    """The lock (taken here, for the open to keep) and the first look (None: declined)."""

    lock: EventLock | None
    look: FirstLook | None


class _Declined(Exception):
    """A value the app does not write: the open's own checks say what it is."""


def take_first_look(target: str) -> Glance:
    """The event file's lock and first look; `Glance(None, None)` where the open itself must
    speak (a server, a file that is not a writable SQLite file, a lock it cannot take)."""
    if is_url(target):
        return Glance(None, None)
    event = Path(target)
    try:
        check_regular(event)
        if file_header(event) != SQLITE_HEADER or not os.access(event, os.W_OK):
            return Glance(None, None)
        lock = acquire(event.resolve())
    except UserError:
        return Glance(None, None)
    try:
        look = None if lock.previous_left_behind else _look(event)
    except BaseException:
        lock.release()
        raise
    return Glance(lock, look)


def _look(event: Path) -> FirstLook | None:
    shown = str(event)
    try:
        with contextlib.closing(sqlite3.connect(glance_uri(event), uri=True)) as connection:
            if checked_revision(connection, shown) != head_revision():
                return None  # the open upgrades it first
            marker = "SELECT 1 FROM meta WHERE key = ?"
            if connection.execute(marker, (OPEN_MARKER,)).fetchone() is not None:
                return None  # left open: the open checks it in full first
            if connection_problems(connection, quick=True):
                return None  # damaged: the open moves it aside and offers a backup
            events = _rows(connection, "event", "id")
            if len(events) != 1:
                return None
            names: dict[int, dict[int, str]] = defaultdict(dict)
            persons: dict[int, dict[int, int | None]] = defaultdict(dict)
            for player in _rows(connection, "player", "team_id, board"):
                names[player.team_id][player.board] = player.name
                persons[player.team_id][player.board] = player.person_id
            teams = [
                convert.team_info(row, names[row.id], persons[row.id])
                for row in _rows(connection, "team", "seed, id")  # as `list_teams` orders
            ]
            return FirstLook(convert.event_info(events[0]), teams)
    except (sqlite3.Error, UserError, ValueError, KeyError, _Declined):
        return None


_LENGTH = re.compile(r"VARCHAR\((\d+)\)")


def _rows(connection: sqlite3.Connection, table: str, order: str) -> list[Any]:
    """Every row of `table` (ours, by name), its values as the columns declare them (a
    BOOLEAN is a bool, as SQLAlchemy gives it); `_Declined` at a value the app never writes."""
    columns = connection.execute(f"PRAGMA table_info({table})").fetchall()
    names = [str(column[1]) for column in columns]
    listed = ", ".join(f'"{name}"' for name in names)
    rows = connection.execute(f"SELECT {listed} FROM {table} ORDER BY {order}").fetchall()
    kinds = [(str(column[2]).upper(), bool(column[3])) for column in columns]
    return [
        SimpleNamespace(
            **{
                name: _value(value, kind, required)
                for name, value, (kind, required) in zip(names, row, kinds, strict=True)
            }
        )
        for row in rows
    ]


def _value(value: object, kind: str, required: bool) -> object:
    if value is None:
        if required:
            raise _Declined
        return None
    if kind in ("INTEGER", "BIGINT") and type(value) is int:
        return value
    if kind == "BOOLEAN" and value in (0, 1) and type(value) is int:
        return bool(value)
    if kind in ("TEXT", "DATETIME") and isinstance(value, str):
        return value
    length = _LENGTH.fullmatch(kind)
    if length is not None and isinstance(value, str) and len(value) <= int(length[1]):
        return value
    raise _Declined
