"""`tandem-director backups / backup / restore` through real subprocesses."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from alembic import command

from director.services.backups import list_backups, set_aside_files
from director.services.teams import add_team, list_teams
from director.store.engine import open_database, open_event

EXE = str(Path(sys.executable).with_name("tandem-director"))


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([EXE, *args], capture_output=True, text=True, timeout=60, check=False)


def fails_cleanly(proc: subprocess.CompletedProcess[str], needle: str) -> None:
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert needle in proc.stderr


def test_backups_lists_nothing_before_the_first_open(event_path: Path) -> None:
    done = run("backups", str(event_path))
    assert done.returncode == 0
    assert done.stdout.startswith(f"no backups of {event_path} yet")
    assert not (event_path.parent / "event.tandem-backups").exists()  # listing writes nothing


def test_backup_then_backups_then_restore(event_path: Path) -> None:
    made = run("backup", str(event_path), "--reason", "before round 1")
    assert made.returncode == 0, made.stderr
    assert made.stdout.startswith(f"backed up {event_path} to ")
    listed = run("backups", str(event_path))
    assert listed.returncode == 0
    assert "before round 1" in listed.stdout and " good " in listed.stdout
    [info] = list_backups(event_path)
    assert "tandem-director restore" in listed.stdout and str(info.path) in listed.stdout

    db = open_database(str(event_path))
    with db.Session() as session, session.begin():
        add_team(session, "Added Later", ("A", "B"))
    db.close()
    restored = run("restore", str(event_path), str(info.path), "--reason", "test")
    assert restored.returncode == 0, restored.stderr
    [aside] = set_aside_files(event_path)
    assert f"kept as {aside}" in restored.stdout
    check = open_database(str(event_path), read_only=True)
    with check.Session() as session:
        assert list_teams(session) == []
    check.close()
    assert "set aside" in run("backups", str(event_path)).stdout


def test_restore_refuses_clearly(event_path: Path, tmp_path: Path) -> None:
    fails_cleanly(run("restore", str(event_path), str(tmp_path / "nope.tandem")), "does not exist")
    junk = tmp_path / "junk.tandem"
    junk.write_text("not a database")
    fails_cleanly(run("restore", str(event_path), str(junk)), "cannot be restored")
    db = open_event(str(event_path))
    backup = db.report.backup
    assert backup is not None
    fails_cleanly(run("restore", str(event_path), str(backup)), "open elsewhere")
    fails_cleanly(run("backup", str(event_path)), "open elsewhere")
    db.close()
    assert set_aside_files(event_path) == []


def test_a_damaged_event_names_its_backups(event_path: Path) -> None:
    db = open_event(str(event_path))
    db.close()
    with event_path.open("r+b") as handle:
        handle.seek(0)
        handle.write(b"\0" * 4096)
    done = run("backup", str(event_path))
    assert done.returncode == 2
    assert "is damaged" in done.stderr and "tandem-director restore" in done.stderr
    assert "Traceback" not in done.stderr
    listed = run("backups", str(event_path))
    assert listed.returncode == 0 and "good" in listed.stdout
    assert ".corrupt-" in listed.stdout


def test_backup_of_a_server_event_is_refused_in_one_line_and_says_where_backups_are_made() -> None:
    """`backup URL` printed "backed up … to None" and exit 0: nothing had been written. A
    server event is backed up on its server (pg_dump), as `backups` and `restore` say."""
    from tests.pg import fresh_database

    with fresh_database(password="s3cret") as url:
        created = run("new", url, "--name", "Shared", "--length", "5")
        assert created.returncode == 0, created.stderr
        done = run("backup", url)
        listed = run("backups", url)
        upgraded = run("upgrade", url)
    fails_cleanly(done, "is backed up and restored on the server (pg_dump / pg_restore)")
    assert done.stdout == "" and len(done.stderr.splitlines()) == 1
    assert "None" not in done.stderr and "s3cret" not in done.stderr
    fails_cleanly(listed, "is backed up and restored on the server (pg_dump / pg_restore)")
    # and `upgrade`, which a server event takes, names it without its password
    assert upgraded.returncode == 0, upgraded.stderr
    assert upgraded.stdout.endswith(" is already at the current version\n")
    assert "s3cret" not in upgraded.stdout + upgraded.stderr


def test_upgrade_of_an_older_server_event_says_it_upgraded_it() -> None:
    """`upgrade URL` upgraded an older server event's schema in place and then said it "is
    already at the current version" (it had no backup to name)."""
    from sqlalchemy import create_engine

    from director.store.engine import alembic_config, head_revision
    from tests.pg import fresh_database

    with fresh_database() as url:
        assert run("new", url, "--name", "Shared", "--length", "5").returncode == 0
        engine = create_engine(url)
        with engine.begin() as connection:
            command.downgrade(alembic_config(connection), "0012_match_lost_on_time")
        engine.dispose()
        upgraded = run("upgrade", url)
        again = run("upgrade", url)
        engine = create_engine(url)
        with engine.connect() as connection:
            stamped = connection.exec_driver_sql("SELECT version_num FROM alembic_version")
            revision = stamped.scalar()
        engine.dispose()
    assert upgraded.returncode == 0, upgraded.stderr
    assert upgraded.stdout.startswith("upgraded ") and "already" not in upgraded.stdout
    assert "on the server" in upgraded.stdout
    assert revision == head_revision()
    assert again.stdout.endswith(" is already at the current version\n")
