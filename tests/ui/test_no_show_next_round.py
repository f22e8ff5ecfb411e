"""A team that did not show is not paired in the next round without a question (#24 point 5):
the team that forfeited round 1 by not showing was paired in round 2 as if nothing happened."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from director.domain.rules import Side
from director.domain.simulation import simulate_match
from director.services import games, no_show, rounds
from director.services.teams import list_teams
from director.store.engine import open_database
from director.ui.context import EventContext
from director.ui.round_dialogs import PairRoundDialog
from director.ui.rounds_page import RoundsPage
from tests.event_files import read_back, seed_teams
from tests.ui.app_helpers import event_context, shown_page
from tests.ui.test_rounds_page import answer, click

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


@pytest.fixture
def ctx(event_path: Path) -> Iterator[EventContext]:
    """Six teams; in round 1 the first match's team B did not show, the others played."""
    import random

    seed_teams(event_path, 6, pair=True)
    db = open_database(str(event_path))
    try:
        with db.Session() as session:
            first, *others = rounds.get_round(session, 1).matches
        with db.Session() as session, session.begin():
            no_show.record_no_show(session, first.id, Side.B, "not here at 19:30")
        for match in others:
            for game in simulate_match(match.rules, random.Random(match.id)):
                with db.Session() as session, session.begin():
                    games.record_game(session, match.id, replace(game, pair=0))
    finally:
        db.close()
    with event_context(event_path) as context:
        yield context


def absent_name(path: Path) -> str:
    (match, *_) = read_back(path, lambda s: rounds.get_round(s, 1)).matches
    return match.names[1]


def test_pairing_the_next_round_asks_first(
    qtbot: QtBot, ctx: EventContext, event_path: Path
) -> None:
    page = shown_page(qtbot, RoundsPage(ctx))
    absent = absent_name(event_path)
    click(qtbot, page.pair_button)
    assert page.dialog is None  # no preview before the question is answered
    box = page.question
    assert box is not None and box.isVisible()
    assert f"{absent} did not show in round 1" in box.text()
    answer(box, "Withdraw and pair")
    dialog = page.dialog
    assert isinstance(dialog, PairRoundDialog)
    paired = {
        dialog.table.item(r, c).text() for r in range(dialog.table.rowCount()) for c in (1, 4)
    }
    assert absent not in paired
    withdrawn = [t.withdrawn_after_round for t in ctx.read(list_teams) if t.name == absent]
    assert withdrawn == [1]


def test_the_director_may_pair_it_all_the_same(
    qtbot: QtBot, ctx: EventContext, event_path: Path
) -> None:
    page = shown_page(qtbot, RoundsPage(ctx))
    absent = absent_name(event_path)
    click(qtbot, page.pair_button)
    answer(page.question, "Pair them")
    dialog = page.dialog
    assert isinstance(dialog, PairRoundDialog)
    paired = {
        dialog.table.item(r, c).text() for r in range(dialog.table.rowCount()) for c in (1, 4)
    }
    assert absent in paired
