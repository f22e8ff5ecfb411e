"""Helpers for the app-level GUI tests: read an event file back, a throwaway settings file."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from director.domain.event import EventInfo, TeamInfo
from director.domain.rules import EventOptions
from director.services import results
from director.services.events import get_event, update_event
from director.services.teams import add_team, list_teams
from director.store.engine import open_database
from director.ui.main_window import MainWindow


def make_window(qtbot: QtBot, settings: QSettings) -> MainWindow:
    """A shown main window on a throwaway settings file."""
    main = MainWindow(settings)
    qtbot.addWidget(main)
    main.show()
    return main


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
    db = open_database(str(path))
    try:
        with db.Session() as session:
            return list_teams(session)
    finally:
        db.close()


def stored_event(path: Path) -> EventInfo:
    db = open_database(str(path))
    try:
        with db.Session() as session:
            return get_event(session)
    finally:
        db.close()


def seed_teams(path: Path, count: int) -> None:
    db = open_database(str(path))
    with db.Session() as session, session.begin():
        for i in range(count):
            club = "Club" if i % 2 else ""
            add_team(session, f"Team {i + 1}", (f"Ann {i}", f"Bob {i}"), club=club)
    db.close()


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
            a = add_team(session, "Blue Bar", ("Ana", "Ben")).id
            b = add_team(session, "Gammonites", ("Cleo", "Dev")).id
            return results.create_match(session, a, b, table=3).id
    finally:
        db.close()
