"""A message never moves what the director is about to click (#24 point 5): a bar that showed
and faded pushed the round table down about 41 px and back, so a click landed on another row
(twice a result went to the wrong match)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from director.domain.rules import MatchRules
from director.ui.desk.match_desk import MatchDeskPage
from director.ui.message_bar import MessageBar
from director.ui.rounds_page import RoundsPage
from director.ui.teams_page import TeamsPage
from tests.event_files import seed_teams
from tests.ui.app_helpers import event_context, make_window, shown_page
from tests.ui.desk.desk_helpers import seed_match

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")

LONG = "A refusal of several lines, as the services word them. " * 12


def place(widget: QWidget) -> tuple[QPoint, int]:
    """Where the widget is in its window, and its height, once the layouts have settled."""
    QApplication.processEvents()
    return widget.mapTo(widget.window(), QPoint(0, 0)), widget.height()


def never_moves(bar: MessageBar, target: QWidget) -> None:
    before = place(target)
    for show in (bar.show_info, bar.show_error, bar.show_notice):
        for text in ("Round 2 is published.", LONG):
            show(text)
            assert bar.text == text
            assert place(target) == before, (show.__name__, text[:20])
    bar.clear()
    assert bar.text == ""
    assert place(target) == before


@pytest.mark.parametrize("page", [RoundsPage, TeamsPage])
def test_a_message_on_a_page_never_moves_its_table(
    qtbot: QtBot, event_path: Path, page: Callable[..., RoundsPage | TeamsPage]
) -> None:
    seed_teams(event_path, 8)
    with event_context(event_path) as ctx:
        shown = shown_page(qtbot, page(ctx))
        never_moves(shown.messages, shown.stack)


def test_a_message_at_the_desk_never_moves_its_games(qtbot: QtBot, event_path: Path) -> None:
    match_id = seed_match(event_path, MatchRules())
    with event_context(event_path) as ctx:
        desk = shown_page(qtbot, MatchDeskPage(ctx))
        desk.show_match(match_id)
        never_moves(desk.messages, desk.table)


def test_the_windows_message_never_moves_the_page(
    qtbot: QtBot, event_path: Path, tmp_path: Path
) -> None:
    from PySide6.QtCore import QSettings

    seed_teams(event_path, 8)
    window = make_window(qtbot, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    assert window.open_target(str(event_path), remember=False)
    assert window.view is not None
    never_moves(window.messages, window.view)
