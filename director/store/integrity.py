"""SQLite's own checks of an event file: page structure and foreign keys.

`integrity_check` reads every page and index (the full check, run after an unclean shutdown);
`quick_check` skips the index-content comparison and is what a clean open runs.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import text

from director.domain.wording import counted
from director.store.schema import foreign_objects, foreign_objects_message

if TYPE_CHECKING:
    from director.store.engine import EventDatabase

SQLITE_HEADER = b"SQLite format 3\x00"


def integrity_problems(db: EventDatabase, *, quick: bool = False) -> list[str]:
    """`integrity_check` (or `quick_check`) and `foreign_key_check`; empty when sound."""
    if not db.is_sqlite:
        return []
    with db.engine.connect() as connection:
        raw = connection.connection.driver_connection
        assert raw is not None
        return connection_problems(raw, quick=quick)


def connection_problems(connection: Any, *, quick: bool = False) -> list[str]:
    """Both checks on an open DB-API SQLite connection."""
    problems: list[str] = []
    pragma = "quick_check" if quick else "integrity_check"
    for (line,) in connection.execute(f"PRAGMA {pragma}").fetchall():
        if line != "ok":
            problems.append(f"integrity: {line}")
    for row in connection.execute("PRAGMA foreign_key_check").fetchall():
        problems.append(f"foreign key: table {row[0]} row {row[1]} points to a missing {row[2]}")
    return problems


def readonly_uri(path: Path) -> str:
    """An SQLite URI that opens `path` read-only, whatever characters its name holds.

    On read-only media (a CD, a write-protected stick or share) an event in WAL mode cannot be
    read the usual way, which needs its `-shm` file created beside it: there it is opened
    `immutable`, which nobody can change under us anyway. Not when a `-wal` with commits lies
    beside it: immutable would ignore them."""
    path = path.resolve()
    uri = path.as_uri() + "?mode=ro"
    wal = Path(f"{path}-wal")
    if not _writable_folder(path.parent) and not (wal.exists() and wal.stat().st_size):
        uri += "&immutable=1"
    return uri


def _writable_folder(folder: Path) -> bool:
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return False
    except (OSError, AttributeError):  # no statvfs on Windows
        pass
    return os.access(folder, os.W_OK)


def file_problems(path: Path) -> list[str]:
    """Check a closed event file (a backup, a restored file) without changing it."""
    if not path.is_file():
        return [f"{path.name} does not exist"]
    with path.open("rb") as handle:
        if handle.read(16) != SQLITE_HEADER:
            return [f"{path.name} is not an SQLite file"]
    try:
        connection = sqlite3.connect(readonly_uri(path), uri=True)
    except sqlite3.Error as exc:
        return [f"{path.name} cannot be opened: {exc}"]
    try:
        problems = connection_problems(connection)
        if not problems:
            tables = {r[0] for r in connection.execute("SELECT name FROM sqlite_master")}
            if "event" not in tables:
                problems.append(f"{path.name} is not a Tandem Director event")
            elif strange := foreign_objects(connection):
                problems.append(foreign_objects_message(path.name, strange))
        return problems
    except sqlite3.Error as exc:
        return [f"integrity: {exc}"]
    finally:
        connection.close()


def database_problems(db: EventDatabase) -> list[str]:
    """Sound file and consistent rows: what `check` and the open after a crash report."""
    problems = integrity_problems(db)
    with db.engine.connect() as connection:
        orphans = connection.execute(
            text(
                "SELECT count(*) FROM game g LEFT JOIN pair p ON p.id = g.pair_id "
                "WHERE p.id IS NULL OR p.match_id != g.match_id OR p.number != g.pair_number"
            )
        ).scalar_one()
    if orphans:
        problems.append(f"consistency: {counted(orphans, 'game')} not in a pair of their own match")
    return problems
