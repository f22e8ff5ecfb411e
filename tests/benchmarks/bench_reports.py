"""Benchmark the PDF reports: a big round's scoresheets and a full event report.

Run: `python tests/benchmarks/bench_reports.py`. The events are built through the services
first (not timed) in a temporary folder; then each report is rendered through
`services.reports.render`, as the CLI and the GUI do, and timed with `time.perf_counter`.
Targets (issue 15): scoresheets for a 200-match round under 3 s; the event report of a
64-team, 7-round event under 5 s. `--whole-process` also times each as a fresh
`tandem-director report` process (interpreter start, imports, database open, write):
the targets apply to that, what a director waits for.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repo: tests.reports

from pypdf import PdfReader

from director.domain.rules import EventOptions
from director.services.events import create_event
from director.services.matches import create_match
from director.services.reports import render
from director.services.teams import add_team
from director.store import models
from director.store.engine import EventDatabase, create_database
from tests.reports.eventdata import build_event

ROUND_MATCHES = 200
EVENT_TEAMS, EVENT_ROUNDS = 64, 7
TARGETS = {"scoresheets": 3.0, "event": 5.0}


def new_event(folder: Path, name: str) -> EventDatabase:
    db = create_database(str(folder / f"{name}.tandem"))
    with db.Session() as session, session.begin():
        create_event(session, name, EventOptions())
    return db


def big_round(db: EventDatabase) -> None:
    with db.Session() as session, session.begin():
        ids = [
            add_team(session, f"Team {i:03d}", (f"Player {i}a", f"Player {i}b")).value.id
            for i in range(2 * ROUND_MATCHES)
        ]
        row = models.Round(number=1)
        session.add(row)
        session.flush()
        for table in range(1, ROUND_MATCHES + 1):
            create_match(session, ids[2 * table - 2], ids[2 * table - 1], row.id, table)


def timed(db: EventDatabase, kind: str, **kw: int) -> tuple[float, int, int]:
    with db.Session() as session:
        start = time.perf_counter()
        data = render(session, kind, **kw)
        seconds = time.perf_counter() - start
    return seconds, len(PdfReader_pages(data)), len(data)


def whole_process(db: EventDatabase, kind: str, out: Path) -> tuple[float, float]:
    """Wall and CPU time (user + system) of `tandem-director report KIND FILE -o OUT` as a
    fresh process. On a shared machine the wall time waits for the others; the CPU time is
    what the report costs."""
    exe = str(Path(sys.executable).with_name("tandem-director"))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    command = [exe, "report", kind, str(db.target), "-o", str(out)]
    subprocess.run(command, check=True, capture_output=True, timeout=300)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu


def PdfReader_pages(data: bytes) -> list[object]:
    import io

    return list(PdfReader(io.BytesIO(data)).pages)


def main() -> int:
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        db = new_event(folder, "round")
        t0 = time.perf_counter()
        big_round(db)
        print(f"built a {ROUND_MATCHES}-match round in {time.perf_counter() - t0:.1f} s")
        seconds, pages, size = timed(db, "scoresheet", round=1)
        whole, cpu = whole_process(db, "scoresheet", folder / "sheets.pdf")
        db.close()
        ok = whole < TARGETS["scoresheets"]
        failed |= not ok
        print(
            f"scoresheets, {ROUND_MATCHES} matches: render {seconds:.2f} s, whole process "
            f"{whole:.2f} s wall, {cpu:.2f} s CPU, {pages} pages, {size / 1e6:.1f} MB "
            f"(target < {TARGETS['scoresheets']:g} s: {'ok' if ok else 'SLOW'})"
        )

        db = new_event(folder, "event")
        t0 = time.perf_counter()
        with db.Session() as session, session.begin():
            built = build_event(
                session, teams=EVENT_TEAMS, rounds=EVENT_ROUNDS, forfeit=True, unfinished=False
            )
        print(
            f"built a {EVENT_TEAMS}-team, {EVENT_ROUNDS}-round event "
            f"({len(built.match_ids)} matches) in {time.perf_counter() - t0:.1f} s"
        )
        for kind in ("event", "standings", "crosstable", "boards", "match-report"):
            seconds, pages, size = timed(db, kind)
            line = f"{kind}: {seconds:.2f} s, {pages} pages, {size / 1e6:.1f} MB"
            if kind == "event":
                whole, cpu = whole_process(db, "event", folder / "event.pdf")
                ok = whole < TARGETS["event"]
                failed |= not ok
                verdict = "ok" if ok else "SLOW"
                line += (
                    f"; whole process {whole:.2f} s wall, {cpu:.2f} s CPU "
                    f"(target < {TARGETS['event']:g} s: {verdict})"
                )
            print(line)
        db.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
