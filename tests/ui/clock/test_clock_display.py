"""What the clock window shows (issue defect 9; RULES §7 "below 20 s the display shows tenths")."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QFontMetrics, QKeyEvent
from PySide6.QtWidgets import QApplication, QLabel
from pytestqt.qtbot import QtBot

from director.domain.rules import Side
from director.domain.scoring import End, Game, Level
from director.services.games import record_game
from director.services.matches import get_match
from director.services.teams import edit_team
from director.store.engine import open_database
from director.ui.clock.window import ClockWindow
from tests.ui.app_helpers import seed_match
from tests.ui.clock.clock_helpers import OFFSCREEN_NOISE, FakeTime, click, started
from tests.ui.clock.conftest import OpenClock

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)

A, B = Side.A, Side.B
K = Qt.Key


def painted_digits(window: ClockWindow) -> int:
    window.refresh()
    face = window.boards[0].faces[0]
    face.grab()  # paints it now
    return face.digits_px


def test_digits_keep_their_size_below_20_s(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime
) -> None:
    window = open_clock()
    window.resize(1366, 768)
    started(qtbot, window)
    fake_time.wait(95)  # A1: 0:25
    window.refresh()
    assert window.boards[0].faces[0].state.time == "0:25"
    above = painted_digits(window)
    fake_time.wait(6)  # 0:19.0: tenths now
    window.refresh()
    assert window.boards[0].faces[0].state.time == "0:19.0"
    below = painted_digits(window)
    assert below == above > 0


def test_the_match_title_is_not_cut_at_1366_px(qtbot: QtBot, open_clock: OpenClock) -> None:
    window = open_clock()
    window.resize(1366, 768)
    qtbot.wait(10)
    title = window.title
    text = title.text()
    assert "Blue Bar v Gammonites" in text
    metrics = QFontMetrics(title.font())
    if title.wordWrap():
        needed = metrics.boundingRect(
            QRect(0, 0, title.width(), 10_000), Qt.TextFlag.TextWordWrap, text
        )
        assert needed.height() <= title.height()
    else:
        assert metrics.horizontalAdvance(text) <= title.width()


def test_a_status_line_goes_when_the_clocks_change(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime
) -> None:
    window = open_clock()
    started(qtbot, window)
    fake_time.wait(3)
    window.close()  # closing pauses both boards (logged)
    again = open_clock(match_id=window.match.id)
    assert "restored" in again.status.text() and again.status.isVisibleTo(again)
    click(qtbot, again, K.Key_Space)  # resumed: the "paused" message is stale now
    assert again.clock.running_side(1) is A
    assert not again.status.isVisibleTo(again)


def test_full_screen_button_says_what_it_will_do(qtbot: QtBot, open_clock: OpenClock) -> None:
    window = open_clock()
    button = window.top.full_button
    assert button.text().startswith("Full screen")
    window.toggle_full()
    qtbot.waitUntil(window.isFullScreen, timeout=2000)
    assert button.text().startswith("Leave full screen")
    window.toggle_full()
    qtbot.waitUntil(lambda: not window.isFullScreen(), timeout=2000)
    assert button.text().startswith("Full screen")


def test_record_keys_are_alt_1_and_alt_2_as_at_the_desk(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime
) -> None:
    window = open_clock()
    started(qtbot, window)
    fake_time.wait(5)
    ctrl = QKeyEvent(QKeyEvent.Type.KeyPress, K.Key_2, Qt.KeyboardModifier.ControlModifier)
    QApplication.sendEvent(window, ctrl)
    assert 2 not in window.entries  # Ctrl+2 is not a record key
    qtbot.keyClick(window, K.Key_2, Qt.KeyboardModifier.AltModifier)
    assert 2 in window.entries and window.clock.is_paused(2)
    assert "Alt+2" in window.boards[1].record_button.text()
    assert "Alt+1" in window.keys_hint.text()


def shown_whole(label: QLabel) -> bool:
    """Every line of the label's text is inside the label (wrapped or not)."""
    metrics = QFontMetrics(label.font())
    flags = Qt.TextFlag.TextWordWrap if label.wordWrap() else Qt.TextFlag.TextSingleLine
    needed = metrics.boundingRect(QRect(0, 0, label.width(), 10_000), flags, label.text())
    return needed.width() <= label.width() and needed.height() <= label.height()


def test_the_clock_window_fits_1280_by_720_with_every_key_hint_and_the_score(
    qtbot: QtBot, open_clock: OpenClock, event_path: Path
) -> None:
    """Issue #24 point 3: it could not be narrower than 1332 px and showed no score."""
    long_name = "The Extraordinarily Long-Named Backgammon Tandem Team of the Northern Harbour"
    match_id = seed_match(event_path)
    db = open_database(str(event_path))
    with db.Session() as session, session.begin():
        team = get_match(session, match_id).team_a.id
        edit_team(session, team, name=long_name)
        for board in (1, 2):
            record_game(
                session, match_id, Game(1, board, Side.A, End.BEAR_OFF, cube=1, level=Level.SINGLE)
            )
    db.close()
    window = open_clock(match_id=match_id)
    assert window.minimumSizeHint().width() <= 1280
    window.showNormal()  # it opens maximized: the window manager fits it to the screen
    window.resize(1280, 720 - 30)  # a window manager's title bar
    qtbot.wait(20)
    assert window.width() == 1280
    for label in (window.title, window.keys_hint, window.top.score):
        assert label.isVisible() and shown_whole(label), label.objectName()
        assert window.rect().contains(QRect(label.mapTo(window, QPoint()), label.size()))
    score = window.top.score.text()
    assert "2 – 0" in score and "3-away" in score and "5-away" in score
