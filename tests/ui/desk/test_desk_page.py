"""The match desk page: boards, cubes and the one-cube rule, scoreline, undo, picker, refresh."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from director.domain.changes import Changed
from director.domain.cube import Cube
from director.domain.met import MetParameters, equity_at, equity_with_one_game_left
from director.domain.rules import End, Level, MatchRules, Scoring, Side
from director.domain.scoring import Game
from director.services import live_cube, matches
from director.services.games import record_game, set_forfeit
from director.services.teams import add_team
from director.store.engine import open_database
from director.ui.desk.match_desk import MatchDeskPage
from tests.event_files import stored_match
from tests.ui.desk.desk_helpers import (
    MakeDesk,
    click_answer,
)

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")

SINGLE = Level.SINGLE


def bear_off(pair: int, board: int, winner: Side, cube: int = 1, level: Level = SINGLE) -> Game:
    return Game(pair, board, winner, End.BEAR_OFF, cube=cube, level=level)


def click(qtbot: QtBot, button: object) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)  # type: ignore[arg-type]


def test_a_new_match_shows_both_boards_with_their_players(desk_factory: MakeDesk) -> None:
    page = desk_factory()
    assert "Blue Bar v Gammonites" in page.heading.text()
    assert page.pair_label.text() == "Pair 1"
    board1, board2 = page.boards
    assert "A1</b> Ana" in board1.players.text() and "B1</b> Cleo" in board1.players.text()
    assert "A2</b> Ben" in board2.players.text() and "B2</b> Dev" in board2.players.text()
    assert page.scoreline.score.text() == "0 – 0"
    assert page.scoreline.away_a.text().startswith("5-away")
    assert "50.0%" in page.scoreline.equity.text()
    assert "both boards may double" in page.cube_state.text()
    assert board1.cube.offer_a.isEnabled() and board1.cube.offer_b.isEnabled()
    assert not board1.cube.take_button.isEnabled()
    assert page.clock_area.findChild(type(page.clock_button)) is page.clock_button


def test_offer_and_take_move_the_cube_and_are_on_disk(
    qtbot: QtBot, desk_factory: MakeDesk, event_path: Path
) -> None:
    page = desk_factory()
    cube = page.boards[1].cube
    click(qtbot, cube.offer_b)
    assert "offers 2" in cube.state_label.text()
    assert not cube.offer_a.isEnabled()
    assert "already on offer" in cube.offer_a.toolTip()
    click(qtbot, cube.take_button)
    assert page.match is not None
    assert stored_match(event_path, page.match.id).cubes.of(2) == Cube(2, Side.A)
    assert cube.value_label.text() == "2"
    assert "owned by team A (Ben)" in cube.state_label.text()
    assert cube.offer_a.isEnabled() and not cube.offer_b.isEnabled()
    assert cube.offer_b.toolTip() == "team A owns the cube; only they may double"


def test_withdraw_cancels_an_offer(qtbot: QtBot, desk_factory: MakeDesk, event_path: Path) -> None:
    page = desk_factory()
    cube = page.boards[0].cube
    click(qtbot, cube.offer_a)
    click(qtbot, cube.withdraw_button)
    assert page.match is not None
    assert stored_match(event_path, page.match.id).cubes.of(1) == Cube()


def test_a_pass_records_the_game_for_the_doubler(
    qtbot: QtBot, desk_factory: MakeDesk, event_path: Path
) -> None:
    page = desk_factory()
    cube = page.boards[0].cube
    click(qtbot, cube.offer_a)
    click(qtbot, cube.take_button)  # B owns a 2-cube
    click(qtbot, cube.offer_b)
    click(qtbot, cube.pass_button)
    assert page.match is not None
    stored = stored_match(event_path, page.match.id)
    assert stored.games == (Game(1, 1, Side.B, End.PASS, cube=2),)
    assert stored.outcome.score.b == 2
    assert page.scoreline.score.text() == "0 – 2"
    assert not page.boards[0].record_button.isEnabled()
    assert "waiting for board 2" in page.boards[0].status.text()


def test_one_cube_pair_kills_the_other_board_with_the_reason(
    qtbot: QtBot, desk_factory: MakeDesk
) -> None:
    # 3-1 after pair 1: Blue Bar is 2-away, so pair 2 is a one-cube pair (RULES §4)
    page = desk_factory(None, bear_off(1, 1, Side.A, 1, Level.BACKGAMMON), bear_off(1, 2, Side.B))
    assert "one-cube pair: team Blue Bar is 2-away" in page.cube_state.text()
    assert "first board to double takes the cube" in page.cube_state.text()
    click(qtbot, page.boards[0].cube.offer_b)
    assert page.cube_state.text() == (
        "Pair 2: one-cube pair: team Blue Bar is 2-away; the cube is on board 1"
    )
    dead = page.boards[1].cube
    assert not dead.offer_a.isEnabled() and not dead.offer_b.isEnabled()
    assert "Cube dead" in dead.reason_label.text()
    assert "the cube is on board 1, dead here" in dead.reason_label.text()
    assert "dead here" in dead.offer_a.toolTip()


def test_the_one_cube_banner_names_both_teams_when_both_are_1_away(desk_factory: MakeDesk) -> None:
    backgammon = Level.BACKGAMMON
    page = desk_factory(
        None,
        bear_off(1, 1, Side.A, 1, backgammon),
        bear_off(1, 2, Side.B, 1, backgammon),
        bear_off(2, 1, Side.A),
        bear_off(2, 2, Side.B),
    )  # 4-4 after pair 2
    assert page.scoreline.score.text() == "4 – 4"
    assert "one-cube pair: both teams are 1-away" in page.cube_state.text()
    assert "Blue Bar" not in page.cube_state.text()


def test_a_refused_cube_action_shows_its_message(
    qtbot: QtBot, desk_factory: MakeDesk, event_path: Path
) -> None:
    page = desk_factory()
    assert page.match is not None
    # Another station offers on board 1 and it is taken: this desk still shows a centred cube.
    record_cube = [("offer", Side.A), ("take", None)]
    db = open_database(str(event_path))
    with db.Session() as session, session.begin():
        for action, side in record_cube:
            live_cube.cube_action(session, page.match.id, 1, action, side)
    db.close()
    click(qtbot, page.boards[0].cube.offer_a)  # A no longer owns the cube
    assert "team B owns the cube" in page.messages.text
    assert stored_match(event_path, page.match.id).cubes.of(1) == Cube(2, Side.B)


def test_the_scoreline_shows_aways_and_the_met_equity(desk_factory: MakeDesk) -> None:
    page = desk_factory(MatchRules(match_length=7), bear_off(1, 1, Side.A, 2, Level.GAMMON))
    assert page.scoreline.score.text() == "4 – 0"
    assert page.scoreline.away_a.text().startswith("3-away")
    assert page.scoreline.away_b.text() == "7-away"
    # board 2's game of pair 1 is still to play, on a 1-cube (board 1's game used the cube)
    expected = equity_with_one_game_left(MetParameters(), 3, 7, cube=1)
    assert "board 2 to play on a 1-cube" in page.scoreline.equity.text()
    assert f"{expected:.1%}" in page.scoreline.equity.text()
    assert f"{1 - expected:.1%}" in page.scoreline.equity.text()


def test_at_the_start_of_a_pair_the_scoreline_shows_the_tables_entry(
    desk_factory: MakeDesk,
) -> None:
    page = desk_factory(
        MatchRules(match_length=7),
        bear_off(1, 1, Side.A, 2, Level.GAMMON),
        bear_off(1, 2, Side.B, 1),
    )
    expected = equity_at(MetParameters(), 3, 6)
    assert "Tandem MET at 3-away v 6-away" in page.scoreline.equity.text()
    assert f"{expected:.1%}" in page.scoreline.equity.text()


def test_a_team_at_n_with_the_other_board_to_play_shows_the_chance_of_the_pair(
    desk_factory: MakeDesk,
) -> None:
    """After a team reached N the line read "1-away v 2-away: 59.0 %" while the other board
    decided only between a win and a draw (rule 4): 75 % on the model."""
    page = desk_factory(
        MatchRules(match_length=3),
        bear_off(1, 1, Side.A),
        bear_off(1, 2, Side.B),
        bear_off(2, 1, Side.A, 1, Level.GAMMON),  # A reaches 3; B needs 2
    )
    text = page.scoreline.equity.text()
    assert "reached 3 v 2-away" in text and "board 2 to play on a 2-cube" in text
    assert "75.0%" in text and "25.0%" in text
    assert "1-away" not in text


def test_the_end_of_a_pip_squeeze_match_shows_the_adjusted_score(desk_factory: MakeDesk) -> None:
    rules = MatchRules(match_length=3, scoring=Scoring.SIMPLE_PIP_SQUEEZE)
    page = desk_factory(
        rules,
        Game(1, 1, Side.A, End.BEAR_OFF, 2, Level.GAMMON, winner_left=0, loser_left=15),
        Game(1, 2, Side.B, End.BEAR_OFF, 1, Level.SINGLE, winner_left=0, loser_left=2),
    )
    assert page.match is not None and page.match.outcome.finished
    text = page.scoreline.result.text()
    assert text.startswith("Result: Blue Bar wins 4–1")  # 4-1 on game points, +0 (13 pips)
    assert "pip points 15–2" in text
    assert not any(panel.record_button.isEnabled() for panel in page.boards)
    assert page.scoreline.equity.text() == ""
    assert not page.table.isColumnHidden(7)


def test_the_scoreline_of_a_finished_pip_squeeze_is_the_adjusted_totals(
    desk_factory: MakeDesk,
) -> None:
    """RULES §6.3: a 2–2 draw on game points broken by 28 pip points reads 4–2 (#25)."""
    rules = MatchRules(match_length=2, scoring=Scoring.KILLER_PIP_SQUEEZE, one_cube_threshold=1)
    page = desk_factory(
        rules,
        Game(1, 1, Side.A, End.BEAR_OFF, level=Level.GAMMON, loser_home=15, loser_outfield=0,
             loser_in_winner_home_or_bar=0),
        Game(1, 2, Side.B, End.RESIGN, level=Level.GAMMON, winner_left=14, loser_left=15),
    )  # fmt: skip
    assert page.match is not None and page.match.outcome.final.a == 4
    assert page.scoreline.score.text() == "4 – 2"
    assert page.scoreline.result.text().startswith("Result: Blue Bar wins 4–2")


def test_pin_game_has_no_cube_controls(desk_factory: MakeDesk) -> None:
    page = desk_factory(MatchRules(match_length=150, scoring=Scoring.PIN_GAME))
    cube = page.boards[0].cube
    assert not any(button.isVisible() for button in cube.action_buttons)
    assert cube.reason_label.text() == "Pin game has no doubling cube"


def test_undo_last_game_asks_first(qtbot: QtBot, desk_factory: MakeDesk, event_path: Path) -> None:
    page = desk_factory(None, bear_off(1, 1, Side.A), bear_off(1, 2, Side.B, 2))
    assert page.match is not None
    click(qtbot, page.undo_button)
    click_answer(page.question, "Cancel")
    assert len(stored_match(event_path, page.match.id).games) == 2
    click(qtbot, page.undo_button)
    assert "pair 1, board 2, won by team B" in (page.question.text() if page.question else "")
    click_answer(page.question, "Undo the game")
    stored = stored_match(event_path, page.match.id)
    assert stored.games == (bear_off(1, 1, Side.A),)
    assert page.games.rowCount() == 1
    assert page.scoreline.score.text() == "1 – 0"


def test_the_desk_follows_changes_made_elsewhere(desk_factory: MakeDesk, event_path: Path) -> None:
    page = desk_factory()
    assert page.match is not None
    page.ctx.change(
        record_game,
        page.match.id,
        bear_off(1, 2, Side.B, 4),
    )
    assert page.scoreline.score.text() == "0 – 4"
    assert page.games.rowCount() == 1


def test_the_picker_shows_the_chosen_match(
    qtbot: QtBot, desk_factory: MakeDesk, event_path: Path
) -> None:
    page = desk_factory()
    first = page.match_id

    def second_match(session: object) -> Changed[int]:
        a = add_team(session, "Prime Suspects", ("Eve", "Finn"))  # type: ignore[arg-type]
        b = add_team(session, "Back Game", ("Gus", "Hana"))  # type: ignore[arg-type]
        match = matches.create_match(session, a.value.id, b.value.id, table=4)  # type: ignore[arg-type]
        return Changed(match.value.id, a.changes | b.changes | match.changes)

    other = page.ctx.change(second_match)
    assert page.picker.matches.count() == 2
    page.picker.matches.setFocus()
    qtbot.keyClick(page.picker.matches, Qt.Key.Key_Down)
    assert page.match_id == other
    assert "Prime Suspects v Back Game" in page.heading.text()
    page.show_match(first or 0)
    assert page.picker.matches.currentData() == first


def test_the_clock_button_opens_the_match_clocks(
    qtbot: QtBot, desk_factory: MakeDesk, tmp_path: Path
) -> None:
    page = desk_factory()
    page.clock_settings = QSettings(str(tmp_path / "keys.ini"), QSettings.Format.IniFormat)
    with qtbot.waitSignal(page.clock_requested) as blocker:
        click(qtbot, page.clock_button)
    assert blocker.args == [page.match_id]
    assert page.match_id is not None
    window = page.ctx.clock_windows[page.match_id]
    assert isinstance(window, QWidget) and window.isVisible()
    qtbot.addWidget(window)
    assert page.ctx.clock_times(page.match_id, 1) == window.clock_times(1)
    window.close()


def test_a_forfeited_match_has_no_clock(
    qtbot: QtBot, desk_factory: MakeDesk, tmp_path: Path
) -> None:
    page = desk_factory()
    assert page.match_id is not None
    page.ctx.change(set_forfeit, page.match_id, Side.B, "no show")
    page.clock_settings = QSettings(str(tmp_path / "keys.ini"), QSettings.Format.IniFormat)
    click(qtbot, page.clock_button)
    assert "no games to time" in page.messages.text
    assert page.ctx.clock_windows == {}
    assert page.scoreline.result.text() == "Won by forfeit: Gammonites did not play"


def test_without_a_match_the_desk_says_how_to_pick_one(
    qtbot: QtBot, desk_factory: MakeDesk
) -> None:
    page = desk_factory()
    empty = MatchDeskPage(page.ctx)
    qtbot.addWidget(empty)
    assert empty.stack.currentIndex() == 0
    assert not empty.boards[0].isEnabled()
    empty.show_match(999)
    assert empty.match is None and empty.stack.currentIndex() == 0


def test_a_withdrawn_double_leaves_the_other_board_free(
    qtbot: QtBot, desk_factory: MakeDesk, event_path: Path
) -> None:
    """Risk 4: a mis-clicked "B doubles" on board 1, then Withdraw, left board 2 "Cube dead" and
    refused its real 2-cube game. A withdrawn offer never happened (RULES §4)."""
    page = desk_factory(None, bear_off(1, 1, Side.A, 1, Level.BACKGAMMON), bear_off(1, 2, Side.B))
    board1, board2 = page.boards
    click(qtbot, board1.cube.offer_b)  # the mis-click
    assert "Cube dead" in board2.cube.reason_label.text()
    click(qtbot, board1.cube.withdraw_button)
    assert page.cube_state.text() == (
        "Pair 2: one-cube pair: team Blue Bar is 2-away; the first board to double takes the cube"
    )
    assert page.match is not None
    assert page.match.pair_state.cube_board is None
    for board in (board1, board2):
        assert board.cube.offer_a.isEnabled() and board.cube.offer_b.isEnabled()
        assert "Cube dead" not in board.cube.reason_label.text()
    # board 2's real double: offered, taken, its 2-cube game saved
    click(qtbot, board2.cube.offer_a)
    click(qtbot, board2.cube.take_button)
    assert "Cube dead" in board1.cube.reason_label.text()  # now board 1 is the dead one
    page.open_record_dialog(2)
    dialog = page.dialog
    assert dialog is not None and dialog.form.cube.value() == 2
    dialog.form.winner.setCurrentIndex(dialog.form.winner.findData("B"))
    assert dialog.save_button.isEnabled(), dialog.problems.text()
    click(qtbot, dialog.save_button)
    assert [(g.board, g.cube) for g in stored_match(event_path, page.match.id).games][-1] == (2, 2)


def test_a_team_that_reached_n_is_not_0_away(desk_factory: MakeDesk) -> None:
    games = [Game(1, b, Side.A, End.BEAR_OFF, cube=4, level=Level.SINGLE) for b in (1, 2)]
    page = desk_factory(MatchRules(match_length=5), *games)
    assert page.scoreline.away_a.text() == "reached 5 (match to 5)"
    assert page.scoreline.away_b.text() == "5-away"
