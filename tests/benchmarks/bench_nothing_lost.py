"""Benchmark "nothing lost, part two": upgrade kills and the CSV import (issue 14).

Run: `python tests/benchmarks/bench_nothing_lost.py [--every] [--rows N ...]`.

1. An older event file is upgraded by a child process SIGKILLed at every step (every write and
   rename; with --every, every SQL statement), and reopened after each kill: prints the kill
   points, the files that did not open or lost rows (must be 0), and the time of one upgrade.
2. A team list CSV of N rows (default 1,000, 10,000 and 100,000) imported into an empty event
   through the service the app and the command line use: prints the seconds and rows per second
   (linear: ten times the rows, about ten times the time).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the tests package

from director.services.events import create_event
from director.services.teams import import_teams
from director.store.engine import new_database, open_database
from tests.reliability.upgrade_kill import CHILD, HELD, older_event, state_after_open


def upgrade_kills(folder: Path, every: bool) -> None:
    original = older_event(folder / "old.tandem")
    reference = shutil.copy(original, folder / "reference.tandem")
    start = time.perf_counter()
    state_after_open(reference)
    one = time.perf_counter() - start
    bricked = lost = 0
    n = 1
    while True:
        victim = folder / f"kill-{n}.tandem"
        shutil.copy(original, victim)
        args = [sys.executable, str(CHILD), str(victim), str(n), *(["--every"] if every else [])]
        child = subprocess.run(args, check=False, capture_output=True)
        try:
            if state_after_open(victim)[1:] != HELD:
                lost += 1
        except Exception:
            bricked += 1
        if child.returncode == 0:
            break
        n += 1
    kind = "SQL statement" if every else "write and rename"
    print(f"upgrade kills: {n - 1} kill points (every {kind}), {bricked} files that did not "
          f"open, {lost} that lost rows; one upgrade {one:.2f} s")  # fmt: skip


def csv_import(folder: Path, rows: int) -> None:
    path = folder / f"import-{rows}.tandem"
    with new_database(str(path)) as db, db.Session() as session, session.begin():
        create_event(session, "Big list")
    text = "team,player1,player2,club\n" + "".join(
        f"Team {i},Player {i} A,Player {i} B,Club {i % 50}\n" for i in range(rows)
    )
    db = open_database(str(path))
    try:
        start = time.perf_counter()
        with db.Session() as session, session.begin():
            done = import_teams(session, text).value
        seconds = time.perf_counter() - start
    finally:
        db.close()
    assert len(done.imported) == rows
    print(f"CSV import: {rows:>7,} rows in {seconds:6.2f} s ({rows / seconds:,.0f} rows/s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", action="store_true", help="kill at every SQL statement")
    parser.add_argument("--rows", type=int, nargs="*", default=[1_000, 10_000, 100_000])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        upgrade_kills(folder, args.every)
        for rows in args.rows:
            csv_import(folder, rows)


if __name__ == "__main__":
    main()
