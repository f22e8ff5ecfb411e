"""A whole match at the desk: a pass, a time forfeit under rule 5′, a one-cube pair with its dead
board, a refused entry, a correction and an undo; checked on disk by reopening the file."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit
from pytestqt.qtbot import QtBot

from director.domain.match import Result
from director.domain.rules import End, Level, Side
from director.domain.scoring import Game
from director.services import matches
from director.services.audit import entries
from director.services.teams import add_team
from director.store.engine import open_database
from director.ui.context import EventContext
from director.ui.desk.match_desk import MatchDeskPage
from tests.e2e.desk_driver import choose, click, enter_game

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


def reopen_games(path: Path, match_id: int) -> tuple[tuple[Game, ...], Result, str]:
    db = open_database(str(path))
    try:
        with db.Session() as session:
            match = matches.get_match(session, match_id)
            reasons = [e.reason for e in entries(session) if e.action == "correct game"]
        return match.games, match.outcome.result, ";".join(reasons)
    finally:
        db.close()


def test_a_match_entered_at_the_desk(qtbot: QtBot, event_path: Path) -> None:
    db = open_database(str(event_path))
    with db.Session() as session, session.begin():
        a = add_team(session, "Blue Bar", ("Ana", "Ben")).value.id
        b = add_team(session, "Gammonites", ("Cleo", "Dev")).value.id
        match_id = matches.create_match(session, a, b, table=1).value.id
    db.close()
    ctx = EventContext(open_database(str(event_path)))
    desk = MatchDeskPage(ctx)
    qtbot.addWidget(desk)
    desk.resize(1366, 720)
    desk.show()
    ctx.match_requested.connect(desk.show_match)
    ctx.match_requested.emit(match_id)
    assert desk.match_id == match_id

    # Pair 1, board 1: Ana doubles, Cleo passes: Blue Bar scores the cube before the offer.
    enter_game(qtbot, desk, Game(1, 1, Side.A, End.PASS, cube=1))
    assert desk.scoreline.score.text() == "1 – 0"
    # Pair 1, board 2: Ben's flag falls with no checker off; rule 5′: agreed as a gammon.
    enter_game(
        qtbot,
        desk,
        Game(1, 2, Side.B, End.TIME, loser_borne_off=0, agreed_level=Level.GAMMON),
    )
    assert desk.scoreline.score.text() == "1 – 2"

    # Pair 2 starts at 1-2: nobody is within 2 of 5, both boards may double.
    assert "both boards may double" in desk.cube_state.text()
    enter_game(qtbot, desk, Game(2, 2, Side.B, End.BEAR_OFF, cube=1, level=Level.SINGLE))
    enter_game(qtbot, desk, Game(2, 1, Side.A, End.BEAR_OFF, cube=2, level=Level.SINGLE))
    assert desk.scoreline.score.text() == "3 – 3"

    # Pair 3 at 3-3: a one-cube pair. Board 2 doubles first; board 1's cube is dead.
    assert "one-cube pair" in desk.cube_state.text()
    board1, board2 = desk.boards
    click(qtbot, board2.cube.offer_b)
    assert desk.cube_state.text().endswith("the cube is on board 2")
    assert not board1.cube.offer_a.isEnabled() and not board1.cube.offer_b.isEnabled()
    assert "dead here" in board1.cube.reason_label.text()
    click(qtbot, board2.cube.take_button)
    # A board-1 game on a 2-cube would break the one-cube rule: refused, nothing written.
    click(qtbot, board1.record_button)
    dialog = desk.dialog
    assert dialog is not None
    dialog.form.cube.setValue(2)
    assert "dead here" in dialog.problems.text()
    assert not dialog.save_button.isEnabled()
    dialog.reject()
    assert len(reopen_games(event_path, match_id)[0]) == 4
    enter_game(qtbot, desk, Game(3, 1, Side.A, End.RESIGN, cube=1, level=Level.GAMMON))
    enter_game(qtbot, desk, Game(3, 2, Side.A, End.BEAR_OFF, cube=2, level=Level.SINGLE))
    assert desk.scoreline.result.text() == "Result: Blue Bar wins 7–3"

    # A correction, with its reason, and an undo of the last game.
    desk.table.selectRow(4)
    click(qtbot, desk.edit_button)
    correction = desk.dialog
    assert correction is not None
    choose(correction.form.level, "single")
    reason = correction.findChild(QLineEdit, "reason")
    assert reason is not None
    qtbot.keyClicks(reason, "Cleo resigned a single")
    click(qtbot, correction.save_button)
    assert desk.scoreline.result.text() == "Result: Blue Bar wins 6–3"
    click(qtbot, desk.undo_button)
    assert desk.question is not None
    (undo,) = [b for b in desk.question.buttons() if b.text() == "Undo the game"]
    qtbot.mouseClick(undo, Qt.MouseButton.LeftButton)
    assert desk.scoreline.result.text() == ""
    assert desk.scoreline.score.text() == "4 – 3"

    games, result, reasons = reopen_games(event_path, match_id)
    assert games == (
        Game(1, 1, Side.A, End.PASS, cube=1),
        Game(1, 2, Side.B, End.TIME, loser_borne_off=0, agreed_level=Level.GAMMON),
        Game(2, 2, Side.B, End.BEAR_OFF, cube=1, level=Level.SINGLE),
        Game(2, 1, Side.A, End.BEAR_OFF, cube=2, level=Level.SINGLE),
        Game(3, 1, Side.A, End.RESIGN, cube=1, level=Level.SINGLE),
    )
    assert result is Result.UNFINISHED
    assert reasons == "Cleo resigned a single"
    ctx.close()
