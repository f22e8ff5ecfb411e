"""Small frictions removed: Help closes on Esc, no '0-away', a bye is not a match to wait for,
'1 bad row' in the singular, team lists are looked for beside the event file."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from director.services import rounds
from director.services.teams import add_team
from director.store.engine import open_database
from director.ui.context import EventContext
from director.ui.help import HelpWindow
from director.ui.rounds_page import RoundsPage
from director.ui.teams_page import TeamsPage

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


def test_help_closes_on_escape(qtbot: QtBot) -> None:
    window = HelpWindow()
    qtbot.addWidget(window)
    window.show_topic("rules")
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window.browser, Qt.Key.Key_Escape)
    assert not window.isVisible()


def test_a_bye_is_not_counted_as_a_match_done(qtbot: QtBot, event_path: Path) -> None:
    db = open_database(str(event_path))
    with db.Session() as session, session.begin():
        for i in range(5):
            add_team(session, f"Team {i + 1}", (f"Ann {i}", f"Bob {i}"))
        rounds.pair_next_round(session)
    db.close()
    ctx = EventContext(open_database(str(event_path)))
    try:
        page = RoundsPage(ctx)
        qtbot.addWidget(page)
        page.show()
        assert page.summary.text() == "round 1: not started, 0 of 2 matches done (and 1 bye)"
        teams = TeamsPage(ctx)
        qtbot.addWidget(teams)
        assert teams.files_folder() == event_path.parent
    finally:
        ctx.close()
