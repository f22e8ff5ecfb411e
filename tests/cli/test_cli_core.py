"""The `tandem-director` command through real subprocesses, including bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from director.domain.met import MetParameters, match_equity_table

EXE = str(Path(sys.executable).with_name("tandem-director"))
EXAMPLE = Path(__file__).parent.parent / "fixtures" / "formats_example.tandem-match.json"


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [EXE, *args], capture_output=True, text=True, cwd=cwd, timeout=60, check=False
    )


def fails_cleanly(proc: subprocess.CompletedProcess[str], needle: str) -> None:
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert needle in lines[0]


def test_met_json_has_the_contract_shape_and_full_precision() -> None:
    proc = run("met", "--json", "--size", "4", "--gammon-rate", "0.3")
    assert proc.returncode == 0
    data = json.loads(proc.stdout)
    assert set(data) == {"size", "gammon_rate", "backgammon_rate", "table"}
    assert data["table"] == match_equity_table(MetParameters(0.3, 0.0, 4))


def test_met_csv_and_text() -> None:
    csv_lines = run("met", "--csv", "--size", "2").stdout.splitlines()
    assert csv_lines[0] == "need,1,2"
    assert csv_lines[1].startswith("1,0.5,0.59")
    assert "g = 0.28" in run("met").stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("met", "--size", "0"), "--size"),
        (("met", "--gammon-rate", "x"), "not a number"),
        (("met", "--gammon-rate", "0.8", "--backgammon-rate", "0.5"), "cannot exceed 1"),
        (("met", "--json", "--csv"), "not allowed with"),
        (("frobnicate",), "not a command"),
    ],
)
def test_met_and_unknown_commands_fail_with_one_line(args: tuple[str, ...], needle: str) -> None:
    fails_cleanly(run(*args), needle)


def test_replay_json_matches_formats_exactly() -> None:
    proc = run("replay", str(EXAMPLE), "--json")
    assert proc.returncode == 0
    data = json.loads(proc.stdout)
    assert data["final"] == {"A": 4, "B": 3} and data["result"] == "unfinished"
    assert proc.stdout.splitlines()[2].startswith('    {"pair": 1, "board": 1, "winner": "A"')


def test_replay_text_table() -> None:
    out = run("replay", str(EXAMPLE)).stdout
    assert "Blue Bar (A) v Gammonites (B)" in out and "result: unfinished" in out


def test_replay_invalid_record_one_line_per_problem(tmp_path: Path) -> None:
    data = json.loads(EXAMPLE.read_text())
    data["games"][0]["cube"] = 3
    data["games"][1]["end"] = "walkover"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    proc = run("replay", str(bad), "--json")
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 2
    assert any("pair 1, board 1" in line and "power of two" in line for line in lines)
    assert any("pair 1, board 2" in line and "walkover" in line for line in lines)


@pytest.mark.parametrize("content", [None, "not json", "\udcff"])
def test_replay_bad_files(tmp_path: Path, content: str | None) -> None:
    path = tmp_path / "r.json"
    if content == "\udcff":
        path.write_bytes(b"\xff\xfe\x00garbage")
    elif content is not None:
        path.write_text(content)
    proc = run("replay", str(path))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def test_new_import_export_check_round_trip(tmp_path: Path) -> None:
    event = tmp_path / "club.tandem"
    created = run("new", str(event), "--name", "Club", "--length", "7", "--scoring",
                  "killer-pip-squeeze", "--time", "90+10", "--clock", "delay")  # fmt: skip
    assert created.returncode == 0
    teams = tmp_path / "teams.csv"
    teams.write_text(
        "team;player1;player2\nBlue Bar;Ana;Ben\nGammonites;Cleo;Dev\n", encoding="utf-8"
    )
    assert run("import-teams", str(event), str(teams)).stdout.strip() == "imported 2 teams"
    out = tmp_path / "out.csv"
    assert run("export-teams", str(event), str(out)).returncode == 0
    assert "Gammonites,Cleo,Dev" in out.read_text(encoding="utf-8")
    proc = run("check", str(event))
    assert proc.returncode == 0 and proc.stdout.strip().endswith("OK")


def test_new_takes_a_pin_game_of_150_points(tmp_path: Path) -> None:
    """RULES §6.4: pin game plays long matches, e.g. 150 points (the options form takes 999)."""
    from director.services.events import get_event
    from director.store.engine import open_database

    event = tmp_path / "pin.tandem"
    created = run("new", str(event), "--name", "Pin", "--length", "150", "--scoring", "pin-game")
    assert created.returncode == 0, created.stderr
    db = open_database(str(event))
    with db.Session() as session:
        match = get_event(session).options.match
    db.close()
    assert (match.match_length, match.scoring.value) == (150, "pin-game")


def paired_event(tmp_path: Path) -> Path:
    """An event with the example record's two teams registered and paired in round 1."""
    event = tmp_path / "e.tandem"
    run("new", str(event), "--name", "E", "--length", "5")
    teams = tmp_path / "teams.csv"
    teams.write_text("team,player1,player2\nBlue Bar,Ana,Ben\nGammonites,Cleo,Dev\n")
    assert run("import-teams", str(event), str(teams)).returncode == 0
    assert run("pair", str(event)).returncode == 0
    return event


