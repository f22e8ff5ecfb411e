"""Flow: a whole 8-team Swiss evening in the main window, with no command line.

New event through its dialog → 8 teams imported from a CSV through the preview → three rounds
paired and published from the rounds page → every game of every match entered at the match
desk through the cube buttons and the record dialog (passes, a time forfeit, one-cube pairs)
→ the standings page shows exactly what the services compute from the file on disk.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from director.domain.cube import CubeRegime
from director.domain.match import score_match
from director.domain.rules import End
from director.domain.simulation import simulate_match
from director.services import standings
from director.services.matches import list_matches
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

TEAMS = """team,player1,player2,club
Blue Bar,Ana Ribeiro,Ben Okafor,North
Gammonites,Cleo Varga,Dev Patel,South
R&D <Team>,Łukasz Nowak,Ελένη Παππά,North
Back Game,Дмитрий Орлов,Hana Novak,Harbour
Cube Rats,Ivo Petrov,Jade Moreau,South
Pip Squeezers,Kai Larsen,Lea Schmidt,Harbour
Bear Off,Max Rossi,Nia Adeyemi,Hill
Anchor,Oli Hughes,Pia Costa,Hill
"""
SEED = 1


def test_a_whole_evening_in_the_app(qtbot: QtBot, tmp_path: Path) -> None:
    window = MainWindow(throwaway_settings(tmp_path))
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()

    window.start.new_button.click()
    dialog = window.findChild(EventDialog)
    assert dialog is not None
    qtbot.keyClicks(dialog.name, "Thursday Tandem")
    dialog.options_form.rounds.setValue(3)
    dialog.set_path(str(tmp_path / "thursday"))
    with qtbot.waitSignal(dialog.finished):
        dialog.ok_button.click()
    event_file = tmp_path / "thursday.tandem"
    assert window.view is not None

    teams_page = window.view.page(0)
    assert isinstance(teams_page, TeamsPage)
    csv = tmp_path / "teams.csv"
    csv.write_text(TEAMS, encoding="utf-8")
    preview = teams_page.import_csv(str(csv))
    assert preview is not None and not preview.bad_rows
    with qtbot.waitSignal(preview.finished):
        preview.import_button.click()

    rng = random.Random(SEED)
    ends: set[End] = set()
    one_cube_pairs_with_a_cube = 0
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
            games = simulate_match(match.rules, rng, 0.5)
            for game in games:
                enter_game(qtbot, desk, game)
                ends.add(game.end)
            assert desk.match is not None and desk.match.outcome.finished
            for pair in {g.pair for g in games}:
                before = [g for g in games if g.pair < pair]
                rule = score_match(match.rules, before).cube_rule
                if rule.regime is CubeRegime.ONE_CUBE and any(
                    g.used_cube for g in games if g.pair == pair
                ):
                    one_cube_pairs_with_a_cube += 1
        window.show_page(1)
        assert f"round {number}: finished" in rounds_page.summary.text()

    assert {End.PASS, End.TIME, End.BEAR_OFF} <= ends
    assert one_cube_pairs_with_a_cube > 0

    window.show_page(3)
    standings_page = window.view.page(3)
    assert isinstance(standings_page, StandingsPage)
    shown = [standings_page.model.line(r) for r in range(standings_page.model.rowCount())]
    window.close()

    db = open_database(str(event_file))
    with db.Session() as session:
        expected = standings.standings(session)
        stored = list_matches(session)
    db.close()
    assert shown == list(expected.lines)
    assert len(stored) == 12 and all(m.outcome.finished for m in stored)
    assert "R&D <Team>" in {line.team.name for line in expected.lines}
