"""The clock window of an individual match (RULES §10): one board, one reserve per player for
the whole match, paused between games and never reset; real widgets over a real event file."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from director.domain.clock import EventKind, Phase
from director.domain.rules import (
    ClockMode,
    End,
    EventOptions,
    Format,
    Level,
    MatchRules,
    Side,
    TimeControl,
)
from director.domain.scoring import Game
from director.services import games
from director.services.events import update_event
from director.services.matches import create_match
from director.services.teams import add_player
from director.store.engine import open_database
from director.ui.context import EventContext
from director.ui.phone_clocks import PhoneClocksView
from tests.event_files import stored_match
from tests.ui.clock.clock_helpers import NS, OFFSCREEN_NOISE, FakeTime, key_down, stored_log
from tests.ui.clock.conftest import OpenClock
from tests.ui.desk.desk_helpers import click_answer

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)

A, B = Side.A, Side.B
RESERVE = 10 * 60 * NS  # a match to 5 at 2 minutes a match point


def individual_match(path: Path) -> int:
    db = open_database(str(path))
    try:
        with db.Session() as s, s.begin():
            options = EventOptions(
                match=MatchRules(match_length=5, format=Format.INDIVIDUAL),
                time_control=TimeControl(120, 12, ClockMode.DELAY),
            )
            update_event(s, options=options)
            ana, cleo = (add_player(s, name).value.id for name in ("Ana", "Cleo"))
            return create_match(s, ana, cleo, table=1).value.id
    finally:
        db.close()


def test_one_board_with_the_match_reserve_paused_between_games(
    open_clock: OpenClock, fake_time: FakeTime, event_path: Path
) -> None:
    window = open_clock(match_id=individual_match(event_path))
    assert window.boards[1].isHidden() and not window.boards[0].isHidden()
    assert window.clock.remaining_ns(1, A) == RESERVE
    assert "game 1 · reserve 10 min + 12 s Simple delay" in window.title.text()
    assert "board 2" not in window.keys_hint.text()
    window.refresh()
    face_a = window.boards[0].faces[0].state
    assert (face_a.seat, face_a.player, face_a.team) == ("A", "Ana", "")
    key_down(window, Qt.Key.Key_Z)  # A rolls first
    key_down(window, Qt.Key.Key_Return)
    assert window.clock.running_side(1) is A
    fake_time.wait(60)  # A thinks for a minute: 12 s of delay, then 48 s of reserve
    ctx, match_id = window.ctx, window.match.id
    game = Game(1, 1, A, End.BEAR_OFF, level=Level.SINGLE)
    ctx.change(games.record_game, match_id, game, clock_ns=ctx.clock_times(match_id, 1))
    # paused between games, the reserve kept: not a fresh clock for game 2
    assert window.clock.state.board(1).phase is Phase.PAUSED
    assert window.clock.remaining_ns(1, A) == RESERVE - 48 * NS
    assert window.clock.remaining_ns(1, B) == RESERVE
    assert "game 2" in window.title.text()
    fake_time.wait(300)  # the break between games costs nobody anything
    key_down(window, Qt.Key.Key_Space)  # game 2 starts
    assert window.clock.state.board(1).phase is Phase.RUNNING
    assert window.clock.remaining_ns(1, A) == RESERVE - 48 * NS
    assert window.controller.writer is not None and window.controller.writer.flush()
    kinds = [e.kind for e in stored_log(event_path, match_id)]
    assert EventKind.RESET not in kinds and EventKind.STOP not in kinds  # never reset (§10)


def test_a_flag_loses_the_match(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime, event_path: Path
) -> None:
    """RULES §10: a reserve run out loses the match (not a game, rule 5): the window asks to
    record it, and the match ends with the winner raised to 5."""
    window = open_clock(match_id=individual_match(event_path))
    key_down(window, Qt.Key.Key_Z)
    key_down(window, Qt.Key.Key_Return)
    fake_time.wait(12 + 600 + 1)  # the delay, the whole reserve, and a second more
    window.tick()  # a tick this late follows a stall: the next one logs the flag
    window.tick()
    qtbot.waitUntil(lambda: window.games.lost_on_time is not None, timeout=2000)
    window.refresh()
    assert window.boards[0].state.text() == "Flag fell: A"  # one board: the seat alone
    box = window.games.lost_on_time
    assert box is not None and box.isVisible()
    assert "Ana's reserve ran out: Cleo wins the match" in box.text()
    click_answer(box, "Record: Cleo wins")
    match = stored_match(event_path, window.match.id)
    assert match.outcome.finished and match.outcome.final.b == 5
    assert match.outcome.lost_on_time is A


def test_a_phone_clocks_flag_loses_the_match_at_the_desk(qtbot: QtBot, event_path: Path) -> None:
    """RULES §10 on a phone: the desk's Phone clocks view meets the flag of an individual
    match's phone clock with the same question as the clock window (not rule 5's game entry),
    and records it with record_lost_on_time."""
    match_id = individual_match(event_path)
    ctx = EventContext(open_database(str(event_path)))
    try:
        view = PhoneClocksView(ctx, lambda: None)
        qtbot.addWidget(view)
        box = view.open_forfeit(match_id, 1, A, (0, RESERVE))
        assert isinstance(box, QMessageBox) and box.isVisible()
        assert "Ana's reserve ran out: Cleo wins the match" in box.text()
        click_answer(box, "Record: Cleo wins")
        match = stored_match(event_path, match_id)
        assert match.outcome.finished and match.outcome.final.b == 5
        assert match.outcome.lost_on_time is A
    finally:
        ctx.db.close()
