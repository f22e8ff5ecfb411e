"""Rotating backups of an event file, restore, and moving a damaged file aside.

A backup is made with SQLite's online backup API into a temp file beside the others, switched
to a single-file journal, labelled, checked (`integrity_check` + `foreign_key_check`), synced,
and only then renamed into place: a crash leaves either no new backup or a good one. Backups
live in `FILE-backups/` beside the event; the newest `KEEP` are kept. Nothing here ever
overwrites or deletes an event file: a replaced file is kept as a copy beside it before the
restore is renamed over it (`keep_aside`), a damaged one is renamed aside with its `-wal` and
`-shm` companions, which SQLite needs to read its last commits.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from director.domain.errors import UserError
from director.store.files import sync_file, sync_folder
from director.store.integrity import (
    EVENT,
    FileKind,
    connection_problems,
    file_problems,
    glance_uri,
    kind_of,
)
from director.store.targets import EXTENSION

if TYPE_CHECKING:
    from director.store.engine import EventDatabase

KEEP = 10  # round milestones ("round 3 paired", "round 3 finished") kept
KEEP_OTHERS = 3  # other backups (at opening, by hand) kept besides: they never push out a milestone
MILESTONE = re.compile(r"_round-\d+-(paired|finished)(-\d+)?$")
RESERVE_FACTOR = 4  # free space kept for the event itself: this many times its size, ...
RESERVE_MIN = 1 << 20  # ... and at least 1 MiB, so result entry never fails for a backup
WARN_FACTOR = 12  # below this many event sizes free after a backup, the director is warned
COMPANIONS = ("-wal", "-shm", "-journal")
OPEN_MARKER = "open_by"  # the meta row an open app keeps; see engine.open_event
_STALE_TEMP_SECONDS = 600


def backup_folder(event: Path) -> Path:
    return event.with_name(event.name + "-backups")


def backup_suffix(folder: Path) -> str:
    """The extension of the backups in `folder`: their file's own (`.tandem` for an event,
    `.club` for a club's register), so that a backup opens as what it is a copy of."""
    return Path(folder.name.removesuffix("-backups")).suffix


@dataclass(frozen=True)
class BackupInfo:
    """One backup file as a person chooses it: when, why, what it holds, and whether it is good."""

    path: Path
    taken_at: datetime | None
    reason: str
    held: tuple[tuple[str, int], ...] = ()  # (what, how many): teams and games, persons and events
    problems: tuple[str, ...] = field(default_factory=tuple)

    @property
    def good(self) -> bool:
        return not self.problems

    def holds(self) -> str:
        """What it holds, in words: "2 teams, 5 games", "8 persons, 1 events"."""
        return ", ".join(f"{n} {what}" for what, n in self.held)

    def describe(self) -> str:
        when = self.taken_at.astimezone().strftime("%Y-%m-%d %H:%M:%S") if self.taken_at else "?"
        state = "good" if self.good else f"DAMAGED ({'; '.join(self.problems)})"
        held = " ".join(
            f"{n:>{width}} {what}" for (what, n), width in zip(self.held, (3, 4), strict=True)
        )
        return f"{when}  {self.reason:<22} {held}  {state}  {self.path}"


