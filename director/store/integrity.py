"""SQLite's own checks of an event file: page structure and foreign keys.

`integrity_check` reads every page and index (the full check, run after an unclean shutdown);
`quick_check` skips the index-content comparison and is what a clean open runs.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from director.domain.errors import UserError
from director.domain.wording import counted
from director.store.revisions import CLUB_VERSION_TABLE

if TYPE_CHECKING:
    from director.store.engine import EventDatabase

SQLITE_HEADER = b"SQLite format 3\x00"


@dataclass(frozen=True)
class FileKind:
    """What a file of ours is (an event, a club's register): how its backups are checked and
    described, and the command that checks it. The backups and restores of both are one code
    path (`store.backup`), given the kind."""

    noun: str
    check: str  # the command that checks one, the file's name after it
    held: tuple[tuple[str, str], ...]  # (what, table): what a backup holds, counted
    made: str  # when the app backs one up
    revision: Callable[[Any, str], str]  # its checked revision (DB-API connection), or UserError


def kind_of(connection: Any) -> FileKind:
    """The kind of the SQLite file open on `connection` (DB-API): a club's register has the
    club's version table."""
    found = connection.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (CLUB_VERSION_TABLE,)
    ).fetchone()
    return EVENT if found is None else CLUB


def _event_revision(connection: Any, shown: str) -> str:
    from director.store.schema import checked_revision

    return checked_revision(connection, shown)


def _club_revision(connection: Any, shown: str) -> str:
    from director.store.club import checked_club_revision

    return checked_club_revision(connection, shown)


EVENT = FileKind(
    "event",
    "tandem-director check",
    (("teams", "team"), ("games", "game")),
    "when it opens the event and after each round",
    _event_revision,
)
CLUB = FileKind(
    "club",
    "tandem-director club check",
    (("persons", "person"), ("events", "club_event")),
    "when it opens the club and before each publication",
    _club_revision,
)


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


def glance_uri(path: Path) -> str:
    """`readonly_uri` for a brief look (the schema, a backup's check) that leaves nothing beside
    the file: a read-only connection to a WAL file creates a `-wal` and a `-shm` it cannot
    remove. When neither is there, nobody has the file open (an open WAL file always has
    both), so it is read `immutable`, which creates neither. A file in rollback-journal mode
    (a backup) leaves nothing after a read: it is read as usual, waiting for another program's
    lock rather than reading past it."""
    uri = readonly_uri(path)
    resolved = path.resolve()
    if (
        "immutable" not in uri
        and _in_wal_mode(resolved)
        and not any(Path(f"{resolved}{end}").exists() for end in ("-wal", "-shm", "-journal"))
    ):
        uri += "&immutable=1"
    return uri


def _in_wal_mode(path: Path) -> bool:
    """The header's write version (byte 18) is 2 in WAL mode, 1 in rollback-journal mode."""
    try:
        with path.open("rb") as handle:
            header = handle.read(19)
    except OSError:
        return False
    return len(header) == 19 and header[18] == 2


def _writable_folder(folder: Path) -> bool:
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return False
    except (OSError, AttributeError):  # no statvfs on Windows
        pass
    return os.access(folder, os.W_OK)


def file_problems(path: Path, kind: FileKind = EVENT) -> list[str]:
    """Check a closed event (or club: `kind`) file, a backup, a restored file, unchanged."""
    if not path.is_file():
        return [f"{path.name} does not exist"]
    with path.open("rb") as handle:
        if handle.read(16) != SQLITE_HEADER:
            return [f"{path.name} is not an SQLite file"]
    try:
        connection = sqlite3.connect(glance_uri(path), uri=True)
    except sqlite3.Error as exc:
        return [f"{path.name} cannot be opened: {exc}"]
    try:
        problems = connection_problems(connection)
        if not problems:
            kind.revision(connection, path.name)
        return problems
    except UserError as exc:
        return [str(exc)]
    except sqlite3.Error as exc:
        return [f"integrity: {exc}"]
    finally:
        connection.close()


def database_problems(db: EventDatabase) -> list[str]:
    """Sound file and consistent rows: what `check` and the open after a crash report."""
    from sqlalchemy import text

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
