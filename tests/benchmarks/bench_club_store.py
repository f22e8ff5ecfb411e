"""Club register benchmark: the 2,000-person, 100,000-match club of bench_club.py in a .club file.

    python tests/benchmarks/bench_club_store.py

Writes bench_club.py's club into a real club file through the store's tables (one event row
per event, one row per match), then prints the wall time (best of 3) to open the club and read
every published result, to read them and recompute every rating (what `club ratings` and
the rating list do), and to list every person as the Club page does. Figures, never
pass/fail; the target is 1 s each (issue #30).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sqlalchemy import insert

from director.services.club import club_results, club_table, rating_list
from director.store.club import create_club, open_club
from director.store.club_models import ClubEvent, ClubMatch, Person
from tests.benchmarks.bench_club import PERSONS, club


def build(path: Path) -> int:
    results = club()
    db = create_club(str(path))
    with db.Session() as s, s.begin():
        s.execute(insert(Person), [{"id": i, "name": f"Person {i}"} for i in range(1, PERSONS + 1)])
        events = sorted({(r.event, r.event_date) for r in results})
        ids = {name: n for n, (name, _d) in enumerate(events, 1)}
        s.execute(insert(ClubEvent), [
            {"id": ids[e], "identity": e, "name": e, "event_date": d.isoformat(), "rounds": 9,
             "format": "individual"} for e, d in events
        ])  # fmt: skip
        s.execute(insert(ClubMatch), [
            {"event_id": ids[r.event], "round": r.round, "finish": r.finish, "length": r.length,
             "a1": r.side_a[0], "a2": r.side_a[1] if len(r.side_a) > 1 else None,
             "b1": r.side_b[0] if r.side_b else None,
             "b2": r.side_b[1] if len(r.side_b) > 1 else None, "outcome": r.outcome.value,
             "unrated": r.unrated.value if r.unrated else None, "reason": r.reason}
            for r in results
        ])  # fmt: skip
    db.close()
    return len(results)


def wall(label: str, work: object, repeat: int = 3) -> None:
    assert callable(work)
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - t)
    print(f"  {label}: {best:.3f} s (best of {repeat})")


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.club"
        n = build(path)
        print(f"club file: {PERSONS} persons, {n} results, {path.stat().st_size // 1024} KiB")

        def read() -> None:
            db = open_club(str(path), make_backup=False)
            with db.Session() as s:
                club_results(s)
            db.close()

        def ratings() -> None:
            db = open_club(str(path), make_backup=False)
            with db.Session() as s:
                rating_list(s)
            db.close()

        def page() -> None:
            db = open_club(str(path), make_backup=False)
            with db.Session() as s:
                club_table(s)
            db.close()

        wall("open the club and read every result", read)
        wall("open, read and recompute the rating list", ratings)
        wall("open the Club page's list (every person, rated first)", page)
    return 0


if __name__ == "__main__":
    sys.exit(main())