def _slug(reason: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", reason.lower()).strip("-")[:40] or "backup"


def _free_name(folder: Path, base: str, suffix: str) -> Path:
    candidate = folder / f"{base}{suffix}"
    n = 2
    while candidate.exists():
        candidate = folder / f"{base}-{n}{suffix}"
        n += 1
    return candidate


def _disk_message(exc: BaseException) -> str:
    text = str(exc).lower()
    if "full" in text or getattr(exc, "errno", None) == 28:
        return "the disk is full"
    if "read-only" in text or "readonly" in text or getattr(exc, "errno", None) == 30:
        return "the folder is read-only"
    return getattr(exc, "strerror", None) or str(exc)


def backup_now(db: EventDatabase, reason: str, *, keep: int = KEEP) -> Path | None:
    """Back up an open SQLite event now; None for a server database (the server backs it up).

    Raises UserError when the backup cannot be written or fails its check; the event itself is
    never touched.
    """
    if not db.is_sqlite:
        return None
    event = db.path.resolve()
    folder = backup_folder(event)
    try:
        folder.mkdir(exist_ok=True)
    except OSError as exc:
        raise UserError(
            f"no backup made: cannot create {folder.name} ({_disk_message(exc)})"
        ) from None
    _remove_stale_temps(folder, everything=db.lock is not None)
    if reason == "open":
        newest = _newest(folder)
        if newest is not None and _digest_of(newest) == _live_digest(db):
            return newest  # nothing changed since the newest backup: keep the older ones
    _make_room(folder, event)
    stamp = datetime.now()
    tmp = folder / f".{event.stem}-{os.getpid()}-{time.monotonic_ns()}.tmp"
    try:
        _write_checked_copy(db, tmp, reason)
        final = _free_name(
            folder, f"{stamp:%Y-%m-%d_%H%M%S}_{_slug(reason)}", backup_suffix(folder)
        )
        sync_file(tmp)
        os.replace(tmp, final)
        sync_folder(folder)
    except (OSError, sqlite3.Error) as exc:
        remove_with_companions(tmp)
        raise UserError(f"no backup made: {_disk_message(exc)}") from None
    except UserError:
        remove_with_companions(tmp)
        raise
    prune(folder, keep)
    return final


def event_size(event: Path) -> int:
    """The event file with its -wal: what one more backup may take, at most."""
    return sum(
        Path(f"{event}{c}").stat().st_size for c in ("", "-wal") if Path(f"{event}{c}").exists()
    )


def _reserve(event: Path) -> int:
    return max(RESERVE_FACTOR * event_size(event), RESERVE_MIN)


def _make_room(folder: Path, event: Path) -> None:
    """A backup never takes the space the event needs for its next results: when the disk is
    short, the oldest backups go first (others before round milestones, the newest milestone
    never), and when that is not enough no backup is made."""
    need = event_size(event) + _reserve(event)
    while shutil.disk_usage(folder).free < need:
        files = _backup_files(folder)
        others = [p for p in files if not is_milestone(p)]
        milestones = [p for p in files if is_milestone(p)][1:]
        victims = others[::-1] + milestones[::-1]  # oldest first
        if not victims:
            free = shutil.disk_usage(folder).free
            raise UserError(
                f"no backup made: the disk is nearly full ({free // 1024} KiB free), and the "
                "space left is kept for entering results; free some space"
            )
        remove_with_companions(victims[0])


def space_warning(event: Path) -> str:
    """A sentence when the event's disk is getting full (empty when there is room)."""
    try:
        free = shutil.disk_usage(event.parent).free
    except OSError:
        return ""
    if free >= WARN_FACTOR * max(event_size(event), RESERVE_MIN // RESERVE_FACTOR):
        return ""
    return (
        f"the disk of {event.name} is nearly full ({free // 1024} KiB free): older backups "
        "are being removed to keep room for results; free some space or move the event"
    )


def is_milestone(path: Path) -> bool:
    return MILESTONE.search(path.stem) is not None


def _live_digest(db: EventDatabase) -> str:
    raw = db.engine.raw_connection()
    try:
        source = raw.driver_connection
        assert isinstance(source, sqlite3.Connection)
        return content_digest(source)
    finally:
        raw.close()


def _write_checked_copy(db: EventDatabase, tmp: Path, reason: str) -> None:
    raw = db.engine.raw_connection()
    try:
        source = raw.driver_connection
        assert isinstance(source, sqlite3.Connection)
        online_copy(source, tmp)
    finally:
        raw.close()
    dest = sqlite3.connect(tmp, isolation_level=None)
    try:
        dest.execute("PRAGMA journal_mode=DELETE")  # a backup is one self-contained file
        dest.execute("BEGIN")
        dest.execute("DELETE FROM meta WHERE key = ?", (OPEN_MARKER,))
        taken = datetime.now(UTC).isoformat(timespec="seconds")
        for key, value in (
            ("backup_reason", reason),
            ("backup_taken_at", taken),
            ("backup_of", str(db.path.resolve())),
        ):
            dest.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))
        digest = content_digest(dest)
        dest.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES ('backup_digest', ?)", (digest,)
        )
        dest.execute("COMMIT")
        problems = connection_problems(dest)
        kind = kind_of(dest)
    finally:
        dest.close()
    if problems:
        raise UserError(
            f"no backup made: the copy failed its check, the {kind.noun} file may be damaged "
            f"({problems[0]}); run `{kind.check} {db.path}`"
        )


