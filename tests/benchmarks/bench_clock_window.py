"""Benchmark the clock window against the real monotonic clock (RULES §7), offscreen.

Run: `QT_QPA_PLATFORM=offscreen python tests/benchmarks/bench_clock_window.py [--seconds 60]`.

1. A real run of `--seconds` (default 60) with both boards running and presses every few
   seconds: a sampler thread looks at random instants at what each running face last painted
   and checks it against the true remaining time. "Behind" is how much older the shown value
   is than the truth (0 when the face shows the current value); it must never exceed one
   display frame (1/60 s).
2. A burst of key-downs with the database writer on: key-down (the event sent) to side
   switched (the engine's press returned), median < 1 ms and p99 < 5 ms; and key-down to the
   new running face repainted, median < 16 ms.
3. The writer's commits: rows, batches, commit latency (each batch is its own transaction).
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
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the tests package

from PySide6.QtCore import QEventLoop, QSettings, Qt, QTimer
from PySide6.QtWidgets import QApplication

from director.domain.clock import NS_PER_SECOND, TENTHS_BELOW_NS, ClockError
from director.domain.rules import EventOptions, Side, TimeControl
from director.services import matches
from director.services.events import create_event
from director.services.teams import add_team
from director.store.engine import create_database
from director.ui.clock.adjust import parse_time
from director.ui.clock.keys import press_action
from director.ui.clock.launch import open_clock_window
from director.ui.clock.window import ClockWindow
from director.ui.context import EventContext
from tests.ui.clock.clock_helpers import key_down as press

FRAME_NS = NS_PER_SECOND // 60
TC = TimeControl(3600, 5)  # nobody flags during the run


def display_floor(ns: int) -> int:
    """What a face shows for `ns`, back in ns: tenths below 20 s, whole seconds above."""
    step = NS_PER_SECOND // 10 if ns < TENTHS_BELOW_NS else NS_PER_SECOND
    return max(0, ns) // step * step


def percentile(values: list[int], p: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[p - 1]


def ms(ns: float) -> str:
    return f"{ns / 1e6:.3f} ms"


def make_window(folder: Path) -> tuple[ClockWindow, EventContext]:
    path = folder / "bench.tandem"
    db = create_database(str(path))
    with db.Session() as s, s.begin():
        create_event(s, "Bench Open", EventOptions(time_control=TC))
        a = add_team(s, "Blue Bar", ("Ana", "Ben")).value.id
        b = add_team(s, "Gammonites", ("Cleo", "Dev")).value.id
        match_id = matches.create_match(s, a, b, table=1).value.id
    ctx = EventContext(db)
    settings = QSettings(str(folder / "keys.ini"), QSettings.Format.IniFormat)
    window = open_clock_window(ctx, match_id, settings=settings)
    window.resize(1366, 768)
    return window, ctx


def key_down(window: ClockWindow, key: int) -> None:
    """One press as a keyboard sends it, down then up: a key held down counts once
    (ui/clock/input.py), so a bench that never let go pressed each key only once."""
    press(window, Qt.Key(key))


class Sampler(threading.Thread):
    """At random instants: what the running faces last painted against the truth."""

    def __init__(self, window: ClockWindow) -> None:
        super().__init__(daemon=True)
        self.window = window
        self.stop = threading.Event()
        self.behind: list[int] = []
        self.ahead = 0
        self.skipped = 0

    def run(self) -> None:
        rng = random.Random(7)
        clock = self.window.clock
        while not self.stop.is_set():
            time.sleep(rng.uniform(0.0005, 0.004))
            now = time.monotonic_ns()
            for view in self.window.boards:
                try:
                    side = clock.running_side(view.board, now)
                    if side is None:
                        continue
                    truth = clock.remaining_ns(view.board, side, now)
                except ClockError:  # the GUI thread logged an action after `now` was read
                    self.skipped += 1
                    continue
                shown_text, _ = view.faces[0 if side is Side.A else 1].painted
                shown = parse_time(shown_text)
                if shown < display_floor(truth):
                    self.ahead += 1  # a face showing less time than the player has: a bug
                # the shown value was true until the truth fell below it: that long ago
                self.behind.append(max(0, shown - truth))


def real_run(window: ClockWindow, seconds: float) -> bool:
    """The app's own event loop; a timer presses for the running side every 0.5-3 s."""
    clock, keys = window.clock, window.keymap
    key_down(window, keys.key(press_action(1, Side.A)))
    key_down(window, keys.key(press_action(2, Side.B)))
    key_down(window, keys.key("start"))
    sampler = Sampler(window)
    sampler.start()
    rng = random.Random(11)
    loop = QEventLoop()
    presser = QTimer()
    presser.setSingleShot(True)

    def press() -> None:
        board = rng.choice((1, 2))
        side = clock.running_side(board)
        if side is not None:
            key_down(window, keys.key(press_action(board, side)))
        presser.start(rng.randrange(500, 3000))

    presser.timeout.connect(press)
    presser.start(rng.randrange(500, 3000))
    QTimer.singleShot(round(seconds * 1000), loop.quit)
    loop.exec()
    presser.stop()
    sampler.stop.set()
    sampler.join()
    behind = sampler.behind
    worst = max(behind)
    late = sum(1 for b in behind if b > FRAME_NS)
    presses = sum(1 for e in clock.events if e.kind == "press")
    print(
        f"1. real run of {seconds:g} s on time.monotonic_ns, {presses} presses,"
        f" {len(behind):,} samples:"
    )
    print(
        f"   shown value behind the truth: median {ms(statistics.median(behind))},"
        f" p99 {ms(percentile(behind, 99))}, max {ms(worst)}"
        f" (one frame = {ms(FRAME_NS)}); samples more than a frame behind: {late}"
        f"; showing less than the truth: {sampler.ahead}"
    )
    return late == 0 and sampler.ahead == 0


