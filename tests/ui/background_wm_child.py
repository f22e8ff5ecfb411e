"""The child of test_background_wm.py: a window waiting on a database call, on a real X server.

Usage: python -m tests.ui.background_wm_child EVENT_FILE RELEASE_FILE

It shows a focused line edit, then makes one `Background.call` whose service waits until
RELEASE_FILE exists. The parent types with xdotool meanwhile, as a keyboard would. One JSON
line on stdout when the window is up, one when the call waits, one with what the field held
while waiting, when the call returned, and once the loop ran on.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

os.environ["QT_QPA_PLATFORM"] = "xcb"

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QLineEdit
from sqlalchemy.orm import Session

from director.services.teams import list_teams
from director.store.engine import open_event
from director.ui.background import Background


def say(**what: object) -> None:
    sys.stdout.write(json.dumps(what) + "\n")
    sys.stdout.flush()


def main() -> None:
    event, release = sys.argv[1], Path(sys.argv[2])
    app = QApplication([])
    db = open_event(event, make_backup=False)
    door = Background(db)
    field = QLineEdit()
    field.setWindowTitle("door")
    field.show()
    field.activateWindow()
    field.setFocus()
    during: list[str] = []

    def tick() -> None:
        if not during:
            say(waiting=True)
        during.append(field.text())

    def slow(session: Session) -> int:
        for _ in range(600):
            if release.exists():
                break
            time.sleep(0.05)
        return len(list_teams(session))

    def run() -> None:
        timer = QTimer(field)
        timer.setInterval(50)
        timer.timeout.connect(tick)
        timer.start()
        door.call(slow, False)
        timer.stop()
        at_return = field.text()
        QTimer.singleShot(800, lambda: finish(at_return))

    def finish(at_return: str) -> None:
        say(during=sorted(set(during)), ticks=len(during), at_return=at_return, after=field.text())
        door.stop()
        db.close()
        app.quit()

    QTimer.singleShot(300, lambda: say(ready=True, window=int(field.winId())))
    QTimer.singleShot(1500, run)  # once the parent has had the window focused
    app.exec()


if __name__ == "__main__":
    main()
