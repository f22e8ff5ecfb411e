"""The Rounds page of a knockout (#29, RULES §11): the brackets shown as brackets, the matches
ready to start highlighted, and "Pair ready matches" pairing each match as soon as both its
feeders are finished, not when the whole round is."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from director.domain.brackets.plan import ready_made
from director.domain.rules import End, Level, PairingSystem, Side
from director.domain.scoring import Game
from director.services import games, rounds
from director.services.brackets import set_plan
from director.services.events import get_event, update_event
from director.services.matches import get_match
from director.store.engine import open_database
from director.ui.context import EventContext
from director.ui.round_dialogs import PairRoundDialog
from director.ui.rounds_page import RoundsPage
from tests.event_files import seed_teams
from tests.ui.app_helpers import event_context, shown_page

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


@pytest.fixture
def ctx(event_path: Path) -> Iterator[EventContext]:
    db = open_database(str(event_path))
    with db.Session() as s, s.begin():
        options = get_event(s).options
        update_event(s, options=replace(options, pairing_system=PairingSystem.KNOCKOUT))
    db.close()
    seed_teams(event_path, 8)
    db = open_database(str(event_path))
    with db.Session() as s, s.begin():
        set_plan(s, ready_made("consolation-last-chance"))
    db.close()
    with event_context(event_path) as context:
        yield context


def publish(qtbot: QtBot, page: RoundsPage) -> None:
    qtbot.mouseClick(page.pair_button, Qt.MouseButton.LeftButton)
    dialog = page.dialog
    assert isinstance(dialog, PairRoundDialog), page.messages.text
    qtbot.mouseClick(dialog.publish_button, Qt.MouseButton.LeftButton)


def lines(page: RoundsPage) -> dict[str, list[tuple[str, ...]]]:
    out = {}
    tree = page.brackets
    for i in range(tree.topLevelItemCount()):
        top = tree.topLevelItem(i)
        out[top.text(0)] = [
            tuple(top.child(j).text(c) for c in range(tree.columnCount()))
            for j in range(top.childCount())
        ]
    return out


def test_the_brackets_show_and_a_match_is_paired_when_its_feeders_finish(
    qtbot: QtBot, ctx: EventContext, event_path: Path
) -> None:
    page = shown_page(qtbot, RoundsPage(ctx))
    assert page.pair_button.text() == "Pair ready matches…"
    publish(qtbot, page)
    shown = lines(page)
    assert list(shown) == ["Main bracket", "Consolation bracket", "Last chance bracket"]
    main = shown["Main bracket"]
    assert [r[0] for r in main[:4]] == ["Quarter-final · to 7"] * 4
    assert [r[-1] for r in main[:4]] == ["playing"] * 4
    assert main[4][-1] == "waiting" and "…" in (main[4][2], main[4][4])
    first = rounds.get_round
    db = open_database(str(event_path))
    with db.Session() as s, s.begin():
        matches = first(s, 1).matches
        for m in matches[:2]:  # team A wins over the board
            board = 1
            while get_match(s, m.id).pair_state.match_live:
                game = Game(0, board, Side.A, End.BEAR_OFF, level=Level.BACKGAMMON)
                games.record_game(s, m.id, game)
                board = 3 - board
    db.close()
    ctx.changed.emit(ctx_changes())
    ready = [r for r in lines(page)["Main bracket"] if r[-1] == "ready: pair it"]
    assert len(ready) == 1 and ready[0][0] == "Semi-final · to 7"
    highlighted = page.brackets.topLevelItem(0).child(4)
    assert highlighted.font(0).bold()
    publish(qtbot, page)
    main = lines(page)["Main bracket"]
    assert main[4][-1] == "playing" and main[4][1] == "1"  # the free table
    consolation = lines(page)["Consolation bracket"]
    assert consolation[0][-1] == "playing"
    assert page.messages.text == "Round 2 is published."
    assert not page.edit_button.isEnabled()  # a bracket is paired by its plan
    with qtbot.waitSignal(ctx.match_requested) as opened:
        page.brackets.itemActivated.emit(page.brackets.topLevelItem(0).child(4), 0)
    assert opened.args == [page.brackets.topLevelItem(0).child(4).data(0, Qt.ItemDataRole.UserRole)]


def ctx_changes() -> object:
    from director.domain.changes import Area, Changes

    return Changes.of(Area.ROUNDS, Area.RESULTS)
