"""An 8-team Swiss evening run from the rounds page and the match desk: three rounds paired
and published through the preview dialog, every game of every match entered through the desk's
buttons and dialogs, and the standings page showing what the services compute from the file."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QStackedWidget
from pytestqt.qtbot import QtBot

from director.domain.rules import End, EventOptions
from director.domain.simulation import simulate_match
from director.services import standings
from director.services.events import update_event
from director.services.matches import get_match
from director.services.rounds import RoundStatus, list_rounds
from director.services.teams import import_teams
from director.store.engine import open_database
from director.ui.context import EventContext
from director.ui.desk.match_desk import MatchDeskPage
from director.ui.round_dialogs import PairRoundDialog
from director.ui.rounds_page import RoundsPage
from director.ui.standings_page import StandingsPage
from tests.e2e.desk_driver import click, enter_game

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")

TEAM_LIST = """team,player1,player2,club
Blue Bar,Ana Ribeiro,Ben Okafor,North
Gammonites,Cleo Varga,Dev Patel,South
Prime Suspects,Eve Lindqvist,Finn Murphy,North
Back Game,Gus Tanaka,Hana Novak,Harbour
Cube Rats,Ivo Petrov,Jade Moreau,South
Pip Squeezers,Kai Larsen,Lea Schmidt,Harbour
Bear Off,Max Rossi,Nia Adeyemi,Hill
Anchor,Oli Hughes,Pia Costa,Hill
"""


def open_match_from_rounds_page(qtbot: QtBot, rounds_page: RoundsPage, row: int) -> None:
    rect = rounds_page.table.visualRect(rounds_page.model.index(row, 1))
    viewport = rounds_page.table.viewport()
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(viewport, Qt.MouseButton.LeftButton, pos=rect.center())


def test_three_swiss_rounds_entered_through_the_app(qtbot: QtBot, event_path: Path) -> None:
    db = open_database(str(event_path))
    with db.Session() as session, session.begin():
        update_event(session, options=EventOptions(rounds=3))
        import_teams(session, TEAM_LIST)
    db.close()
    ctx = EventContext(open_database(str(event_path)))
    rounds_page = RoundsPage(ctx)
    desk = MatchDeskPage(ctx)
    standings_page = StandingsPage(ctx)
    pages = QStackedWidget()  # one page on screen at a time, as in the main window
    qtbot.addWidget(pages)
    for page in (rounds_page, desk, standings_page):
        pages.addWidget(page)
    pages.resize(1366, 720)
    pages.show()

    def show_match(match_id: int) -> None:  # what the main window does on ctx.match_requested
        pages.setCurrentWidget(desk)
        desk.show_match(match_id)

    ctx.match_requested.connect(show_match)
    rng = random.Random(2024)
    entered: dict[int, list[object]] = {}
    ends: set[End] = set()
    for number in (1, 2, 3):
        pages.setCurrentWidget(rounds_page)
        click(qtbot, rounds_page.pair_button)
        dialog = rounds_page.dialog
        assert isinstance(dialog, PairRoundDialog) and dialog.preview.number == number
        click(qtbot, dialog.publish_button)
        assert rounds_page.model.rowCount() == 4
        for row in range(4):
            pages.setCurrentWidget(rounds_page)
            match = rounds_page.model.match_at(row)
            open_match_from_rounds_page(qtbot, rounds_page, row)
            assert desk.match_id == match.id
            games = simulate_match(match.rules, rng)
            for game in games:
                enter_game(qtbot, desk, game)
                ends.add(game.end)
            entered[match.id] = list(games)
            assert desk.match is not None and desk.match.outcome.finished
        pages.setCurrentWidget(rounds_page)
        assert f"round {number}: finished" in rounds_page.summary.text()

    # Every game is on disk exactly as the players reported it, every round finished.
    db = open_database(str(event_path))
    with db.Session() as session:
        for match_id, games in entered.items():
            assert list(get_match(session, match_id).games) == games
        assert [r.status for r in list_rounds(session)] == [RoundStatus.FINISHED] * 3
        expected = standings.standings(session)
    db.close()
    assert {End.PASS, End.BEAR_OFF} <= ends

    # The standings page shows the services' standings, value for value.
    pages.setCurrentWidget(standings_page)
    model = standings_page.model
    assert model.rowCount() == 8
    for row, line in enumerate(expected.lines):
        assert model.line(row) == line
        mp = model.data(model.index(row, model.columns.index("MP")))
        assert mp == f"{line.row.match_points:g}"
    assert standings_page.summary.text() == "after round 3, 8 teams"
    ctx.close()
