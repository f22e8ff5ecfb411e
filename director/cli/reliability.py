"""Backups, restore and upgrade: `backups FILE`, `backup FILE`, `restore FILE BACKUP`,
`upgrade FILE`. The first three take an event or a club's register alike."""

from __future__ import annotations

import argparse
import sqlite3
from pathlib import Path

from director.cli.common import EVENT_HELP, Parser, shown
from director.domain.errors import UserError

FILE_HELP = "the event file or the club file (.club)"


def cmd_backups(args: argparse.Namespace) -> int:
    """List the backups, newest first (read-only: no lock, nothing written)."""
    from director.services.backups import backup_folder, file_kind, list_backups, set_aside_files
    from director.store.targets import is_url

    if not args.file.strip():
        raise UserError("FILE is empty: name the event or club file whose backups to list")
    backups = list_backups(args.file)
    if not backups:
        folder = backup_folder(Path(args.file))
        made = file_kind(Path(args.file)).made
        print(f"no backups of {args.file} yet: the app makes them in {folder} {made}")
    for info in backups:
        print(info.describe())
    good = [b for b in backups if b.good]
    if good:
        print(f'restore the newest good one with: tandem-director restore "{args.file}" '
              f'"{good[0].path}"')  # fmt: skip
    if not is_url(args.file):
        for aside in set_aside_files(args.file):
            print(f"set aside (never deleted by the app): {aside}")
    return 0


def cmd_backup(args: argparse.Namespace) -> int:
    """A backup now: opens the event like the app does, so it is refused while it is open.
    Opened `deferred` and never put in place: the file is only read, an older one is not
    upgraded (its backup is taken from the upgraded copy, which closing removes), and a backup
    refused leaves it as it was (#27)."""
    from director.services.backups import backup_now, file_kind, local_file
    from director.store.club import open_club
    from director.store.engine import open_event
    from director.store.integrity import CLUB

    # a server event is refused here, before it is opened: backup_now writes nothing for one
    # (its server backs it up), and "backed up URL to None" said otherwise
    if file_kind(local_file(args.file)) is CLUB:
        db = open_club(args.file, make_backup=False, mark=False)  # refused while it is open
    else:
        db = open_event(args.file, make_backup=False, deferred=True)
    try:
        made = backup_now(db, args.reason)
    finally:
        db.close()
    print(f"backed up {args.file} to {made}")
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    from director.services.backups import restore_backup

    done = restore_backup(args.file, args.backup, args.reason)
    print(f"restored {done.event} from {done.backup}")
    if done.replaced is not None:
        print(f"the file that was there is kept as {done.replaced}")
    return 0


def cmd_upgrade(args: argparse.Namespace) -> int:
    """Upgrade an older event file on a copy, as the app does when it opens one."""
    from director.store.engine import file_revision, open_event
    from director.store.revisions import head_revision
    from director.store.targets import is_url

    if not is_url(args.file) and Path(args.file).is_file():
        # a file that is not ours (a trigger, a table changed) is refused, even when current;
        # a damaged one is left to the open below, which sets it aside
        try:
            current = file_revision(Path(args.file), args.file) == head_revision()
        except sqlite3.Error:
            current = False
        if current:
            print(f"{args.file} is already at the current version")
            return 0
    older = is_url(args.file) and _server_revision(args.file) != head_revision()
    db = open_event(args.file, make_backup=False)  # takes the lock: refused while it is open
    try:
        kept = db.backup_made
    finally:
        db.close()
    # a server event's address is shown without its password
    if older:  # its schema was changed in place, in one transaction: there is no original
        print(f"upgraded {shown(args.file)} on the server, in place (no copy is kept there)")
    elif kept is None:
        print(f"{shown(args.file)} is already at the current version")
    else:
        print(f"upgraded {shown(args.file)}; the original is kept as {kept}")
    return 0


def _server_revision(url: str) -> str | None:
    """The revision a server event is at, read before `open_event` upgrades it."""
    from director.store.engine import current_revision, make_engine

    engine = make_engine(url)
    try:
        return current_revision(engine)
    finally:
        engine.dispose()


def register(sub: argparse._SubParsersAction[Parser]) -> None:
    backups = sub.add_parser(
        "backups", help="list an event's or a club's backups, newest first (read-only)"
    )
    backups.add_argument("file", help=FILE_HELP)
    backups.set_defaults(func=cmd_backups)

    backup = sub.add_parser(
        "backup", help="back up an event or a club now (refused while it is open)"
    )
    backup.add_argument("file", help=FILE_HELP)
    backup.add_argument("--reason", default="by hand", help="a label for the backup")
    backup.set_defaults(func=cmd_backup)

    restore = sub.add_parser(
        "restore", help="replace an event or a club by a backup (the current file is kept aside)"
    )
    restore.add_argument("file", help=FILE_HELP)
    restore.add_argument("backup", help="the backup file (`backups FILE` lists them)")
    restore.add_argument("--reason", default="restored from a backup", help="for the audit log")
    restore.set_defaults(func=cmd_restore)

    upgrade = sub.add_parser(
        "upgrade",
        help="upgrade an event file written by an older version (the original is kept beside it)",
    )
    upgrade.add_argument("file", help=EVENT_HELP)
    upgrade.set_defaults(func=cmd_upgrade)