def content_digest(connection: sqlite3.Connection) -> str:
    """A hash of every row of every table but `meta`: equal digests mean equal events."""
    sha = hashlib.sha256()
    tables = [
        r[0]
        for r in connection.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' "
            "AND name != 'meta' ORDER BY name"
        )
    ]
    for table in tables:
        sha.update(table.encode())
        for row in connection.execute(f'SELECT * FROM "{table}" ORDER BY rowid'):
            sha.update(repr(row).encode())
    return sha.hexdigest()


def _digest_of(path: Path) -> str | None:
    return _meta(path).get("backup_digest")


def _meta(path: Path) -> dict[str, str]:
    try:
        connection = sqlite3.connect(glance_uri(path), uri=True)
        try:
            return dict(connection.execute("SELECT key, value FROM meta").fetchall())
        finally:
            connection.close()
    except sqlite3.Error:
        return {}


def _backup_files(folder: Path) -> list[Path]:
    """Backups in the folder, newest first (by when they were written). A club's backups
    written before they took the club's extension are `.tandem` files: counted too, so that
    they rotate out."""
    if not folder.is_dir():
        return []
    suffixes = {backup_suffix(folder), EXTENSION}
    files = [p for p in folder.iterdir() if p.suffix in suffixes and not p.name.startswith(".")]
    return sorted(files, key=lambda p: (p.stat().st_mtime_ns, p.name), reverse=True)


def _newest(folder: Path) -> Path | None:
    files = _backup_files(folder)
    return files[0] if files else None


def prune(folder: Path, keep: int = KEEP, keep_others: int = KEEP_OTHERS) -> list[Path]:
    """Keep the newest `keep` round milestones and the newest `keep_others` other backups;
    delete the rest and return what was deleted."""
    files = _backup_files(folder)
    milestones = [p for p in files if is_milestone(p)]
    others = [p for p in files if not is_milestone(p)]
    removed = []
    for old in milestones[keep:] + others[keep_others:]:
        with contextlib.suppress(OSError):
            old.unlink()
            removed.append(old)
    return removed


def _remove_stale_temps(folder: Path, *, everything: bool) -> None:
    """A backup killed half-way leaves its temp file: remove it (never a finished backup)."""
    now = time.time()
    for tmp in folder.glob(".*.tmp"):
        with contextlib.suppress(OSError):
            if everything or now - tmp.stat().st_mtime > _STALE_TEMP_SECONDS:
                remove_with_companions(tmp)


def remove_with_companions(tmp: Path) -> None:
    """Delete a file of ours (a working copy, an old backup) with its `-wal`, `-shm`, `-journal`."""
    for path in (tmp, *(Path(f"{tmp}{c}") for c in COMPANIONS)):
        with contextlib.suppress(OSError):
            path.unlink()


def describe_backup(path: Path, kind: FileKind = EVENT) -> BackupInfo:
    """When, why and what (checked as a `kind`: an event or a club)."""
    problems = tuple(file_problems(path, kind))
    meta = _meta(path) if not problems else {}
    taken: datetime | None = None
    with contextlib.suppress(ValueError, KeyError):
        taken = datetime.fromisoformat(meta["backup_taken_at"])
    if taken is None:
        with contextlib.suppress(OSError):
            taken = datetime.fromtimestamp(path.stat().st_mtime, UTC)
    held: tuple[tuple[str, int], ...] = tuple((what, 0) for what, _table in kind.held)
    if not problems:
        connection = sqlite3.connect(glance_uri(path), uri=True)
        try:
            held = tuple(
                (what, connection.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0])
                for what, table in kind.held
            )
        except sqlite3.Error as exc:
            problems = (f"unreadable: {exc}",)
        finally:
            connection.close()
    return BackupInfo(path, taken, meta.get("backup_reason", "copy"), held, problems)


def list_backups(event: Path, kind: FileKind = EVENT) -> list[BackupInfo]:
    """Every backup of the event (or club: `kind`), newest first, each checked as one."""
    infos = [describe_backup(p, kind) for p in _backup_files(backup_folder(event.resolve()))]
    epoch = datetime.min.replace(tzinfo=UTC)
    return sorted(infos, key=lambda b: b.taken_at or epoch, reverse=True)


def good_backups(event: Path, kind: FileKind = EVENT) -> list[BackupInfo]:
    return [b for b in list_backups(event, kind) if b.good]


