"""For disputes: `tandem-director clock-log FILE MATCH [--json]` and the clock window's log view
print a real match's log, replayed through the engine (a real window wrote it; a real
subprocess reads it back)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QPlainTextEdit
from pytestqt.qtbot import QtBot

from director.domain.rules import Side
from director.ui.clock.adjust import AdjustDialog
from director.ui.clock.window import ClockWindow
from tests.ui.clock.clock_helpers import NS, OFFSCREEN_NOISE, FakeTime, click
from tests.ui.clock.conftest import OpenClock

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)

EXE = str(Path(sys.executable).with_name("tandem-director"))
K = Qt.Key
A, B = Side.A, Side.B


def play(qtbot: QtBot, window: ClockWindow, fake_time: FakeTime) -> None:
    """A1 and B2 move first; A1 thinks 7 s; board 1 paused, A1's time set to 1:00 for a clock
    fault; resumed."""
    for key in (K.Key_Z, K.Key_P, K.Key_Return):
        click(qtbot, window, key)
    fake_time.wait(7)
    click(qtbot, window, K.Key_Z)
    click(qtbot, window, K.Key_G)

    def fill() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, AdjustDialog)
        dialog.edit.setText("1:00")
        dialog.note.setText("display froze")
        dialog.save()

    QTimer.singleShot(0, fill)
    window.adjust(1, A)
    click(qtbot, window, K.Key_G)
    assert window.controller.writer is not None and window.controller.writer.flush()


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run(
        [EXE, *args], capture_output=True, text=True, env=env, timeout=60, check=False
    )


def test_clock_log_prints_every_action_with_the_times_left(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime, event_path: Path
) -> None:
    window = open_clock()
    play(qtbot, window, fake_time)
    match = str(window.match.id)
    done = run("clock-log", str(event_path), match)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    kinds = [line.split()[4] for line in lines]
    assert kinds == [
        "first-mover", "first-mover", "start", "start", "press", "pause", "adjust", "resume"
    ]  # fmt: skip
    press = lines[4]
    assert "7.000 s" in press and "A1" in press and "2:05" in press  # 120 − 7 + 12 = 125 s
    adjust = lines[6]
    assert "adjust to 1:00" in adjust and "(Clock fault: display froze)" in adjust
    data = json.loads(run("clock-log", str(event_path), match, "--json").stdout)
    assert [d["kind"] for d in data] == [line.split()[4] for line in lines]
    assert data[4]["remaining_a_ns"] == 125 * NS and data[4]["side"] == "A"
    assert data[6]["value_ns"] == 60 * NS and data[6]["reason"] == "Clock fault: display froze"


def test_clock_log_of_a_missing_match_is_one_line_and_status_2(event_path: Path) -> None:
    done = run("clock-log", str(event_path), "999")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == ["tandem-director: there is no match 999"]


def test_the_clock_window_shows_the_same_log(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime, event_path: Path
) -> None:
    window = open_clock()
    play(qtbot, window, fake_time)
    dialog = window.show_log()
    text = dialog.findChild(QPlainTextEdit).toPlainText()
    printed = run("clock-log", str(event_path), str(window.match.id)).stdout
    assert text.strip() == printed.strip()


class TickingTime(FakeTime):
    """A monotonic source that moves on at every reading, as a real one does."""

    def __call__(self) -> int:
        self.t += 1_000
        return self.t


def test_the_log_shows_an_adjustments_reason_when_time_moves_between_readings(
    qtbot: QtBot, open_clock: OpenClock, event_path: Path
) -> None:
    """The audit and the clock event used to take two instants of a real clock and were never
    matched: the reason goes with the clock event itself."""
    ticking = TickingTime()
    window = open_clock(source=ticking)
    play(qtbot, window, ticking)
    text = window.show_log().findChild(QPlainTextEdit).toPlainText()
    adjust = next(line for line in text.splitlines() if "adjust to" in line)
    assert adjust.endswith("(Clock fault: display froze)")
    printed = run("clock-log", str(event_path), str(window.match.id)).stdout
    assert "(Clock fault: display froze)" in printed
