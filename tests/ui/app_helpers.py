"""Helpers for the app-level GUI tests: read an event file back, a throwaway settings file, a
context over an event file, a shown page."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QEvent, QSettings, Qt, QTimer
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QLabel,
    QMessageBox,
    QPushButton,
    QTableView,
    QTabWidget,
    QWidget,
)
from pytestqt.qtbot import QtBot

from director.domain.event import EventInfo, TeamInfo
from director.domain.rules import EventOptions
from director.services import matches
from director.services.events import get_event, update_event
from director.services.teams import add_team, list_teams
from director.store.engine import open_database
from director.ui.context import EventContext
from director.ui.main_window import MainWindow
from tests.event_files import read_back

W = TypeVar("W", bound=QWidget)


@contextlib.contextmanager
def event_context(path: Path) -> Iterator[EventContext]:
    """The GUI's context over the event file at `path`, closed afterwards."""
    context = EventContext(open_database(str(path)))
    try:
        yield context
    finally:
        context.close()


def shown_page(qtbot: QtBot, widget: W) -> W:
    """The widget, closed with the test, shown at the laptop size the pages are laid out for."""
    qtbot.addWidget(widget)
    widget.resize(1366, 700)
    widget.show()
    return widget


def make_window(qtbot: QtBot, settings: QSettings) -> MainWindow:
    """A shown main window on a throwaway settings file."""
    main = MainWindow(settings)
    qtbot.addWidget(main)
    main.show()
    return main


@contextlib.contextmanager
def locked_until_the_window_ticks(
    parent: QWidget, path: Path, mode: str = "EXCLUSIVE"
) -> Iterator[list[int]]:
    """Another program holds the SQLite file `path` locked (`BEGIN <mode>`) until the window's
    timer, every 50 ms, lets it go on its third tick; yields the ticks. What waits for the
    lock meanwhile gets it only if the GUI thread keeps running."""
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute(f"BEGIN {mode}")
    ticks: list[int] = []

    def tick() -> None:
        ticks.append(len(ticks))
        if len(ticks) == 3:
            holder.execute("ROLLBACK")

    timer = QTimer(parent)
    timer.setInterval(50)
    timer.timeout.connect(tick)
    timer.start()
    try:
        yield ticks
    finally:
        timer.stop()
        holder.close()


def backed_up_at_open(qtbot: QtBot, window: MainWindow) -> None:
    """Until the open event's worker has made the backup at opening (it is made once the
    window shows the event, off the GUI thread)."""
    ctx = window.ctx
    assert ctx is not None
    qtbot.waitUntil(lambda: not ctx.background.busy, timeout=30_000)


# the offscreen platform cannot resize a shown window to its size hints, and says so
OFFSCREEN_NOISE = "This plugin does not support"


def stored_teams(path: Path) -> list[TeamInfo]:
    """The teams as they are on disk: a fresh connection, not the page's."""
    return read_back(path, list_teams)


def stored_event(path: Path) -> EventInfo:
    return read_back(path, get_event)


def throwaway_settings(folder: Path) -> QSettings:
    return QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)


def visible_box(parent: QWidget) -> QMessageBox:
    boxes = [b for b in parent.findChildren(QMessageBox) if b.isVisible()]
    assert len(boxes) == 1, f"{len(boxes)} message boxes shown"
    return boxes[0]


def answer(qtbot: QtBot, parent: QWidget, text: str) -> None:
    """Click the button labelled `text` in the one message box shown over `parent`."""
    box = visible_box(parent)
    button = next(b for b in box.buttons() if b.text().replace("&", "") == text)
    with qtbot.waitSignal(box.finished):
        button.click()


def seed_match(path: Path, options: EventOptions | None = None) -> int:
    """Blue Bar v Gammonites at table 3, under these event options; returns the match id."""
    db = open_database(str(path))
    try:
        with db.Session() as session, session.begin():
            update_event(session, options=options or EventOptions())
            a = add_team(session, "Blue Bar", ("Ana", "Ben")).value.id
            b = add_team(session, "Gammonites", ("Cleo", "Dev")).value.id
            return matches.create_match(session, a, b, table=3).value.id
    finally:
        db.close()


def shown_texts(widget: QWidget) -> list[str]:
    """What a person reads in the widget as shown: its title, labels, buttons and their menus,
    tabs, and the visible columns' heads with their tooltips."""
    out = [widget.windowTitle()]
    for label in widget.findChildren(QLabel):
        if label.isVisibleTo(widget) and label.text():
            out.append(label.text())
    for button in widget.findChildren(QAbstractButton):
        if button.isVisibleTo(widget):
            out += [button.text(), button.toolTip()]
            menu = button.menu() if isinstance(button, QPushButton) else None
            if menu is not None:
                out += [a.text() for a in menu.actions() if a.isVisible()]
    for tabs in widget.findChildren(QTabWidget):
        out += [tabs.tabText(i) for i in range(tabs.count()) if tabs.isTabVisible(i)]
    for table in widget.findChildren(QTableView):
        model = table.model()
        if not table.isVisibleTo(widget) or model is None:
            continue
        for c in range(model.columnCount()):
            if not table.isColumnHidden(c):
                for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                    out.append(str(model.headerData(c, Qt.Orientation.Horizontal, role) or ""))
    return [t for t in out if t]


def type_chars(widget: QWidget, text: str) -> None:
    """Type `text` into `widget` as a keyboard sends it, any character ("²", "٣" too: QTest's
    keyClicks aborts the process on a character outside ASCII)."""
    for char in text:
        for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            QApplication.sendEvent(widget, QKeyEvent(kind, 0, Qt.KeyboardModifier.NoModifier, char))
