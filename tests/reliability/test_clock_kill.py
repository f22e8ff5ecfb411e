"""Kill the clock window with SIGKILL mid-game; the reopened match has both boards paused,
each side within 1 s of the time it really had at the kill (RULES §7).

The child (clock_kill_child.py) runs the real clock window and writer on a real event file and
prints every clock event as it logs it. The parent kills it at a random moment, rebuilds the
true clocks at that instant from what the child printed, and compares them with what
`restore_clock` reads back from the file.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from director.domain.clock import ClockEvent, Phase, replay
from director.domain.rules import EventOptions, Side, TimeControl
from director.services import clocks, matches
from director.services.events import update_event
from director.services.teams import add_team
from director.store.engine import open_database

NS = 1_000_000_000
TC = TimeControl(600, 12)  # long enough that nobody flags during the run
CHILD = Path(__file__).with_name("clock_kill_child.py")


def seed(path: Path) -> int:
    db = open_database(str(path))
    try:
        with db.Session() as s, s.begin():
            update_event(s, options=EventOptions(time_control=TC))
            a = add_team(s, "Blue Bar", ("Ana", "Ben")).value.id
            b = add_team(s, "Gammonites", ("Cleo", "Dev")).value.id
            return matches.create_match(s, a, b, table=1).value.id
    finally:
        db.close()


class Reader(threading.Thread):
    """Collects the child's lines as they come, so a full pipe never blocks the child."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        super().__init__(daemon=True)
        self.process = process
        self.lines: list[str] = []
        self.started_at: int | None = None

    def run(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.strip())
            if line.strip() == "started":
                self.started_at = time.monotonic_ns()


def true_remaining(events: list[ClockEvent], at: int) -> dict[tuple[int, Side], int]:
    """Each side's remaining time at instant `at` (Fischer: the running side loses the time
    since its stretch began)."""
    state = replay(events, TC)
    out = {}
    for n in (1, 2):
        b = state.board(n)
        for side in Side:
            remaining = b.side(side).remaining_ns
            if b.phase is Phase.RUNNING and b.on_move is side:
                remaining -= at - b.since_ns
            out[n, side] = remaining
    return out


@pytest.mark.parametrize("run", range(3))
def test_rules_7_times_survive_a_kill_within_one_second(
    event_path: Path, tmp_path: Path, run: int
) -> None:
    match_id = seed(event_path)
    rng = random.Random(run)
    errors = tmp_path / "child-stderr.txt"
    with (
        errors.open("w") as stderr,
        subprocess.Popen(
            [sys.executable, str(CHILD), str(event_path), str(match_id), str(run)],
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
        ) as process,
    ):
        reader = Reader(process)
        reader.start()
        deadline = time.monotonic() + 60
        while reader.started_at is None and process.poll() is None:
            assert time.monotonic() < deadline, "the child did not start its clocks"
            time.sleep(0.01)
        assert reader.started_at is not None, errors.read_text()
        time.sleep(rng.uniform(1.5, 4.0))  # play on for a while, then pull the plug
        process.kill()
        killed_at = time.monotonic_ns()
        process.wait(10)
        reader.join(10)
    assert process.returncode == (-9 if sys.platform != "win32" else 1)  # killed, not ended
    printed = [ClockEvent.from_dict(json.loads(x)) for x in reader.lines if x.startswith("{")]
    presses = sum(1 for e in printed if e.kind == "press")
    assert presses >= 2  # the boards were really being played
    truth = true_remaining(printed, killed_at)

    db = open_database(str(event_path))
    try:
        with db.Session() as s, s.begin():
            restored = clocks.restore_clock(s, match_id, TC, time.monotonic_ns)
    finally:
        db.close()
    for n in (1, 2):
        assert restored.is_paused(n)
        for side in Side:
            lost = restored.remaining_ns(n, side) - truth[n, side]
            assert -NS <= lost <= NS, f"board {n} side {side}: off by {lost / NS:.3f} s"
