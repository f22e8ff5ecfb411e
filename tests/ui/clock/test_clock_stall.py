"""A stalled event loop delays the display, never the charged time (RULES §7); the flag sound
and the screen inhibitor degrade quietly where the platform has neither."""

from __future__ import annotations

import logging
import time

import pytest
from PySide6.QtCore import Qt, QTimer
from pytestqt.qtbot import QtBot

from director.domain.clock import EventKind, format_remaining
from director.domain.rules import Side
from director.ui.clock.awake import ScreenAwake
from director.ui.clock.sound import FlagSound
from tests.ui.clock.clock_helpers import NS, OFFSCREEN_NOISE, key_down
from tests.ui.clock.conftest import OpenClock

pytestmark = [pytest.mark.qt_log_ignore(OFFSCREEN_NOISE), pytest.mark.serial]  # times a stall

A, B = Side.A, Side.B
STALL_S = 0.4


class RecordingClock:
    """The real monotonic clock, remembering every reading the window made."""

    def __init__(self) -> None:
        self.reads: list[int] = []

    def __call__(self) -> int:
        t = time.monotonic_ns()
        self.reads.append(t)
        return t


def test_rules_7_a_stalled_loop_delays_the_display_but_charges_exactly(
    qtbot: QtBot, open_clock: OpenClock
) -> None:
    source = RecordingClock()
    window = open_clock(source=source)
    key_down(window, Qt.Key.Key_Z)
    key_down(window, Qt.Key.Key_P)
    key_down(window, Qt.Key.Key_Return)
    ticks_before = len(source.reads)
    QTimer.singleShot(0, lambda: time.sleep(STALL_S))  # a slot that blocks the event loop
    qtbot.wait(100)
    key_down(window, Qt.Key.Key_Z)
    start, press = (
        e.t_ns for e in window.clock.events if e.kind in ("start", "press") and e.board == 1
    )
    thought = press - start
    assert thought >= STALL_S * NS  # the stalled time was charged, not skipped
    # A1 is charged exactly the source's elapsed time between start and press, plus 12 s
    assert window.clock.remaining_ns(1, A) == 120 * NS - thought + 12 * NS
    # board 2 (not pressed) was charged exactly what the source says, at any instant
    now = source()
    b2 = window.clock.remaining_ns(2, B, now)
    assert b2 == 120 * NS - (now - start)
    window.tick()
    shown = window.boards[1].faces[1].state.time
    assert shown in {format_remaining(b2), format_remaining(b2 - (source() - now))}
    assert len(source.reads) > ticks_before  # the display did catch up after the stall


def test_flag_sound_falls_back_to_the_beep_offscreen(
    qtbot: QtBot, caplog: pytest.LogCaptureFixture
) -> None:
    sound = FlagSound()
    assert sound.how == "beep" and sound.effect is None
    with caplog.at_level(logging.WARNING):
        sound.play()
        sound.play()
    assert sound.played == 2
    assert not caplog.records  # no warning: a missing audio device is not an error


def test_screen_awake_without_a_session_bus_is_silent(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, qtbot: QtBot
) -> None:
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    awake = ScreenAwake()
    with caplog.at_level(logging.INFO):
        awake.hold(True)
        assert awake.active and awake.how == ""
        awake.hold(True)  # idempotent
        awake.hold(False)
        awake.release()
    assert not awake.active
    assert any("D-Bus" in r.getMessage() for r in caplog.records)
    assert all(r.levelno < logging.WARNING for r in caplog.records)


def test_screen_awake_with_an_unreachable_bus_is_silent(
    monkeypatch: pytest.MonkeyPatch, qtbot: QtBot
) -> None:
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/tandem-test-bus")
    awake = ScreenAwake()
    awake.hold(True)
    assert awake.how == ""
    awake.hold(False)


def test_the_window_holds_the_screen_only_while_a_clock_runs(open_clock: OpenClock) -> None:
    window = open_clock()
    window.refresh()
    assert not window.awake.active
    key_down(window, Qt.Key.Key_Z)
    key_down(window, Qt.Key.Key_P)
    key_down(window, Qt.Key.Key_Return)
    window.refresh()
    assert window.awake.active
    key_down(window, Qt.Key.Key_Space)
    window.refresh()
    assert not window.awake.active
    assert [e.kind for e in window.clock.events][-2:] == [EventKind.PAUSE, EventKind.PAUSE]
