"""The bracket plan on the command line (#29, RULES §11): `new --plan`, `simulate --plan`,
`plan FILE [--set PLAN] [--json]`; each match stored with its bracket, round, slot, length."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

EXE = str(Path(sys.executable).with_name("tandem-director"))


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([EXE, *args], capture_output=True, text=True, timeout=300, check=False)


def test_simulate_with_a_plan_stores_each_match_in_its_bracket_at_its_length(
    tmp_path: Path,
) -> None:
    path = tmp_path / "night.tandem"
    plan = tmp_path / "night.json"
    plan.write_text(
        json.dumps(
            {
                "name": "night",
                "brackets": [
                    {"name": "main", "lengths": [7, 9, 11]},
                    {
                        "name": "consolation",
                        "lengths": [5, 7],
                        "feeds": [{"source": "main", "round": 1, "into": 1}],
                    },
                ],
            }
        ),  # fmt: skip
        encoding="utf-8",
    )
    done = run("simulate", str(path), "--format", "knockout", "--teams", "12", "--rounds", "4",
               "--seed", "3", "--plan", str(plan))  # fmt: skip
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "SELECT bracket, bracket_round, slot, match_length FROM match ORDER BY id"
        ).fetchall()
    # 12 in a bracket of 16: seeds 1-4 have byes, and one who loses in main round 2 counts
    # as a round-1 loser (RULES §11), so the consolation has 8 places and three rounds
    assert {(b, r, n) for b, r, _, n in rows} == {
        ("main", 1, 7), ("main", 2, 9), ("main", 3, 11), ("main", 4, 11),
        ("consolation", 1, 5), ("consolation", 2, 7), ("consolation", 3, 7),
    }  # fmt: skip
    slots = [(b, r, s) for b, r, s, _ in rows]
    assert len(set(slots)) == len(slots)  # one match per slot
    shown = run("plan", str(path))
    assert shown.stdout.strip() == ("night: main 7/9/11, consolation 5/7 (round-1 losers of main)")
    assert json.loads(run("plan", str(path), "--json").stdout)["name"] == "night"
    assert run("check-pairings", str(path)).returncode == 0


def test_new_with_a_plan_then_the_plan_changes_before_pairing(tmp_path: Path) -> None:
    path = tmp_path / "cup.tandem"
    done = run("new", str(path), "--name", "Cup", "--length", "7", "--format", "knockout",
               "--plan", "consolation")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (
        "bracket plan: consolation: main 7/7/9/11, consolation 5/5/7 (round-1 losers of main)"
        in done.stdout.splitlines()
    )
    changed = run("plan", str(path), "--set", "single", "--reason", "few entries")
    assert changed.returncode == 0, changed.stderr
    assert changed.stdout.strip() == "single: main 7/7/9/11"


def test_a_bad_plan_is_one_line_and_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"name": "x", "brackets": [{"name": "main", "lengths": [0]}]}', "utf-8")
    for extra, says in (
        (("--plan", "doubles"), "neither a ready-made plan"),
        (("--plan", str(bad)), "lengths[0]: a match is at least 1 point, not 0"),
    ):
        done = run("new", str(tmp_path / "e.tandem"), "--name", "E", "--length", "7",
                   "--format", "knockout", *extra)  # fmt: skip
        assert done.returncode == 2, done.stderr
        assert says in done.stderr and len(done.stderr.strip().splitlines()) == 1
        assert not (tmp_path / "e.tandem").exists()
    swiss = run("new", str(tmp_path / "s.tandem"), "--name", "S", "--length", "7",
                "--plan", "single")  # fmt: skip
    assert swiss.returncode == 2 and "--plan is for a knockout" in swiss.stderr


def test_simulate_a_knockout_with_a_plan_needs_no_rounds(tmp_path: Path) -> None:
    """#29: the plan and the field decide a knockout's rounds, so `simulate` plays it to the
    end without `--rounds`; a Swiss still needs it, said in one line (exit 2)."""
    path = tmp_path / "cup.tandem"
    done = run("simulate", str(path), "--format", "knockout", "--plan", "consolation",
               "--teams", "8", "--seed", "5")  # fmt: skip
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT bracket, bracket_round FROM match").fetchall()
        unfinished = db.execute("SELECT count(*) FROM match WHERE result = 'unfinished'")
        assert unfinished.fetchone() == (0,)
    assert {("main", 1), ("main", 2), ("main", 3), ("consolation", 1), ("consolation", 2)} <= set(
        rows
    )
    assert run("check-pairings", str(path)).returncode == 0
    swiss = run("simulate", str(tmp_path / "swiss.tandem"), "--teams", "8", "--seed", "5")
    assert swiss.returncode == 2
    assert (
        swiss.stderr.strip()
        .splitlines()[-1]
        .endswith("--rounds N is required for a swiss event (a knockout's plan decides its rounds)")
    )
    assert "Traceback" not in swiss.stderr and not (tmp_path / "swiss.tandem").exists()


def test_report_bracket_on_a3_prints_a_64_player_bracket_on_one_page(tmp_path: Path) -> None:
    from tests.reports.pdfcheck import A3, page_sizes, page_texts

    path, out = tmp_path / "big.tandem", tmp_path / "draw.pdf"
    done = run("simulate", str(path), "--format", "knockout", "--plan", "single", "--individual",
               "--players", "64", "--seed", "5")  # fmt: skip
    assert done.returncode == 0, done.stderr
    done = run("report", "bracket", str(path), "--paper", "a3", "-o", str(out))
    assert done.returncode == 0, done.stderr
    data = out.read_bytes()
    assert page_sizes(data) == [(A3[1], A3[0])]  # one landscape A3 page
    with sqlite3.connect(path) as db:
        names = [name for (name,) in db.execute("SELECT name FROM team")]
    text = " ".join(page_texts(data)[0].split())
    assert len(names) == 64 and all(name in text for name in names)
