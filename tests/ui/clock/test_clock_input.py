"""Keys reach the clocks, once, charged when they went down (issue defects 1, 2, 5, 6; RULES §7).

Keys go through the real window with pytest-qt's keyPress/keyRelease; the focus tests on a
real X server with a window manager are in test_clock_wm.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from director.domain.clock import EventKind
from director.domain.rules import ClockMode, EventOptions, Side, TimeControl
from director.services import games
from director.ui.clock.window import ClockWindow
from tests.ui.clock.clock_helpers import (
    NS,
    OFFSCREEN_NOISE,
    FakeTime,
    click,
    key_down,
    key_up,
    started,
    stored_log,
)
from tests.ui.clock.conftest import OpenClock

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)

A, B = Side.A, Side.B
K = Qt.Key
SHORT = TimeControl(60, 5, ClockMode.FISCHER)


def flagged_entry(qtbot: QtBot, window: ClockWindow, fake_time: FakeTime) -> QWidget:
    fake_time.wait(30)
    click(qtbot, window, K.Key_P)  # B2 moves; A2 now thinks
    fake_time.wait(31)  # A1 flags at 60 s
    qtbot.waitUntil(lambda: 1 in window.entries, timeout=2000)
    return window.entries[1]


def global_rect(widget: QWidget) -> QRect:
    return QRect(widget.mapToGlobal(QPoint(0, 0)), widget.size())


# -- 1: an open game entry does not take the keyboard from the clocks ---------------------------


def test_space_in_the_forfeit_entry_pauses_the_clocks_not_its_winner_list(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime
) -> None:
    window = open_clock(EventOptions(time_control=SHORT))
    started(qtbot, window)
    dialog = flagged_entry(qtbot, window, fake_time)
    assert not dialog.isModal()
    winner = dialog.form.winner  # type: ignore[attr-defined]
    winner.setFocus()  # the director clicked into the entry
    qtbot.keyPress(winner, K.Key_Space)
    assert window.clock.is_paused(2)  # Space is pause-all, wherever the focus is
    assert not winner.view().isVisible()  # and it did not open the Winner list
    qtbot.keyRelease(winner, K.Key_Space)
    click(qtbot, winner, K.Key_Space)
    assert window.clock.running_side(2) is A
    click(qtbot, winner, K.Key_G)  # board 1 is flagged: its pause key pauses it to correct
    click(qtbot, winner, K.Key_H)  # board 2's pause key, from inside the entry
    assert window.clock.is_paused(2)


def test_the_forfeit_entry_covers_no_face(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime
) -> None:
    window = open_clock(EventOptions(time_control=SHORT))
    started(qtbot, window)
    dialog = flagged_entry(qtbot, window, fake_time)
    qtbot.wait(10)
    entry = dialog.frameGeometry()
    for view in window.boards:
        for face in view.faces:
            assert not entry.intersects(global_rect(face)), face.objectName()
    assert window.boards[0].faces[0].height() >= 120  # the flagged face is still readable


# -- 2: no press is lost while an entry is being saved -----------------------------------------


def test_a_press_that_arrives_while_the_entry_is_saved_is_not_lost(
    qtbot: QtBot,
    open_clock: OpenClock,
    fake_time: FakeTime,
    event_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    window = open_clock(EventOptions(time_control=SHORT))
    started(qtbot, window)
    dialog = flagged_entry(qtbot, window, fake_time)
    save = dialog.save_button  # type: ignore[attr-defined]
    winner = dialog.form.winner  # type: ignore[attr-defined]
    real_record = games.record_game

    def record_while_a2_presses(*args: object, **kwargs: object) -> object:
        fake_time.wait(0.01)
        click(qtbot, winner, K.Key_Slash)  # A2 ends the move during the save's commit
        return real_record(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(games, "record_game", record_while_a2_presses)
    save.click()
    assert 1 not in window.entries
    assert window.clock.running_side(2) is B  # A2's press counted
    assert window.controller.writer is not None and window.controller.writer.flush()
    presses = [e for e in stored_log(event_path, window.match.id) if e.kind is EventKind.PRESS]
    assert [(e.board, e.side) for e in presses][-1] == (2, A)


# -- 5: a press is charged when the key went down ----------------------------------------------


def test_event_time_maps_platform_timestamps_never_before_the_key_went_down() -> None:
    from director.ui.clock.input import EventTime

    now = FakeTime(1_000 * NS)
    clock = EventTime(now, trusted=True)
    assert clock.at(70_000) == now.t  # the first event: its lag is the offset
    now.wait(0.5)
    assert clock.at(70_400) == now.t - 100_000_000  # went down 0.1 s ago, handled now
    now.wait(2)
    assert clock.at(70_600) == 1_000 * NS + 600_000_000  # a stalled loop: charged at 0.6 s
    assert clock.at(0) == now.t  # no timestamp: now
    untrusted = EventTime(now, trusted=False)
    assert untrusted.at(70_000) == now.t


def test_a_press_during_a_stall_is_charged_at_its_key_down(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime
) -> None:
    window = open_clock()
    window.input.time.trusted = True  # the offscreen platform's stamps are counters
    stamp = 900_000
    key_down(window, K.Key_Z, stamp=stamp)
    key_down(window, K.Key_P, stamp=stamp)
    key_down(window, K.Key_Return, stamp=stamp)
    start = fake_time.t
    fake_time.wait(3)
    key_down(window, K.Key_P, stamp=stamp + 3_000)  # B2 on time, handled on time
    fake_time.wait(1.5)  # A1 presses 1.5 s later, when the process is stalled 1.5 s
    key_down(window, K.Key_Z, stamp=stamp + 4_500 - 1_500)
    press = [e for e in window.clock.events if e.kind is EventKind.PRESS and e.board == 1][-1]
    assert press.t_ns == start + 3 * NS  # charged at the key-down, not 1.5 s later
    assert window.clock.remaining_ns(1, A) == (120 - 3 + 12) * NS


def test_a_late_key_never_goes_before_an_action_already_logged(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime
) -> None:
    window = open_clock()
    window.input.time.trusted = True
    key_down(window, K.Key_Z, stamp=10_000)
    key_down(window, K.Key_P, stamp=10_000)
    key_down(window, K.Key_Return, stamp=10_000)
    fake_time.wait(2)
    window.perform("pause-all")  # a click on Pause all, timed now
    key_down(window, K.Key_Z, stamp=11_000)  # went down before that pause: nothing to charge
    assert [e.t_ns for e in window.clock.events] == sorted(e.t_ns for e in window.clock.events)
    assert window.clock.is_paused(1) and window.clock.is_paused(2)


# -- 6: a key counts once per physical down ----------------------------------------------------


def test_a_held_key_counts_once_even_when_input_is_mixed(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime
) -> None:
    window = open_clock()
    started(qtbot, window)
    fake_time.wait(5)
    qtbot.keyPress(window, K.Key_Z)  # A1 presses and holds the key down
    assert window.clock.running_side(1) is B
    fake_time.wait(3)
    qtbot.mouseClick(window.boards[0].faces[1], Qt.MouseButton.LeftButton)  # B1 taps the face
    assert window.clock.running_side(1) is A
    fake_time.wait(1)
    qtbot.keyPress(window, K.Key_Z)  # X's repeat, no longer marked as one: not a press
    assert window.clock.running_side(1) is A
    presses = [e for e in window.clock.events if e.kind is EventKind.PRESS and e.board == 1]
    assert len(presses) == 2
    assert window.clock.remaining_ns(1, A) == (120 - 5 - 1 + 12) * NS  # one increment
    qtbot.keyRelease(window, K.Key_Z)
    qtbot.keyPress(window, K.Key_Z)  # released, then pressed again: a press
    assert window.clock.running_side(1) is B


def test_x11_repeat_without_detectable_repeat_is_not_a_press(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime
) -> None:
    window = open_clock()
    started(qtbot, window)
    fake_time.wait(5)
    key_down(window, K.Key_Z, hold=True, stamp=20_000)
    qtbot.mouseClick(window.boards[0].faces[1], Qt.MouseButton.LeftButton)
    # without detectable auto-repeat X sends release + press with one timestamp per repeat
    key_up(window, K.Key_Z, stamp=20_500)
    key_down(window, K.Key_Z, hold=True, stamp=20_500)
    assert window.clock.running_side(1) is A
