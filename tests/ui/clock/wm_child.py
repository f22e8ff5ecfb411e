"""The child of test_clock_wm.py: real clock windows on a real X server with a window manager.

Usage: python -m tests.ui.clock.wm_child EVENT_FILE MATCH_ID [MATCH_ID...]

It opens one clock window per match on $DISPLAY (platform xcb, the real monotonic clock, the
real writer) and a plain "Desk" window standing for the app's other windows. The parent types
with xdotool, as a keyboard would, and asks this child what happened: one JSON command per line
on stdin, one JSON answer per line on stdout.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from typing import Any

os.environ["QT_QPA_PLATFORM"] = "xcb"

from PySide6.QtCore import QEvent, QObject, QPoint, QSettings, QSocketNotifier, QTimer
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialog,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QWidget,
)

from director.domain.rules import Side
from director.services import games
from director.store.engine import open_database
from director.ui.clock.launch import open_clock_window
from director.ui.clock.window import ClockWindow
from director.ui.context import EventContext


def centre(widget: QWidget) -> list[int]:
    point = widget.mapToGlobal(QPoint(widget.width() // 2, widget.height() // 2))
    return [point.x(), point.y()]


class Spy(QObject):
    """TANDEM_WM_DEBUG=1: every key and mouse press, where it went, on stderr."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (
            QEvent.Type.KeyPress,
            QEvent.Type.MouseButtonPress,
            QEvent.Type.MouseButtonRelease,
            QEvent.Type.WindowActivate,
            QEvent.Type.FocusIn,
        ):
            where = watched.window().windowTitle() if isinstance(watched, QWidget) else ""
            sys.stderr.write(
                f"{time.monotonic():.3f} {event.type()} {type(watched).__name__} {where}\n"
            )
        return False


class Child:
    def __init__(self, path: str, match_ids: list[int]) -> None:
        self.app = QApplication([])
        self.ctx = EventContext(open_database(path))
        ini = os.path.join(tempfile.mkdtemp(), "keys.ini")
        settings = QSettings(ini, QSettings.Format.IniFormat)
        self.desk = QLabel("the director's desk")
        self.desk.setWindowTitle("Desk")
        self.desk.resize(400, 200)
        self.desk.show()
        self.windows: dict[int, ClockWindow] = {}
        for match_id in match_ids:
            window = open_clock_window(self.ctx, match_id, settings=settings)
            window.resize(1200, 700)
            self.windows[match_id] = window
        self.save_delay = 0.0
        self.dialogs: list[QDialog] = []
        real_record = games.record_game

        def slow_record(*args: Any, **kwargs: Any) -> Any:
            time.sleep(self.save_delay)  # a slow disk: the commit takes this long
            return real_record(*args, **kwargs)

        games.record_game = slow_record  # type: ignore[assignment]
        if os.environ.get("TANDEM_WM_DEBUG"):
            self.spy = Spy()
            self.app.installEventFilter(self.spy)
        self.notifier = QSocketNotifier(sys.stdin.fileno(), QSocketNotifier.Type.Read)
        self.notifier.activated.connect(self.command)

    def reply(self, data: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(data) + "\n")
        sys.stdout.flush()

    def command(self) -> None:
        line = sys.stdin.readline()
        if not line:
            self.app.quit()
            return
        data = json.loads(line)
        name = data["cmd"]
        if name == "state":
            self.reply(self.state())
        elif name == "stall":
            self.reply({"stall_from": time.monotonic_ns()})
            QTimer.singleShot(0, lambda: time.sleep(data["s"]))
        elif name == "slow-save":
            self.save_delay = data["s"]
            self.reply({})
        elif name == "adjust":  # the director right-clicks a paused face: the modal dialog
            window = self.windows[data["match"]]
            side = Side(data["side"])
            QTimer.singleShot(0, lambda: window.adjust(data["board"], side))
            self.reply({})
        elif name == "log":
            self.dialogs.append(self.windows[data["match"]].show_log())
            self.reply({})
        elif name == "quit":
            for window in self.windows.values():
                window.close()
            self.reply({})
            QTimer.singleShot(0, self.app.quit)

    def state(self) -> dict[str, Any]:
        active = QApplication.activeWindow()
        focus = QApplication.focusWidget()
        popups = [c for c in self.app.allWidgets() if isinstance(c, QComboBox)]
        out: dict[str, Any] = {
            "now": time.monotonic_ns(),
            "active": active.windowTitle() if active is not None else None,
            "focus": type(focus).__name__ if focus is not None else None,
            "popup": any(c.view().isVisible() for c in popups),
            "desk": int(self.desk.winId()),
            "desk_title": self.desk.windowTitle(),
            "windows": {},
        }
        for match_id, window in self.windows.items():
            clock = window.clock
            out["windows"][str(match_id)] = {
                "winid": int(window.winId()),
                "title": window.windowTitle(),
                "events": [[e.kind.value, e.board, e.side, e.t_ns] for e in clock.events],
                "phases": [clock.state.board(n).phase.value for n in (1, 2)],
                "no_keys": window.no_keys.isVisible(),
                "no_keys_text": window.no_keys.text(),
                "entries": {
                    str(n): {
                        "visible": d.isVisible(),
                        "save": centre(d.save_button),
                        "winner": centre(d.form.winner),
                    }
                    for n, d in window.entries.items()
                },
                "faces": [centre(f) for view in window.boards for f in view.faces],
                "fields": {  # the text fields of the window's open dialogs
                    f"{d.objectName() or type(d).__name__}/{e.objectName()}": {
                        "at": centre(e),
                        "text": e.text() if isinstance(e, QLineEdit) else e.toPlainText(),
                    }
                    for d in window.findChildren(QDialog)
                    if d.isVisible()
                    for e in d.findChildren(QWidget)
                    if isinstance(e, QLineEdit | QPlainTextEdit)
                    and e.isVisible()
                    and e.objectName()
                },
            }
        return out


def main() -> None:
    child = Child(sys.argv[1], [int(m) for m in sys.argv[2:]])
    child.reply({"ready": True})
    child.app.exec()
    child.ctx.close()


if __name__ == "__main__":
    main()
