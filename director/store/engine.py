"""Opening an event database: SQLite pragmas, migrations, and the session factory.

A target is either a path to a `.tandem` file (SQLite, one event per file) or a database URL
(`postgresql+psycopg://...`) for several director stations sharing one event.
"""

from __future__ import annotations

import shutil
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, event, inspect
from sqlalchemy.exc import DatabaseError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from director.domain.errors import UserError

EXTENSION = ".tandem"


def is_url(target: str) -> bool:
    return "://" in target


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """Every connection: foreign keys enforced, WAL, and fsync on every commit."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def make_engine(target: str, *, read_only: bool = False) -> Engine:
    if is_url(target):
        url = target.replace("postgresql://", "postgresql+psycopg://", 1)
        return create_engine(url, pool_pre_ping=True)
    path = Path(target).resolve()
    if read_only:
        # mode=ro never creates, never writes; uri=true makes sqlite read the query string
        engine = create_engine(
            f"sqlite:///file:{path}?mode=ro&uri=true", connect_args={"check_same_thread": False}
        )
    else:
        engine = create_engine(f"sqlite:///{path}", connect_args={"check_same_thread": False})
    event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def alembic_config(connection: Any) -> Config:
    config = Config()
    config.set_main_option("script_location", str(resources.files("director.store") / "migrations"))
    config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    script = ScriptDirectory.from_config(alembic_config(None))
    head = script.get_current_head()
    assert head is not None, "the migrations have no head"
    return head


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine) -> None:
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "head")


@dataclass
class EventDatabase:
    """An open event: its engine and the factory for sessions (the caller owns each session)."""

    target: str
    engine: Engine
    Session: sessionmaker[Session]
    backup_made: Path | None = None

    @property
    def is_sqlite(self) -> bool:
        return not is_url(self.target)

    @property
    def path(self) -> Path:
        return Path(self.target)

    def close(self) -> None:
        self.engine.dispose()


def create_database(target: str) -> EventDatabase:
    """Create a new, empty event database with the current schema."""
    if not is_url(target):
        path = Path(target)
        if path.exists():
            raise UserError(f"{path} already exists: choose another name or open it")
        if not path.parent.exists():
            raise UserError(f"the folder {path.parent} does not exist")
    engine = make_engine(target)
    try:
        upgrade(engine)
    except OperationalError as exc:
        engine.dispose()
        raise UserError(f"cannot create {target}: {exc.orig}") from None
    return EventDatabase(target, engine, sessionmaker(engine, expire_on_commit=False))


def open_database(target: str, *, read_only: bool = False) -> EventDatabase:
    """Open an existing event; an older file is backed up beside itself, then migrated."""
    if not is_url(target):
        _check_sqlite_file(Path(target))
    engine = make_engine(target, read_only=read_only)
    try:
        revision = current_revision(engine)
        if revision is None and not inspect(engine).has_table("event"):
            raise UserError(f"{target} is not a Tandem Director event")
        backup = None
        if revision != head_revision():
            if read_only:
                raise UserError(f"{target} is from an older version: open it once to upgrade it")
            known = {
                s.revision
                for s in ScriptDirectory.from_config(alembic_config(None)).walk_revisions()
            }
            if revision not in known:
                raise UserError(f"{target} was written by a newer Tandem Director: update the app")
            backup = _backup_before_migration(engine, target)
            upgrade(engine)
    except (DatabaseError, sqlite3.DatabaseError) as exc:
        engine.dispose()
        raise UserError(f"cannot open {target}: {getattr(exc, 'orig', exc)}") from None
    except UserError:
        engine.dispose()
        raise
    return EventDatabase(target, engine, sessionmaker(engine, expire_on_commit=False), backup)


def _check_sqlite_file(path: Path) -> None:
    if not path.exists():
        raise UserError(f"{path} does not exist")
    if path.is_dir():
        raise UserError(f"{path} is a folder, not an event file")
    with path.open("rb") as handle:
        if handle.read(16) != b"SQLite format 3\x00":
            raise UserError(f"{path} is not a Tandem Director event (not an SQLite file)")


def _backup_before_migration(engine: Engine, target: str) -> Path | None:
    if is_url(target):
        return None
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    backup = Path(f"{target}.before-upgrade-{stamp}")
    engine.dispose()
    source = sqlite3.connect(target)
    try:
        dest = sqlite3.connect(backup)
        with dest:
            source.backup(dest)
        dest.close()
    finally:
        source.close()
    shutil.copymode(target, backup)
    return backup
