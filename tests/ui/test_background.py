"""The one door for the GUI's database work (`ui.background`, issue 14 point 5, #17's one door):
every call runs on the event's worker thread; a call that waits keeps the window running and
says "not answering" when it is slow."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer
from PySide6.QtWidgets import QLineEdit, QWidget
from pytestqt.qtbot import QtBot
from sqlalchemy.orm import Session

import director.ui
from director.domain.errors import UserError
from director.services.teams import add_team, list_teams
from director.store.engine import open_event
from director.ui.background import FILE_NOT_ANSWERING, Background


def _thread(_session: Session) -> str:
    return threading.current_thread().name


def ticking(parent: QObject, tick: Callable[[], None]) -> QTimer:
    """The window's timer, every 50 ms, while a call waits."""
    timer = QTimer(parent)
    timer.setInterval(50)
    timer.timeout.connect(tick)
    timer.start()
    return timer


def test_a_call_runs_on_the_worker_and_answers_like_a_direct_call(
    qtbot: QtBot, event_path: Path
) -> None:
    db = open_event(str(event_path), make_backup=False)
    door = Background(db)
    try:
        assert door.call(_thread, False).startswith("database")
        assert door.call(add_team, True, "Blue", ("a", "b")).value.name == "Blue"
        with pytest.raises(UserError, match="already"):
            door.call(add_team, True, "blue", ("c", "d"))
        assert [t.name for t in door.call(list_teams, False)] == ["Blue"]  # committed once
        with pytest.raises(ZeroDivisionError):  # a bug keeps its own exception
            door.call(lambda _s: 1 // 0, False)
    finally:
        door.stop()
        shiboken6.delete(door)  # on this thread: never left for the collector on another
        db.close()


def test_a_waiting_call_keeps_the_window_running_and_says_it_is_slow(
    qtbot: QtBot, event_path: Path
) -> None:
    db = open_event(str(event_path), make_backup=False)
    said: list[str] = []
    recovered: list[bool] = []
    door = Background(
        db, on_slow=said.append, on_recovered=lambda: recovered.append(True), slow_ms=300
    )
    field = QLineEdit()
    qtbot.addWidget(field)
    field.show()
    release = threading.Event()
    ticks: list[str] = []  # the GUI thread's timer, and the field's text, while the call waits

    def tick() -> None:
        ticks.append(field.text())
        if said and len(ticks) >= 3:
            release.set()

    def slow_service(session: Session) -> int:
        assert release.wait(30)  # answers once the window has said it is slow
        return len(list_teams(session))

    timer = ticking(field, tick)
    try:
        assert door.call(slow_service, False) == 0
        timer.stop()
        assert said == [FILE_NOT_ANSWERING]  # an event file's words, not a server's
        assert recovered == [True]
        assert len(ticks) >= 3  # the window's timers ran while the call waited
    finally:
        door.stop()
        shiboken6.delete(door)  # on this thread: never left for the collector on another
        db.close()


def test_an_event_files_call_keeps_the_window_running_long_before_it_is_slow(
    qtbot: QtBot, event_path: Path
) -> None:
    """A call on an event file that waits (a busy drive) paints and runs the window's timers
    from the start, not only once it is called slow after seconds; a widget closed outside
    any event loop (as the tests close message boxes) is not deleted under its caller."""
    db = open_event(str(event_path), make_backup=False)
    said: list[str] = []
    door = Background(db, on_slow=said.append)  # the app's own "not answering" delay
    field = QLineEdit()
    qtbot.addWidget(field)
    closed = QWidget()
    closed.deleteLater()  # outside any event loop: only a loop of its level may delete it
    release = threading.Event()
    ticks: list[int] = []

    def tick() -> None:
        ticks.append(len(ticks))
        if len(ticks) >= 3:
            release.set()

    def waiting_service(session: Session) -> int:
        assert release.wait(30)  # answers once the window's timer has run three times
        return len(list_teams(session))

    timer = ticking(field, tick)
    try:
        assert door.call(waiting_service, False) == 0
        timer.stop()
        assert len(ticks) >= 3
        assert said == []  # it answered before it was slow: nothing to say
        assert shiboken6.isValid(closed)  # still there for whoever closed it
    finally:
        door.stop()
        shiboken6.delete(door)  # on this thread: never left for the collector on another
        db.close()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def test_no_gui_module_opens_a_session_of_its_own() -> None:
    """Every session of the GUI is opened by the one door (`store.work.in_session`, used by
    `ui.background` and the Qt-free clock writer)."""
    folder = Path(director.ui.__file__).parent
    opening = re.compile(r"\.Session\(|sessionmaker|\.engine\.(connect|begin)\(")
    found = [
        f"{path.relative_to(folder)}:{number}"
        for path in sorted(folder.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if opening.search(line)
    ]
    assert found == []
