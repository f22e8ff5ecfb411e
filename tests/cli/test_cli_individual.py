"""Individual events (RULES §10) from the command line, through real subprocesses."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from director.domain.rules import ClockMode, Format, PairingSystem
from director.services.events import get_event
from director.store.engine import open_database

EXE = str(Path(sys.executable).with_name("tandem-director"))


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([EXE, *args], capture_output=True, text=True, timeout=300, check=False)


def fails_cleanly(proc: subprocess.CompletedProcess[str], needle: str) -> None:
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert needle in lines[0]


def options_of(path: Path):  # type: ignore[no-untyped-def]
    db = open_database(str(path), read_only=True)
    try:
        with db.Session() as session:
            return get_event(session).options
    finally:
        db.close()


def test_new_individual_stores_the_format_and_the_match_reserve(tmp_path: Path) -> None:
    event = tmp_path / "night.tandem"
    done = run(
        "new", str(event), "--name", "Club night", "--length", "7", "--individual",
        "--reserve-per-point", "3", "--delay", "10", "--format", "round-robin",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "3 min per match point, 10 s simple delay" in done.stdout
    options = options_of(event)
    assert options.match.format is Format.INDIVIDUAL
    assert options.pairing_system is PairingSystem.ROUND_ROBIN  # --format stays the pairing
    clock = options.time_control
    assert (clock.base_seconds, clock.increment_seconds, clock.mode) == (180, 10, ClockMode.DELAY)


def test_new_individual_defaults_to_two_minutes_a_point_and_a_12_second_delay(
    tmp_path: Path,
) -> None:
    event = tmp_path / "night.tandem"
    done = run("new", str(event), "--name", "Club night", "--length", "5", "--individual")
    assert done.returncode == 0, done.stderr
    options = options_of(event)
    assert options.match.format is Format.INDIVIDUAL
    clock = options.time_control
    assert (clock.base_seconds, clock.increment_seconds, clock.mode) == (120, 12, ClockMode.DELAY)


def test_new_without_individual_is_still_tandem(tmp_path: Path) -> None:
    event = tmp_path / "tandem.tandem"
    assert run("new", str(event), "--name", "T", "--length", "5").returncode == 0
    assert options_of(event).match.format is Format.TANDEM


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        (("--reserve-per-point", "2"), "--reserve-per-point"),
        (("--delay", "12"), "--delay"),
        (("--individual", "--time", "2+12"), "--time"),
        (("--individual", "--clock", "delay"), "--clock"),
        (("--individual", "--reserve-per-point", "0"), "--reserve-per-point"),
        (("--individual", "--delay", "-1"), "--delay"),
    ],
)
def test_new_refuses_clock_options_of_the_other_format(
    tmp_path: Path, extra: tuple[str, ...], needle: str
) -> None:
    event = tmp_path / "bad.tandem"
    fails_cleanly(run("new", str(event), "--name", "N", "--length", "5", *extra), needle)
    assert not event.exists()


def new_individual(tmp_path: Path) -> Path:
    event = tmp_path / "night.tandem"
    done = run("new", str(event), "--name", "Club night", "--length", "5", "--individual")
    assert done.returncode == 0, done.stderr
    return event


def test_an_individual_event_imports_and_exports_a_player_list(tmp_path: Path) -> None:
    event = new_individual(tmp_path)
    players = tmp_path / "players.csv"
    players.write_text(
        "player,club,rating,seed\nAna Kovač,North,1650,\nBen Ode,,1500,\nCy,Hill,,\n"
    )
    done = run("import-teams", str(event), str(players))
    assert done.returncode == 0, done.stderr
    assert "imported 3 players" in done.stdout
    out = tmp_path / "out.csv"
    done = run("export-teams", str(event), str(out))
    assert done.returncode == 0, done.stderr
    assert "wrote 3 players" in done.stdout
    assert out.read_text(encoding="utf-8").splitlines() == [
        "player,club,rating,seed",
        "Ana Kovač,North,1650,1",
        "Ben Ode,,1500,2",
        "Cy,Hill,,3",
    ]
    db = open_database(str(event), read_only=True)
    try:
        from director.services.teams import list_teams

        with db.Session() as session:
            entrants = list_teams(session)
    finally:
        db.close()
    assert [(t.name, t.players) for t in entrants] == [
        ("Ana Kovač", ("Ana Kovač",)),
        ("Ben Ode", ("Ben Ode",)),
        ("Cy", ("Cy",)),
    ]
    assert run("check", str(event)).returncode == 0


def test_a_player_is_entered_once_whatever_the_case_and_spaces(tmp_path: Path) -> None:
    event = new_individual(tmp_path)
    players = tmp_path / "players.csv"
    players.write_text("player\nAna Kovač\n  ana   KOVAČ \n")
    done = run("import-teams", str(event), str(players))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "line 3: player 'ana KOVAČ' is already in the list" in done.stderr
    players.write_text("player\nAna Kovač\n")
    assert run("import-teams", str(event), str(players)).returncode == 0
    players.write_text("player\nANA  kovač\n")
    done = run("import-teams", str(event), str(players))
    assert done.returncode == 2 and "already" in done.stderr


def test_an_individual_event_refuses_a_team_list_by_its_header(tmp_path: Path) -> None:
    event = new_individual(tmp_path)
    teams = tmp_path / "teams.csv"
    teams.write_text("team,player1,player2\nT,Ana,Ben\n")
    fails_cleanly(
        run("import-teams", str(event), str(teams)),
        "this event's entrants are players: it needs a player list "
        "(player[,club][,rating][,seed]), not a team list",
    )


def test_a_tandem_event_refuses_a_player_list_by_its_header(tmp_path: Path) -> None:
    """#28: a player list given to a Tandem event is told so, not as columns it lacks."""
    event = tmp_path / "tandem.tandem"
    assert run("new", str(event), "--name", "Club night", "--length", "5").returncode == 0
    players = tmp_path / "players.csv"
    players.write_text("player,club\nAna,North\n")
    fails_cleanly(
        run("import-teams", str(event), str(players)),
        "this event's entrants are teams: it needs a team list "
        "(team,player1,player2[,club][,rating][,seed]), not a player list",
    )
