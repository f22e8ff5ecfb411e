"""Is this file's schema ours? Anything but what the migrations make is refused before a byte
is written.

An event file is a database anyone can edit: a view named like one of our tables can recurse
forever, a trigger can change a winner after the app wrote it, and a table rebuilt under its own
name with `UNIQUE (match_id) ON CONFLICT REPLACE` silently deletes confirmed games, or with
`CHECK (0)` refuses every insert. So the whole schema (tables with their columns, types and
constraints, indexes, triggers, views) is compared with what the migrations produce at the
file's revision, definition by definition. `sqlite_master` is read as plain rows: reading it
runs none of those objects.

The reference is built by running the migrations themselves into an in-memory database, one
revision at a time, so a new migration is followed without a list to keep. Building it needs
alembic (about a second), so what it gives is kept in the user's cache folder under a key made
of the migrations' text and the versions that render them; a cache that cannot be written only
costs that second again.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import sqlite3
from collections.abc import Iterable, Sequence
from importlib import metadata, resources
from pathlib import Path
from typing import Any

from director.domain.errors import UserError
from director.store.revisions import CLUB_VERSION_TABLE, migration_revisions

MIGRATION_TABLE = "alembic_version"
_FORMAT = "1"  # bump when what the cache holds changes

Row = tuple[str, str, str, str | None]  # type, name, tbl_name, sql of one sqlite_master row
Definition = tuple[Any, ...]

# SQL tokens: comments and blanks (dropped), strings, quoted names, words, any other character
_TOKEN = re.compile(
    r"""(?P<skip>\s+|--[^\n]*|/\*.*?(?:\*/|$))
    |(?P<string>'(?:[^']|'')*')
    |(?P<quoted>"(?:[^"]|"")*"|`(?:[^`]|``)*`|\[[^\]]*\])
    |(?P<word>\w+)
    |(?P<other>.)""",
    re.S | re.X,
)
_CONSTRAINT_START = {"constraint", "primary", "unique", "check", "foreign"}


def tokens(sql: str) -> tuple[str, ...]:
    """The SQL as SQLite reads it: no blanks or comments, names unquoted, words in lower case
    (string literals kept as written)."""
    out = []
    for match in _TOKEN.finditer(sql):
        kind, text = match.lastgroup, match.group()
        if kind == "skip":
            continue
        if kind == "quoted":
            text = text[1:-1].replace(text[0] * 2, text[0]) if text[0] != "[" else text[1:-1]
            text = text.lower()
        elif kind == "word":
            text = text.lower()
        out.append(text)
    return tuple(out)


def _table_definition(sql: str) -> Definition:
    """A CREATE TABLE by its columns and its constraints, each in any order: alembic's batch
    mode rebuilds a table with its constraints in the order a set gives them, and a column a
    downgrade puts back comes last. The app names every column it reads or writes."""
    words = tokens(sql)
    try:
        start = words.index("(")
    except ValueError:
        return ("table", words)
    depth, end = 0, len(words)
    item: list[str] = []
    items: list[tuple[str, ...]] = []
    for at in range(start + 1, len(words)):
        word = words[at]
        if word == "(":
            depth += 1
        elif word == ")":
            if depth == 0:
                end = at
                break
            depth -= 1
        if word == "," and depth == 0:
            items.append(tuple(item))
            item = []
        else:
            item.append(word)
    items.append(tuple(item))
    columns = tuple(sorted(i for i in items if not i or i[0] not in _CONSTRAINT_START))
    constraints = tuple(sorted(i for i in items if i and i[0] in _CONSTRAINT_START))
    return (words[:start], columns, constraints, words[end + 1 :])


def definitions(rows: Iterable[Row]) -> dict[tuple[str, str], Definition]:
    """Each object by (type, name), its definition normalised; SQLite's statistics tables
    (`ANALYZE` makes them, nobody can create one by hand) are left out."""
    out: dict[tuple[str, str], Definition] = {}
    for kind, name, table, sql in rows:
        if name.lower().startswith("sqlite_stat"):
            continue
        if sql is None:
            shape: Definition = ("auto", table.lower())
        elif kind == "table":
            shape = _table_definition(sql)
        else:
            shape = (table.lower(), tokens(sql))
        out[(kind, name.lower())] = shape
    return out


def schema_rows(connection: Any) -> list[Row]:
    """`sqlite_master` of a DB-API SQLite connection (sqlite3 or SQLAlchemy's raw one)."""
    rows = connection.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
    return [(str(k), str(n), str(t), None if s is None else str(s)) for k, n, t, s in rows]


def stored_revision_of(connection: Any, rows: Sequence[Row]) -> str | None:
    """The revision alembic stamped, None without its table or with not exactly one row."""
    if not any(kind == "table" and name == MIGRATION_TABLE for kind, name, _t, _s in rows):
        return None
    found = connection.execute(f"SELECT version_num FROM {MIGRATION_TABLE} LIMIT 2").fetchall()
    return str(found[0][0]) if len(found) == 1 else None


def differences(rows: Sequence[Row], revision: str) -> list[str]:
    """How the file's schema differs from what the migrations make at `revision`, as
    `trigger "flip"`, `table "game" (defined differently)`, `index "ix" (missing)`; [] if none."""
    have, want = definitions(rows), definitions(reference_rows()[revision])
    found = []
    for key in sorted(have.keys() | want.keys()):
        kind, name = key
        if key not in want:
            found.append(f'{kind} "{name}"')
        elif key not in have:
            found.append(f'{kind} "{name}" (missing)')
        elif have[key] != want[key]:
            found.append(f'{kind} "{name}" (defined differently)')
    return found


def differences_message(shown: str, found: list[str]) -> str:
    listed = ", ".join(found[:3]) + (f" and {len(found) - 3} more" if len(found) > 3 else "")
    return (
        f"{shown} holds things a Tandem Director event never has ({listed}): it was not made "
        "by this app or was changed by another program, so it is not opened"
    )


def checked_revision(connection: Any, shown: str) -> str:
    """The revision of an SQLite event whose whole schema is what the migrations make at that
    revision; anything else is refused before a table is read (`connection`: DB-API)."""
    rows = schema_rows(connection)
    if not any(kind == "table" and name == "event" for kind, name, _t, _s in rows):
        if any(kind == "table" and name == CLUB_VERSION_TABLE for kind, name, _t, _s in rows):
            raise UserError(f"{shown} is a club, not an event")
        raise UserError(f"{shown} is not a Tandem Director event")
    revision = stored_revision_of(connection, rows)
    if revision is None:
        raise UserError(f"{shown} is not a Tandem Director event")
    if revision not in migration_revisions():
        raise UserError(f"{shown} was written by a newer Tandem Director: update the app")
    if found := differences(rows, revision):
        raise UserError(differences_message(shown, found))
    return revision


# --- the reference: what the migrations make at each revision ------------------------------


def _migration_files() -> list[tuple[str, bytes]]:
    folder = resources.files("director.store") / "migrations"
    found = [("env.py", (folder / "env.py").read_bytes())]
    versions = folder / "versions"
    for script in sorted(versions.iterdir(), key=lambda p: p.name):
        if script.name.endswith(".py"):
            found.append((script.name, script.read_bytes()))
    return found


def _cache_key() -> str:
    digest = hashlib.sha256(_FORMAT.encode())
    for package in ("sqlalchemy", "alembic"):
        with contextlib.suppress(metadata.PackageNotFoundError):
            digest.update(f"{package}={metadata.version(package)}".encode())
    digest.update(sqlite3.sqlite_version.encode())
    for name, text in _migration_files():
        digest.update(name.encode() + b"\0" + text + b"\0")
    return digest.hexdigest()[:32]


def _cache_file() -> Path | None:
    try:
        import platformdirs

        folder = Path(platformdirs.user_cache_dir("tandem-director", appauthor=False))
    except Exception:  # no home folder: build it every time
        return None
    return folder / f"schema-{_cache_key()}.json"


@functools.cache
def reference_rows() -> dict[str, list[Row]]:
    """`sqlite_master` after the migrations up to each revision, by revision."""
    cache = _cache_file()
    if cache is not None:
        with contextlib.suppress(OSError, ValueError, TypeError):
            loaded = json.loads(cache.read_text(encoding="utf-8"))
            return {rev: [(k, n, t, s) for k, n, t, s in rows] for rev, rows in loaded.items()}
    built = build_reference_rows()
    if cache is not None:
        _write_cache(cache, built)
    return built


def _write_cache(cache: Path, built: dict[str, list[Row]]) -> None:
    tmp = cache.with_name(f".{cache.name}.{os.getpid()}.tmp")
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(built), encoding="utf-8")
        os.replace(tmp, cache)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()


def build_reference_rows() -> dict[str, list[Row]]:
    """Run the migrations into an in-memory database, one revision at a time."""
    from alembic import command
    from sqlalchemy import create_engine
    from sqlalchemy.pool import StaticPool

    from director.store.engine import alembic_config, migration_order

    engine = create_engine("sqlite://", poolclass=StaticPool)
    built: dict[str, list[Row]] = {}
    try:
        with engine.connect() as connection:
            config = alembic_config(connection)
            for revision in migration_order():
                command.upgrade(config, revision)
                connection.commit()
                built[revision] = schema_rows(connection.connection.driver_connection)
    finally:
        engine.dispose()
    return built
