"""Flow: a whole individual club night (RULES §10) in the main window, with no command line.

New event through its dialog with the Individual format and its match reserve → 8 players
imported from a player list through the preview on the Players page → three Swiss rounds
paired and published from the rounds page → every game of every match entered at the one-board
desk through the cube buttons and the record dialog, with the cube disabled in each Crawford
game and the reason shown → the standings page shows exactly what the services compute from
the file on disk.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from director.domain.match import score_match
from director.domain.rules import ClockMode, Format, TimeControl
from director.domain.simulation import simulate_match
from director.services import standings
from director.services.events import get_event
from director.services.matches import list_matches
from director.services.teams import list_teams
from director.store.engine import open_database
from director.ui.desk.match_desk import MatchDeskPage
from director.ui.event_dialog import EventDialog
from director.ui.main_window import MainWindow
from director.ui.round_dialogs import PairRoundDialog
from director.ui.rounds_page import RoundsPage
from director.ui.standings_page import StandingsPage
from director.ui.teams_page import TeamsPage
from tests.e2e.desk_driver import click, enter_game
from tests.ui.app_helpers import OFFSCREEN_NOISE, throwaway_settings

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)

PLAYERS = """player,club,rating
Ana Ribeiro,North,1650
Ben Okafor,South,1720
Cleo Varga,North,
Dev Patel,Harbour,1580
Ελένη Παππά,South,1610
Łukasz Nowak,Hill,
R&D <Kai>,Hill,1500
Lea Schmidt,Harbour,
"""
SEED = 3


def test_a_whole_individual_night_in_the_app(qtbot: QtBot, tmp_path: Path) -> None:
    window = MainWindow(throwaway_settings(tmp_path))
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()

    window.start.new_button.click()
    dialog = window.findChild(EventDialog)
    assert dialog is not None
    qtbot.keyClicks(dialog.name, "Thursday Individual")
    form = dialog.options_form
    form.format.setCurrentIndex(form.format.findData(Format.INDIVIDUAL.value))
    form.match_length.setValue(5)
    form.rounds.setValue(3)
    dialog.set_path(str(tmp_path / "thursday"))
    with qtbot.waitSignal(dialog.finished):
        dialog.ok_button.click()
    event_file = tmp_path / "thursday.tandem"
    assert window.view is not None
    assert window.view.navigation.item(0).text() == "Players"

    players_page = window.view.page(0)
    assert isinstance(players_page, TeamsPage)
    csv = tmp_path / "players.csv"
    csv.write_text(PLAYERS, encoding="utf-8")
    preview = players_page.import_csv(str(csv))
    assert preview is not None and not preview.bad_rows
    with qtbot.waitSignal(preview.finished):
        preview.import_button.click()
    assert players_page.counts.text().startswith("8 players")

    rng = random.Random(SEED)
    crawford_games = 0
    for number in (1, 2, 3):
        window.show_page(1)
        rounds_page = window.view.page(1)
        assert isinstance(rounds_page, RoundsPage)
        click(qtbot, rounds_page.pair_button)
        pair_dialog = rounds_page.dialog
        assert isinstance(pair_dialog, PairRoundDialog) and pair_dialog.preview.number == number
        click(qtbot, pair_dialog.publish_button)
        for row in range(rounds_page.model.rowCount()):
            window.show_page(1)
            match = rounds_page.model.match_at(row)
            window.ctx.match_requested.emit(match.id)  # what a double-click on the row does
            desk = window.view.page(2)
            assert isinstance(desk, MatchDeskPage) and desk.match_id == match.id
            assert desk.boards[1].isHidden()  # one board, game after game
            games = simulate_match(match.rules, rng, 0.5)
            for index, game in enumerate(games):
                assert game.board == 1
                rule = score_match(match.rules, games[:index]).cube_rule
                cube = desk.boards[0].cube
                if rule.crawford:  # the desk refuses the cube before anyone asks
                    crawford_games += 1
                    assert not cube.offer_a.isEnabled() and not cube.offer_b.isEnabled()
                    assert desk.match is not None
                    score, names = desk.match.outcome.score, desk.match.names
                    leader = names[0] if score.a > score.b else names[1]
                    assert max(score.a, score.b) == match.rules.match_length - 1
                    assert desk.cube_state.text() == (
                        f"Game {game.pair}: Crawford game: {leader} is 1-away"
                    )
                    assert "Crawford game" in cube.offer_a.toolTip()
                enter_game(qtbot, desk, game)
            assert desk.match is not None and desk.match.outcome.finished
        window.show_page(1)
        assert f"round {number}: finished" in rounds_page.summary.text()
    assert crawford_games > 0

    window.show_page(3)
    standings_page = window.view.page(3)
    assert isinstance(standings_page, StandingsPage)
    shown = [standings_page.model.line(r) for r in range(standings_page.model.rowCount())]
    window.close()

    db = open_database(str(event_file))
    with db.Session() as session:
        info = get_event(session)
        expected = standings.standings(session)
        stored = list_matches(session)
        players = list_teams(session)
    db.close()
    assert info.options.match.format is Format.INDIVIDUAL
    assert info.options.time_control == TimeControl(120, 12, ClockMode.DELAY)
    for player in players:  # each player enters alone, on board 1
        first, *others = player.players
        assert first == player.name and not any(others)
    assert shown == list(expected.lines)
    assert len(stored) == 12 and all(m.outcome.finished for m in stored)
    assert all(g.board == 1 for m in stored for g in m.games)
    assert "R&D <Kai>" in {line.team.name for line in expected.lines}
