"""Opening an event database: SQLite pragmas, migrations, and the session factory.

A target is either a path to a `.tandem` file (SQLite, one event per file) or a database URL
(`postgresql+psycopg://...`) for several director stations sharing one event.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import Engine, create_engine, delete, event, inspect, make_url, select, text
from sqlalchemy.event import listen as event_listen
from sqlalchemy.exc import DatabaseError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import Session, SessionTransaction, sessionmaker

from director.domain.errors import TargetError, UserError
from director.store import models
from director.store.backup import (
    OPEN_MARKER,
    backup_folder,
    backup_now,
    good_backups,
    move_aside,
    remove_with_companions,
)
from director.store.errors import known_database_error
from director.store.files import check_regular, remove_stale_work, sync_file, sync_folder
from director.store.files import file_header as _header
from director.store.integrity import SQLITE_HEADER, glance_uri, integrity_problems
from director.store.lock import EventLock, acquire
from director.store.revisions import CLUB_VERSION_TABLE, head_revision, migration_revisions
from director.store.schema import checked_revision
from director.store.targets import SERVER_SCHEMES, check_server_driver, is_url
from director.store.upgrade import put_in_place, upgrade_file, upgraded_copy
from director.store.values import bad_values_message, first_bad_value

if TYPE_CHECKING:
    from alembic.config import Config
    from sqlalchemy.pool import ConnectionPoolEntry

# alembic is imported only to migrate: with mako and pygments it costs more than opening a
# 1,000-team event, so the revisions are read without it.


_T = TypeVar("_T")


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """Every connection: foreign keys enforced, WAL, and fsync on every commit."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def _sqlite_read_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """A read-only connection keeps the file's journal mode: switching it would be a write
    (a backup is in rollback-journal mode, and must open read-only as it is)."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def display_target(target: str) -> str:
    """The target as it may be shown: a server URL without its password."""
    if not is_url(target):
        return target
    try:
        return make_url(target).render_as_string(hide_password=True)
    except (SQLAlchemyError, ValueError):
        return "the database server address"


def make_engine(target: str, *, read_only: bool = False) -> Engine:
    if is_url(target):
        return _server_engine(target)
    path = Path(target).resolve()
    if read_only:
        # mode=ro never writes; immutable when nobody has the file open, so a read creates no
        # -wal and -shm (it left both behind, and a full disk refused the -shm: #27 §6);
        # a creator keeps odd file names out of the URL
        uri = glance_uri(path)
        engine = create_engine(
            "sqlite://",
            creator=lambda: sqlite3.connect(uri, uri=True, check_same_thread=False),
        )
        event.listen(engine, "connect", _sqlite_read_pragmas)
        return engine
    engine = create_engine(f"sqlite:///{path}", connect_args={"check_same_thread": False})
    event.listen(engine, "connect", _sqlite_pragmas)
    return engine


CONNECT_TIMEOUT_S = 5
STATEMENT_TIMEOUT_MS = 15_000


def _server_engine(target: str) -> Engine:
    """A PostgreSQL engine that never hangs a station: connect and statement timeouts, and a
    TCP keep-alive so a vanished server is noticed."""
    if not target.startswith(SERVER_SCHEMES):  # sqlite:///x, mysql://: not a server we serve
        raise UserError(
            f"{display_target(target)[:200]}: an event is a .tandem file or a PostgreSQL "
            "address (postgresql://USER:PASSWORD@HOST[:PORT]/DATABASE)"
        )
    check_server_driver(target)
    url_text = target.replace("postgresql://", "postgresql+psycopg://", 1)
    try:
        url = make_url(url_text)
        if url.port is not None and not 0 < url.port < 65536:
            raise ValueError("port out of range")
        return create_engine(
            url,
            pool_pre_ping=True,
            connect_args={
                "connect_timeout": CONNECT_TIMEOUT_S,
                "options": f"-c statement_timeout={STATEMENT_TIMEOUT_MS} "
                f"-c lock_timeout={STATEMENT_TIMEOUT_MS}",
                "keepalives": 1,
                "keepalives_idle": 5,
                "keepalives_interval": 2,
                "keepalives_count": 2,
            },
        )
    except (SQLAlchemyError, ValueError, TypeError):
        raise UserError(
            "this is not a database server address: write "
            "postgresql://USER:PASSWORD@HOST[:PORT]/DATABASE"
        ) from None


def alembic_config(connection: Any) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(resources.files("director.store") / "migrations"))
    config.attributes["connection"] = connection
    return config


