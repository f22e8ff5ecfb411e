"""The arbiter's tools at the clock window (issue defects 4, 7, 8; RULES §7).

Keys go through the real window (pytest-qt keyPress/keyRelease); what is logged is read back
from the event file with a fresh connection.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from director.domain.clock import EventKind, Phase
from director.domain.rules import ClockMode, EventOptions, Side, TimeControl
from director.services import audit
from director.store.engine import open_database
from director.ui.clock.adjust import AdjustDialog, exact_time, parse_time
from tests.ui.clock.clock_helpers import NS, OFFSCREEN_NOISE, FakeTime, click, started, stored_log
from tests.ui.clock.conftest import OpenClock

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)

A, B = Side.A, Side.B
K = Qt.Key
SHORT = TimeControl(60, 5, ClockMode.FISCHER)


def answer_adjust(text: str | None, reason: int = 0, note: str = "") -> list[AdjustDialog]:
    """Fill in the adjust dialog when it opens (it is modal); returns it for inspection."""
    seen: list[AdjustDialog] = []

    def fill() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, AdjustDialog)
        seen.append(dialog)
        if text is not None:
            dialog.edit.setText(text)
        dialog.reasons.setCurrentIndex(reason)
        dialog.note.setText(note)
        dialog.save()
        if dialog.isVisible():
            dialog.reject()

    QTimer.singleShot(0, fill)
    return seen


# -- 4: a flagged board can be corrected ---------------------------------------------------------


def test_arbiter_pauses_a_flagged_board_restores_a_time_and_play_continues(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime, event_path: Path
) -> None:
    window = open_clock(EventOptions(time_control=SHORT))
    started(qtbot, window)
    fake_time.wait(30)
    click(qtbot, window, K.Key_P)  # board 2 plays on
    fake_time.wait(31)
    qtbot.waitUntil(lambda: 1 in window.entries, timeout=2000)
    assert window.clock.flagged_side(1) is A
    click(qtbot, window, K.Key_G)  # a clock fault: the arbiter pauses the flagged board
    assert window.clock.is_paused(1)
    assert window.clock.running_side(2) is A  # board 2 is not touched
    click(qtbot, window, K.Key_G)  # it cannot resume while the flag stands
    assert window.clock.is_paused(1)
    assert "restore" in window.status.text()
    answer_adjust("0:25", reason=0, note="the clock froze")
    window.adjust(1, A)
    assert window.clock.flagged_side(1) is None
    assert window.clock.remaining_ns(1, A) == 25 * NS
    assert 1 not in window.entries  # no forfeit to enter any more
    assert 1 not in window.alarm.sounding
    click(qtbot, window, K.Key_G)
    assert window.clock.running_side(1) is A
    fake_time.wait(5)
    click(qtbot, window, K.Key_Z)
    assert window.clock.remaining_ns(1, A) == 25 * NS
    # in the clock log (read back from the file) and in the audit, with its reason
    assert window.controller.writer is not None and window.controller.writer.flush()
    log = stored_log(event_path, window.match.id)
    adjust = [e for e in log if e.kind is EventKind.ADJUST]
    assert [(e.board, e.side, e.value) for e in adjust] == [(1, A, 25 * NS)]
    db = open_database(str(event_path))
    try:
        with db.Session() as session:
            lines = [x for x in audit.entries(session) if x.action == "clock-adjust"]
    finally:
        db.close()
    assert [x.reason for x in lines] == ["Clock fault: the clock froze"]
    assert json.loads(lines[0].after)["t_ns"] == adjust[0].t_ns
    assert json.loads(lines[0].before)["remaining_ns"] == 0


def test_a_recorded_flagged_game_is_corrected_at_the_desk_not_at_the_clock(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime
) -> None:
    window = open_clock(EventOptions(time_control=SHORT))
    started(qtbot, window)
    fake_time.wait(30)
    click(qtbot, window, K.Key_P)
    fake_time.wait(31)
    qtbot.waitUntil(lambda: 1 in window.entries, timeout=2000)
    window.entries[1].save_button.click()  # type: ignore[attr-defined]
    click(qtbot, window, K.Key_G)
    assert window.clock.state.board(1).phase is Phase.STOPPED
    assert "correct it at the desk" in window.status.text()


def test_an_adjustment_needs_a_reason(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime
) -> None:
    window = open_clock()
    started(qtbot, window)
    click(qtbot, window, K.Key_G)
    answer_adjust("1:00", reason=4, note="")  # "Other" without a word: refused
    window.adjust(1, A)
    assert not [e for e in window.clock.events if e.kind is EventKind.ADJUST]


# -- 7: the adjust dialog shows the exact time; OK without an edit changes nothing ---------------


def test_ok_without_editing_keeps_the_exact_time(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime
) -> None:
    window = open_clock()
    started(qtbot, window)
    fake_time.wait(120 - 24.9995)  # A1 has 24.9995 s left
    click(qtbot, window, K.Key_G)
    before = window.clock.remaining_ns(1, A)
    assert before == 24_999_500_000
    dialogs = answer_adjust(None)  # OK, nothing typed
    window.adjust(1, A)
    assert dialogs[0].edit.text() == "0:24.9995"
    assert window.clock.remaining_ns(1, A) == before
    assert not [e for e in window.clock.events if e.kind is EventKind.ADJUST]


def test_exact_times_read_back_to_the_nanosecond() -> None:
    for ns in (24_999_500_000, 1, 60 * NS, 3_600 * NS + 5, 19_900_000_000):
        assert parse_time(exact_time(ns)) == ns
    assert exact_time(24_999_500_000) == "0:24.9995"


# -- 8: resume-all resumes only what pause-all paused -------------------------------------------


def test_resume_all_leaves_a_board_paused_alone_paused(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime
) -> None:
    window = open_clock()
    started(qtbot, window)
    click(qtbot, window, K.Key_G)  # a die fell off board 1: paused alone
    fake_time.wait(3)
    click(qtbot, window, K.Key_Space)  # pause all: board 2 now too
    assert window.clock.is_paused(1) and window.clock.is_paused(2)
    click(qtbot, window, K.Key_Space)  # resume all: only board 2
    assert window.clock.is_paused(1)
    assert window.clock.running_side(2) is B
    click(qtbot, window, K.Key_Space)  # pause all, resume all again: board 1 stays paused
    click(qtbot, window, K.Key_Space)
    assert window.clock.is_paused(1)
    click(qtbot, window, K.Key_G)
    assert window.clock.running_side(1) is A


def test_resume_all_with_only_a_board_paused_alone_says_which_key_resumes_it(
    qtbot: QtBot, open_clock: OpenClock
) -> None:
    window = open_clock()
    started(qtbot, window)
    click(qtbot, window, K.Key_G)
    click(qtbot, window, K.Key_H)
    click(qtbot, window, K.Key_Space)
    assert window.clock.is_paused(1) and window.clock.is_paused(2)
    assert "paused alone" in window.status.text() and "G, H" in window.status.text()
