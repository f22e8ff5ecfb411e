"""Benchmark "nothing lost III" (#27): hostile inputs and killed runs.

Run: `python tests/benchmarks/bench_hostile.py [--kills N]`.

1. Hostile inputs, each given to the command line: prints the seconds to the one-line refusal
   and its status (a planted `game` table with ON CONFLICT REPLACE, a 50 MB team name, a
   winner 'C', /dev/zero and a 20 GB sparse file as a team list, a record of 10**6 games and
   one of 10**6 clock events). Out of bounds: a status other than 2, or over 10 s.
2. `simulate` SIGKILLed N times at random moments (default 20), then run once more to the
   end: prints the hidden working files left after the kills and after that last run (must
   be 0 after it).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the tests package

EXE = str(Path(sys.executable).with_name("tandem-director"))
LIMIT_S = 10.0


def timed(args: list[str]) -> tuple[float, int]:
    start = time.perf_counter()
    done = subprocess.run([EXE, *args], capture_output=True, text=True, timeout=600, check=False)
    return time.perf_counter() - start, done.returncode


def hostile_inputs(folder: Path) -> bool:
    event = folder / "event.tandem"
    made = subprocess.run(
        [EXE, "simulate", str(event), "--teams", "8", "--rounds", "2", "--seed", "1"],
        capture_output=True, check=False,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    cases: list[tuple[str, list[str]]] = []

    planted = Path(shutil.copy(event, folder / "planted.tandem"))
    with sqlite3.connect(planted) as c:
        (sql,) = c.execute("SELECT sql FROM sqlite_master WHERE name='game'").fetchone()
        body = sql[sql.index("(") : sql.rindex(")")]
        c.executescript(
            f"CREATE TABLE g2 {body}, UNIQUE (match_id) ON CONFLICT REPLACE);"
            "INSERT INTO g2 SELECT * FROM game; DROP TABLE game; ALTER TABLE g2 RENAME TO game;"
            "CREATE INDEX ix_game_pair_id ON game (pair_id);"
            "CREATE INDEX ix_game_match_id ON game (match_id);"
        )
    cases.append(("planted ON CONFLICT REPLACE, check", ["check", str(planted)]))
    big = Path(shutil.copy(event, folder / "big.tandem"))
    with sqlite3.connect(big) as c:
        c.execute("UPDATE team SET name = ? WHERE id = 1", ("x" * 50_000_000,))
    cases.append(("50 MB team name, standings", ["standings", str(big)]))
    cases.append(("50 MB team name, export-teams", ["export-teams", str(big), str(folder / "o")]))
    winner = Path(shutil.copy(event, folder / "winner.tandem"))
    with sqlite3.connect(winner) as c:
        c.execute("UPDATE game SET winner = 'C'")
    cases.append(("winner 'C', standings", ["standings", str(winner)]))
    cases.append(("/dev/zero as a team list", ["import-teams", str(event), "/dev/zero"]))
    sparse = folder / "sparse.csv"
    with sparse.open("wb") as handle:
        handle.truncate(20 * 10**9)
    cases.append(("20 GB sparse team list", ["import-teams", str(event), str(sparse)]))
    game = {"pair": 1, "board": 1, "winner": "A", "end": "pass", "cube": 1}
    games = folder / "games.json"
    games.write_text(json.dumps({"games": [game] * 10**6}), encoding="utf-8")
    cases.append(("record of 10**6 games, replay", ["replay", str(games)]))
    press = {"kind": "press", "t_ns": 1, "board": 1, "side": "A", "value": None}
    clock = folder / "clock.json"
    clock.write_text(json.dumps({"games": [], "clock": [press] * 10**6}), encoding="utf-8")
    cases.append(("record of 10**6 clock events, import-match", ["import-match", str(event),
                                                                 str(clock)]))  # fmt: skip
    fine = True
    for label, args in cases:
        seconds, status = timed(args)
        bad = status != 2 or seconds > LIMIT_S
        fine &= not bad
        print(f"{label:<48} {seconds:6.2f} s, status {status}{'  OUT OF BOUNDS' if bad else ''}")
    return fine


def simulate_kills(folder: Path, kills: int) -> bool:
    rng = random.Random(27)
    target = folder / "sim.tandem"
    args = [EXE, "simulate", str(target), "--teams", "40", "--rounds", "4", "--seed", "2"]
    for _ in range(kills):
        child = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.3, 3.0))
        child.send_signal(signal.SIGKILL)
        child.wait()
        if target.exists():
            target.unlink()
    left = [p for p in folder.iterdir() if p.name.startswith(".sim.tandem")]
    subprocess.run(args, capture_output=True, check=False)
    after = [p for p in folder.iterdir() if p.name.startswith(".sim.tandem")]
    print(f"simulate killed {kills} times: {len(left)} hidden files left by the kills, "
          f"{len(after)} after the next run")  # fmt: skip
    return not after


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=20, help="simulate kills (default 20)")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        fine = hostile_inputs(Path(name))
    with tempfile.TemporaryDirectory() as name:
        fine &= simulate_kills(Path(name), options.kills)
    sys.exit(0 if fine else 1)


if __name__ == "__main__":
    main()
