"""`tandem-director upgrade FILE` and the app's open upgrade an older file on a copy (item 1)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine, select

from director.domain.clock import ClockEvent, EventKind
from director.domain.errors import UserError
from director.domain.rules import (
    ClockMode,
    End,
    EventOptions,
    Format,
    MatchRules,
    PairingSystem,
    Scoring,
    Side,
    TimeControl,
)
from director.domain.scoring import Game
from director.services import clocks
from director.services.events import create_event, get_event
from director.services.games import record_game
from director.services.matches import create_match, get_match
from director.services.teams import add_team
from director.store import convert, models
from director.store.engine import alembic_config, create_database, head_revision, open_database
from director.store.upgrade import stored_revision
from tests.pg import fresh_database
from tests.reliability.media import IS_ROOT, fill, small_disk
from tests.reliability.upgrade_kill import HELD, OLDEST, older_event, state_after_open

EXE = str(Path(sys.executable).with_name("tandem-director"))


def test_the_upgrade_command_upgrades_and_keeps_the_original(tmp_path: Path) -> None:
    path = older_event(tmp_path / "old cup.tandem")
    done = subprocess.run(
        [EXE, "upgrade", str(path)], check=False, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    [kept] = tmp_path.glob("old cup.tandem.before-upgrade-*")
    assert done.stdout.splitlines() == [f"upgraded {path}; the original is kept as {kept}"]
    assert stored_revision(path) == head_revision()
    assert stored_revision(kept) == OLDEST
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    again = subprocess.run(
        [EXE, "upgrade", str(path)], check=False, capture_output=True, text=True, timeout=60
    )
    assert again.returncode == 0
    assert again.stdout.strip() == f"{path} is already at the current version"
    assert state_after_open(path)[1:] == HELD


@pytest.mark.skipif(not IS_ROOT, reason="a real small disk needs root (a tmpfs)")
def test_an_upgrade_on_a_full_disk_says_so_and_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    """Item 1's other half: a full disk during the upgrade (no room for the copies) leaves the
    file as the older version wrote it, no half-made copy beside it, and a retry works."""
    with small_disk(tmp_path / "stick", size="4m") as stick:
        path = older_event(stick / "old.tandem")
        before = path.read_bytes()
        filler = fill(stick, leave=len(before) // 2)  # room for less than one copy
        upgrade = [EXE, "upgrade", str(path)]
        done = subprocess.run(upgrade, check=False, capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert "the file is as it was" in done.stderr and len(done.stderr.splitlines()) == 1
        assert path.read_bytes() == before
        assert sorted(p.name for p in stick.iterdir()) == ["filler.bin", "old.tandem"]
        filler.unlink()
        again = subprocess.run(upgrade, check=False, capture_output=True, text=True, timeout=60)
        assert again.returncode == 0, again.stderr
        assert state_after_open(path)[1:] == HELD


def test_an_older_file_is_not_upgraded_by_a_read_only_command(tmp_path: Path) -> None:
    path = older_event(tmp_path / "old.tandem")
    with pytest.raises(UserError, match="tandem-director upgrade"):
        open_database(str(path), read_only=True)
    assert stored_revision(path) == OLDEST


@pytest.fixture(params=["file", "server"])
def older_target(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Where an event of an older revision lies: an event file, or a PostgreSQL database."""
    if request.param == "file":
        yield str(tmp_path / "clocked.tandem")
    else:
        with fresh_database() as url:
            yield url


def test_an_older_events_games_take_their_place_in_the_clock_log_from_its_wall_times(
    older_target: str,
) -> None:
    """Revision 0005 numbers each game by the clock log's seq; an older event had only the
    wall times: the upgrade gives every game the place those times gave it."""
    db = create_database(older_target)
    with db.Session() as s, s.begin():
        create_event(s, "Clocked", EventOptions(match=MatchRules(match_length=5)))
        a, b = (add_team(s, name, (f"{name} 1", f"{name} 2")).value.id for name in ("Ash", "Elm"))
        match_id = create_match(s, a, b, table=1).value.id
    start = (ClockEvent(EventKind.START, 0, 1, Side.A),)
    pause = (ClockEvent(EventKind.PAUSE, 5, 1), ClockEvent(EventKind.PAUSE, 5, 2))
    for events, first, board in ((start, 0, 1), (pause, 1, 2)):
        with db.Session() as s, s.begin():
            clocks.append_events(s, match_id, first, events)
            record_game(s, match_id, Game(1, board, Side.A, End.PASS))
    with db.Session() as s:
        stored = s.scalars(select(models.Game.clock_seq).order_by(models.Game.seq)).all()
    db.close()
    assert stored == [1, 3]
    is_file = "://" not in older_target
    engine = create_engine(f"sqlite:///{older_target}" if is_file else older_target)
    with engine.begin() as connection:
        if is_file:  # as for any schema change of a file: batch mode re-creates tables
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
        command.downgrade(alembic_config(connection), "0004_clock_commands")
    engine.dispose()
    upgraded = open_database(older_target)
    try:
        with upgraded.Session() as s:
            again = s.scalars(select(models.Game.clock_seq).order_by(models.Game.seq)).all()
    finally:
        upgraded.close()
    assert again == stored


