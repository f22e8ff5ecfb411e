"""The match desk over a real event file: two teams, one match, options per test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from director.domain.rules import MatchRules
from director.domain.scoring import Game
from director.store.engine import open_database
from director.ui.context import EventContext
from director.ui.desk.match_desk import MatchDeskPage
from tests.ui.app_helpers import shown_page
from tests.ui.desk.desk_helpers import MakeDesk, record_behind_the_desk, seed_match


@pytest.fixture
def desk_factory(qtbot: QtBot, event_path: Path) -> Iterator[MakeDesk]:
    contexts: list[EventContext] = []

    def make(rules: MatchRules | None = None, *games: Game) -> MatchDeskPage:
        match_id = seed_match(event_path, rules or MatchRules())
        record_behind_the_desk(event_path, match_id, *games)
        ctx = EventContext(open_database(str(event_path)))
        contexts.append(ctx)
        page = shown_page(qtbot, MatchDeskPage(ctx))
        page.show_match(match_id)
        return page

    yield make
    for ctx in contexts:
        ctx.close()
