"""The games model of the desk: rows from the domain's lines, abandoned games marked."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.modeltest import ModelTester

from director.domain.event import MatchInfo, TeamInfo
from director.domain.match import score_match
from director.domain.rules import End, Level, MatchRules, Side
from director.domain.scoring import Game
from director.ui.models.games_model import COLUMNS, GamesModel
from tests.event_files import stored_match
from tests.ui.desk.desk_helpers import MakeDesk

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


def cell(model: GamesModel, row: int, column: str) -> object:
    return model.data(model.index(row, COLUMNS.index(column)))


def test_games_model_passes_the_model_tester(
    qtmodeltester: ModelTester, desk_factory: MakeDesk, event_path: Path
) -> None:
    games = (
        Game(1, 1, Side.A, End.BEAR_OFF, cube=2, level=Level.GAMMON),
        Game(1, 2, Side.B, End.TIME, cube=1, loser_borne_off=3),
    )
    page = desk_factory(None, *games)
    assert page.match_id is not None
    model = GamesModel()
    qtmodeltester.check(model)
    model.set_match(stored_match(event_path, page.match_id))
    qtmodeltester.check(model)
    assert model.rowCount() == 2
    assert cell(model, 0, "Points") == "4"
    assert cell(model, 1, "Level") == "borne off 3"
    assert cell(model, 1, "Score") == "4–1"
    model.set_match(None)
    assert model.rowCount() == 0


def test_a_game_abandoned_under_rule_4_prime_is_marked(qtmodeltester: ModelTester) -> None:
    # The services never store an abandoned game; a match record read elsewhere may hold one.
    rules = MatchRules(match_length=3, winner_required=True)
    games = (
        Game(1, 1, Side.A, End.BEAR_OFF, cube=1, level=Level.BACKGAMMON),
        Game(1, 2, Side.B, End.BEAR_OFF, cube=1, level=Level.SINGLE),
    )
    names = ("Blue Bar", "Gammonites")
    match = MatchInfo(
        id=1,
        round=None,
        table=1,
        team_a=TeamInfo(1, names[0], ("Ana", "Ben")),
        team_b=TeamInfo(2, names[1], ("Cleo", "Dev")),
        rules=rules,
        games=games,
        game_ids=(10, 11),
        outcome=score_match(rules, games, names),
    )
    model = GamesModel()
    model.set_match(match)
    qtmodeltester.check(model)
    assert cell(model, 1, "Counted") == "abandoned"
    assert cell(model, 1, "Points") == "0"
    assert model.game_id(1) == 11
    assert str(model.data(model.index(1, 0), Qt.ItemDataRole.ToolTipRole)).startswith("abandoned")
    assert model.data(model.index(1, 0), Qt.ItemDataRole.ForegroundRole) is not None
    assert model.data(model.index(0, 0), Qt.ItemDataRole.ForegroundRole) is None
