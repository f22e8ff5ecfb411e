"""The child of test_desk_keys_wm.py: the match desk on a real X server with a window manager.

Usage: python -m tests.ui.desk.desk_wm_child EVENT_FILE MATCH_ID

It shows the desk on one match on $DISPLAY (platform xcb); the parent types with xdotool, as a
keyboard would, and asks what happened: one JSON command per line on stdin, one JSON answer
per line on stdout.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

os.environ["QT_QPA_PLATFORM"] = "xcb"

from PySide6.QtCore import QPoint, QSocketNotifier
from PySide6.QtWidgets import QApplication, QWidget

from director.services.matches import get_match
from director.store.engine import open_database
from director.ui.context import EventContext
from director.ui.desk.match_desk import MatchDeskPage


def centre(widget: QWidget) -> list[int]:
    point = widget.mapToGlobal(QPoint(widget.width() // 2, widget.height() // 2))
    return [point.x(), point.y()]


class Child:
    def __init__(self, path: str, match_id: int) -> None:
        self.ctx = EventContext(open_database(path))
        self.match_id = match_id
        self.desk = MatchDeskPage(self.ctx)
        self.desk.setWindowTitle("Desk")
        self.desk.resize(1280, 720)
        self.desk.show()
        self.desk.show_match(match_id)
        self.notifier = QSocketNotifier(sys.stdin.fileno(), QSocketNotifier.Type.Read)
        self.notifier.activated.connect(self.command)

    def reply(self, data: dict[str, Any]) -> None:
        print(json.dumps(data), flush=True)

    def command(self) -> None:
        line = sys.stdin.readline()
        if not line:
            QApplication.quit()
            return
        cmd = json.loads(line)
        if cmd["cmd"] == "quit":
            self.reply({"bye": True})
            QApplication.quit()
            return
        self.reply(self.state())

    def state(self) -> dict[str, Any]:
        focus = QApplication.focusWidget()
        active = QApplication.activeWindow()
        match = self.ctx.read(get_match, self.match_id)
        dialog = self.desk.dialog
        return {
            "winid": int(self.desk.winId()),
            "focus": focus.objectName() if focus is not None else None,
            "focus_class": type(focus).__name__ if focus is not None else None,
            "active": active.windowTitle() if active is not None else None,
            "dialog": dialog is not None and dialog.isVisible(),
            "question": self.desk.question is not None and self.desk.question.isVisible(),
            "games": [
                [g.pair, g.board, str(g.winner), str(g.end), g.cube, g.level and str(g.level)]
                for g in match.games
            ],
            "message": self.desk.messages.text,
            "pass_1": centre(self.desk.boards[0].cube.pass_button),
            "pass_1_ready": self.desk.boards[0].cube.pass_button.isVisible()
            and self.desk.boards[0].cube.pass_button.isEnabled(),
            "offer_a_1": centre(self.desk.boards[0].cube.offer_a),
            "games_row_0": self._row_centre(0),
        }

    def _row_centre(self, row: int) -> list[int] | None:
        table = self.desk.table
        index = table.model().index(row, 0)
        if not index.isValid():
            return None
        rect = table.visualRect(index)
        point = table.viewport().mapToGlobal(rect.center())
        return [point.x(), point.y()]


def main() -> None:
    app = QApplication(sys.argv[:1])
    child = Child(sys.argv[1], int(sys.argv[2]))
    child.reply({"ready": True})
    app.exec()
    child.ctx.close()


if __name__ == "__main__":
    main()
