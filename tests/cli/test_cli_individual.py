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
    assert "line 3: player 'ana KOVAČ' appears twice in this file (first on line 2)" in done.stderr
    players.write_text("player\nAna Kovač\n")
    assert run("import-teams", str(event), str(players)).returncode == 0
    players.write_text("player\nANA  kovač\n")
    done = run("import-teams", str(event), str(players))
    assert (
        done.returncode == 2 and "line 2: player 'ANA kovač' is already registered" in done.stderr
    )


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


def simulated(tmp_path: Path, name: str, *args: str) -> Path:
    event = tmp_path / f"{name}.tandem"
    done = run("simulate", str(event), "--individual", *args)
    assert done.returncode == 0, done.stderr
    assert " players, " in done.stdout, done.stdout
    return event


@pytest.mark.parametrize(
    ("system", "players", "rounds"),
    [("swiss", "8", "3"), ("round-robin", "5", "1"), ("knockout", "8", "3")],
)
def test_simulate_individual_plays_a_whole_event_that_passes_both_checks(
    tmp_path: Path, system: str, players: str, rounds: str
) -> None:
    """#28: `simulate --individual --players N` plays complete individual events: players,
    one board, the Crawford rule, the match reserve; `check` and `check-pairings` pass."""
    event = simulated(
        tmp_path, system, "--players", players, "--rounds", rounds, "--format", system,
        "--seed", "7",
    )  # fmt: skip
    options = options_of(event)
    assert options.match.format is Format.INDIVIDUAL
    assert options.time_control.mode is ClockMode.DELAY  # the reserve: M a point, delay D
    assert options.pairing_system is PairingSystem(system)
    assert run("check", str(event)).returncode == 0
    assert run("check-pairings", str(event)).returncode == 0
    db = open_database(str(event), read_only=True)
    try:
        from director.services.matches import list_matches
        from director.services.teams import list_teams

        with db.Session() as session:
            entrants = list_teams(session)
            played = [m for m in list_matches(session) if not m.is_bye and m.games]
    finally:
        db.close()
    assert len(entrants) == int(players)
    assert all(len(t.players) == 1 and t.players[0] == t.name for t in entrants)
    assert played and all({g.board for g in m.games} == {1} for m in played)
    assert all(m.outcome.finished or m.forfeit_by for m in played)


def test_simulate_individual_is_the_same_event_for_the_same_seed(tmp_path: Path) -> None:
    args = ("--players", "10", "--rounds", "3", "--seed", "11")
    first = simulated(tmp_path, "first", *args)
    second = simulated(tmp_path, "second", *args)
    for command in ("standings", "check-pairings"):
        a, b = run(command, str(first)), run(command, str(second))
        assert a.returncode == b.returncode == 0, a.stderr + b.stderr
        assert a.stdout.replace("first", "second") == b.stdout
    standings = run("standings", str(first)).stdout
    assert standings.split()[:2] == ["rank", "player"]
    # #28: the definitions below the table said "the team's own match points", "among the
    # teams" and "draw 1": an individual match is never drawn
    assert "player's own match points" in standings and "among the players" in standings
    assert "team" not in standings and "draw" not in standings
    out_a, out_b = tmp_path / "a.csv", tmp_path / "b.csv"
    assert run("export-teams", str(first), str(out_a)).returncode == 0
    assert run("export-teams", str(second), str(out_b)).returncode == 0
    assert out_a.read_bytes() == out_b.read_bytes()


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--individual", "--teams", "8"), "an individual event has players: --players N"),
        (("--players", "8"), "--players is for an individual event: add --individual"),
        ((), "the number of teams (--teams N) or players"),
    ],
)
def test_simulate_asks_teams_or_players_by_the_format(
    tmp_path: Path, args: tuple[str, ...], needle: str
) -> None:
    event = tmp_path / "e.tandem"
    fails_cleanly(run("simulate", str(event), "--rounds", "2", *args), needle)
    assert not event.exists()