def burst(app: QApplication, window: ClockWindow, count: int) -> bool:
    """Key-downs every 20 ms on alternating boards, the writer committing behind them."""
    clock, keys = window.clock, window.keymap
    switched: list[int] = []
    repainted: list[int] = []
    marks: dict[str, int] = {}
    real_press = clock.press

    def timed_press(board: int, side: Side, now: int | None = None) -> bool:
        accepted = real_press(board, side, now)
        marks["switched"] = time.perf_counter_ns()
        return accepted

    clock.press = timed_press  # type: ignore[method-assign]
    for i in range(count):
        board = 1 + i % 2
        side = clock.running_side(board)
        assert side is not None
        face = window.boards[board - 1].faces[1 if side is Side.A else 0]  # the one to start
        painted_before = face.painted[1]
        sent, sent_mono = time.perf_counter_ns(), time.monotonic_ns()
        key_down(window, keys.key(press_action(board, side)))
        if clock.running_side(board) is side:
            print(f"   press {i} did not switch board {board}")
            return False
        switched.append(marks["switched"] - sent)
        deadline = time.monotonic() + 1
        while face.painted[1] == painted_before and time.monotonic() < deadline:
            app.processEvents()
        repainted.append(face.painted[1] - sent_mono)
        pause_until = time.monotonic() + 0.02
        while time.monotonic() < pause_until:
            app.processEvents()
            time.sleep(0.001)
    clock.press = real_press  # type: ignore[method-assign]
    sw_med, sw_p99 = statistics.median(switched), percentile(switched, 99)
    rp_med = statistics.median(repainted)
    print(f"2. {count} key-downs, database writer on:")
    print(
        f"   key-down to side switched: median {ms(sw_med)}, p99 {ms(sw_p99)},"
        f" max {ms(max(switched))}  (needs median < 1 ms, p99 < 5 ms)"
    )
    print(
        f"   key-down to repaint: median {ms(rp_med)}, p99 {ms(percentile(repainted, 99))},"
        f" max {ms(max(repainted))}  (needs median < 16 ms)"
    )
    return sw_med < 1e6 and sw_p99 < 5e6 and rp_med < 16e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60, help="length of the real run")
    parser.add_argument("--presses", type=int, default=500, help="key-downs in the burst")
    args, _ = parser.parse_known_args()
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    with tempfile.TemporaryDirectory() as folder:
        window, ctx = make_window(Path(folder))
        window.show()
        app.processEvents()
        ok = real_run(window, args.seconds)
        ok &= burst(app, window, args.presses)
        writer = window.controller.writer
        assert writer is not None
        writer.flush(30)
        stats = writer.stats
        print(
            f"3. writer: {stats.rows:,} events in {stats.batches:,} commits, commit median"
            f" {ms(statistics.median(stats.commit_ns))}, p99"
            f" {ms(percentile(stats.commit_ns, 99))}, max {ms(max(stats.commit_ns))};"
            f" retries {stats.retries}"
        )
        window.close()
        window.deleteLater()
        app.processEvents()
        ctx.close()
    print("all within bounds" if ok else "OUT OF BOUNDS")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
