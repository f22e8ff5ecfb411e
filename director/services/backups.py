"""Backups and restore, as the app and the command line offer them.

Backups are automatic: when the app opens an event (`store.engine.open_event`), after each
round is paired and after each round is finished (the round services call the two functions
below once their change is committed). The newest ten are kept in `FILE-backups/`. A restore
never destroys anything: the file it replaces is renamed `FILE.replaced-DATE`.
"""

from __future__ import annotations

from pathlib import Path

from director.domain.errors import UserError
from director.services import audit
from director.services.events import get_event
from director.store import backup as store_backup
from director.store.backup import BackupInfo, Restored, backup_folder
from director.store.engine import EventDatabase, check_regular, open_database
from director.store.lock import acquire
from director.store.targets import is_url

__all__ = [
    "BackupInfo",
    "Restored",
    "backup_after_pairing",
    "backup_after_round",
    "backup_folder",
    "backup_now",
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


def _file(event: str | Path) -> Path:
    if is_url(str(event)):
        raise UserError(
            "a shared event on a database server is backed up and restored on the server "
            "(pg_dump / pg_restore): ask whoever runs it"
        )
    return Path(event)


def list_backups(event: str | Path) -> list[BackupInfo]:
    """Every backup of the event, newest first, each checked (read-only: takes no lock).
    A club's register is refused: its backups are clubs, which this checks as events."""
    from director.store.club import is_club_file

    path = _file(event)
    if is_club_file(path):
        raise UserError(
            f"{path} is a club, not an event: its backups are the {path.suffix} files in "
            f"{backup_folder(path.resolve())}, each a whole club (read one with club ratings)"
        )
    return store_backup.list_backups(path)


def restore_candidates(event: str | Path) -> list[BackupInfo]:
    """The good backups, newest first: what to offer after a damaged file was moved aside."""
    return [b for b in list_backups(event) if b.good]


def set_aside_files(event: str | Path) -> list[Path]:
    """Files moved aside beside the event (damaged at open, or replaced by a restore)."""
    path = _file(event).resolve()
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
    """Replace the event by a checked copy of `backup`; refused while the event is open.

    The replaced file is kept as `FILE.replaced-DATE`; the restore is written to the restored
    event's audit log.
    """
    path, source = _file(event), Path(backup)
    check_regular(source)  # a pipe would block the copy below; a folder is no backup
    if not path.parent.is_dir():
        raise UserError(f"the folder {path.parent} does not exist")

    def prepare(copy: Path, aside: Path) -> None:  # on the copy, before the event is touched
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
        return store_backup.restore(path, source, prepare)
    finally:
        lock.release()