def test_import_export_match(tmp_path: Path) -> None:
    event = paired_event(tmp_path)
    imported = run("import-match", str(event), str(EXAMPLE))
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.startswith("imported into round 1, table 1: ")
    out = tmp_path / "m.json"
    assert run("export-match", str(event), "1", str(out)).returncode == 0
    exported = json.loads(out.read_text())
    games = json.loads(EXAMPLE.read_text())["games"]
    if exported["teams"]["A"]["name"] == "Gammonites":  # the pairing put them on side A
        games = [{**g, "winner": "B" if g["winner"] == "A" else "A"} for g in games]
    assert exported["games"] == games
    fails_cleanly(run("export-match", str(event), "9", str(out)), "there is no match 9")
    fails_cleanly(run("import-match", str(event), str(EXAMPLE)), "already in the event")


def test_import_match_refuses_teams_that_are_not_registered(tmp_path: Path) -> None:
    event = tmp_path / "e.tandem"
    run("new", str(event), "--name", "E", "--length", "5")
    fails_cleanly(run("import-match", str(event), str(EXAMPLE)), "is not registered")


def test_bad_input_writes_nothing(tmp_path: Path) -> None:
    event = tmp_path / "e.tandem"
    fails_cleanly(run("new", str(event), "--name", "E", "--length", "5", "--time", "2m"), "--time")
    fails_cleanly(run("new", str(tmp_path / "x.db"), "--name", "E", "--length", "5"), ".tandem")
    assert list(tmp_path.iterdir()) == []
    run("new", str(event), "--name", "E", "--length", "5")
    bad = tmp_path / "t.csv"
    bad.write_text("team,player1,player2\nBlue,Ana,\nRed,Cleo,Dev\n")
    proc = run("import-teams", str(event), str(bad))
    assert proc.returncode == 2 and "line 2: player2 is empty" in proc.stderr
    export = tmp_path / "after.csv"
    run("export-teams", str(event), str(export))
    assert export.read_text().strip().splitlines() == ["team,player1,player2,club,rating,seed"]
    fails_cleanly(run("new", str(event), "--name", "E", "--length", "5"), "already exists")
    fails_cleanly(run("import-teams", str(tmp_path / "none.tandem"), str(bad)), "does not exist")


def test_check_reports_a_tampered_file(tmp_path: Path) -> None:
    import sqlite3

    event = paired_event(tmp_path)
    assert run("import-match", str(event), str(EXAMPLE)).returncode == 0
    con = sqlite3.connect(event)
    with con:
        con.execute("UPDATE match SET score_a = 9, score_b = 9")
    con.close()
    proc = run("check", str(event))
    assert proc.returncode == 1
    assert "stored (9, 9" in proc.stdout


def test_version() -> None:
    assert run("--version").stdout.startswith("tandem-director ")


def squeeze_record() -> dict[str, object]:
    """A simple pip squeeze to 5 won 5–2 on game points and 6–2 on the adjusted totals: A's
    29 pip points against B's 4 give a margin of 25, one extra game point (RULES §6.1)."""
    bear = {"end": "bear-off", "winner_left": 0}
    data = json.loads(EXAMPLE.read_text())
    data["scoring"] = "simple-pip-squeeze"
    data["games"] = [
        {"pair": 1, "board": 1, "winner": "A", **bear, "level": "gammon", "cube": 2,
         "loser_left": 15},
        {"pair": 1, "board": 2, "winner": "B", **bear, "level": "single", "cube": 1,
         "loser_left": 1},
        {"pair": 2, "board": 1, "winner": "A", **bear, "level": "single", "cube": 1,
         "loser_left": 14},
        {"pair": 2, "board": 2, "winner": "B", **bear, "level": "single", "cube": 1,
         "loser_left": 3},
    ]  # fmt: skip
    return data


def test_import_match_prints_the_adjusted_totals_of_a_finished_pip_squeeze(
    tmp_path: Path,
) -> None:
    """RULES §6.3: once the match is over the adjusted totals are its score everywhere."""
    record = tmp_path / "squeeze.tandem-match.json"
    record.write_text(json.dumps(squeeze_record()))
    replayed = run("replay", str(record), "--json")
    assert json.loads(replayed.stdout)["final"] == {"A": 6, "B": 2}, replayed.stderr
    event = tmp_path / "e.tandem"
    run("new", str(event), "--name", "E", "--length", "5", "--scoring", "simple-pip-squeeze")
    teams = tmp_path / "teams.csv"
    teams.write_text("team,player1,player2\nBlue Bar,Ana,Ben\nGammonites,Cleo,Dev\n")
    assert run("import-teams", str(event), str(teams)).returncode == 0
    assert run("pair", str(event)).returncode == 0
    imported = run("import-match", str(event), str(record))
    assert imported.returncode == 0, imported.stderr
    line = imported.stdout.strip()
    assert line.endswith(("6–2", "2–6")), line
