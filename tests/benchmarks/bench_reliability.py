"""Benchmark "nothing lost": kills, commit times, and several stations on one server event.

Run: `python tests/benchmarks/bench_reliability.py [--kills N] [--edits N] [--parallel N]`.

1. N SIGKILLs (default 1,000) of a process recording results through the services, each
   followed by a reopen and the full checks: prints the kills, acknowledged operations, lost
   ones and integrity failures (both must be 0).
2. The median time of one result entry (record_game and its commit, synchronous=FULL) on
   SQLite, and on PostgreSQL when TANDEM_TEST_PG_URL is set (scripts/postgres.sh sets it).
3. With PostgreSQL: 4 stations x N random edits (default 2,500) on one event at once, each
   refused edit read again and retried; the final database must equal a serial replay.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the tests package

from sqlalchemy import create_engine, event, make_url, text

from director.services.games import record_game
from director.services.matches import list_matches
from director.store.engine import EventDatabase, open_database, open_event
from tests.reliability.child_writer import planned_games
from tests.reliability.kill_harness import Tally, prepare_event, run_kills
from tests.reliability.stations import (
    prepare,
    run_stations,
    serial_replay,
    snapshot,
)


def kills(total: int, parallel: int, folder: Path) -> None:
    share = [total // parallel + (i < total % parallel) for i in range(parallel)]
    tallies: list[Tally] = []
    errors: list[BaseException] = []

    for i in range(parallel):  # before the threads: Alembic's migration context is global
        prepare_event(folder / f"killed-{i}.tandem")

    def run(i: int) -> None:
        try:
            with (folder / f"stderr-{i}.txt").open("wb") as stderr:
                event_file = folder / f"killed-{i}.tandem"
                tallies.append(run_kills(event_file, share[i], seed=1000 + i, stderr=stderr))
        except BaseException as exc:
            errors.append(exc)

    start = time.perf_counter()
    threads = [threading.Thread(target=run, args=(i,)) for i in range(parallel)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    t = Tally()
    for one in tallies:
        for name in ("kills", "acknowledged", "lost", "integrity_failures", "opened"):
            setattr(t, name, getattr(t, name) + getattr(one, name))
        t.in_flight_committed += one.in_flight_committed
        t.in_flight_absent += one.in_flight_absent
        t.unclean_detected += one.unclean_detected
        t.failures += one.failures
        t.writer_errors += one.writer_errors
    print(f"kill test: {t.summary()}")
    print(f"kill test: {time.perf_counter() - start:.0f} s for {t.kills} kills")
    for line in (t.failures + t.writer_errors)[:10]:
        print(f"  FAILURE {line}")


def commit_times(db: EventDatabase, entries: int) -> list[float]:
    rng = random.Random(2)
    times = []
    with db.Session() as session:
        matches = {m.id: m for m in list_matches(session)}
    plans = {i: planned_games(m.rules, 1, i) for i, m in matches.items()}
    done = {i: len(m.games) for i, m in matches.items()}
    for _ in range(entries):
        open_ids = [i for i in matches if done[i] < len(plans[i])]
        match_id = rng.choice(open_ids)
        start = time.perf_counter()
        with db.Session() as session, session.begin():
            record_game(session, match_id, plans[match_id][done[match_id]])
        times.append(time.perf_counter() - start)
        done[match_id] += 1
    return times


def report_times(label: str, times: list[float]) -> None:
    ms = sorted(t * 1000 for t in times)
    print(
        f"result entry on {label}: median {statistics.median(ms):.2f} ms, "
        f"p90 {ms[int(len(ms) * 0.9)]:.2f} ms over {len(ms)} entries (commit included)"
    )


def server_database(base: str) -> tuple[str, Callable[[], None]]:
    name = f"tandem_bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(base).set(database=name).render_as_string(hide_password=False)

    def drop() -> None:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
        admin.dispose()

    return url, drop


def stations(base: str, edits: int, folder: Path) -> None:
    url, drop = server_database(base)
    try:
        prepare(url, teams=16, matches=24).close()
        start = time.perf_counter()
        logs = run_stations(url, stations=4, edits=edits, seed=9)
        took = time.perf_counter() - start
        done = sum(len(log.edits) for log in logs)
        conflicts = sum(log.conflicts for log in logs)
        print(
            f"4 stations x {edits} edits on PostgreSQL: {done} accepted, {conflicts} refused as "
            f"changed on another station and retried, {took:.0f} s ({done / took:.0f} edits/s)"
        )
        replay = prepare(str(folder / "replay.tandem"), teams=16, matches=24)
        replay.engine.dispose()
        event.listen(replay.engine, "connect", _no_sync)  # a check, not an event: speed
        serial_replay(replay, logs)
        shared = open_database(url)
        equal = snapshot(shared) == snapshot(replay)
        shared.close()
        replay.close()
        print(f"4 stations: final database equals the serial replay: {equal}")
    finally:
        drop()


def _no_sync(dbapi_connection: object, _record: object) -> None:
    dbapi_connection.execute("PRAGMA synchronous=OFF")  # type: ignore[attr-defined]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kills", type=int, default=1000)
    parser.add_argument("--edits", type=int, default=2500)
    parser.add_argument("--entries", type=int, default=300)
    parser.add_argument("--parallel", type=int, default=2)
    args = parser.parse_args()
    base = os.environ.get("TANDEM_TEST_PG_URL")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        kills(args.kills, args.parallel, folder)
        prepare_event(folder / "timing.tandem", teams=16, matches=60)
        db = open_event(str(folder / "timing.tandem"))
        report_times("SQLite (WAL, synchronous=FULL)", commit_times(db, args.entries))
        db.close()
        if base is None:
            print("PostgreSQL: TANDEM_TEST_PG_URL is not set (source scripts/postgres.sh; "
                  "start_test_postgres): server figures not measured")  # fmt: skip
            return 0
        url, drop = server_database(base)
        try:
            prepare(url, teams=16, matches=60).close()
            server = open_database(url)
            report_times("PostgreSQL (fsync on)", commit_times(server, args.entries))
            server.close()
        finally:
            drop()
        stations(base, args.edits, folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
