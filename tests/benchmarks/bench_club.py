"""Club ratings benchmark: 2,000 persons and 100,000 published matches (RULES §12).

    python tests/benchmarks/bench_club.py

Builds a club of 2,000 persons and 100,000 results over 400 weekly events (four in five
individual, one in five Tandem, a few byes and no-shows), shuffled as if published in any
order, and prints the CPU time (best of 5, time.process_time) to recompute every rating from
them, with and without the history a person's chart needs, and to build the season standings
and the nemesis report. Target: every rating recomputed in under 1 s of CPU; the script exits
with status 1 naming a figure over its target.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from director.domain.rating import ClubResult, Outcome, Unrated, recompute
from director.domain.rivals import nemesis_report
from director.domain.season import Season, season_standings

PERSONS = 2_000
MATCHES = 100_000
EVENTS = 400
TARGET_S = 1.0


def club(seed: int = 12) -> list[ClubResult]:
    rng = random.Random(seed)
    out: list[ClubResult] = []
    per_event = MATCHES // EVENTS
    for e in range(EVENTS):
        day = date(2020, 1, 1) + timedelta(days=7 * (e // 2))
        tandem = e % 5 == 4
        size = 2 if tandem else 1
        for i in range(per_event):
            rnd, finish = divmod(i, 50)
            people = rng.sample(range(1, PERSONS + 1), 2 * size)
            a, b = tuple(people[:size]), tuple(people[size:])
            unrated = None
            roll = rng.random()
            if roll < 0.01:
                b, unrated = (), Unrated.BYE
            elif roll < 0.02:
                unrated = Unrated.NO_SHOW
            outcomes = [Outcome.A_WON, Outcome.B_WON] + ([Outcome.DRAW] if tandem else [])
            length, outcome = rng.choice((3, 5, 7, 9, 11)), rng.choice(outcomes)
            out.append(
                ClubResult(
                    f"event-{e:04}", day, rnd + 1, finish + 1, a, b, length, outcome, unrated
                )
            )
    rng.shuffle(out)
    return out


def cpu(label: str, work: Callable[[], object], repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    print(f"  {label}: {best:.3f} s CPU (best of {repeat})")
    return best


def main() -> int:
    results = club()
    print(f"club: {PERSONS} persons, {len(results)} results, {EVENTS} events")
    ratings = recompute(results)
    print(f"  rated persons: {len(ratings.standings)}; best {ratings.ranked()[0].rating:.2f}")
    figure = cpu("recompute every rating", lambda: recompute(results))
    cpu("recompute with every person's history", lambda: recompute(results, history=True))
    season = Season("2020", date(2020, 1, 1), date(2020, 12, 31))
    cpu("season standings (ratings given)", lambda: season_standings(season, results, ratings))
    cpu("nemesis report", lambda: nemesis_report(results), repeat=2)
    if figure >= TARGET_S:
        print(f"OUT OF TARGET: recomputing took {figure:.3f} s, target < {TARGET_S} s")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
