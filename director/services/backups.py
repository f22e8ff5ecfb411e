"""Backups and restore, as the app and the command line offer them.

An event's and a club's register are backed up, listed and restored by the same code, given
the file's kind (`store.integrity.FileKind`): `file_kind` tells which a file is.

Backups are automatic: when the app opens an event (`store.engine.open_event`), after each
round is paired and after each round is finished (the round services call the two functions
below once their change is committed); a club's when it is opened and before each publication.
The newest ten are kept in `FILE-backups/`. A restore never destroys anything: the file it
replaces is kept as `FILE.replaced-DATE`.
"""

from __future__ import annotations

from pathlib import Path

from director.domain.errors import UserError
from director.services import audit
from director.services.events import get_event
from director.store import backup as store_backup
from director.store.backup import BackupInfo, Restored, backup_folder
from director.store.engine import EventDatabase, open_database
from director.store.files import check_regular
from director.store.integrity import CLUB, EVENT, FileKind
from director.store.lock import acquire
from director.store.targets import is_url

__all__ = [
    "BackupInfo",
    "Restored",
    "backup_after_pairing",
    "backup_after_round",
    "backup_folder",
    "backup_now",
    "file_kind",
    "list_backups",
    "restore_backup",
    "restore_candidates",
    "set_aside_files",
]


def backup_now(db: EventDatabase, reason: str = "by hand") -> Path | None:
    """A backup now (None on a server database); UserError says why none could be made."""
    return store_backup.backup_now(db, reason)


def backup_after_pairing(db: EventDatabase, round_number: int) -> Path | None:
    """Call after the pairing of a round is committed."""
    return store_backup.backup_now(db, f"round {round_number} paired")


def backup_after_round(db: EventDatabase, round_number: int) -> Path | None:
    """Call after the last result of a round is committed."""
    return store_backup.backup_now(db, f"round {round_number} finished")


def local_file(event: str | Path) -> Path:
    """The event's (or club's) file; a server event is refused: its server backs it up."""
    if is_url(str(event)):
        raise UserError(
            "a shared event on a database server is backed up and restored on the server "
            "(pg_dump / pg_restore): ask whoever runs it"
        )
    return Path(event)


def file_kind(path: Path, backup: Path | None = None) -> FileKind:
    """A club's register or an event: the file's own kind; when it is gone (moved aside), its
    `backup`'s, else a `.club` name's."""
    from director.store.club import is_club_file

    if path.is_file():
        return CLUB if is_club_file(path) else EVENT
    if backup is not None and backup.is_file():
        return CLUB if is_club_file(backup) else EVENT
    return CLUB if path.suffix == ".club" else EVENT


def list_backups(event: str | Path) -> list[BackupInfo]:
    """Every backup of the event (or club), newest first, each checked as one (read-only:
    takes no lock)."""
    path = local_file(event)
    return store_backup.list_backups(path, file_kind(path))


def restore_candidates(event: str | Path) -> list[BackupInfo]:
    """The good backups, newest first: what to offer after a damaged file was moved aside."""
    return [b for b in list_backups(event) if b.good]


def set_aside_files(event: str | Path) -> list[Path]:
    """Files moved aside beside the event (damaged at open, or replaced by a restore)."""
    path = local_file(event).resolve()
    found = [
        p
        for p in path.parent.glob(f"{path.name}.*-*")
        if p.name.startswith((f"{path.name}.corrupt-", f"{path.name}.replaced-"))
        and not p.name.endswith(store_backup.COMPANIONS)
    ]
    return sorted(found, key=lambda p: p.name, reverse=True)


def restore_backup(
    event: str | Path, backup: str | Path, reason: str = "restored from a backup"
) -> Restored:
    """Replace the event (or club) by a checked copy of `backup`; refused while it is open.

    The replaced file is kept as `FILE.replaced-DATE`; the restore is written to the restored
    event's audit log (a club's: its `meta`, which has no audit log).
    """
    path, source = local_file(event), Path(backup)
    check_regular(source)  # a pipe would block the copy below; a folder is no backup
    if not path.parent.is_dir():
        raise UserError(f"the folder {path.parent} does not exist")
    kind = file_kind(path, source)

    def prepare(copy: Path, aside: Path) -> None:  # on the copy, before the file is touched
        if kind is CLUB:
            _record_club_restore(copy, source, reason)
            return
        db = open_database(str(copy))
        try:
            with db.Session() as session, session.begin():
                get_event(session)  # a file with no event in it is no backup
                audit.log(
                    session,
                    "restore",
                    source.name[:100],
                    None,
                    {"backup": str(source), "replaced": str(aside) if path.exists() else ""},
                    reason,
                )
        finally:
            db.close()

    lock = acquire(path.resolve())  # refuses while an app has the event open
    try:
        return store_backup.restore(path, source, prepare, kind)
    finally:
        lock.release()


def _record_club_restore(copy: Path, source: Path, reason: str) -> None:
    """Open the copy as a club (refusing anything that is not one, upgrading an older one) and
    note in its `meta` where it came from and why."""
    from datetime import UTC, datetime

    from director.store.club import open_club
    from director.store.club_models import ClubMeta

    db = open_club(str(copy), lock=False, make_backup=False, mark=False)
    try:
        with db.Session() as session, session.begin():
            for key, value in (
                ("restored_from", str(source)),
                ("restore_reason", reason),
                ("restored_at", datetime.now(UTC).isoformat(timespec="seconds")),
            ):
                session.merge(ClubMeta(key=key, value=value))
    finally:
        db.close()
