"""Drive the match desk like a person at the table: cube buttons, the record dialog, Save.

Used by the e2e flows; every game goes in through the real widgets, never through a service.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLineEdit, QPushButton
from pytestqt.qtbot import QtBot

from director.domain.rules import End, Side
from director.domain.scoring import COUNT_FIELDS, Game, game_points
from director.ui.desk.cube_widget import CubeWidget
from director.ui.desk.match_desk import MatchDeskPage
from director.ui.desk.record_dialog import RecordGameDialog


def click(qtbot: QtBot, button: QPushButton) -> None:
    assert button.isEnabled(), f"{button.text()} is disabled: {button.toolTip()}"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def offer_button(cube: CubeWidget, side: Side) -> QPushButton:
    return cube.offer_a if side is Side.A else cube.offer_b


def drive_cube(qtbot: QtBot, desk: MatchDeskPage, board: int, value: int, holder: Side) -> None:
    """Offer and take until the board's cube shows `value`, owned by `holder` (when above 1)."""
    cube = desk.boards[board - 1].cube
    if cube.value_label.text() == str(value):
        return  # the players already doubled at the table, with the desk following live
    takes = value.bit_length() - 1
    doubler = holder.other if takes % 2 else holder  # owners alternate with each take
    for _ in range(takes):
        click(qtbot, offer_button(cube, doubler))
        click(qtbot, cube.take_button)
        doubler = doubler.other
    assert cube.value_label.text() == str(value)


def choose(combo: QComboBox, data: object) -> None:
    index = combo.findData(data)
    assert index >= 0, (combo.objectName(), data)
    combo.setCurrentIndex(index)


def fill_form(qtbot: QtBot, dialog: RecordGameDialog, game: Game) -> None:
    form = dialog.form
    choose(form.winner, game.winner.value)
    choose(form.end, game.end.value)
    if game.level is not None:
        choose(form.level, game.level.value)
    for name in COUNT_FIELDS + ("loser_pips",):
        value = getattr(game, name)
        edit = form.inputs[name]
        assert isinstance(edit, QLineEdit)
        if value is not None:
            edit.clear()
            qtbot.keyClicks(edit, str(value))
    if game.agreed_level is not None:
        choose(form.agreed_level, game.agreed_level.value)


def enter_game(qtbot: QtBot, desk: MatchDeskPage, game: Game) -> None:
    """One finished game, entered at the desk the way the players report it."""
    assert desk.match is not None
    scoring = desk.match.rules.scoring
    panel = desk.boards[game.board - 1]
    if game.end is End.PASS:
        drive_cube(qtbot, desk, game.board, game.cube, game.winner)
        click(qtbot, offer_button(panel.cube, game.winner))
        click(qtbot, panel.cube.pass_button)
        if desk.dialog is not None:  # the scoring wants checker counts for a pass
            fill_form(qtbot, desk.dialog, game)
            click(qtbot, desk.dialog.save_button)
        return
    if game.cube > 1:
        drive_cube(qtbot, desk, game.board, game.cube, game.winner)
    click(qtbot, panel.record_button)
    dialog = desk.dialog
    assert dialog is not None
    assert dialog.form.cube.value() == game.cube  # prefilled from the board's cube
    fill_form(qtbot, dialog, game)
    points = game_points(scoring, game)
    assert f"scores {points} point" in dialog.preview.text(), dialog.preview.text()
    click(qtbot, dialog.save_button)
    assert desk.dialog is None, dialog.refusal.text() or dialog.problems.text()
