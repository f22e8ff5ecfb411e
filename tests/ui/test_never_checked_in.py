"""A team that never checked in is shown apart in the standings, on screen and on the projector
(#24 point 5): it was ranked among the teams that played."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from director.services import rounds
from director.services.teams import edit_team, list_teams
from director.store.engine import open_database
from director.ui.public_display import PublicDisplay
from director.ui.standings_page import StandingsPage
from tests.event_files import seed_teams
from tests.ui.app_helpers import event_context, shown_page
from tests.ui.test_rounds_page import play_round
from tests.ui.test_standings_page import column

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


@pytest.fixture
def event(event_path: Path) -> Path:
    """Five teams, four checked in (Team 1 never came: the top seed), round 1 played."""
    seed_teams(event_path, 5)
    db = open_database(str(event_path))
    try:
        with db.Session() as session, session.begin():
            for team in list_teams(session)[1:]:
                edit_team(session, team.id, version=team.version, present=True)
            rounds.pair_next_round(session)
    finally:
        db.close()
    play_round(event_path, 1)
    return event_path


def test_the_standings_page_lists_it_apart(qtbot: QtBot, event: Path) -> None:
    with event_context(event) as ctx:
        page = shown_page(qtbot, StandingsPage(ctx))
        model = page.model
        assert column(model, "Team")[-1] == "Team 1 (did not play)"
        assert column(model, "Rank")[-1] == "–"
        assert "–" not in column(model, "Rank")[:-1]


def test_the_projector_lists_it_apart(qtbot: QtBot, event: Path) -> None:
    with event_context(event) as ctx:
        display = PublicDisplay(ctx)
        qtbot.addWidget(display)
        display.resize(1366, 768)
        (slide,) = display.standings_slides(20)
        assert slide.rows[-1][:2] == ("–", "Team 1 (did not play)")
        assert [row[0] for row in slide.rows[:-1]] == ["1", "2", "3", "4"]
