"""Four players, one laptop: the key test, the flat view with faces turned to the players,
board 2 in its own window, external keypads as ordinary keys; the flag alarm."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from director.domain.clock import EventKind
from director.domain.rules import ClockMode, EventOptions, Side, TimeControl
from director.ui.clock.faces import Look
from director.ui.clock.keys import ACTIONS, KeyMap, KeyMapDialog
from director.ui.clock.window import ClockWindow
from tests.ui.clock.clock_helpers import OFFSCREEN_NOISE, FakeTime
from tests.ui.clock.conftest import OpenClock

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)

A, B = Side.A, Side.B
K = Qt.Key
SHORT = TimeControl(60, 5, ClockMode.FISCHER)


def click(
    qtbot: QtBot, widget: QWidget, key: Qt.Key, mods: Qt.KeyboardModifier | None = None
) -> None:
    qtbot.keyPress(widget, key, mods or Qt.KeyboardModifier.NoModifier)
    qtbot.keyRelease(widget, key, mods or Qt.KeyboardModifier.NoModifier)


def looks(window: ClockWindow) -> list[Look]:
    window.refresh()
    return [face.state.look for view in window.boards for face in view.faces]


def test_key_test_lights_each_players_face_and_touches_no_clock(
    qtbot: QtBot, open_clock: OpenClock
) -> None:
    window = open_clock()
    window.top.key_test_action.trigger()
    assert window.key_test is not None
    assert looks(window) == [Look.READY] * 4
    click(qtbot, window, K.Key_Z)
    assert looks(window) == [Look.TESTED, Look.READY, Look.READY, Look.READY]
    for key in (K.Key_Q, K.Key_Slash, K.Key_P):
        click(qtbot, window, key)
    assert looks(window) == [Look.TESTED] * 4
    assert "works" in window.boards[1].faces[0].state.note
    click(qtbot, window, K.Key_G)
    assert "G pauses board 1" in window.status.text()
    assert window.clock.events == ()  # nothing reached the clocks
    click(qtbot, window, K.Key_Return)  # ends the test
    assert window.key_test is None and looks(window) == [Look.READY] * 4
    click(qtbot, window, K.Key_Z)
    assert window.clock.events[-1].kind is EventKind.FIRST_MOVER


def test_flat_view_turns_b_faces_towards_their_players(qtbot: QtBot, open_clock: OpenClock) -> None:
    window = open_clock()
    window.top.flat_action.trigger()
    window.refresh()
    for view in window.boards:
        assert view.face_row.direction() is QBoxLayout.Direction.BottomToTop  # B on top
        a, b = view.faces
        assert (a.state.turned, b.state.turned) == (False, True)
        qtbot.wait(5)
        assert b.geometry().bottom() <= a.geometry().top()
    assert window.boards[0].x() < window.boards[1].x()  # board 1 left, board 2 right
    assert window.settings.value("clock/flat", False, bool)


def test_board_2_in_its_own_window_is_driven_by_the_same_clocks(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime
) -> None:
    window = open_clock()
    window.top.board2_action.trigger()
    screen = window.board2_screen
    assert screen is not None and screen.isVisible()
    assert window.boards[1].window() is screen
    click(qtbot, window, K.Key_Z)
    click(qtbot, screen, K.Key_P)  # B2's key, typed while board 2's window has the keyboard
    click(qtbot, screen, K.Key_Return)
    assert window.clock.running_side(1) is A and window.clock.running_side(2) is B
    fake_time.wait(2)
    qtbot.mouseClick(window.boards[1].faces[1], Qt.MouseButton.LeftButton)  # a tap on screen 2
    assert window.clock.running_side(2) is A
    window.top.board2_action.trigger()
    assert window.board2_screen is None and window.boards[1].window() is window


def test_a_keypad_key_is_its_own_key_for_a_board(
    qtbot: QtBot, settings, open_clock: OpenClock
) -> None:
    dialog = KeyMapDialog(KeyMap())
    qtbot.addWidget(dialog)
    dialog.edits["press-2-A"].setKeySequence(
        QKeySequence(K.Key_1.value | Qt.KeyboardModifier.KeypadModifier.value)
    )
    dialog.edits["press-2-B"].setKeySequence(QKeySequence(K.Key_1))  # a digit: typed in entries
    assert "typed into the game entries" in dialog.errors["press-2-B"].text()
    dialog.edits["press-2-B"].setKeySequence(QKeySequence(K.Key_F13))  # a foot switch's key
    dialog.save()
    assert dialog.result_map is not None
    dialog.result_map.save(settings)
    window = open_clock()
    click(qtbot, window, K.Key_Z)
    click(qtbot, window, K.Key_F13)  # B2 won the roll, on the foot switch
    click(qtbot, window, K.Key_Return)
    click(qtbot, window, K.Key_1)  # the main row's 1 is not the keypad's
    assert window.clock.running_side(2) is B
    click(qtbot, window, K.Key_F13)
    click(qtbot, window, K.Key_1, Qt.KeyboardModifier.KeypadModifier)
    assert window.clock.running_side(2) is B
    assert window.boards[1].faces[0].state.key == "Keypad 1"


def test_default_layout_keeps_play_keys_in_the_corners_and_pauses_in_the_middle() -> None:
    keys = {a.name: a.default for a in ACTIONS}
    assert [keys[f"press-{n}"] for n in ("1-A", "1-B", "2-A", "2-B")] == [
        K.Key_Z, K.Key_Q, K.Key_Slash, K.Key_P
    ]  # fmt: skip
    assert (keys["pause-1"], keys["pause-2"]) == (K.Key_G, K.Key_H)


def test_flag_alarm_repeats_and_flashes_until_acknowledged(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime
) -> None:
    window = open_clock(EventOptions(time_control=SHORT))
    for key in (K.Key_Z, K.Key_P, K.Key_Return):
        click(qtbot, window, key)
    fake_time.wait(30)
    click(qtbot, window, K.Key_P)
    fake_time.wait(31)
    qtbot.waitUntil(lambda: 1 in window.alarm.sounding, timeout=2000)
    qtbot.waitUntil(lambda: window.sound.played >= 3, timeout=5000)  # repeated (the beep here)
    flashes = set()
    for _ in range(4):
        qtbot.wait(550)
        window.refresh()
        flashes.add(window.boards[0].faces[0].state.flash)
    assert flashes == {True, False}  # the flagged face flashes
    button = window.boards[0].silence_button
    assert button.isVisible()
    button.click()
    played = window.sound.played
    qtbot.wait(1200)
    assert window.sound.played == played and not button.isVisible()
    window.refresh()
    assert not window.boards[0].faces[0].state.flash


def test_low_time_warning_sounds_once_per_crossing(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime
) -> None:
    window = open_clock()
    window.top.low_time_action.trigger()
    for key in (K.Key_Z, K.Key_P, K.Key_Return):
        click(qtbot, window, key)
    fake_time.wait(105)  # A1: 15 s left
    window.refresh()
    assert window.sound.warnings == 0
    fake_time.wait(6)  # 9 s left for A1 on board 1 and B2 on board 2: one warning each
    window.refresh()
    window.refresh()
    assert window.sound.warnings == 2
