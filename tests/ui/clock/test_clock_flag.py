"""A flag fall in the clock window (RULES §7 flag, §5 time forfeit): the mark, the sound, the
forfeit entry with the rule's proposal, and the other board playing on."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from director.domain.changes import Changes
from director.domain.clock import EventKind, Phase
from director.domain.rules import (
    ClockMode,
    End,
    EventOptions,
    Level,
    MatchRules,
    Scoring,
    Side,
    TimeControl,
)
from director.domain.scoring import Game
from director.services import games, live_cube
from director.ui.clock.faces import Look
from director.ui.clock.forfeit import TimeForfeitDialog
from director.ui.clock.window import ClockWindow
from tests.event_files import stored_match
from tests.ui.app_helpers import type_chars
from tests.ui.clock.clock_helpers import (
    NS,
    OFFSCREEN_NOISE,
    FakeTime,
    key_down,
)
from tests.ui.clock.conftest import OpenClock

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)

A, B = Side.A, Side.B
K = Qt.Key
SHORT = TimeControl(60, 5, ClockMode.FISCHER)


def started(window: ClockWindow) -> None:
    key_down(window, K.Key_Z)  # A1 moves first on board 1
    key_down(window, K.Key_P)  # B2 on board 2
    key_down(window, K.Key_Return)


def flag_board_1(qtbot: QtBot, window: ClockWindow, fake_time: FakeTime) -> TimeForfeitDialog:
    """A1 thinks for longer than 60 s: the display timer notices and the entry opens. Board 2
    plays on: B2 moves after 30 s, then A2 thinks (15 s left when A1 flags)."""
    fake_time.wait(30)
    key_down(window, K.Key_P)
    fake_time.wait(45)
    qtbot.waitUntil(lambda: 1 in window.entries, timeout=2000)
    return window.entries[1]


def test_rules_5_flag_opens_the_entry_with_3_times_the_cube(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime, event_path: Path
) -> None:
    window = open_clock(EventOptions(time_control=SHORT))
    started(window)
    start = fake_time.t
    dialog = flag_board_1(qtbot, window, fake_time)
    flags = [e for e in window.clock.events if e.kind is EventKind.FLAG]
    assert [(e.board, e.side, e.t_ns) for e in flags] == [(1, A, start + 60 * NS)]  # exact
    assert window.sound.played == 1
    a1 = window.boards[0].faces[0]
    assert a1.state.look is Look.FLAGGED and "FLAG" in a1.state.note
    assert a1.state.time == "0:00.0"
    assert window.boards[0].state.text().startswith("Flag fell")
    # the proposal: B1 wins by time, 3 × the centred cube, nobody has borne off
    game, _ = dialog.form.check()
    assert game is not None
    assert (game.winner, game.end, game.cube, game.loser_borne_off) == (B, End.TIME, 1, 0)
    assert dialog.borne_off_no.isChecked() and dialog.question.isVisible()
    assert "scores 3 points" in dialog.preview.text()
    assert dialog.clock_ns == (0, 60 * NS)
    # the other board plays on while the entry is open
    assert window.clock.running_side(2) is A
    dialog.borne_off_yes.click()
    assert "scores 1 point " in dialog.preview.text()
    dialog.save_button.click()
    stored = stored_match(event_path, window.match.id)
    assert stored.games[0].end is End.TIME and stored.games[0].loser_borne_off == 1
    assert stored.outcome.score.b == 1
    assert 1 not in window.entries
    assert window.clock.running_side(2) is A
    assert window.boards[0].faces[0].state.look is Look.FLAGGED  # the flag mark stays


def test_rules_5_clock_times_at_the_flag_are_stored_with_the_game(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime, event_path: Path
) -> None:
    from director.store import models
    from director.store.engine import open_database

    window = open_clock(EventOptions(time_control=SHORT))
    started(window)
    fake_time.wait(10)
    key_down(window, K.Key_Z)  # A1: 55 s left; B1 now thinks too long
    dialog = flag_board_1(qtbot, window, fake_time)
    dialog.save_button.click()
    db = open_database(str(event_path))
    try:
        with db.Session() as session:
            row = session.query(models.Game).one()
            assert (row.clock_a_ns, row.clock_b_ns) == (55 * NS, 0)
            assert row.winner == "A"
    finally:
        db.close()


def test_rules_5_the_proposal_uses_the_live_cube_and_offers_rule_5_prime(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime
) -> None:
    window = open_clock(EventOptions(time_control=SHORT))
    ctx, match_id = window.ctx, window.match.id
    ctx.change(live_cube.cube_action, match_id, 1, "offer", B)
    ctx.change(live_cube.cube_action, match_id, 1, "take")
    assert window.boards[0].cube.text() == "Cube 2 · A1"
    started(window)
    dialog = flag_board_1(qtbot, window, fake_time)
    assert "scores 6 points" in dialog.preview.text()  # 3 × cube 2
    assert "agreed_level" in dialog.form.visible_fields()  # the event allows rule 5′
    combo = dialog.form.agreed_level
    combo.setCurrentIndex(combo.findData(Level.GAMMON.value))
    assert "scores 4 points" in dialog.preview.text()


def test_rules_5_prime_is_not_offered_when_the_event_does_not_allow_it(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime
) -> None:
    options = EventOptions(match=MatchRules(agreed_lower_forfeit=False), time_control=SHORT)
    window = open_clock(options)
    started(window)
    dialog = flag_board_1(qtbot, window, fake_time)
    assert "agreed_level" not in dialog.form.visible_fields()


def test_rules_6_4_pin_game_forfeit_asks_the_borne_off_question_of_rule_5(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime
) -> None:
    """RULES §6.4: a pin-game time forfeit follows §5 (pip count × 3 or × 1)."""
    options = EventOptions(
        match=MatchRules(match_length=150, scoring=Scoring.PIN_GAME), time_control=SHORT
    )
    window = open_clock(options)
    started(window)
    dialog = flag_board_1(qtbot, window, fake_time)
    assert dialog.question.isVisible()
    assert dialog.borne_off_no.text() == "No: 3 × pip count (a backgammon)"
    assert dialog.borne_off_yes.text() == "Yes, at least one: 1 × pip count (a single)"
    game, _ = dialog.form.check()
    assert game is None  # the loser's pip count is still to be typed
    assert "loser_pips" in dialog.form.visible_fields()
    assert "agreed_level" in dialog.form.visible_fields()  # rule 5′ lowers the × 3 (§6.4)


def test_rules_7_other_board_keys_work_while_the_entry_has_the_keyboard(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime
) -> None:
    window = open_clock(EventOptions(time_control=SHORT))
    started(window)
    dialog = flag_board_1(qtbot, window, fake_time)
    count = dialog.form.count_edit("loser_borne_off")
    key_down(count, K.Key_Slash)  # A2 ends the move while the director types in the entry
    assert window.clock.running_side(2) is B
    assert count.text() == "0"  # the key did not type into the form
    key_down(count, K.Key_Slash, repeat=True)
    key_down(count, K.Key_P, repeat=True)
    assert window.clock.running_side(2) is B


@pytest.mark.parametrize("typed", ["²", "٣"], ids=["sup2", "arabic3"])
def test_a_count_in_digits_other_than_0_to_9_answers_nothing_and_saves_nothing(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime, event_path: Path, typed: str
) -> None:
    """ "²" passed str.isdigit and failed int() as it was typed (the app's "This is a bug");
    "٣" was read as 3 borne off: the answer turned to Yes and the game was saved as a single."""
    window = open_clock(EventOptions(time_control=SHORT))
    started(window)
    dialog = flag_board_1(qtbot, window, fake_time)
    count = dialog.form.count_edit("loser_borne_off")
    count.selectAll()
    type_chars(count, typed)
    assert count.text() == typed
    assert dialog.borne_off_no.isChecked() and not dialog.borne_off_yes.isChecked()
    assert f"“{typed}” is not a whole number" in dialog.form.errors["loser_borne_off"].text()
    dialog.save_button.click()
    assert 1 in window.entries and stored_match(event_path, window.match.id).games == ()


def test_rules_7_both_boards_flag_and_both_entries_open(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime
) -> None:
    window = open_clock(EventOptions(time_control=SHORT))
    started(window)
    fake_time.wait(61)
    qtbot.waitUntil(lambda: set(window.entries) == {1, 2}, timeout=2000)
    assert window.clock.flagged_side(1) is A and window.clock.flagged_side(2) is B
    assert window.sound.played == 2
    assert not window.controller.any_running()


def test_entry_closes_when_the_desk_records_the_flagged_game_first(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime
) -> None:
    window = open_clock(EventOptions(time_control=SHORT))
    started(window)
    dialog = flag_board_1(qtbot, window, fake_time)
    ctx, match_id = window.ctx, window.match.id
    game = Game(0, 1, B, End.TIME, loser_borne_off=0)
    ctx.change(games.record_game, match_id, game)
    assert 1 not in window.entries
    assert not dialog.isVisible()
    assert window.clock.state.board(1).phase is Phase.STOPPED


def test_a_flag_not_yet_recorded_opens_the_entry_again_after_a_crash(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime
) -> None:
    window = open_clock(EventOptions(time_control=SHORT))
    started(window)
    flag_board_1(qtbot, window, fake_time)
    writer = window.controller.writer
    assert writer is not None and writer.flush()
    # the app dies: no close, no pause; only what the writer committed survives
    window.timer.stop()
    window.ctx.clock_windows.clear()
    writer.close()
    again = open_clock(match_id=window.match.id)
    qtbot.waitUntil(lambda: 1 in again.entries, timeout=2000)
    assert again.clock.flagged_side(1) is A
    assert again.clock.is_paused(2)


def test_a_players_name_in_the_forfeit_question_is_plain_text(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime, event_path: Path
) -> None:
    from PySide6.QtWidgets import QLabel

    from director.store import models
    from director.store.engine import open_database

    window = open_clock(EventOptions(time_control=SHORT))
    db = open_database(str(event_path))
    try:
        with db.Session() as session, session.begin():
            player = session.query(models.Player).filter_by(name="Ana").one()
            player.name = "<b>R&D</b>"
    finally:
        db.close()
    window.ctx.changed.emit(Changes.match(window.match.id))
    started(window)
    dialog = flag_board_1(qtbot, window, fake_time)
    ask = dialog.findChild(QLabel, "bornOffAsk")
    assert ask is not None and ask.textFormat() is Qt.TextFormat.PlainText
    assert "A1 <b>R&D</b>'s flag fell" in ask.text()


def test_rules_5_prime_refusal_is_shown_whole_not_clipped(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime
) -> None:
    """An agreed level no lower than the rule's forfeit is refused under its field, in words
    that wrap over two lines: the entry grows to show them whole."""
    window = open_clock(EventOptions(time_control=SHORT))
    started(window)
    dialog = flag_board_1(qtbot, window, fake_time)
    dialog.borne_off_yes.setChecked(True)  # the rule gives a single
    combo = dialog.form.agreed_level
    combo.setCurrentIndex(combo.findData(Level.SINGLE.value))
    error = dialog.form.errors["agreed_level"]
    assert error.isVisible() and "must be lower than the forfeit" in error.text()
    lines = error.heightForWidth(error.width()) // error.fontMetrics().lineSpacing()
    assert lines >= 2  # it does wrap at this width
    assert error.height() >= error.heightForWidth(error.width())
    assert not dialog.save_button.isEnabled()
