"""Opening the club's register: a file (or PostgreSQL database) of its own, never an event's.

It reuses the event file's engine (pragmas, PostgreSQL timeouts), its lock (one app per file,
stale-lock detection) and its backups (SQLite's online backup, checked, pruned): `meta` has the
same shape in both files. Its schema is migrated by its own Alembic scripts
(`club_migrations/`) into its own version table, so an event's revisions and a club's never
mix, and a club file is refused as an event and an event file as a club.
"""

from __future__ import annotations

import contextlib
import sqlite3
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, inspect, text
from sqlalchemy.exc import DatabaseError, OperationalError
from sqlalchemy.orm import sessionmaker

from director.domain.errors import TargetError, UserError
from director.store.backup import OPEN_MARKER, backup_now
from director.store.club_models import ClubMeta
from director.store.engine import EventDatabase, display_target, make_engine
from director.store.errors import known_database_error
from director.store.files import check_regular
from director.store.integrity import SQLITE_HEADER, glance_uri
from director.store.lock import acquire
from director.store.revisions import CLUB_VERSION_TABLE, migration_revisions
from director.store.targets import is_url

if TYPE_CHECKING:
    from alembic.config import Config

CLUB_HEAD = "club0001"  # the newest revision in club_migrations/versions


def _config(connection: Any) -> Config:
    from alembic.config import Config

    config = Config()
    location = resources.files("director.store") / "club_migrations"
    config.set_main_option("script_location", str(location))
    config.attributes["connection"] = connection
    return config


def upgrade_club(engine: Engine) -> None:
    from alembic import command

    with engine.begin() as connection:
        command.upgrade(_config(connection), "head")


def club_revision(connection: Any) -> str | None:
    """The club revision stamped in the database; None when it holds no club."""
    if not inspect(connection).has_table(CLUB_VERSION_TABLE):
        return None
    found = connection.execute(text(f"SELECT version_num FROM {CLUB_VERSION_TABLE}")).scalar()
    return None if found is None else str(found)


def _reason(exc: BaseException) -> str:
    return known_database_error(exc) or str(getattr(exc, "orig", exc))


def create_club(target: str) -> EventDatabase:
    """A new, empty club register (a `.club` file, or an empty PostgreSQL database)."""
    shown = display_target(target)
    if not is_url(target):
        path = Path(target)
        if path.exists() or path.is_symlink():
            raise TargetError(f"{path} already exists: choose another name or open it")
        if not path.parent.is_dir():
            raise TargetError(f"the folder {path.parent} does not exist")
    engine = make_engine(target)
    try:
        with engine.connect() as connection:
            tables = set(inspect(connection).get_table_names())
        if tables:
            raise UserError(f"{shown} already holds tables: a club needs a database of its own")
        upgrade_club(engine)
    except (OperationalError, DatabaseError) as exc:
        engine.dispose()
        raise UserError(f"cannot create {shown}: {_reason(exc)}") from None
    except BaseException:
        engine.dispose()
        raise
    return EventDatabase(target, engine, sessionmaker(engine, expire_on_commit=False))


def check_club_file(path: Path) -> None:
    """A regular SQLite file with the club's tables, or a UserError saying what it is instead."""
    check_regular(path, "a club file")
    with path.open("rb") as handle:
        if handle.read(16) != SQLITE_HEADER:
            raise UserError(f"{path} is not a Tandem Director club (not an SQLite file)")
    try:
        with contextlib.closing(sqlite3.connect(glance_uri(path), uri=True)) as connection:
            _club_tables(connection, str(path))
    except sqlite3.Error as exc:
        raise UserError(f"cannot open {path}: {_reason(exc)}") from None


def _club_tables(connection: Any, shown: str) -> None:
    names = {r[0] for r in connection.execute("SELECT name FROM sqlite_master")}
    if CLUB_VERSION_TABLE not in names or "person" not in names:
        if "event" in names and "alembic_version" in names:
            raise UserError(f"{shown} is an event, not a club")
        raise UserError(f"{shown} is not a Tandem Director club")


def checked_club_revision(connection: Any, shown: str) -> str:
    """The revision of an SQLite club (DB-API `connection`), as a backup's check reads it;
    anything else, or a club a newer app wrote, is refused."""
    _club_tables(connection, shown)
    row = connection.execute(f"SELECT version_num FROM {CLUB_VERSION_TABLE}").fetchone()
    if row is None:
        raise UserError(f"{shown} is not a Tandem Director club")
    if row[0] not in migration_revisions("club_migrations"):
        raise UserError(f"{shown} was written by a newer Tandem Director: update the app")
    return str(row[0])


def is_club_file(path: Path) -> bool:
    """Whether `path` is a club's register (read without opening it, as `open_club` checks)."""
    try:
        check_club_file(path)
    except UserError:
        return False
    return True


def open_club(
    target: str, *, lock: bool = True, make_backup: bool = True, mark: bool = True
) -> EventDatabase:
    """Open a club register: locked for this app (a file), migrated, marked open, backed up.

    A club a newer app wrote is refused; an older one is backed up before it is migrated.
    Without `mark` (a one-shot command: its lock file tells a crash) nothing is written to a
    current club at opening."""
    shown = display_target(target)
    held = None
    if not is_url(target):
        path = Path(target)
        check_club_file(path)
        if lock:
            held = acquire(path.resolve())
    engine = make_engine(target)
    db = EventDatabase(target, engine, sessionmaker(engine, expire_on_commit=False), lock=held)
    try:
        with engine.connect() as connection:
            revision = club_revision(connection)
            an_event = revision is None and inspect(connection).has_table("event")
        if an_event:
            raise UserError(f"{shown} is an event, not a club")
        if revision is None:
            raise UserError(f"{shown} is not a Tandem Director club")
        if revision != CLUB_HEAD:
            # one the chain does not hold (even one that sorts before the head) is no older
            # club: refused before a backup is made or Alembic fails on it
            if revision not in migration_revisions("club_migrations"):
                raise UserError(f"{shown} was written by a newer Tandem Director: update the app")
            db.backup_made = backup_now(db, "before upgrade")
            upgrade_club(engine)
        if held is not None:
            event_listen_commit(db)
            if mark:
                with db.Session() as session, session.begin():
                    session.merge(ClubMeta(key=OPEN_MARKER, value=held.holder.describe()))
                db.marked = True  # closing clears it
        if make_backup:
            backup_now(db, "open")
    except (OperationalError, DatabaseError) as exc:
        db.close()
        raise UserError(f"cannot open {shown}: {_reason(exc)}") from None
    except BaseException:
        db.close()
        raise
    return db


def event_listen_commit(db: EventDatabase) -> None:
    """Every commit first checks the club's name still is the file this app locked."""
    from sqlalchemy.event import listen

    lock = db.lock
    assert lock is not None
    listen(db.engine, "commit", lambda _connection: lock.check())