def test_an_older_events_matches_keep_the_options_they_were_read_with(
    older_target: str,
) -> None:
    """Revision 0006 (#28): each match keeps the rules it was paired with. An older event's
    matches were read with the event's options; the upgrade gives each match those, and the
    event and its matches are Tandem."""
    options = EventOptions(
        match=MatchRules(match_length=7, scoring=Scoring.SIMPLE_PIP_SQUEEZE, one_cube_threshold=1),
        time_control=TimeControl(300, 15, ClockMode.DELAY),
    )
    db = create_database(older_target)
    with db.Session() as s, s.begin():
        create_event(s, "Older", options)
        a, b = (add_team(s, name, (f"{name} 1", f"{name} 2")).value.id for name in ("Ash", "Elm"))
        match_id = create_match(s, a, b, table=1).value.id
    db.close()
    is_file = "://" not in older_target
    engine = create_engine(f"sqlite:///{older_target}" if is_file else older_target)
    with engine.begin() as connection:
        if is_file:
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
        command.downgrade(alembic_config(connection), "0005_games_in_clock_order")
    engine.dispose()
    upgraded = open_database(older_target)
    try:
        with upgraded.Session() as s:
            match = get_match(s, match_id)
            row = s.get(models.Match, match_id)
            assert row is not None
            kept = convert.match_time_control(row)
            event = get_event(s)
    finally:
        upgraded.close()
    assert match.rules == options.match and match.rules.format is Format.TANDEM
    assert kept == options.time_control
    assert event.options == options


def test_an_older_knockouts_matches_are_read_into_their_brackets(older_target: str) -> None:
    """Revision 0010 (#29): each match knows its bracket, its round there and its slot. An
    older knockout with the one-boolean consolation kept its main matches at tables 1 … size ÷
    2^round and the consolation's after them (from event round 2): the upgrade reads them so,
    and the event has no plan (read as the old single + consolation)."""
    options = EventOptions(pairing_system=PairingSystem.KNOCKOUT, rounds=3, consolation=True)
    db = create_database(older_target)
    with db.Session() as s, s.begin():
        create_event(s, "Older knockout", options)
        teams = [add_team(s, f"T{i}", (f"T{i} 1", f"T{i} 2")).value.id for i in range(8)]
        one, two = models.Round(number=1), models.Round(number=2)
        s.add_all([one, two])
        s.flush()
        first = [create_match(s, teams[2 * i], teams[2 * i + 1], one.id, i + 1).value.id
                 for i in range(4)]  # fmt: skip
        # round 2: main tables 1-2 (8 >> 2), the consolation's first round at tables 3-4
        second = [create_match(s, teams[i], teams[i + 4], two.id, i + 1).value.id
                  for i in range(4)]  # fmt: skip
    db.close()
    is_file = "://" not in older_target
    engine = create_engine(f"sqlite:///{older_target}" if is_file else older_target)
    with engine.begin() as connection:
        if is_file:
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
        command.downgrade(alembic_config(connection), "0009_clock_adjust_reason")
    engine.dispose()
    upgraded = open_database(older_target)
    try:
        with upgraded.Session() as s:
            placed = {
                row.id: (row.bracket, row.bracket_round, row.slot)
                for row in s.scalars(select(models.Match))
            }
            plan = s.scalars(select(models.Event.bracket_plan)).one()
    finally:
        upgraded.close()
    assert [placed[m] for m in first] == [("main", 1, n) for n in (1, 2, 3, 4)]
    assert [placed[m] for m in second] == [
        ("main", 2, 1),
        ("main", 2, 2),
        ("consolation", 1, 1),
        ("consolation", 1, 2),
    ]
    assert plan == ""


def test_the_dead_round_bracket_column_is_dropped_and_the_rounds_kept(tmp_path: Path) -> None:
    """Revision 0013 (#29): each match stores its bracket (0010), so the round's `bracket`
    column, never read since, is dropped; a file from before opens with its rounds as they were."""
    path = tmp_path / "older.tandem"
    db = create_database(str(path))
    with db.Session() as s, s.begin():
        create_event(s, "Older", EventOptions())
        a, b = (add_team(s, f"T{i}", (f"T{i} 1", f"T{i} 2")).value.id for i in range(2))
        s.add(models.Round(number=1, published=True))
        s.flush()
        round_id = s.scalars(select(models.Round.id)).one()
        create_match(s, a, b, round_id, 1)
    db.close()
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as connection:
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
        command.downgrade(alembic_config(connection), "0012_match_lost_on_time")
    engine.dispose()
    with sqlite3.connect(path) as old:
        assert "bracket" in {row[1] for row in old.execute("PRAGMA table_info(round)")}
        old.execute("UPDATE round SET bracket = 'consolation'")  # whatever it held goes
        before = old.execute("SELECT id, number, published, paired_at FROM round").fetchall()
    old.close()
    state_after_open(path)  # opened as the app opens it: upgraded to the head
    with sqlite3.connect(path) as new:
        columns = {row[1] for row in new.execute("PRAGMA table_info(round)")}
        after = new.execute("SELECT id, number, published, paired_at FROM round").fetchall()
        matches = new.execute('SELECT round_id FROM "match"').fetchall()
    new.close()
    assert "bracket" not in columns and {"id", "number", "published", "paired_at"} <= columns
    assert after == before and matches == [(round_id,)]
    assert stored_revision(path) == head_revision() == "0013_drop_round_bracket"