def migration_order() -> list[str]:
    """The revisions from the first to the head (the chain is linear: one head, no merges)."""
    revisions = migration_revisions()
    order: list[str] = []
    at: str | None = head_revision()
    while at is not None:
        order.append(at)
        parents = revisions[at]
        at = parents[0] if parents else None
    return order[::-1]


def current_revision(engine: Engine) -> str | None:
    """The revision stamped in the database (alembic's own table), None before the first."""
    with engine.connect() as connection:
        if not inspect(connection).has_table("alembic_version"):
            return None
        return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()


def upgrade(engine: Engine) -> None:
    from alembic import command

    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "head")


@dataclass(frozen=True)
class OpenReport:
    """What `open_event` found and did: shown to the director after opening."""

    unclean: bool = False  # the app that had it open last did not close it (crash, kill, power)
    left_by: str = ""  # who that was, when known
    full_check: bool = False  # integrity_check + foreign_key_check ran (they passed)
    backup: Path | None = None
    backup_problem: str = ""  # why no backup could be made at open (the event is fine)


@dataclass
class EventDatabase:
    """An open event: its engine and the factory for sessions (the caller owns each session)."""

    target: str
    engine: Engine
    Session: sessionmaker[Session]
    backup_made: Path | None = None
    lock: EventLock | None = None  # held when opened with open_event
    report: OpenReport = field(default_factory=OpenReport)
    # an older file opened `deferred`: its upgraded copy, which the engine is on until
    # `start_writing` puts it in place (closing without that removes it: nothing was written)
    pending_upgrade: Path | None = None
    marked: bool = False  # the open mark is in the file (`_mark_open`): closing clears it
    # `open_event(values_later=True)`: the scan for values the app never writes, under way
    values_check: Future[str] | None = None

    @property
    def is_sqlite(self) -> bool:
        return not is_url(self.target)

    @property
    def path(self) -> Path:
        return Path(self.target)

    @property
    def title(self) -> str:
        return display_target(self.target)

    def raw_read(self, read: Callable[[Any], _T]) -> _T:
        """`read(connection)` on a DB-API connection of the event (the SQLite checks)."""
        with self.engine.connect() as connection:
            return read(connection.connection.driver_connection)

    def start_writing(self, *, backup: bool = False) -> None:
        """A command opened `deferred` has made its checks: now it may write. An older file's
        upgraded copy takes the file's name, the open mark is set (with a lock), and with
        `backup` the backup at opening is made. Until this, the file's bytes are untouched."""
        self.put_upgrade_in_place()
        if self.lock is not None and not self.marked:
            _mark_open(self, self.lock)
        if backup:
            back_up_at_open(self)

    def put_upgrade_in_place(self) -> None:
        """An older file opened `deferred`: its upgraded copy, with whatever was committed to it,
        takes the file's name (the original kept as `FILE.before-upgrade-DATE`)."""
        work = self.pending_upgrade
        if work is None:
            return
        self.engine.dispose()
        self.backup_made = put_in_place(self.path, work)
        self.pending_upgrade = None
        self.engine = make_engine(self.target)
        self.Session.configure(bind=self.engine)
        if self.lock is not None:
            self.lock.follow()  # the event's name holds a new file: lock that one
            _guard_commits(self)

    def close(self) -> None:
        """Release the event; with a lock, mark it closed cleanly first."""
        if self.values_check is not None:  # the scan reads on the engine: let it end first
            with contextlib.suppress(Exception):
                self.values_check.result()
        if self.lock is not None and self.marked:
            # failing to clear the mark only costs a full check at the next open
            with (
                contextlib.suppress(SQLAlchemyError, sqlite3.Error, UserError),
                self.Session() as session,
                session.begin(),
            ):
                session.execute(delete(models.Meta).where(models.Meta.key == OPEN_MARKER))
        # dispose closes only the connections in the pool: one a call still holds (closing does
        # not wait for a hung server, ui/background.py) would go back into the disposed pool
        # and stay open, a server slot held, until the garbage collector found it
        if not event.contains(self.engine, "checkin", _close_on_return):
            event.listen(self.engine, "checkin", _close_on_return)
        self.engine.dispose()
        if self.pending_upgrade is not None:  # refused before writing: the file is as it was
            remove_with_companions(self.pending_upgrade)
            self.pending_upgrade = None
        if self.lock is not None:
            self.lock.release()
            self.lock = None


