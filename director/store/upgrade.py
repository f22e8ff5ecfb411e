"""Upgrading an event file written by an older version, so that no moment of it can brick it.

SQLite commits some schema changes (`ALTER TABLE … ADD COLUMN`) on its own, so a migration run
in place and cut short by a kill or a full disk leaves a file half-way between two versions.
Instead the upgrade works on a copy: the file is copied with SQLite's online backup, the copy
is migrated, checked (integrity, the current revision, exactly the models' schema) and synced,
and only then renamed over the file. At any moment the name holds the old file or the upgraded
one. The original is also kept beside it as `FILE.before-upgrade-DATE`.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine
from sqlalchemy import event as sa_event

from director.domain.errors import UserError
from director.store.backup import aside_name, online_copy, remove_with_companions
from director.store.files import remove_stale_work, sync_file, sync_folder
from director.store.integrity import connection_problems
from director.store.models import Base
from director.store.schema import differences as schema_differences
from director.store.schema import schema_rows

UPGRADE_TEMP = ".upgrade-"


def stored_revision(path: Path) -> str | None:
    """The migration revision a closed SQLite event file is at (None: no revision table)."""
    connection = sqlite3.connect(path)
    try:
        tables = {r[0] for r in connection.execute("SELECT name FROM sqlite_master")}
        if "alembic_version" not in tables:
            return None
        row = connection.execute("SELECT version_num FROM alembic_version").fetchone()
        return None if row is None else str(row[0])
    finally:
        connection.close()


def _copy(source: Path, dest: Path) -> None:
    """A consistent copy through SQLite, then synced. The source is read as a writer (the
    upgrade holds it): its closing connection leaves no `-wal` or `-shm` beside it."""
    with contextlib.closing(sqlite3.connect(source)) as reader:
        online_copy(reader, dest)
    with contextlib.suppress(OSError):
        shutil.copymode(source, dest)
    sync_file(dest)


def _settle(path: Path) -> None:
    """Fold the file's -wal into it and let it go, so the file alone holds every commit."""
    connection = sqlite3.connect(path)
    try:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        connection.close()
    wal = Path(f"{path}-wal")
    if wal.exists() and wal.stat().st_size:
        raise UserError(f"{path.name} is in use by another program: close it there and retry")


def _remove_stale_temps(event: Path) -> None:
    """A kill half-way leaves its working copies (hidden, beside the event): clear those of
    runs that are gone (3 kills in 27 left about 170 KB each)."""
    remove_stale_work(event.parent, f".{event.name}{UPGRADE_TEMP}")


def keep_original(event: Path) -> Path:
    """`FILE.before-upgrade-DATE`: a copy of the file as the older version left it."""
    kept = aside_name(event, "before-upgrade")
    tmp = event.with_name(f".{event.name}{UPGRADE_TEMP}keep-{os.getpid()}.tmp")
    try:
        _copy(event, tmp)
        os.replace(tmp, kept)
    except BaseException:
        remove_with_companions(tmp)
        raise
    return kept


def _migration_engine(work: Path) -> Engine:
    """Foreign keys off while the schema changes, as SQLite's ALTER TABLE procedure asks: batch
    mode drops and re-creates a table, which would otherwise cascade-delete its children.
    `foreign_key_check` runs on the result before it is used."""
    engine = create_engine(f"sqlite:///{work}")

    @sa_event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=OFF")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.close()

    return engine


def upgrade_file(event: Path) -> Path:
    """Upgrade an older event file to the current schema; returns the kept original.

    The caller has checked that the file is ours and older (see `engine._open`), and holds its
    lock when the app has it open. Raises UserError when the upgrade cannot be done; the file
    is then as it was.
    """
    work = upgraded_copy(event)
    try:
        return put_in_place(event, work)
    finally:
        remove_with_companions(work)


def upgraded_copy(event: Path) -> Path:
    """A hidden copy of the older file beside it, upgraded, checked and synced; the file itself
    is not written. A command opens the copy, and only once it has done its change without a
    refusal is the copy put in place (`put_in_place`): a refused command writes nothing."""
    from alembic.autogenerate import compare_metadata  # alembic (with mako): only now
    from alembic.runtime.migration import MigrationContext

    from director.store.engine import upgrade
    from director.store.revisions import head_revision

    event = event.resolve()
    _remove_stale_temps(event)
    work = event.with_name(f".{event.name}{UPGRADE_TEMP}{os.getpid()}-{time.monotonic_ns()}.tmp")
    try:
        with _told(event):
            _copy(event, work)
            engine = _migration_engine(work)
            try:
                upgrade(engine)
                with engine.connect() as connection:
                    context = MigrationContext.configure(connection)
                    revision = context.get_current_revision()
                    differences = compare_metadata(context, Base.metadata)
                    raw = connection.connection.driver_connection
                    problems = connection_problems(raw)
                    strange = schema_differences(schema_rows(raw), head_revision())
            finally:
                engine.dispose()
            if revision != head_revision() or differences or strange or problems:
                what = (
                    problems[0] if problems else f"the schema is not the current one ({revision})"
                )
                raise UserError(f"cannot upgrade {event.name}: the upgraded copy is wrong: {what}")
            _settle(work)
            sync_file(work)
    except BaseException:
        remove_with_companions(work)
        raise
    return work


def put_in_place(event: Path, work: Path) -> Path:
    """The upgraded copy (and what a command wrote into it) takes the event's name; the older
    file is kept as `FILE.before-upgrade-DATE`, which is returned. At every moment the name
    holds the old file or the new one."""
    event = event.resolve()
    with _told(event):
        _settle(event)  # its -wal folded in: none may stay beside the new file
        _settle(work)
        sync_file(work)
        kept = keep_original(event)
        os.replace(work, event)
        sync_folder(event.parent)
    return kept


@contextlib.contextmanager
def _told(event: Path) -> Iterator[None]:
    """A disk's or SQLite's failure as one line that says the file is untouched."""
    try:
        yield
    except (OSError, sqlite3.Error) as exc:
        from director.store.errors import known_database_error

        reason = known_database_error(exc) or str(exc)
        raise UserError(f"cannot upgrade {event.name}: {reason}; the file is as it was") from None
