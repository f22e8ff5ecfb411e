"""A planted event file is refused unless its whole schema is what the migrations make (#27 §1).

The names of its objects are not enough: a `game` table rebuilt under its own name with
`UNIQUE (match_id) ON CONFLICT REPLACE` (its index `sqlite_autoindex_game_2` looks like
SQLite's own) silently deleted confirmed games, and one with `CHECK (0)` failed every insert.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from director.domain.errors import UserError
from director.store.engine import (
    create_database,
    head_revision,
    migration_order,
    open_database,
    open_event,
)
from director.store.integrity import file_problems
from director.store.schema import build_reference_rows, differences, schema_rows
from tests.reliability.upgrade_kill import older_event

EXE = str(Path(sys.executable).with_name("tandem-director"))
REFUSED = "holds things a Tandem Director event never has"


def rebuild_game(path: Path, extra: str) -> None:
    """Rebuild `game` under its own name, as SQLite's ALTER TABLE procedure does, with one more
    table constraint, and its two indexes as they were."""
    connection = sqlite3.connect(path)
    (sql,) = connection.execute("SELECT sql FROM sqlite_master WHERE name = 'game'").fetchone()
    body = sql[sql.index("(") : sql.rindex(")")]
    connection.executescript(
        f"CREATE TABLE game_new {body}, {extra});"
        "INSERT INTO game_new SELECT * FROM game; DROP TABLE game;"
        "ALTER TABLE game_new RENAME TO game;"
        "CREATE INDEX ix_game_pair_id ON game (pair_id);"
        "CREATE INDEX ix_game_match_id ON game (match_id);"
    )
    connection.close()


def run_sql(path: Path, *statements: str) -> None:
    connection = sqlite3.connect(path)
    for statement in statements:
        connection.execute(statement)
    connection.commit()
    connection.close()


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([EXE, *args], check=False, capture_output=True, text=True, timeout=120)


PLANTED = {
    "game replaces on conflict": lambda p: rebuild_game(p, "UNIQUE (match_id) ON CONFLICT REPLACE"),
    "game refuses every row": lambda p: rebuild_game(p, "CHECK (0)"),
    "an index redefined under its name": lambda p: run_sql(
        p, "DROP INDEX ix_game_match_id", "CREATE UNIQUE INDEX ix_game_match_id ON game (match_id)"
    ),
    "a column added": lambda p: run_sql(p, "ALTER TABLE team ADD COLUMN secret TEXT"),
    "an index missing": lambda p: run_sql(p, "DROP INDEX ix_game_pair_id"),
}


@pytest.mark.parametrize("plant", list(PLANTED.values()), ids=list(PLANTED))
def test_a_table_or_index_defined_differently_is_refused_before_a_byte_is_written(
    event_path: Path, plant: object
) -> None:
    assert callable(plant)
    plant(event_path)
    before = event_path.read_bytes()
    for opener in (
        lambda: open_event(str(event_path)),
        lambda: open_database(str(event_path)),
        lambda: open_database(str(event_path), read_only=True),
    ):
        with pytest.raises(UserError, match=REFUSED):
            opener()
    assert event_path.read_bytes() == before
    assert sorted(p.name for p in event_path.parent.iterdir()) == ["event.tandem"]
    assert file_problems(event_path) != []


@pytest.mark.parametrize("command", ["check", "standings", "import-teams", "upgrade"])
def test_the_commands_refuse_a_rebuilt_game_table_in_one_line(
    event_path: Path, tmp_path: Path, command: str
) -> None:
    rebuild_game(event_path, "UNIQUE (match_id) ON CONFLICT REPLACE")
    before = event_path.read_bytes()
    extra = []
    if command == "import-teams":
        (tmp_path / "teams.csv").write_text("team,player1,player2\nA,B,C\n", encoding="utf-8")
        extra = [str(tmp_path / "teams.csv")]
    done = run(command, str(event_path), *extra)
    assert done.returncode == 2, done
    assert REFUSED in done.stderr and 'table "game" (defined differently)' in done.stderr
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr
    assert event_path.read_bytes() == before


def test_upgrade_of_a_current_file_holding_a_trigger_is_refused(event_path: Path) -> None:
    """It said "already at the current version" and exited 0."""
    run_sql(event_path, "CREATE TRIGGER t AFTER INSERT ON game BEGIN DELETE FROM game; END")
    done = run("upgrade", str(event_path))
    assert done.returncode == 2, done
    assert 'trigger "t"' in done.stderr and "Traceback" not in done.stderr


def test_an_older_file_is_compared_with_its_own_revision(tmp_path: Path) -> None:
    """An older file is checked against what the migrations made at its revision: as the older
    version left it, it upgrades; with a trigger planted, it is refused and left as it was."""
    clean = older_event(tmp_path / "clean.tandem", teams=2)
    planted = older_event(tmp_path / "planted.tandem", teams=2)
    run_sql(planted, "CREATE TRIGGER t AFTER INSERT ON game BEGIN DELETE FROM game; END")
    before = planted.read_bytes()
    done = run("upgrade", str(planted))
    assert done.returncode == 2 and 'trigger "t"' in done.stderr, done
    assert planted.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["clean.tandem", "planted.tandem"]
    assert run("upgrade", str(clean)).returncode == 0


def test_the_reference_is_what_the_migrations_make_at_every_revision(tmp_path: Path) -> None:
    """Built from the migrations themselves, so a new one is followed; a new event file is
    exactly the head's schema."""
    reference = build_reference_rows()
    assert list(reference) == migration_order()
    assert migration_order()[-1] == head_revision()
    db = create_database(str(tmp_path / "new.tandem"))
    db.close()
    connection = sqlite3.connect(tmp_path / "new.tandem")
    try:
        assert differences(schema_rows(connection), head_revision()) == []
        assert differences(schema_rows(connection), migration_order()[0]) != []
    finally:
        connection.close()
