"""Pairing benchmark: random events through the checker, and engine timings.

    python tests/benchmarks/bench_pairing.py [--quick] [--workers N]

Plays 5,000 random events of 3-64 teams and 20 of 200-500 teams (all three systems) through
the real engines and the independent checker, printing counts and any violation; then times
Swiss round 7 for 100 and 1,000 teams and the standings of 1,000 teams after 9 rounds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from director.domain.pairing.checker import Violation, check_event
from director.domain.pairing.model import (
    MatchResult,
    Outcome,
    PairingOptions,
    TeamEntry,
)
from director.domain.pairing.simulate import random_plan, simulate
from director.domain.pairing.swiss import pair_swiss
from director.domain.standings import compute_standings


def one_event(args: tuple[int, int, int]) -> tuple[str, int, int, list[Violation]]:
    seed, low, high = args
    rng = random.Random(seed)
    plan = random_plan(rng, low, high)
    event = simulate(rng, plan)
    violations = check_event(event.teams, event.rounds, event.results, event.options)
    return plan.system.value, plan.teams, len(event.rounds), violations


def run_events(label: str, count: int, low: int, high: int, workers: int, base: int) -> int:
    start = time.perf_counter()
    jobs = [(base + i, low, high) for i in range(count)]
    systems: Counter[str] = Counter()
    rounds = 0
    bad = 0
    with ProcessPoolExecutor(workers) as pool:
        for seed_args, (system, _, played, violations) in zip(
            jobs, pool.map(one_event, jobs, chunksize=8), strict=True
        ):
            systems[system] += 1
            rounds += played
            for v in violations:
                bad += 1
                print(f"  VIOLATION seed={seed_args[0]} {system}: {v}")
    elapsed = time.perf_counter() - start
    mix = ", ".join(f"{k} {v}" for k, v in sorted(systems.items()))
    print(f"{label}: {count} events ({mix}), {rounds} rounds, {bad} violations, {elapsed:.1f} s")
    return bad


def swiss_timing(n: int, rounds: int, seed: int = 7) -> float:
    """Seconds to pair round ``rounds`` of a Swiss of n teams (after random results)."""
    rng = random.Random(seed)
    teams = [TeamEntry(i, f"Team {i}", i) for i in range(1, n + 1)]
    options = PairingOptions()
    results: list[MatchResult] = []
    elapsed = 0.0
    for r in range(1, rounds + 1):
        start = time.perf_counter()
        rp = pair_swiss(teams, results, options, r)
        elapsed = time.perf_counter() - start
        for p in rp.pairings:
            if p.team_b is None:
                results.append(MatchResult(r, p.table, p.team_a, None, 0, 0, Outcome.BYE))
            else:
                a_wins = rng.random() < 0.5
                sa, sb = (5, rng.randint(0, 4)) if a_wins else (rng.randint(0, 4), 5)
                outcome = Outcome.A if a_wins else Outcome.B
                results.append(MatchResult(r, p.table, p.team_a, p.team_b, sa, sb, outcome))
    return elapsed


def standings_timing(n: int, rounds: int) -> float:
    rng = random.Random(3)
    teams = [TeamEntry(i, f"Team {i}", i) for i in range(1, n + 1)]
    results = []
    for r in range(1, rounds + 1):
        ids = [t.id for t in teams]
        rng.shuffle(ids)
        for table, i in enumerate(range(0, n - 1, 2), start=1):
            sa, sb = rng.randint(0, 7), rng.randint(0, 7)
            outcome = Outcome.A if sa > sb else Outcome.B if sb > sa else Outcome.DRAW
            results.append(MatchResult(r, table, ids[i], ids[i + 1], sa, sb, outcome))
    start = time.perf_counter()
    compute_standings(teams, results)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="500 small and 3 large events")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    small, large = (500, 3) if args.quick else (5000, 20)
    bad = run_events("3-64 teams", small, 3, 64, args.workers, 0)
    bad += run_events("200-500 teams", large, 200, 500, args.workers, 1_000_000)

    for n, limit in ((100, 0.1), (1000, 2.0)):
        times = [swiss_timing(n, 7, seed) for seed in range(1 if args.quick else 3)]
        worst = max(times)
        verdict = "ok" if worst < limit else "TOO SLOW"
        print(
            f"Swiss round 7, {n} teams: median {statistics.median(times):.3f} s,"
            f" worst {worst:.3f} s (target < {limit} s) {verdict}"
        )
    times = [standings_timing(1000, 9) for _ in range(5)]
    verdict = "ok" if max(times) < 0.3 else "TOO SLOW"
    print(
        f"Standings 1,000 teams x 9 rounds: median {statistics.median(times):.3f} s,"
        f" worst {max(times):.3f} s (target < 0.3 s) {verdict}"
    )
    print("violations:", bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
