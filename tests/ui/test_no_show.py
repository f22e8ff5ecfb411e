"""No-show from the rounds page and the desk: the forfeit, its reason in the audit, undo while
the round runs, and the button disabled with the service's reason where it cannot be done."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from pytestqt.qtbot import QtBot

from director.domain.rules import End, Level, Side
from director.domain.scoring import Game
from director.services import games, matches, rounds
from director.services.audit import entries
from director.ui.context import EventContext
from director.ui.desk.match_desk import MatchDeskPage
from director.ui.no_show_dialog import NoShowDialog
from director.ui.rounds_page import RoundsPage
from tests.event_files import read_back, seed_teams, stored_match
from tests.ui.app_helpers import event_context, shown_page

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


@pytest.fixture
def ctx(event_path: Path) -> Iterator[EventContext]:
    seed_teams(event_path, 4, pair=True)
    with event_context(event_path) as context:
        yield context


def audit_of(path: Path) -> list[tuple[str, str, str]]:
    return read_back(path, lambda s: [(e.action, e.target, e.reason) for e in entries(s)])


def click(qtbot: QtBot, widget: object) -> None:
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)  # type: ignore[arg-type]


def fill(qtbot: QtBot, dialog: NoShowDialog, side: Side | None, reason: str) -> None:
    if side is not None:  # on the round indicator: a wide button's middle is past its text
        button = dialog.sides[side]
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=QPoint(8, button.height() // 2))
        assert button.isChecked()
    qtbot.keyClicks(dialog.reason, reason)


def test_a_no_show_from_the_desk_and_its_undo(
    qtbot: QtBot, ctx: EventContext, event_path: Path
) -> None:
    desk = MatchDeskPage(ctx)
    qtbot.addWidget(desk)
    desk.show()
    match = ctx.read(matches.list_matches, 1)[0]
    desk.show_match(match.id)
    assert desk.no_show_button.isEnabled()
    click(qtbot, desk.no_show_button)
    dialog = desk.no_show
    assert dialog is not None and dialog.isVisible()
    assert not dialog.ok_button.isEnabled()  # nobody is chosen as absent
    fill(qtbot, dialog, Side.B, "did not come by 19:30")
    assert dialog.ok_button.isEnabled(), (dialog.absent(), dialog.reason.text())
    click(qtbot, dialog.ok_button)
    assert dialog.error.text() == ""
    assert stored_match(event_path, match.id).forfeit_by is Side.B
    assert ("forfeit", f"match {match.id}", "did not come by 19:30") in audit_of(event_path)
    assert desk.scoreline.result.text() == f"Won by forfeit: {match.names[1]} did not play"
    assert desk.no_show_button.text() == "Undo forfeit…"
    # undo, while round 1 is the round being played
    click(qtbot, desk.no_show_button)
    dialog = desk.no_show
    assert dialog is not None and not dialog.sides
    fill(qtbot, dialog, None, "they were in the wrong room")
    click(qtbot, dialog.ok_button)
    assert stored_match(event_path, match.id).forfeit_by is None
    assert ("forfeit", f"match {match.id}", "they were in the wrong room") in audit_of(event_path)


def test_a_played_match_cannot_be_forfeited(
    qtbot: QtBot, ctx: EventContext, event_path: Path
) -> None:
    match = ctx.read(matches.list_matches, 1)[0]
    game = Game(1, 1, Side.A, End.BEAR_OFF, cube=1, level=Level.SINGLE)
    ctx.change(games.record_game, match.id, game)
    desk = MatchDeskPage(ctx)
    qtbot.addWidget(desk)
    desk.show()
    desk.show_match(match.id)
    assert not desk.no_show_button.isEnabled()
    assert "games are recorded in this match" in desk.no_show_button.toolTip()


def test_the_rounds_page_forfeits_the_chosen_match_until_the_round_is_over(
    qtbot: QtBot, ctx: EventContext, event_path: Path
) -> None:
    page = shown_page(qtbot, RoundsPage(ctx))
    assert not page.no_show_button.isEnabled()
    assert page.no_show_button.toolTip() == "choose a match first"
    page.table.selectRow(1)
    assert page.no_show_button.isEnabled()
    click(qtbot, page.no_show_button)
    dialog = page.dialog
    assert isinstance(dialog, NoShowDialog)
    fill(qtbot, dialog, Side.A, "stuck in traffic")
    click(qtbot, dialog.ok_button)
    match = page.model.match_at(1)
    assert stored_match(event_path, match.id).forfeit_by is Side.A
    assert page.model.match_at(1).forfeit_by is Side.A  # the page shows it at once
    assert page.selected_match() is not None and page.selected_match().id == match.id
    assert page.no_show_button.text() == "Undo forfeit…"
    # round 1 is played out and round 2 paired: round 1's forfeit stands
    other = page.model.match_at(0)
    for board in (1, 2):  # the other table played out (5 points each board: match to 5)
        game = Game(1, board, Side.A, End.BEAR_OFF, cube=4, level=Level.SINGLE)
        ctx.change(games.record_game, other.id, game)
    ctx.change(rounds.pair_next_round)
    page.round_list.setCurrentRow(0)
    page.table.selectRow(1)
    assert not page.no_show_button.isEnabled()
    assert "round 1 is over" in page.no_show_button.toolTip()
