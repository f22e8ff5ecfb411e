"""The optional `clock` list of a match record: export-match writes the match's clock log,
replay ignores it, import-match keeps it (real event files, real subprocesses for the CLI)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from director.domain.clock import ClockEvent, EventKind, MatchClock
from director.domain.errors import UserError
from director.domain.records import parse_record
from director.domain.rules import End, EventOptions, Level, Side
from director.domain.scoring import Game
from director.services import clocks, games, matches, records
from director.services.teams import add_team
from director.store.engine import EventDatabase, open_database

NS = 1_000_000_000
EXE = str(Path(sys.executable).with_name("tandem-director"))


def timed_match(db: EventDatabase) -> tuple[int, list[ClockEvent]]:
    """A match with one game and the clock log that timed it."""
    t = [7_000 * NS]
    clock = MatchClock(EventOptions().time_control, lambda: t[0])
    clock.set_first_mover(1, Side.A)
    clock.set_first_mover(2, Side.B)
    clock.start()
    t[0] += 9 * NS
    clock.press(1, Side.A)
    t[0] += 4 * NS
    clock.pause()
    with db.Session() as s, s.begin():
        a = add_team(s, "Blue Bar", ("Ana", "Ben")).value.id
        b = add_team(s, "Gammonites", ("Cleo", "Dev")).value.id
        match_id = matches.create_match(s, a, b).value.id
        games.record_game(s, match_id, Game(1, 1, Side.B, End.BEAR_OFF, cube=1, level=Level.SINGLE))
        clocks.append_events(s, match_id, 0, clock.events)
    return match_id, list(clock.events)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run(
        [EXE, *args], capture_output=True, text=True, env=env, timeout=60, check=False
    )


def test_export_writes_the_clock_log_and_import_keeps_it(
    db: EventDatabase, event_path: Path, template_event: Path, tmp_path: Path
) -> None:
    match_id, events = timed_match(db)
    out = tmp_path / "match.tandem-match.json"
    done = run("export-match", str(event_path), str(match_id), str(out))
    assert done.returncode == 0, done.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert [ClockEvent.from_dict(e) for e in data["clock"]] == events
    assert {e["kind"] for e in data["clock"]} >= {"start", "press", "pause"}
    # replay ignores it: the same output as the record without its clock list
    bare = tmp_path / "bare.tandem-match.json"
    bare.write_text(json.dumps({k: v for k, v in data.items() if k != "clock"}), "utf-8")
    with_clock = run("replay", str(out), "--json")
    without = run("replay", str(bare), "--json")
    assert with_clock.returncode == 0 and with_clock.stdout == without.stdout
    # import keeps it: the new match's clock log reads back equal, from a fresh connection
    other = tmp_path / "other.tandem"
    shutil.copy(template_event, other)
    target = open_database(str(other))
    with target.Session() as s, s.begin():  # FORMATS: a record fills a paired match
        a = add_team(s, "Blue Bar", ("Ana", "Ben")).value.id
        b = add_team(s, "Gammonites", ("Cleo", "Dev")).value.id
        imported = matches.create_match(s, a, b).value.id
    target.close()
    done = run("import-match", str(other), str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"imported into match {imported}: ")
    check = open_database(str(other))
    try:
        with check.Session() as s:
            assert clocks.load_events(s, imported) == events
            assert [line.event.kind for line in clocks.match_clock_log(s, imported)][-1] is (
                EventKind.PAUSE
            )
    finally:
        check.close()


def test_a_record_without_a_clock_list_exports_none(db: EventDatabase) -> None:
    with db.Session() as s, s.begin():
        a = add_team(s, "Blue Bar", ("Ana", "Ben")).value.id
        b = add_team(s, "Gammonites", ("Cleo", "Dev")).value.id
        match_id = matches.create_match(s, a, b).value.id
        text = records.export_match(s, match_id)
    assert "clock" not in json.loads(text)
    assert parse_record(text).clock == ()


@pytest.mark.parametrize(
    ("clock", "problem"),
    [
        ("none", "clock must be a list"),
        ([{"kind": "press", "t_ns": 5, "board": 3, "side": "A"}], "clock event 1"),
        ([{"kind": "wave", "t_ns": 5, "board": 1}], "clock event 1: malformed"),
        ([7], "clock event 1: not an object"),
    ],
)
def test_a_bad_clock_list_is_refused_with_one_line_each(
    db: EventDatabase, clock: object, problem: str
) -> None:
    match_id, _ = timed_match(db)
    with db.Session() as s:
        data = json.loads(records.export_match(s, match_id))
    data["clock"] = clock
    with pytest.raises(UserError) as refused:
        parse_record(json.dumps(data))
    assert problem in str(refused.value)
