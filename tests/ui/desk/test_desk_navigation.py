"""Navigation at speed: each table's state in the match list, next/previous table keys, the
round shown and the match shown never disagree, and the desk reopens on its match."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from pytestqt.qtbot import QtBot

from director.domain.rules import End, Level, Side
from director.domain.scoring import Game
from director.services import games, matches
from director.ui.context import EventContext
from director.ui.desk.match_desk import MatchDeskPage
from tests.event_files import seed_teams
from tests.ui.app_helpers import event_context, shown_page
from tests.ui.desk.desk_helpers import record_behind_the_desk

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


@pytest.fixture
def ctx(event_path: Path) -> Iterator[EventContext]:
    """Eight teams, round 1 paired: table 1 finished, table 2 under way, the rest not started."""
    first, second = seed_teams(event_path, 8, pair=True)[:2]
    record_behind_the_desk(
        event_path,
        first,
        *(Game(1, board, Side.A, End.BEAR_OFF, cube=4, level=Level.SINGLE) for board in (1, 2)),
    )
    record_behind_the_desk(
        event_path, second, Game(1, 1, Side.B, End.BEAR_OFF, cube=2, level=Level.SINGLE)
    )
    with event_context(event_path) as context:
        yield context


def make_desk(qtbot: QtBot, ctx: EventContext, settings: QSettings) -> MatchDeskPage:
    return shown_page(qtbot, MatchDeskPage(ctx, settings=settings))


def test_tables_show_their_state_and_the_keys_step_through_them(
    qtbot: QtBot, ctx: EventContext, tmp_path: Path
) -> None:
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    desk = make_desk(qtbot, ctx, settings)
    picker = desk.picker
    assert desk.match is None  # nothing chosen yet: the empty state
    picker.rounds.setCurrentIndex(picker.rounds.findData(-1))  # "other": no match there
    assert desk.match is None and desk.stack.currentIndex() == 0
    picker.rounds.setCurrentIndex(picker.rounds.findData(1))
    labels = [picker.matches.itemText(i) for i in range(picker.matches.count())]
    assert labels[0].endswith("wins 8–0") and " · " in labels[0]
    assert labels[1].endswith("· 0–2, pair 1")
    assert labels[2].endswith("· not started")
    # choosing the round showed its first table: the selector and the desk agree
    assert desk.match is not None and desk.match.table == 1
    assert picker.matches.currentData() == desk.match.id
    desk.activateWindow()
    qtbot.waitUntil(desk.isActiveWindow)
    desk.games_panel.table.setFocus()
    qtbot.keyClick(desk, Qt.Key.Key_PageDown, Qt.KeyboardModifier.ControlModifier)
    assert desk.match.table == 2 and picker.matches.currentData() == desk.match.id
    qtbot.keyClick(desk, Qt.Key.Key_PageDown, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(desk, Qt.Key.Key_PageUp, Qt.KeyboardModifier.ControlModifier)
    assert desk.match.table == 2
    # a result at another table: its line says so when the list is next opened
    third = ctx.read(matches.list_matches, 1)[2]
    game = Game(1, 1, Side.A, End.BEAR_OFF, cube=1, level=Level.SINGLE)
    ctx.change(games.record_game, third.id, game)
    picker.matches.showPopup()
    picker.matches.hidePopup()
    assert picker.matches.itemText(2).endswith("· 1–0, pair 1")
    assert picker.matches.currentData() == desk.match.id


def test_the_desk_reopens_on_its_match(qtbot: QtBot, ctx: EventContext, tmp_path: Path) -> None:
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    desk = make_desk(qtbot, ctx, settings)
    match = ctx.read(matches.list_matches, 1)[3]
    desk.show_match(match.id)
    desk.close()
    settings.sync()
    again = make_desk(qtbot, ctx, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    assert again.match is not None and again.match.id == match.id
    assert again.picker.matches.currentData() == match.id
    assert again.picker.rounds.currentData() == 1


def test_a_remembered_match_that_is_no_number_is_forgotten(
    qtbot: QtBot, ctx: EventContext, tmp_path: Path
) -> None:
    """A settings file with "²" for the desk's match (str.isdigit passed it) stopped the desk
    from opening in int()."""
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    first = make_desk(qtbot, ctx, settings)
    settings.setValue(first.settings_key(), "²")
    first.close()
    again = make_desk(qtbot, ctx, settings)
    assert again.match is None


def test_a_hidden_desk_reads_its_match_again_when_shown(
    qtbot: QtBot, ctx: EventContext, tmp_path: Path
) -> None:
    """The pages' one refresh policy (ui/refresh.py): a result recorded while the desk is not
    shown (the clock window, another station) marks it stale; shown, it reads its match."""
    desk = make_desk(qtbot, ctx, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    second = ctx.read(matches.list_matches, 1)[1]
    desk.show_match(second.id)
    assert desk.games.rowCount() == 1
    desk.hide()
    ctx.change(
        games.record_game, second.id, Game(1, 2, Side.B, End.BEAR_OFF, cube=2, level=Level.SINGLE)
    )
    assert desk.refresher.stale and desk.games.rowCount() == 1
    desk.show()
    assert not desk.refresher.stale and desk.games.rowCount() == 2


def test_the_selector_shows_the_state_of_the_match_shown_as_it_changes(
    qtbot: QtBot, ctx: EventContext, tmp_path: Path
) -> None:
    """The selector said "not started" after twelve games and a draw, and "3–1, pair 2" at
    3–5 in pair 3: the line of the match shown was read again only when the list was opened."""
    desk = make_desk(qtbot, ctx, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    third = ctx.read(matches.list_matches, 1)[2]
    desk.show_match(third.id)
    assert desk.picker.matches.currentText().endswith("· not started")
    ctx.change(
        games.record_game, third.id, Game(1, 1, Side.A, End.BEAR_OFF, cube=2, level=Level.SINGLE)
    )
    assert desk.picker.matches.currentText().endswith("· 2–0, pair 1")
    ctx.change(
        games.record_game, third.id, Game(1, 2, Side.B, End.BEAR_OFF, cube=1, level=Level.SINGLE)
    )
    assert desk.picker.matches.currentText().endswith("· 2–1, pair 2")
    # another station's result at the next table: its line is right when the keys reach it
    fourth = ctx.read(matches.list_matches, 1)[3]
    ctx.change(
        games.record_game, fourth.id, Game(1, 1, Side.B, End.BEAR_OFF, cube=4, level=Level.SINGLE)
    )
    desk.picker.step(1)
    assert desk.match is not None and desk.match.id == fourth.id
    assert desk.picker.matches.currentText().endswith("· 0–4, pair 1")


def test_a_drawn_match_reads_as_a_draw_in_the_selector(
    qtbot: QtBot, ctx: EventContext, tmp_path: Path
) -> None:
    desk = make_desk(qtbot, ctx, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    third = ctx.read(matches.list_matches, 1)[2]
    desk.show_match(third.id)
    for pair in range(1, 10):  # split pairs: 1–1, 2–2 … to a draw at the match length
        for board, winner in ((1, Side.A), (2, Side.B)):
            game = Game(pair, board, winner, End.BEAR_OFF, level=Level.SINGLE)
            ctx.change(games.record_game, third.id, game)
        if desk.match is not None and desk.match.outcome.finished:
            break
    assert desk.match is not None and desk.match.outcome.finished
    assert "draw" in desk.picker.matches.currentText()
