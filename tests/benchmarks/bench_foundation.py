"""Foundation figures: MET size 25, replay of a 1,000-pair record, simulate 64 teams x 7 rounds.

Run: python tests/benchmarks/bench_foundation.py   (targets: < 1 s, < 0.5 s, < 20 s)
"""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from director.domain.met import MetParameters, match_equity_table
from director.domain.records import MatchRecord, RecordTeam, parse_record, record_json
from director.domain.rules import MatchRules, Scoring, Side
from director.domain.simulation import simulate_match

EXE = str(Path(sys.executable).with_name("tandem-director"))


def timed(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(args, check=True, capture_output=True)
    return time.perf_counter() - start


def long_record() -> MatchRecord:
    rules = MatchRules(match_length=1000, scoring=Scoring.CHASING_THE_GIRLS)
    games = simulate_match(rules, random.Random(1), 0.5)
    teams = {Side.A: RecordTeam("Blue", ("Ana", "Ben")), Side.B: RecordTeam("Red", ("Cleo", "Dev"))}
    return MatchRecord(rules, teams, tuple(games))


def main() -> None:
    start = time.perf_counter()
    match_equity_table(MetParameters(size=25))
    print(f"met --size 25 in-process: {time.perf_counter() - start:.3f} s")
    print(f"met --size 25 command (incl. start-up): {timed([EXE, 'met', '--size', '25']):.3f} s")

    record = long_record()
    pairs = record.games[-1].pair
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "long.tandem-match.json"
        path.write_text(record_json(record))
        start = time.perf_counter()
        parse_record(path.read_text()).outcome()
        print(f"replay of a {pairs}-pair record in-process: {time.perf_counter() - start:.3f} s")
        took = timed([EXE, "replay", str(path), "--json"])
        print(f"replay of a {pairs}-pair record command (incl. start-up): {took:.3f} s")
        event = Path(folder) / "sim.tandem"
        args = [EXE, "simulate", str(event), "--teams", "64", "--rounds", "7", "--seed", "3"]
        print(f"simulate --teams 64 --rounds 7: {timed(args):.2f} s")


if __name__ == "__main__":
    main()