def _close_on_return(_dbapi_connection: Any, entry: ConnectionPoolEntry) -> None:
    """A connection given back after its event was closed is closed, not pooled."""
    entry.close()


def create_database(target: str) -> EventDatabase:
    """Create a new, empty event database with the current schema."""
    if not is_url(target):
        path = Path(target)
        if path.exists():
            raise TargetError(f"{path} already exists: choose another name or open it")
        if not path.parent.exists():
            raise TargetError(f"the folder {path.parent} does not exist")
    engine = make_engine(target)
    try:
        upgrade(engine)
    except OperationalError as exc:
        engine.dispose()
        known = known_database_error(exc)
        raise UserError(f"cannot create {display_target(target)}: {known or exc.orig}") from None
    return EventDatabase(target, engine, sessionmaker(engine, expire_on_commit=False))


NEW_TEMP = ".new-"


@contextlib.contextmanager
def new_database(target: str) -> Iterator[EventDatabase]:
    """An empty event database to fill in the block; the event file appears only when it ends.

    A file is built under a hidden temporary name beside the target and renamed into place
    once the block has finished without error, so a kill, a refused option or a full disk
    never leaves a file that "holds no event" or blocks a retry. A server database cannot be
    built aside: it is created in place (the server's own transactions guard it).
    """
    if is_url(target):
        db = create_database(target)
        try:
            yield db
        finally:
            db.close()
        return
    path = Path(target)
    if path.exists() or path.is_symlink():
        raise TargetError(f"{path} already exists: choose another name or open it")
    if not path.parent.is_dir():
        raise TargetError(f"the folder {path.parent} does not exist")
    remove_stale_work(path.parent, f".{path.name}{NEW_TEMP}")  # a killed run's
    work = path.with_name(f".{path.name}{NEW_TEMP}{os.getpid()}-{time.monotonic_ns()}.tmp")
    try:
        db = create_database(str(work))  # inside: a full disk here left the file behind
        try:
            yield db
        finally:
            db.close()  # the last connection folds the -wal into the file
        if Path(f"{work}-wal").exists():
            raise UserError(f"cannot create {path}: the new file is still in use")
        sync_file(work)
        if path.exists():
            raise TargetError(f"{path} already exists: choose another name or open it")
        os.rename(work, path)
        sync_folder(path.parent)
    except OSError as exc:
        reason = known_database_error(exc) or exc.strerror
        raise UserError(f"cannot create {path}: {reason}") from None
    finally:
        for leftover in (work, *(Path(f"{work}{c}") for c in ("-wal", "-shm", "-journal"))):
            with contextlib.suppress(OSError):
                leftover.unlink()


def open_database(
    target: str, *, read_only: bool = False, check_values: bool = True
) -> EventDatabase:
    """Open an existing event; an older file is backed up beside itself, then migrated.

    No lock and no backups: the command line's one-shot commands use this. The app opens an
    event with `open_event`.
    """
    if not is_url(target):
        _check_sqlite_file(Path(target))
    try:
        return _open(target, read_only, check_values)
    except (DatabaseError, sqlite3.DatabaseError) as exc:
        raise UserError(f"cannot open {display_target(target)}: {_reason(exc)}") from None


def _reason(exc: BaseException) -> str:
    """The known sentence for a database failure, else the driver's own words."""
    return known_database_error(exc) or str(getattr(exc, "orig", exc))


def _open(
    target: str, read_only: bool, check_values: bool = True, *, deferred: bool = False
) -> EventDatabase:
    """Open and migrate; database errors propagate so `open_event` can tell damage apart.
    `deferred`: an older file is upgraded on a copy the engine opens, put in place later."""
    shown = display_target(target)
    revision: str | None = None
    if not is_url(target):
        # on a read-only connection of its own: nothing is written (not even the journal mode)
        # to a file that is not ours
        revision = file_revision(Path(target), shown, values=check_values)
        if not check_values and revision != head_revision():  # the upgrade reads every row
            file_revision(Path(target), shown)
    engine = make_engine(target, read_only=read_only)
    backup = pending = None  # before the try: its clean-up reads `pending` on every refusal
    try:
        if is_url(target):
            revision = current_revision(engine)
            if revision is None and not inspect(engine).has_table("event"):
                if inspect(engine).has_table(CLUB_VERSION_TABLE):
                    raise UserError(f"{shown} is a club, not an event")
                raise UserError(f"{shown} is not a Tandem Director event")
        if revision != head_revision():
            if revision not in migration_revisions():
                raise UserError(f"{shown} was written by a newer Tandem Director: update the app")
            if read_only:
                raise UserError(
                    f"{shown} is from an older version: upgrade it first "
                    f"(tandem-director upgrade {_quoted(target)}, or open it in the app)"
                )
            if is_url(target):
                upgrade(engine)  # PostgreSQL changes its schema in one transaction
            elif deferred:
                engine.dispose()
                pending = upgraded_copy(Path(target))
                engine = make_engine(str(pending))
            else:
                engine.dispose()
                backup = upgrade_file(Path(target))
    except BaseException:
        engine.dispose()
        if pending is not None:
            remove_with_companions(pending)
        raise
    db = EventDatabase(target, engine, sessionmaker(engine, expire_on_commit=False), backup)
    db.pending_upgrade = pending
    return db


