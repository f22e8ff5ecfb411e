"""Remapping the clock keys (kept in the settings) and adjusting a paused side's time."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QTextBrowser
from pytestqt.qtbot import QtBot

from director.domain.rules import Side
from director.ui.clock.adjust import AdjustDialog, parse_time
from director.ui.clock.keys import ACTIONS, KeyMap, KeyMapDialog
from tests.ui.clock.clock_helpers import NS, OFFSCREEN_NOISE, FakeTime, key_down
from tests.ui.clock.conftest import OpenClock

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)

K = Qt.Key
A, B = Side.A, Side.B


def test_defaults_are_distinct_and_shown_on_the_faces(open_clock: OpenClock) -> None:
    assert len({a.default for a in ACTIONS}) == len(ACTIONS)
    window = open_clock()
    window.refresh()
    keys = [face.state.key for view in window.boards for face in view.faces]
    assert keys == ["Z", "Q", "/", "P"]
    assert "A1 Z" in window.keys_hint.text() and "B2 P" in window.keys_hint.text()


def test_rules_7_keys_can_be_remapped_and_are_remembered(
    qtbot: QtBot, settings: QSettings, open_clock: OpenClock, fake_time: FakeTime
) -> None:
    dialog = KeyMapDialog(KeyMap())
    qtbot.addWidget(dialog)
    dialog.edits["press-1-A"].setKeySequence(QKeySequence(K.Key_A))
    dialog.edits["press-1-B"].setKeySequence(QKeySequence(K.Key_A))  # the same key twice
    assert not dialog.buttons.button(QDialogButtonBox.StandardButton.Save).isEnabled()
    assert "already" in dialog.errors["press-1-B"].text()
    assert dialog.errors["press-1-B"].isVisibleTo(dialog)
    dialog.edits["press-1-B"].setKeySequence(QKeySequence(K.Key_Escape))
    assert "full screen" in dialog.errors["press-1-B"].text()
    dialog.edits["press-1-B"].setKeySequence(QKeySequence(K.Key_D))
    dialog.save()
    assert dialog.result_map is not None
    dialog.result_map.save(settings)
    window = open_clock()  # a new window reads the saved keys
    key_down(window, K.Key_A)
    key_down(window, K.Key_P)
    key_down(window, K.Key_Return)
    assert window.clock.running_side(1) is A
    fake_time.wait(1)
    key_down(window, K.Key_Z)  # the old key does nothing now
    assert window.clock.running_side(1) is A
    key_down(window, K.Key_A)
    assert window.clock.running_side(1) is B
    window.refresh()
    assert window.boards[0].faces[1].state.key == "D"


def test_a_modifier_key_combination_is_refused(qtbot: QtBot) -> None:
    dialog = KeyMapDialog(KeyMap())
    qtbot.addWidget(dialog)
    dialog.edits["pause-all"].setKeySequence(QKeySequence("Ctrl+P"))
    assert not dialog.check()
    assert "without Ctrl" in dialog.errors["pause-all"].text()
    dialog.restore_defaults()
    assert dialog.check()


def test_damaged_settings_fall_back_to_the_defaults(settings: QSettings) -> None:
    settings.setValue("clock-keys/press-1-A", "Q")  # clashes with B1's default
    assert KeyMap.load(settings).key("press-1-A") == K.Key_Z.value
    settings.setValue("clock-keys/press-1-A", "not a key at all ++")
    assert KeyMap.load(settings).key("press-1-A") == K.Key_Z.value


@pytest.mark.parametrize(
    ("text", "ns"),
    [("1:05", 65 * NS), ("0:19.5", 19_500_000_000), ("75", 75 * NS), ("1:00:00", 3600 * NS)],
)
def test_adjusted_times_are_read_as_written(text: str, ns: int) -> None:
    assert parse_time(text) == ns


@pytest.mark.parametrize(
    "text", ["", "1:75", "abc", "-5", "1:2:3:4", "20:00:00", "١:٠٥", "1:0٥", "٧٥"]
)  # \d matched "١", "٥" and "٧", and int() read "١:٠٥" as 1:05
def test_adjusted_times_that_are_no_time_are_refused(qtbot: QtBot, text: str) -> None:
    dialog = AdjustDialog("A1", 60 * NS)
    qtbot.addWidget(dialog)
    dialog.edit.setText(text)
    assert dialog.error.isVisibleTo(dialog) and dialog.error.text()
    dialog.save()
    assert dialog.remaining_ns is None


def test_rules_7_director_adjusts_a_side_only_while_paused(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime
) -> None:
    window = open_clock()
    key_down(window, K.Key_Z)
    key_down(window, K.Key_P)
    key_down(window, K.Key_Return)
    fake_time.wait(20)
    window.adjust(1, A)  # running: refused with the reason
    assert "Pause board 1" in window.status.text()
    key_down(window, K.Key_G)

    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, AdjustDialog)
        key_down(dialog.edit, K.Key_P)  # a text field owns its keys: typed, not pressed
        assert window.clock.running_side(2) is B and dialog.edit.text().endswith("p")
        dialog.edit.setText("1:30")
        dialog.save()

    QTimer.singleShot(0, answer)
    window.adjust(1, A)
    assert window.clock.remaining_ns(1, A) == 90 * NS
    key_down(window, K.Key_G)
    fake_time.wait(5)
    assert window.clock.remaining_ns(1, A) == 85 * NS


def test_f1_opens_the_help_page(qtbot: QtBot, open_clock: OpenClock) -> None:
    window = open_clock()
    key_down(window, K.Key_F1)
    browsers = window.findChildren(QTextBrowser)
    assert browsers
    text = browsers[-1].toPlainText()
    assert "Match clocks" in text and "3 × the cube" in text
    assert "board 1, A1 ends the move" in text
