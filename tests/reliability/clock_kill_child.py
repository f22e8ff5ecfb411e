"""The child of test_clock_kill.py: a real clock window on an event file, played by a timer.

Usage: python clock_kill_child.py EVENT_FILE MATCH_ID SEED

It opens the match's clock window offscreen (real monotonic time, the real writer), chooses the
first movers, starts both boards, and then keeps ending the running side's move at random
intervals, on both boards, until it is killed. Every clock event is printed to stdout as one
JSON line as soon as it is logged; a press's events are printed before the next one happens,
so the parent knows the true state at the instant it kills this process.
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile

os.environ["QT_QPA_PLATFORM"] = "offscreen"

from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication

from director.domain.rules import Side
from director.store.engine import open_database
from director.ui.clock.launch import open_clock_window
from director.ui.context import EventContext


def main() -> None:
    path, match_id, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    app = QApplication([])
    ctx = EventContext(open_database(path))
    settings = QSettings(os.path.join(tempfile.mkdtemp(), "keys.ini"), QSettings.Format.IniFormat)
    window = open_clock_window(ctx, match_id, settings=settings)
    clock = window.clock
    printed = 0

    def report() -> None:
        nonlocal printed
        for e in clock.events_since(printed):
            print(json.dumps(e.to_dict()), flush=True)
        printed = clock.event_count

    window.controller.changed.connect(report)
    window.timer.timeout.connect(report)  # checkpoints and flags, logged on the display tick
    window.press(1, Side.A)  # first movers: A1 and B2
    window.press(2, Side.B)
    window.start()
    report()
    print("started", flush=True)

    def press_someone() -> None:
        board = rng.choice((1, 2))
        side = clock.running_side(board)
        if side is not None:
            window.press(board, side)
        QTimer.singleShot(rng.randrange(50, 900), press_someone)

    QTimer.singleShot(rng.randrange(50, 900), press_someone)
    app.exec()


if __name__ == "__main__":
    main()
