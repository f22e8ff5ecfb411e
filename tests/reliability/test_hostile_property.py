"""Random bytes, random JSON and random SQLite schemas fed to every command (#27, done-when):
each ends with status 0, 1 or 2, never a traceback, in bounded time, and leaves nothing
behind but what it was asked to write."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

EXE = str(Path(sys.executable).with_name("tandem-director"))

# every command that reads an event or a file, with {event}, {input} and {out} to fill in
COMMANDS = [
    ["check", "{event}"],
    ["standings", "{event}"],
    ["standings", "{event}", "--json"],
    ["pair", "{event}", "--preview"],
    ["check-pairings", "{event}"],
    ["export-teams", "{event}", "{out}"],
    ["export-match", "{event}", "1", "{out}"],
    ["import-teams", "{event}", "{input}"],
    ["import-match", "{event}", "{input}"],
    ["replay", "{input}"],
    ["report", "standings", "{event}", "-o", "{out}"],
    ["clock-log", "{event}", "1"],
    ["upgrade", "{event}"],
    ["backups", "{event}"],
]
PLANTS = [
    "CREATE TABLE extra (x)",
    "CREATE VIEW v AS SELECT 1",
    "CREATE TRIGGER t AFTER INSERT ON team BEGIN DELETE FROM team; END",
    "CREATE INDEX ix_extra ON team (club)",
    "DROP INDEX ix_game_pair_id",
    "ALTER TABLE team ADD COLUMN extra TEXT",
    "UPDATE team SET seed = 'abc'",
    "UPDATE event SET scoring = 'chess'",
    "DELETE FROM event",
    "UPDATE alembic_version SET version_num = '9999_future'",
    "DROP TABLE alembic_version",
    "INSERT INTO team (name, name_key, club, seed, joined_round, paid, present, version) "
    "VALUES (zeroblob(3000000), 'big', '', 1, 1, 0, 0, 1)",
]
TEMPLATE: list[Path] = []


def template() -> Path:
    """A small event with teams and a round, made once by the command line itself."""
    if not TEMPLATE:
        folder = Path(tempfile.mkdtemp(prefix="tandem-property-"))
        path = folder / "template.tandem"
        made = subprocess.run(
            [EXE, "simulate", str(path), "--teams", "6", "--rounds", "2", "--seed", "1"],
            capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        assert made.returncode == 0, made.stderr
        TEMPLATE.append(path)
    return TEMPLATE[0]


def run_everywhere(event_bytes: bytes | None, input_bytes: bytes, command: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder_name:
        folder = Path(folder_name)
        event = folder / "event.tandem"
        if event_bytes is None:
            shutil.copy(template(), event)
        else:
            event.write_bytes(event_bytes)
        (folder / "input").write_bytes(input_bytes)
        before = {p.name for p in folder.iterdir()}
        out = folder / "out"
        args = [a.format(event=event, input=folder / "input", out=out) for a in command]
        done = subprocess.run(
            [EXE, *args], capture_output=True, text=True, timeout=120, check=False
        )
        assert done.returncode in (0, 1, 2), (args, done)
        assert "Traceback" not in done.stderr, (args, done.stderr)
        after = {p.name for p in folder.iterdir()} - {"out"}
        if command[0] == "upgrade" and done.returncode == 0:
            after = {n for n in after if ".before-upgrade-" not in n}
        assert after == before, (args, sorted(after - before))


FAST = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(data=st.binary(max_size=4096), command=st.sampled_from(COMMANDS))
def test_random_bytes_as_the_event_and_as_the_input(data: bytes, command: list[str]) -> None:
    run_everywhere(b"SQLite format 3\x00" + data if data[:1] == b"S" else data, data, command)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=30,
)


@FAST
@given(value=JSON, command=st.sampled_from(COMMANDS))
def test_random_json_as_the_input(value: object, command: list[str]) -> None:
    run_everywhere(None, json.dumps(value).encode(), command)


@FAST
@given(plants=st.lists(st.sampled_from(PLANTS), min_size=1, max_size=3, unique=True),
       command=st.sampled_from(COMMANDS))  # fmt: skip
def test_random_schemas_and_values_in_the_event(plants: list[str], command: list[str]) -> None:
    import sqlite3

    with tempfile.TemporaryDirectory() as folder_name:
        planted = Path(folder_name) / "p.tandem"
        shutil.copy(template(), planted)
        connection = sqlite3.connect(planted)
        for statement in plants:
            try:
                connection.execute(statement)
            except sqlite3.Error:
                continue  # a plant an earlier one made impossible
        connection.commit()
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        connection.close()
        data = planted.read_bytes()
    run_everywhere(data, b"team,player1,player2\nX,Y,Z\n", command)
