"""The teams page's Seed by rating (#12): enabled by the service's answer, with its reason."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from director.services import rounds
from director.services.teams import edit_team, list_teams
from director.ui.context import EventContext
from director.ui.teams_page import TeamsPage
from tests.event_files import seed_teams
from tests.ui.app_helpers import OFFSCREEN_NOISE, event_context, stored_teams

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)


@pytest.fixture
def ctx(event_path: Path) -> Iterator[EventContext]:
    seed_teams(event_path, 4, clubs=True)
    with event_context(event_path) as context:
        yield context


def test_seed_by_rating_from_the_teams_page(
    qtbot: QtBot, ctx: EventContext, event_path: Path
) -> None:
    page = TeamsPage(ctx)
    qtbot.addWidget(page)
    page.show()  # a hidden page reads again only when shown (ui/refresh.py)
    assert not page.seed_button.isEnabled()
    assert page.seed_button.toolTip() == "no team has a rating"
    teams = ctx.read(list_teams)
    for team, rating in zip(teams, (1500, 1600, None, 2000), strict=True):
        ctx.change(edit_team, team.id, rating=rating)
    assert page.seed_button.isEnabled()  # the page read the answer again on the change
    qtbot.mouseClick(page.seed_button, Qt.MouseButton.LeftButton)
    order = [t.name for t in sorted(stored_teams(event_path), key=lambda t: t.seed)]
    assert order == [teams[3].name, teams[1].name, teams[0].name, teams[2].name]
    assert page.messages.text.startswith(f"Seeded by rating: {teams[3].name}, ")
    ctx.change(rounds.pair_next_round)
    assert not page.seed_button.isEnabled()
    assert "round 1 is paired" in page.seed_button.toolTip()
