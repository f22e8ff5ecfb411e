"""The event file: pragmas, migrations equal to the models, reopen round trip, upgrades."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, text

from director.domain.errors import UserError
from director.domain.rules import EventOptions, MatchRules, Scoring, TieBreak
from director.services.events import create_event, get_event
from director.store.engine import (
    EventDatabase,
    alembic_config,
    create_database,
    head_revision,
    open_database,
    open_event,
)
from director.store.models import Base


def test_every_connection_has_foreign_keys_wal_and_full_sync(db: EventDatabase) -> None:
    with db.engine.connect() as connection:
        assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 1
        assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert connection.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL


def test_migrations_build_exactly_the_models_schema(tmp_path: Path) -> None:
    db = create_database(str(tmp_path / "fresh.tandem"))
    with db.engine.connect() as connection:
        diff = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    db.close()
    assert diff == []


def test_event_options_survive_a_reopen(tmp_path: Path) -> None:
    path = tmp_path / "club.tandem"
    options = EventOptions(
        match=MatchRules(match_length=7, scoring=Scoring.KILLER_PIP_SQUEEZE, winner_required=True,
                         one_cube_threshold=1, no_cube_at_one_away=True),
        tie_breaks=(TieBreak.SEED, TieBreak.BUCHHOLZ),
    )  # fmt: skip
    db = create_database(str(path))
    with db.Session() as session, session.begin():
        create_event(session, "Club Night", options)
    db.close()
    again = open_database(str(path))
    with again.Session() as session:
        info = get_event(session)
    again.close()
    assert info.name == "Club Night"
    assert info.options == options


def test_opening_an_older_file_backs_it_up_then_upgrades(tmp_path: Path) -> None:
    path = tmp_path / "old.tandem"
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0001")
    engine.dispose()
    con = sqlite3.connect(path)
    with con:
        con.execute(
            "INSERT INTO event (name, venue, event_date, created_at, match_length, scoring, "
            "winner_required, one_cube_threshold, no_cube_at_one_away, agreed_lower_forfeit, "
            "time_base_s, time_increment_s, clock_mode, pairing_system, rounds, round_one, "
            "late_entry, avoid_same_club, double_round_robin, consolation, match_points, "
            "tie_breaks, paper, random_seed, version) VALUES ('Old Cup', '', '', "
            "'2025-01-01 00:00:00', 5, 'standard', 0, 2, 0, 1, 120, 12, 'fischer', 'swiss', 5, "
            "'seed', 'zero', 0, 0, 0, '2-1-0', 'buchholz', 'a4', 0, 1)"
        )
    con.close()
    db = open_database(str(path))
    assert db.backup_made is not None and db.backup_made.exists()
    with db.Session() as session:
        assert get_event(session).name == "Old Cup"
    with db.engine.connect() as connection:
        assert MigrationContext.configure(connection).get_current_revision() == head_revision()
    db.close()
    backup = sqlite3.connect(db.backup_made)
    assert backup.execute("SELECT version_num FROM alembic_version").fetchone() == ("0001",)
    backup.close()


@pytest.mark.parametrize("content", [b"", b"hello, not a database at all........"])
def test_a_file_that_is_not_an_event_is_refused(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.tandem"
    path.write_bytes(content)
    with pytest.raises(UserError, match="not a Tandem Director event"):
        open_database(str(path))


def test_missing_file_and_existing_target(tmp_path: Path, event_path: Path) -> None:
    with pytest.raises(UserError, match="does not exist"):
        open_database(str(tmp_path / "nope.tandem"))
    with pytest.raises(UserError, match="already exists"):
        create_database(str(event_path))


def test_a_plain_sqlite_file_without_an_event_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.tandem"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE t (x)")
    con.close()
    with pytest.raises(UserError, match="not a Tandem Director event"):
        open_database(str(path))


def test_the_revisions_read_without_alembic_are_alembics(db: EventDatabase) -> None:
    from alembic.script import ScriptDirectory

    from director.store.engine import current_revision, migration_revisions

    script = ScriptDirectory.from_config(alembic_config(None))
    assert head_revision() == script.get_current_head()
    assert set(migration_revisions()) == {s.revision for s in script.walk_revisions()}
    with db.engine.connect() as connection:
        stamped = MigrationContext.configure(connection).get_current_revision()
    assert current_revision(db.engine) == stamped == head_revision()


def test_every_revision_fits_alembics_version_column() -> None:
    """alembic_version.version_num is VARCHAR(32): SQLite stores a longer revision anyway,
    PostgreSQL refuses it, and every server event then fails to upgrade."""
    from director.store.engine import migration_revisions

    assert [r for r in migration_revisions() if len(r) > 32] == []


def test_opening_a_current_event_does_not_import_alembic(db: EventDatabase) -> None:
    """alembic brings mako and pygments: a second of start-up that only a migration needs."""
    import subprocess
    import sys

    code = (
        "import sys; from director.store.engine import open_database\n"
        "open_database(sys.argv[1]).close()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('alembic', 'mako')))"
    )
    run = subprocess.run(
        [sys.executable, "-c", code, db.target], capture_output=True, text=True, check=True
    )
    assert run.stdout.strip() == "[]"


def test_a_connection_given_back_after_the_event_closed_is_closed(event_path: Path) -> None:
    """A call still running when the event closes (closing does not wait for a file that is
    not answering: ui/background.py) closes its connection as it gives it back: the file is
    not held open, under a lock already released, until the garbage collector finds it."""
    db = open_event(str(event_path), make_backup=False)
    late = db.Session()
    late.execute(text("SELECT 1"))
    raw = late.connection().connection.dbapi_connection
    assert isinstance(raw, sqlite3.Connection)
    db.close()
    late.close()
    with pytest.raises(sqlite3.ProgrammingError, match="closed"):
        raw.execute("SELECT 1")
    assert not Path(f"{event_path}-wal").exists()  # the last connection folded it in
