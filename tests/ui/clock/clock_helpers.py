"""Helpers for the clock-window tests: a hand-moved time source, a seeded match, key events."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from director.domain.clock import ClockEvent
from director.services import clocks
from director.ui.clock.window import ClockWindow
from tests.event_files import read_back

NS = 1_000_000_000
OFFSCREEN_NOISE = "This plugin does not support"


class FakeTime:
    """A monotonic source the test moves by hand: time jumps instead of sleeps."""

    def __init__(self, t: int = 5_000 * NS) -> None:
        self.t = t

    def __call__(self) -> int:
        return self.t

    def wait(self, seconds: float) -> int:
        self.t += round(seconds * NS)
        return self.t


def stored_log(path: Path, match_id: int) -> list[ClockEvent]:
    return read_back(path, lambda session: clocks.load_events(session, match_id))


def click(qtbot: QtBot, widget: QWidget, key: Qt.Key) -> None:
    """A key pressed and released, as the test's keyboard sends it."""
    qtbot.keyPress(widget, key)
    qtbot.keyRelease(widget, key)


def started(qtbot: QtBot, window: ClockWindow) -> None:
    """The opening rolls: A1 moves first on board 1, B2 on board 2, then Return starts."""
    for key in (Qt.Key.Key_Z, Qt.Key.Key_P, Qt.Key.Key_Return):
        click(qtbot, window, key)


def key_down(
    widget: QWidget, key: Qt.Key, *, repeat: bool = False, hold: bool = False, stamp: int = 0
) -> None:
    """A key-down as the keyboard sends it (auto-repeat sends more key-downs, flagged), then
    its release unless the key is held (or this is a repeat of a held key). `stamp` is the
    platform's timestamp in ms (0: none)."""
    text = chr(key.value).lower() if key.value < 0x80 else ""
    event = QKeyEvent(QEvent.Type.KeyPress, key, Qt.KeyboardModifier.NoModifier, text, repeat)
    event.setTimestamp(stamp)
    QApplication.sendEvent(widget, event)
    if not (hold or repeat):
        key_up(widget, key)


def key_up(widget: QWidget, key: Qt.Key, *, stamp: int = 0) -> None:
    event = QKeyEvent(QEvent.Type.KeyRelease, key, Qt.KeyboardModifier.NoModifier)
    event.setTimestamp(stamp)
    QApplication.sendEvent(widget, event)