def _quoted(target: str) -> str:
    return f'"{target}"' if " " in target else target


def file_revision(path: Path, shown: str, *, values: bool = True) -> str:
    """`checked_revision` of a closed SQLite file, read on a read-only connection; with
    `values`, a value the app never writes (`store/values.py`) is refused too."""
    with contextlib.closing(sqlite3.connect(glance_uri(path), uri=True)) as connection:
        revision = checked_revision(connection, shown)
        if values and (bad := first_bad_value(connection)) is not None:
            raise UserError(bad_values_message(shown, bad))
        return revision


def _check_sqlite_file(path: Path) -> None:
    check_regular(path)
    if _header(path) != SQLITE_HEADER:
        raise UserError(f"{path} is not a Tandem Director event (not an SQLite file)")


# --- the app's open: one instance per file, crash recovery, backups --------------------------


class CorruptEventError(UserError):
    """The event file is damaged: it was moved aside; `backups` are the good ones to restore."""

    def __init__(self, message: str, moved_to: Path | None, backups: list[Path]) -> None:
        super().__init__(message)
        self.moved_to = moved_to
        self.backups = backups


class ReadOnlyEventError(UserError):
    """The event file or its folder cannot be written: it can only be viewed (read_only=True)."""


def open_event(
    target: str,
    *,
    make_backup: bool = True,
    deferred: bool = False,
    values_later: bool = False,
    lock: EventLock | None = None,
) -> EventDatabase:
    """Open an event for editing in the app.

    A SQLite file is locked for this app instance (a second opener is told where it is open);
    when the last app to open it did not close it, the full integrity_check and
    foreign_key_check run; a damaged file is moved aside (`FILE.corrupt-DATE`) and the good
    backups are offered; then a backup is made (`back_up_at_open`; with `make_backup=False`
    the caller makes it, or none). A server database is opened as it is: the server guards
    it, and stations share it.

    `deferred` (the command line): nothing is written yet, so that a command that refuses
    leaves the file as it was: an older file is upgraded on a copy, no open mark and no backup
    are made until the command has made its checks and calls `db.start_writing()` (or, for a
    one-transaction command, `db.put_upgrade_in_place()` after its commit).

    `values_later` (the app's window, #24 point 6): the scan for values the app never writes
    (`store/values.py`, a tenth of a second or more on a big event) runs on a thread of its
    own while the window builds the event's first page; `db.values_check` gives its refusal
    ('' when sound), and no change may be made before it is known (`ui/context.py`).

    `lock`: the file's lock, taken by the window's first look (`store/first_look.py`); kept
    with the event, released if it is refused.
    """
    if is_url(target):
        return open_database(target)
    event = Path(target)
    try:
        _check_event_file(event)
        lock = lock or acquire(event.resolve())
    except BaseException:
        if lock is not None:
            lock.release()
        raise
    try:
        db = _open_locked(event, lock, make_backup, deferred, values_later)
    except BaseException:
        lock.release()
        raise
    if values_later:
        _check_values_later(db)
    return db


def _check_values_later(db: EventDatabase) -> None:
    """`db.values_check`: the scan `open_event(values_later=True)` left, on its own thread
    (the file is open and marked so, as any event the app opens: its writability is known)."""
    found: Future[str] = Future()

    def scan() -> None:
        try:
            bad = db.raw_read(first_bad_value)
        except BaseException as exc:  # the reader says what it makes of it
            found.set_exception(exc)
            return
        found.set_result(bad_values_message(db.title, bad) if bad is not None else "")

    db.values_check = found
    threading.Thread(target=scan, name="value-check", daemon=True).start()


def _check_event_file(event: Path) -> None:
    """Like `_check_sqlite_file`, but a wiped file with backups beside it counts as damaged."""
    check_regular(event)
    if _header(event) != SQLITE_HEADER and not good_backups(event):
        raise UserError(f"{event} is not a Tandem Director event (not an SQLite file)")