def aside_name(event: Path, label: str) -> Path:
    """`FILE.label-DATE`, a name nothing has yet."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    aside = event.with_name(f"{event.name}.{label}-{stamp}")
    n = 2
    while aside.exists():
        aside = event.with_name(f"{event.name}.{label}-{stamp}-{n}")
        n += 1
    return aside


def move_aside(event: Path, label: str, aside: Path | None = None) -> Path:
    """Rename the event (and its -wal/-shm) to `FILE.label-DATE`; never overwrites anything."""
    aside = aside if aside is not None and not aside.exists() else aside_name(event, label)
    for companion in COMPANIONS:  # companions first: the main file's name is the last to go
        source = Path(f"{event}{companion}")
        if source.exists():
            os.replace(source, Path(f"{aside}{companion}"))
    os.replace(event, aside)
    sync_folder(event.parent)
    return aside


def keep_aside(event: Path, aside: Path) -> Path:
    """Keep the file about to be replaced as `aside` before it is replaced: a synced copy, so
    that the event's own name never stops naming a whole file (the `os.replace` after this is
    atomic: killed at any moment, the file is the one before or the one after, never none). A
    crashed app's `-wal` is folded into the file first (the lock is held: nobody has it open),
    so that no `-wal` of the file before lies beside the file after; where that cannot be done
    (a damaged file), the file is moved aside with its companions (`move_aside`)."""
    try:
        wal = Path(f"{event}-wal")
        if wal.exists() and wal.stat().st_size:
            with contextlib.closing(sqlite3.connect(event)) as connection:
                connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            if wal.exists() and wal.stat().st_size:
                raise OSError("the -wal could not be folded into the file")
        part = aside.with_name(f".{aside.name}.tmp")  # never a half copy under its name
        shutil.copyfile(event, part)
        sync_file(part)
        os.replace(part, aside)
    except (OSError, sqlite3.Error):
        remove_with_companions(aside.with_name(f".{aside.name}.tmp"))
        return move_aside(event, "replaced", aside)
    sync_folder(event.parent)
    return aside


def online_copy(source: sqlite3.Connection, dest: Path) -> None:
    """SQLite's online backup of an open database into the file `dest`: a consistent copy
    with the commits still in the source's `-wal`, which a plain file copy would leave behind."""
    with contextlib.closing(sqlite3.connect(dest)) as writer:
        source.backup(writer)


@dataclass(frozen=True)
class Restored:
    event: Path
    backup: Path
    replaced: Path | None  # where the file that was there went


def restore(
    event: Path, backup: Path, prepare: Callable[[Path, Path], None], kind: FileKind = EVENT
) -> Restored:
    """Put a checked copy of `backup` in place of `event`; the current file is moved aside.

    Everything is checked on the copy before the event is touched: its pages and foreign keys,
    and `prepare(copy, aside)`, which opens it as an event or a club (refusing anything that is
    not one, upgrading an older one) and records the restore in it. Only then is the current
    file kept aside (`keep_aside`) and the copy renamed into place. The caller must hold the
    event's lock (see services.backups.restore_backup).
    """
    event, backup = event.resolve(), backup.resolve()
    problems = file_problems(backup, kind)
    if problems:
        raise UserError(f"{backup.name} cannot be restored: {problems[0]}")
    if backup == event:
        raise UserError("choose a backup, not the event file itself")
    tmp = event.with_name(f".{event.name}.restore-{os.getpid()}.tmp")
    try:
        # read-only: the chosen file is never changed (nothing left beside it: glance_uri),
        # and it may be on read-only media
        with contextlib.closing(sqlite3.connect(glance_uri(backup), uri=True)) as reader:
            online_copy(reader, tmp)
        sync_file(tmp)
        copied = file_problems(tmp, kind)
        if copied:
            raise UserError(f"the copy of {backup.name} failed its check: {copied[0]}")
        aside = aside_name(event, "replaced")
        try:
            prepare(tmp, aside)
        except UserError as exc:
            reason = str(exc).replace(str(tmp), backup.name)
            raise UserError(f"{backup.name} cannot be restored: {reason}") from None
        sync_file(tmp)
        replaced = keep_aside(event, aside) if event.exists() else None
        for companion in COMPANIONS:  # a companion without its file would spoil the copy
            stray = Path(f"{event}{companion}")
            if stray.exists():
                move_aside(stray, "stray")
        os.replace(tmp, event)
        sync_folder(event.parent)
    except OSError as exc:
        remove_with_companions(tmp)
        raise UserError(f"cannot restore {backup.name}: {_disk_message(exc)}") from None
    except UserError:
        remove_with_companions(tmp)
        raise
    return Restored(event, backup, replaced)
