"""The clock window (RULES §7): key-down presses, auto-repeat, pauses, taps, the next pair.

Real widgets over a real event file; time is a source the test moves by hand, and what the
window logged is read back from the database with a fresh connection.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from director.domain.clock import EventKind, Phase
from director.domain.rules import ClockMode, End, EventOptions, Level, Side, TimeControl
from director.domain.scoring import Game
from director.services import games
from director.store import models
from director.store.engine import open_database
from director.ui.clock.faces import Look
from director.ui.clock.launch import open_clock_window
from director.ui.clock.window import ClockWindow
from tests.event_files import stored_match
from tests.ui.clock.clock_helpers import (
    NS,
    OFFSCREEN_NOISE,
    FakeTime,
    key_down,
    key_up,
    stored_log,
)
from tests.ui.clock.conftest import OpenClock

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)

A, B = Side.A, Side.B
K = Qt.Key


def started(window: ClockWindow) -> None:
    """The opening rolls: A1 and B2 move first (their keys, before the start), then Return."""
    key_down(window, K.Key_Z)
    key_down(window, K.Key_P)
    key_down(window, K.Key_Return)


def looks(window: ClockWindow, board: int) -> tuple[Look, Look]:
    window.refresh()
    a, b = window.boards[board - 1].faces
    return a.state.look, b.state.look


def test_rules_7_first_movers_by_key_then_both_boards_start_at_once(
    open_clock: OpenClock, fake_time: FakeTime
) -> None:
    window = open_clock()
    assert not window.start_button.isEnabled()  # no first mover yet
    key_down(window, K.Key_Z)
    assert looks(window, 1) == (Look.FIRST, Look.READY)
    key_down(window, K.Key_Return)
    assert window.clock.running_side(1) is None  # board 2 has no first mover: nothing starts
    key_down(window, K.Key_P)
    assert window.start_button.isEnabled()
    key_down(window, K.Key_Return)
    assert window.clock.running_side(1) is A
    assert window.clock.running_side(2) is B
    starts = [e for e in window.clock.events if e.kind is EventKind.START]
    assert [e.t_ns for e in starts] == [fake_time.t, fake_time.t]


def test_rules_7_key_down_switches_sides(
    open_clock: OpenClock, fake_time: FakeTime, event_path: Path
) -> None:
    window = open_clock()
    started(window)
    fake_time.wait(5)
    key_down(window, K.Key_Z)  # A1 ends the move on the key-down, no key-up needed
    assert window.clock.running_side(1) is B
    assert window.clock.remaining_ns(1, A) == (120 - 5 + 12) * NS
    assert looks(window, 1) == (Look.WAITING, Look.RUNNING)
    key_up(window, K.Key_Z)
    assert window.clock.running_side(1) is B
    fake_time.wait(3)
    key_down(window, K.Key_Slash)  # board 2: A2 is not on move, nothing happens
    assert window.clock.running_side(2) is B
    key_down(window, K.Key_P)
    assert window.clock.running_side(2) is A
    assert window.clock.remaining_ns(2, B) == (120 - 8 + 12) * NS
    assert window.controller.writer is not None and window.controller.writer.flush()
    presses = [e for e in stored_log(event_path, window.match.id) if e.kind is EventKind.PRESS]
    assert [(e.board, e.side) for e in presses] == [(1, A), (2, B)]


def test_rules_7_auto_repeat_is_not_a_second_press(
    open_clock: OpenClock, fake_time: FakeTime
) -> None:
    window = open_clock()
    started(window)
    fake_time.wait(2)
    key_down(window, K.Key_Z)
    fake_time.wait(1)
    key_down(window, K.Key_Z, repeat=True)  # A1 still holds the key down
    key_down(window, K.Key_Q, repeat=True)  # B1's key held from earlier
    assert window.clock.running_side(1) is B
    presses = [e for e in window.clock.events if e.kind is EventKind.PRESS]
    assert len(presses) == 1


def test_rules_7_space_pauses_and_resumes_both_boards(
    open_clock: OpenClock, fake_time: FakeTime
) -> None:
    window = open_clock()
    started(window)
    fake_time.wait(10)
    key_down(window, K.Key_Space)
    assert window.clock.is_paused(1) and window.clock.is_paused(2)
    assert looks(window, 1) == (Look.ON_MOVE_PAUSED, Look.WAITING)
    fake_time.wait(600)  # a long break costs nobody anything
    key_down(window, K.Key_Z)  # a press while paused does nothing
    assert window.clock.remaining_ns(1, A) == 110 * NS
    key_down(window, K.Key_Space)
    assert window.clock.running_side(1) is A and window.clock.running_side(2) is B
    fake_time.wait(1)
    assert window.clock.remaining_ns(2, B) == 109 * NS


def test_rules_7_one_board_pauses_alone(open_clock: OpenClock, fake_time: FakeTime) -> None:
    window = open_clock()
    started(window)
    fake_time.wait(4)
    key_down(window, K.Key_G)
    assert window.clock.is_paused(1)
    assert window.clock.running_side(2) is B
    assert window.boards[0].state.text().startswith("PAUSED")
    fake_time.wait(4)
    window.boards[0].pause_button.click()  # the board's button resumes it
    assert window.clock.running_side(1) is A
    assert window.clock.remaining_ns(1, A) == 116 * NS
    assert window.clock.remaining_ns(2, B) == 112 * NS


def test_rules_7_click_or_touch_on_a_face_presses_it(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime
) -> None:
    window = open_clock()
    a1, b1 = window.boards[0].faces
    a2, b2 = window.boards[1].faces
    qtbot.mouseClick(b1, Qt.MouseButton.LeftButton)  # B1 won the opening roll
    qtbot.mouseClick(a2, Qt.MouseButton.LeftButton)
    window.start_button.click()
    assert window.clock.running_side(1) is B
    fake_time.wait(7)
    qtbot.mousePress(a1, Qt.MouseButton.LeftButton, pos=QPoint(20, 20))  # not B1's face
    assert window.clock.running_side(1) is B
    qtbot.mousePress(b1, Qt.MouseButton.LeftButton, pos=QPoint(20, 20))  # on press, not release
    assert window.clock.running_side(1) is A
    assert window.clock.remaining_ns(1, B) == (120 - 7 + 12) * NS


def test_rules_7_display_shows_tenths_below_20_s_and_low_time_colour(
    open_clock: OpenClock, fake_time: FakeTime
) -> None:
    window = open_clock(EventOptions(time_control=TimeControl(30, 0, ClockMode.FISCHER)))
    started(window)
    fake_time.wait(10.55)
    window.tick()
    a1 = window.boards[0].faces[0]
    assert a1.state.time == "0:19.4"
    assert a1.state.low and a1.state.look is Look.RUNNING
    assert window.boards[0].faces[1].state.time == "0:30"


def test_rules_7_simple_delay_shows_the_delay_running_first(
    open_clock: OpenClock, fake_time: FakeTime
) -> None:
    window = open_clock(EventOptions(time_control=TimeControl(120, 12, ClockMode.DELAY)))
    started(window)
    fake_time.wait(4.5)
    window.tick()
    a1 = window.boards[0].faces[0]
    assert a1.state.time == "2:00"
    assert a1.state.note == "delay 7.5"


def test_rules_7_recorded_games_stop_their_board_and_a_complete_pair_resets(
    open_clock: OpenClock, fake_time: FakeTime, event_path: Path
) -> None:
    window = open_clock()
    started(window)
    fake_time.wait(30)
    ctx, match_id = window.ctx, window.match.id
    times = ctx.clock_times(match_id, 1)  # what the desk stores with the game
    assert times == (90 * NS, 120 * NS)
    game = Game(0, 1, A, End.BEAR_OFF, level=Level.SINGLE)
    ctx.change(games.record_game, match_id, game, clock_ns=times)
    assert window.clock.state.board(1).phase is Phase.STOPPED
    assert window.clock.running_side(2) is B  # the other game is played to its end
    assert looks(window, 1) == (Look.STOPPED, Look.STOPPED)
    assert window.boards[0].state.text() == "Game recorded"
    fake_time.wait(20)
    ctx.change(
        games.record_game,
        match_id,
        Game(0, 2, B, End.BEAR_OFF, level=Level.GAMMON),
        clock_ns=ctx.clock_times(match_id, 2),
    )
    for n in (1, 2):  # pair 2: base time, waiting for the opening rolls
        assert window.clock.state.board(n).phase is Phase.READY
        assert window.clock.remaining_ns(n, A) == 120 * NS
    assert window.controller.pair == 2
    assert "pair 2" in window.title.text()
    stored = stored_match(event_path, match_id)
    assert stored.outcome.current_pair == 2
    assert window.controller.writer is not None and window.controller.writer.flush()
    kinds = [e.kind for e in stored_log(event_path, match_id)]
    assert kinds.count(EventKind.STOP) == 2 and kinds.count(EventKind.RESET) == 2


def test_clock_times_are_none_without_an_open_window(open_clock: OpenClock) -> None:
    window = open_clock()
    ctx, match_id = window.ctx, window.match.id
    assert ctx.clock_times(match_id, 1) == (None, None)  # READY: the game was never timed
    window.close()
    assert ctx.clock_times(match_id, 1) == (None, None)
    assert match_id not in ctx.clock_windows


def test_closing_pauses_and_reopening_restores(
    open_clock: OpenClock, fake_time: FakeTime, event_path: Path
) -> None:
    window = open_clock()
    started(window)
    fake_time.wait(12)
    key_down(window, K.Key_Z)
    fake_time.wait(3)
    match_id = window.match.id
    window.close()
    fake_time.wait(100)  # the window is closed: nobody's time runs
    again = open_clock(match_id=match_id)
    assert again.clock.is_paused(1) and again.clock.is_paused(2)
    assert again.clock.remaining_ns(1, A) == (120 - 12 + 12) * NS
    assert again.clock.remaining_ns(1, B) == 117 * NS
    assert again.clock.remaining_ns(2, B) == 105 * NS
    assert again.status.isVisible() and "restored" in again.status.text()
    key_down(again, K.Key_Space)
    assert again.clock.running_side(1) is B


def test_one_window_per_match(open_clock: OpenClock) -> None:
    window = open_clock()
    assert open_clock_window(window.ctx, window.match.id) is window


def test_rules_7_recording_at_the_clock_pauses_the_board_and_stores_its_times(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime, event_path: Path
) -> None:
    window = open_clock()
    started(window)
    fake_time.wait(40)
    key_down(window, K.Key_Z)
    fake_time.wait(9)  # B1 bears off her last checker and the game is over
    ctrl_1 = QKeyEvent(QKeyEvent.Type.KeyPress, K.Key_1, Qt.KeyboardModifier.AltModifier)
    QApplication.sendEvent(window, ctrl_1)
    assert window.clock.is_paused(1)
    assert window.clock.running_side(2) is B  # the other game goes on
    dialog = window.entries[1]
    assert dialog.clock_ns == (92 * NS, 111 * NS)
    fake_time.wait(30)  # the director takes a while to fill it in: nobody's time runs
    dialog.form.winner.setCurrentIndex(dialog.form.winner.findData("B"))
    dialog.save_button.click()
    assert window.clock.state.board(1).phase is Phase.STOPPED
    assert 1 not in window.entries
    assert not window.boards[0].record_button.isEnabled()
    stored = stored_match(event_path, window.match.id)
    assert stored.games[0].winner is B and stored.games[0].end is End.BEAR_OFF
    db = open_database(str(event_path))
    try:
        with db.Session() as session:
            row = session.query(models.Game).one()
            assert (row.clock_a_ns, row.clock_b_ns) == (92 * NS, 111 * NS)
    finally:
        db.close()


def test_rules_7_a_checkpoint_about_every_half_second_while_running(
    open_clock: OpenClock, fake_time: FakeTime
) -> None:
    window = open_clock()
    window.tick()
    assert window.clock.event_count == 0  # nothing runs: nothing to log
    started(window)
    for _ in range(30):  # 3 s of display frames, 0.1 s apart
        fake_time.wait(0.1)
        window.tick()
    checkpoints = [e.t_ns for e in window.clock.events if e.kind is EventKind.CHECKPOINT]
    gaps = [b - a for a, b in zip(checkpoints, checkpoints[1:], strict=False)]
    assert len(checkpoints) == 6 * 2  # both boards, at 0.5, 1.0, ... 3.0 s after the start
    assert set(gaps) <= {0, NS // 2}
    key_down(window, K.Key_Space)
    count = window.clock.event_count
    fake_time.wait(5)
    window.tick()
    assert window.clock.event_count == count  # paused: no checkpoints
