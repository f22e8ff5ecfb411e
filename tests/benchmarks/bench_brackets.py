"""Bracket benchmark: a 256-player main bracket with a progressive consolation (RULES §11).

    python tests/benchmarks/bench_brackets.py

Pairs the whole night match by match: after each result the draw's state is recomputed from
all results and the matches that became ready are paired, until nothing is left (one result
at a time, the slowest way a desk can enter them). Prints the CPU time (time.process_time,
best of 5) of the whole night, of it with every result entered at once per step, and of the
independent checker over the finished draw. Target: the 256-player night paired completely
in under 1 s of CPU; the script exits with status 1 naming a figure over its target.

Then the Rounds page of such a night, as a director sees it (offscreen Qt, in this process):
two event files made by `tandem-director simulate --format knockout --plan
progressive-consolation --individual --players 256` (all played, and 3 pairings played with
the next one paired and not), the page shown at the laptop size, then the wall-clock time
(median of 5) of a whole refresh (`RoundsPage.refresh`: the rounds and every bracket read
again and shown) and of the refresh after one result (`on_event_changed` for one match, as
the desk does after every result), with the SQL statements each sends. No target: the figures
are printed to compare before and after a change (`--no-page` leaves them out), with the
CPU time of `rounds.list_rounds` alone (best of 5): the page's read of every round.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from director.domain.brackets.checker import check_draw
from director.domain.brackets.draw import Draw
from director.domain.brackets.plan import ready_made
from tests.domain.brackets.bracket_helpers import play_out

PLAYERS = 256
TARGET_S = 1.0


def cpu(label: str, work: Callable[[], object], repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    print(f"  {label}: {best:.3f} s CPU (best of {repeat})")
    return best


def main() -> int:
    plan = ready_made("progressive-consolation")
    field = list(range(1, PLAYERS + 1))
    played = play_out(Draw(plan, field), random.Random(1))
    print(f"{PLAYERS} players, {plan.name}: {len(played.results)} matches paired and played")
    figure = cpu("the whole night, one result at a time",
                 lambda: play_out(Draw(plan, field), random.Random(1)))  # fmt: skip
    cpu("the whole night, each step's ready matches at once",
        lambda: play_out(Draw(plan, field), random.Random(1), one_at_a_time=False))  # fmt: skip
    final = played.draw.progress(played.results)
    matches = played.drawn(final)
    cpu("the independent checker over the finished draw",
        lambda: check_draw(plan, field, matches))  # fmt: skip
    problems = check_draw(plan, field, matches)
    print(f"  checker: {len(problems)} problems")
    if "--no-page" not in sys.argv:
        page_figures()
    if figure >= TARGET_S or problems:
        print(f"OUT OF TARGET: {figure:.3f} s (target < {TARGET_S} s), {len(problems)} problems")
        return 1
    return 0


def page_figures() -> None:
    """The Rounds page refresh at 256 players (see the module's text)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    from director.domain.changes import Changes
    from director.services import rounds
    from director.store.engine import open_database
    from director.ui.context import EventContext
    from director.ui.rounds_page import RoundsPage

    app = QApplication.instance() or QApplication([])
    sent = [0]
    kept: list[tuple[RoundsPage, EventContext]] = []

    def count(*_: object) -> None:
        sent[0] += 1

    def timed(label: str, work: Callable[[], object]) -> None:
        times = []
        for _ in range(5):
            sent[0] = 0
            start = time.perf_counter()
            work()
            app.processEvents()
            times.append(time.perf_counter() - start)
        median = statistics.median(times)
        print(f"  Rounds page, {PLAYERS} players, {label}: {median:.3f} s (median of 5), "
              f"{sent[0]} SQL statements")  # fmt: skip

    command = [sys.executable, "-m", "director.cli", "simulate", "--format", "knockout",
               "--plan", "progressive-consolation", "--individual", "--players", str(PLAYERS),
               "--seed", "1"]  # fmt: skip
    event.listen(Engine, "before_cursor_execute", count)
    with tempfile.TemporaryDirectory() as folder:
        for label, extra in (("all played", []), ("3 pairings played", ["--play", "3"])):
            path = str(Path(folder) / f"{len(extra)}.tandem")
            subprocess.run([*command, path, *extra], check=True, stdout=subprocess.DEVNULL)
            if extra:  # the next pairing made and not played: matches ready to start
                db = open_database(path)
                with db.Session() as s, s.begin():
                    rounds.pair_next_round(s)
                db.close()
            ctx = EventContext(open_database(path))
            page = RoundsPage(ctx)
            kept.append((page, ctx))  # closed after: no refresh left half done
            page.resize(1366, 700)
            page.show()
            app.processEvents()
            result = Changes.match(page.rounds[-1].matches[-1].id)

            def listed(c: EventContext = ctx) -> object:
                return c.read(rounds.list_rounds)

            cpu(f"{label}, rounds.list_rounds (every round's matches, read again)", listed)
            timed(f"{label}, whole refresh", page.refresh)
            timed(
                f"{label}, refresh after a result", lambda p=page, c=result: p.on_event_changed(c)
            )
    event.remove(Engine, "before_cursor_execute", count)
    for page, ctx in kept:
        page.hide()
        ctx.close()


if __name__ == "__main__":
    sys.exit(main())
