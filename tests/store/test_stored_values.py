"""Values an event file holds that the app never writes (#27 §2): `check` names each bad row
and exits 1; every other command refuses the file in one line, quickly, without a traceback."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from director.domain.errors import UserError
from director.store.engine import open_database, open_event

EXE = str(Path(sys.executable).with_name("tandem-director"))
REFUSED = "holds a value this app never writes"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([EXE, *args], check=False, capture_output=True, text=True, timeout=120)


def set_sql(path: Path, statement: str, *params: object) -> None:
    connection = sqlite3.connect(path)
    connection.execute(statement, params)
    connection.commit()
    connection.close()


@pytest.fixture
def built(built_template: tuple[Path, object], tmp_path: Path) -> Path:
    return Path(shutil.copy(built_template[0], tmp_path / "built.tandem"))


BAD = {
    "winner C": ("UPDATE game SET winner = 'C' WHERE id = (SELECT min(id) FROM game)", "winner"),
    "seed abc": ("UPDATE team SET seed = 'abc' WHERE id = 2", "seed"),
    "a 20 MB name": ("UPDATE team SET name = zeroblob(0) || ? WHERE id = 3", "name"),
    "a month 13": ("UPDATE round SET paired_at = '2026-13-01 10:00:00.000000'", "paired_at"),
    "a tie-break unknown": ("UPDATE event SET tie_breaks = 'luck'", "tie_breaks"),
}


@pytest.mark.parametrize(("statement", "column"), list(BAD.values()), ids=list(BAD))
def test_check_names_each_bad_row_and_every_other_command_refuses_it(
    built: Path, tmp_path: Path, statement: str, column: str
) -> None:
    set_sql(built, statement, *(["x" * 20_000_000] if "?" in statement else []))
    before = built.read_bytes()
    done = run("check", str(built))
    assert done.returncode == 1, done
    assert "Traceback" not in done.stderr and column in done.stdout
    assert max(len(line) for line in done.stdout.splitlines()) < 300  # the value is cut
    for command in ("standings", "report", "export-teams", "import-teams"):
        extra = {
            "report": ["-o", str(tmp_path / "s.pdf")],
            "export-teams": [str(tmp_path / "t.csv")],
            "import-teams": [str(tmp_path / "in.csv")],
        }.get(command, [])
        (tmp_path / "in.csv").write_text("team,player1,player2\nNew,N1,N2\n", encoding="utf-8")
        started = time.monotonic()
        args = ["report", "standings"] if command == "report" else [command]
        done = run(*args, str(built), *extra)
        assert done.returncode == 2, (command, done)
        assert REFUSED in done.stderr and column in done.stderr, (command, done.stderr)
        assert len(done.stderr.splitlines()) == 1 and len(done.stderr) < 400
        assert time.monotonic() - started < 30
    for opener in (lambda: open_event(str(built)), lambda: open_database(str(built))):
        with pytest.raises(UserError, match=REFUSED):
            opener()
    assert built.read_bytes() == before
    assert not (tmp_path / "t.csv").exists() and not (tmp_path / "s.pdf").exists()


def test_check_of_a_sound_file_reads_every_row_and_says_ok(built: Path) -> None:
    done = run("check", str(built))
    assert done.returncode == 0, done
    assert done.stdout.strip().endswith(": OK")


def test_check_names_the_duplicates_a_file_from_before_the_name_keys_holds(
    built: Path, tmp_path: Path
) -> None:
    """Two stations raced a look-alike team and a shared player into a file before the unique
    indexes on the names' keys (#27 §3): `check` names them (it said OK)."""
    connection = sqlite3.connect(built)
    (first,) = connection.execute("SELECT name FROM team ORDER BY id LIMIT 1").fetchone()
    (player,) = connection.execute("SELECT name FROM player ORDER BY id LIMIT 1").fetchone()
    # as the older file held them: keys apart (the migration's way), names alike
    connection.execute(
        "UPDATE team SET name = upper(?), name_key = 'x' || char(1) || id WHERE id = 2", (first,)
    )
    connection.execute(
        "UPDATE player SET name = lower(?), name_key = 'y' || char(1) || id "
        "WHERE id = (SELECT max(id) FROM player)",
        (player,),
    )
    connection.commit()
    connection.close()
    done = run("check", str(built))
    assert done.returncode == 1, done
    duplicates = [line for line in done.stdout.splitlines() if line.startswith("duplicate:")]
    assert len(duplicates) == 2, done.stdout


def test_an_event_with_a_bye_is_one_the_app_wrote(tmp_path: Path) -> None:
    """A bye is stored as the match result 'bye': the check must know every word the app writes
    (an odd field's simulated event was refused by every command once the check landed)."""
    path = tmp_path / "odd.tandem"
    made = run("simulate", str(path), "--teams", "7", "--rounds", "2", "--seed", "1")
    assert made.returncode == 0, made.stderr
    connection = sqlite3.connect(path)
    (byes,) = connection.execute("SELECT count(*) FROM match WHERE result = 'bye'").fetchone()
    connection.close()
    assert byes == 2
    done = run("check", str(path))
    assert done.returncode == 0, done
    shown = run("standings", str(path))
    assert shown.returncode == 0, shown.stderr
