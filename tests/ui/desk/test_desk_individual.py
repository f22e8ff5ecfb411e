"""The match desk of an individual event (RULES §10): one board, game after game, the Crawford
rule shown and the cube disabled in the Crawford game with the domain's reason."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

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
from director.domain.score import Score
from director.domain.scoring import Game
from director.services.events import update_event
from director.services.games import record_game
from director.services.matches import create_match, get_match
from director.services.teams import add_player
from director.store.engine import open_database
from director.ui.context import EventContext
from director.ui.desk.match_desk import MatchDeskPage
from tests.event_files import stored_match
from tests.ui.app_helpers import shown_page
from tests.ui.desk.desk_helpers import click_answer, open_dialog

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")

A, B = Side.A, Side.B
TO_4_2 = (A, B, A, B, A, A)  # singles: 4–2 in a match to 5, the next game is the Crawford game


def individual_match(path: Path, winners: tuple[Side, ...]) -> int:
    """Ana v Cleo, a match to 5 with these singles recorded (another station's)."""
    db = open_database(str(path))
    try:
        with db.Session() as s, s.begin():
            options = EventOptions(
                match=MatchRules(match_length=5, format=Format.INDIVIDUAL),
                time_control=TimeControl(120, 12, ClockMode.DELAY),
            )
            update_event(s, options=options)
            ana = add_player(s, "Ana").value.id
            cleo = add_player(s, "Cleo").value.id
            match_id = create_match(s, ana, cleo, table=1).value.id
        for winner in winners:
            with db.Session() as s, s.begin():
                number = get_match(s, match_id).outcome.current_pair
                record_game(s, match_id, Game(number, 1, winner, End.BEAR_OFF, level=Level.SINGLE))
    finally:
        db.close()
    return match_id


@pytest.fixture
def desk(qtbot: QtBot, event_path: Path) -> Iterator[MatchDeskPage]:
    match_id = individual_match(event_path, TO_4_2)
    ctx = EventContext(open_database(str(event_path)))
    page = shown_page(qtbot, MatchDeskPage(ctx))
    page.show_match(match_id)
    yield page
    ctx.close()


def test_one_board_game_after_game(desk: MatchDeskPage) -> None:
    board, other = desk.boards
    assert other.isHidden() and not board.isHidden()
    assert board.title() == ""  # the players name the one board
    assert desk.picker.matches.currentText().endswith("4–2, game 7 (Crawford)")
    assert "Ana" in board.players.text() and "Cleo" in board.players.text()
    assert "A1" not in board.players.text()
    assert desk.pair_label.text() == "Game 7"
    assert board.status.text() == "Game 7: in play"
    assert board.record_button.text() == "Record game…"
    assert "both boards" not in desk.clock_button.toolTip()
    desk.open_record_dialog(2)  # Alt+2: there is no board 2
    assert desk.dialog is None


def test_the_crawford_game_disables_the_cube_with_the_reason(desk: MatchDeskPage) -> None:
    cube = desk.boards[0].cube
    assert desk.cube_state.text() == "Game 7: Crawford game: Ana is 1-away"
    assert not cube.offer_a.isEnabled() and not cube.offer_b.isEnabled()
    assert "Crawford game: Ana is 1-away" in cube.offer_a.toolTip()
    assert desk.scoreline.away_a.text().startswith("1-away")
    assert "Crawford game" in desk.scoreline.equity.text()
    assert "Tandem MET" not in desk.scoreline.equity.text()


def test_after_the_crawford_game_either_player_may_double(
    qtbot: QtBot, desk: MatchDeskPage, event_path: Path
) -> None:
    dialog = open_dialog(desk, 1, "B")
    assert dialog.windowTitle() == "Record game 7"
    assert "Cleo" in dialog.form.winner.currentText()
    with qtbot.waitSignal(dialog.finished):
        dialog.save_button.click()
    assert desk.match is not None and desk.match.outcome.score.b == 3
    cube = desk.boards[0].cube
    assert cube.offer_a.isEnabled() and cube.offer_b.isEnabled()
    assert desk.cube_state.text().startswith("Game 8: post-Crawford")
    assert "post-Crawford" in desk.scoreline.equity.text()
    games, table = desk.games, desk.table
    shown = [str(games.headerData(c, Qt.Orientation.Horizontal)) for c in range(games.columnCount())
             if not table.isColumnHidden(c)]  # fmt: skip
    assert shown[:2] == ["Game", "Winner"] and "Board" not in shown and "Counted" not in shown
    assert games.index(6, 0).data() == "7 (Crawford)" and games.index(5, 0).data() == "6"
    assert games.index(6, 2).data() == "B: Cleo"
    assert stored_match(event_path, desk.match.id).outcome.score.b == 3


def test_undo_names_the_game_and_re_derives_the_crawford_game(
    qtbot: QtBot, desk: MatchDeskPage
) -> None:
    desk.undo_last_game()
    assert desk.question is not None
    assert "game 6, won by Ana" in desk.question.text()
    click_answer(desk.question, "Undo the game")
    assert desk.cube_state.text().startswith("Game 6: ")
    assert "Crawford" not in desk.cube_state.text()
    assert desk.boards[0].cube.offer_a.isEnabled()


def press(
    qtbot: QtBot, key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier
) -> None:
    """One key press, where the keyboard's goes: to the widget that has the focus."""
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None)
    target = QApplication.focusWidget()
    assert target is not None
    qtbot.keyClick(target, key, modifier)


def test_a_single_is_three_keys(qtbot: QtBot, event_path: Path) -> None:
    """#28's speed of entry at the individual desk: Alt+1 opens the game, the winner's letter
    names the winner (a single on a 1-cube, borne off, is what the dialog starts from) and Enter
    records it. Three key presses, sent where the keyboard's go, and the game is in the file."""
    match_id = individual_match(event_path, (A, B))
    ctx = EventContext(open_database(str(event_path)))
    try:
        desk = shown_page(qtbot, MatchDeskPage(ctx))
        desk.show_match(match_id)
        desk.activateWindow()
        desk.setFocus()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is desk)
        press(qtbot, Qt.Key.Key_1, Qt.KeyboardModifier.AltModifier)
        qtbot.waitUntil(lambda: desk.dialog is not None and desk.dialog.isVisible())
        assert desk.dialog is not None
        dialog = desk.dialog
        dialog.activateWindow()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
        press(qtbot, Qt.Key.Key_B)
        press(qtbot, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: not dialog.isVisible())
        (_, _, third) = stored_match(event_path, match_id).games
        assert (third.pair, third.board, third.winner) == (3, 1, B)
        assert (third.end, third.level, third.cube) == (End.BEAR_OFF, Level.SINGLE, 1)
        assert desk.match is not None and desk.match.outcome.score == Score(1, 2)
    finally:
        ctx.close()
