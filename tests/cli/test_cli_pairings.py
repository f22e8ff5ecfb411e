"""`pair`, `standings`, `check-pairings` and `simulate` through real subprocesses."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from director.domain.pairing.model import Pairing
from director.services import rounds
from director.store.engine import open_database

EXE = str(Path(sys.executable).with_name("tandem-director"))


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([EXE, *args], capture_output=True, text=True, timeout=120, check=False)


def simulate(path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return run("simulate", str(path), "--teams", "9", "--rounds", "3", "--seed", "11", *extra)


def test_simulate_prints_its_seed_first_and_is_reproducible(tmp_path: Path) -> None:
    one, two = tmp_path / "a.tandem", tmp_path / "b.tandem"
    first = simulate(one, "--late-entries", "1", "--withdrawals", "1")
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines()[0] == "seed 11"
    simulate(two, "--late-entries", "1", "--withdrawals", "1")
    a = json.loads(run("standings", str(one), "--json").stdout)
    b = json.loads(run("standings", str(two), "--json").stdout)
    assert a == b and len(a) == 9


def test_simulate_says_what_it_built_in_the_right_number(tmp_path: Path) -> None:
    path = tmp_path / "final.tandem"
    done = run("simulate", str(path), "--teams", "2", "--rounds", "1", "--seed", "3")
    assert done.returncode == 0, done.stderr
    built = done.stdout.splitlines()[1]  # was "2 teams, 1 rounds (1 finished), 1 matches"
    assert built.startswith(f"{path}: 2 teams, 1 round (1 finished), 1 match in ")


def test_simulated_event_passes_check_and_check_pairings(tmp_path: Path) -> None:
    path = tmp_path / "e.tandem"
    simulate(path, "--forbidden-pairs", "2")
    assert run("check", str(path)).returncode == 0
    proc = run("check-pairings", str(path))
    assert proc.returncode == 0 and proc.stdout.strip().endswith("0 violations")


def test_standings_json_rows(tmp_path: Path) -> None:
    path = tmp_path / "e.tandem"
    simulate(path)
    rows = json.loads(run("standings", str(path), "--json").stdout)
    assert [r["rank"] for r in rows] == list(range(1, 10))
    assert set(rows[0]) == {"rank", "team", "match_points", "buchholz", "points_difference",
                            "points_for", "head_to_head", "seed", "games_played"}  # fmt: skip


def test_check_pairings_finds_a_deliberate_rematch(tmp_path: Path) -> None:
    path = tmp_path / "e.tandem"
    run("simulate", str(path), "--teams", "8", "--rounds", "3", "--seed", "5", "--play", "1")
    db = open_database(str(path))
    with db.Session() as s, s.begin():
        first = rounds.get_round(s, 1).matches
        # the director forces round 2 to replay round 1 exactly
        replay = tuple(
            Pairing(m.table, m.team_a.id, m.team_b.id if m.team_b else None) for m in first
        )
        rounds.pair_next_round(s, replay, reason="test: deliberate rematches")
    db.close()
    proc = run("check-pairings", str(path))
    assert proc.returncode == 1
    assert proc.stdout.startswith("round 2: ")
    assert "rematch" in proc.stdout and "where 0 would do" in proc.stdout


def test_pair_preview_writes_nothing_then_pair(tmp_path: Path) -> None:
    path = tmp_path / "e.tandem"
    run("new", str(path), "--name", "E", "--length", "3")
    csv = tmp_path / "t.csv"
    csv.write_text("team,player1,player2\n" + "".join(f"T{i},a{i},b{i}\n" for i in range(4)))
    run("import-teams", str(path), str(csv))
    preview = run("pair", str(path), "--preview")
    assert preview.returncode == 0 and "(preview, not saved)" in preview.stdout
    assert "table 1:" in run("pair", str(path)).stdout
    assert "round 1 paired" in run("backups", str(path)).stdout  # a backup after pairing
    again = run("pair", str(path))
    assert again.returncode == 2 and "round 1 is not finished yet" in again.stderr
    assert "table 2:" in run("pair", str(path), "--round", "1").stdout
    bad = run("pair", str(path), "--round", "7")
    assert bad.returncode == 2 and "there is no round 7" in bad.stderr


def test_plain_standings_use_the_json_keys_and_define_each_column_once(tmp_path: Path) -> None:
    """#25: the plain table said `points-difference` where --json says `points_difference`, and
    each definition repeated its label ("match points: Match points: ...")."""
    path = tmp_path / "e.tandem"
    simulate(path)
    keys = list(json.loads(run("standings", str(path), "--json").stdout)[0])
    lines = run("standings", str(path)).stdout.splitlines()
    assert lines[0].split() == keys
    definitions = lines[10:]
    assert [d.split(":")[0] for d in definitions] == [
        "match_points", "buchholz", "points_difference", "points_for", "head_to_head", "seed"
    ]  # fmt: skip
    assert definitions[0].startswith("match_points: win 2, draw 1, loss 0")
    labels = ("Match points:", "Buchholz:", "Points difference:", "Points for:", "Head-to-head:")
    assert not any(label in d for d in definitions for label in labels)