def _is_damage(exc: BaseException) -> bool:
    orig = getattr(exc, "orig", exc)
    code = getattr(orig, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


def _open_locked(
    event: Path,
    lock: EventLock,
    make_backup: bool,
    deferred: bool = False,
    values_later: bool = False,
) -> EventDatabase:
    with event.open("rb") as handle:
        damaged = handle.read(16) != SQLITE_HEADER
    db: EventDatabase | None = None
    problems: list[str] = []
    unclean, left_by = lock.previous_left_behind, lock.stale.describe() if lock.stale else ""
    if not damaged:
        try:
            db = _open(str(event), False, not values_later, deferred=deferred)
            with db.Session() as session:
                marker = session.scalar(
                    select(models.Meta.value).where(models.Meta.key == OPEN_MARKER)
                )
            if marker is not None:
                unclean = True
                left_by = left_by or marker
            problems = integrity_problems(db, quick=not unclean)
        except (DatabaseError, sqlite3.DatabaseError) as exc:
            if not _is_damage(exc):
                if db is not None:
                    db.engine.dispose()
                raise UserError(f"cannot open {event}: {_reason(exc)}") from None
            problems = [f"integrity: {getattr(exc, 'orig', exc)}"]
    if damaged or problems:
        if db is not None:
            db.engine.dispose()
        raise _damaged(event, problems or ["the file does not start as an SQLite database"])
    assert db is not None
    db.lock = lock
    if db.backup_made is not None:
        lock.follow()  # the upgrade renamed a new file into the event's name: lock that one
    _guard_commits(db)
    db.report = OpenReport(unclean, left_by, unclean)
    if not deferred:
        try:
            db.start_writing(backup=make_backup)
        except BaseException:
            db.lock = None  # the caller releases it
            db.engine.dispose()
            raise
    return db


def _guard_commits(db: EventDatabase) -> None:
    """Every commit first checks the event's name still is the file this app locked."""
    lock = db.lock
    if lock is not None:
        event_listen(db.engine, "commit", lambda _connection: lock.check())


def back_up_at_open(db: EventDatabase) -> None:
    """The backup at opening (unless nothing changed since the newest backup), told in
    `db.report`; a failure is told, not raised: the event itself is open and sound. The app
    makes it on the event's worker once its window shows the event, before any change."""
    try:
        backup, problem = backup_now(db, "open"), ""
    except UserError as exc:
        backup, problem = None, str(exc)
    db.report = replace(db.report, backup=backup, backup_problem=problem)


def _mark_open(db: EventDatabase, lock: EventLock) -> None:
    """The open mark travels inside the file: a copy taken while open still tells."""
    try:
        with db.Session() as session, session.begin():
            session.merge(models.Meta(key=OPEN_MARKER, value=lock.holder.describe()))
        db.marked = True
    except (DatabaseError, sqlite3.DatabaseError) as exc:
        known = known_database_error(exc)
        if known is not None and "read-only" in known:
            raise ReadOnlyEventError(f"{db.path.name}: {known}") from None
        raise UserError(f"cannot open {db.path}: {_reason(exc)}") from None


def _damaged(event: Path, problems: list[str]) -> CorruptEventError:
    moved = move_aside(event, "corrupt")
    backups = [b.path for b in good_backups(event)]
    lines = [
        f"{event.name} is damaged ({problems[0]}); it was moved to {moved.name}, untouched.",
    ]
    if backups:
        lines.append(f"The newest good backup is {backups[0]}:")
        lines.append(f'restore it with: tandem-director restore "{event}" "{backups[0]}"')
    else:
        lines.append(f"There is no good backup in {backup_folder(event.resolve())}.")
    return CorruptEventError("\n".join(lines), moved, backups)


def savepoint(session: Session) -> SessionTransaction:
    """`session.begin_nested()` that stays inside the session's transaction on SQLite too.

    pysqlite begins a transaction only before a statement that changes data, so a SAVEPOINT
    issued first starts a transaction of its own, and its RELEASE commits it: past the commit
    hook that refuses a file replaced under the app (store/lock.py), and past the outer
    transaction's rollback. The outer transaction is begun on the connection first."""
    raw = session.connection().connection.dbapi_connection
    if isinstance(raw, sqlite3.Connection) and not raw.in_transaction:
        raw.execute("BEGIN")
    return session.begin_nested()
