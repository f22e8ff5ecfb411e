"""Small frictions removed: Help closes on Esc, no '0-away', a bye is not a match to wait for,
'1 bad row' in the singular, team lists are looked for beside the event file."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from director.domain.changes import Changes
from director.domain.simulation import simulate_match
from director.services import matches
from director.services.games import record_games
from director.store.engine import open_database
from director.ui.help import HelpWindow
from director.ui.models.round_model import COLUMNS
from director.ui.rounds_page import RoundsPage
from director.ui.teams_page import TeamsPage
from tests.event_files import seed_teams
from tests.ui.app_helpers import event_context

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


def test_help_closes_on_escape(qtbot: QtBot) -> None:
    window = HelpWindow()
    qtbot.addWidget(window)
    window.show_topic("rules")
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window.browser, Qt.Key.Key_Escape)
    assert not window.isVisible()


def test_a_bye_is_not_counted_as_a_match_done(qtbot: QtBot, event_path: Path) -> None:
    seed_teams(event_path, 5, pair=True)
    with event_context(event_path) as ctx:
        page = RoundsPage(ctx)
        qtbot.addWidget(page)
        page.show()
        assert page.summary.text() == "round 1: not started, 0 of 2 matches done (and 1 bye)"
        teams = TeamsPage(ctx)
        qtbot.addWidget(teams)
        assert teams.files_folder() == event_path.parent


def play(event_path: Path, match_id: int) -> None:
    """Another station records a whole match (team A wins 4 games of 2 points each)."""
    db = open_database(str(event_path))
    with db.Session() as session, session.begin():
        match = matches.get_match(session, match_id)
        games = simulate_match(match.rules, random.Random(match_id), 1.0)
        record_games(session, match_id, games)
    db.close()


def test_pair_again_and_undo_are_disabled_with_the_reason_once_the_round_has_results(
    qtbot: QtBot, event_path: Path
) -> None:
    first, _ = seed_teams(event_path, 4, pair=True)
    with event_context(event_path) as ctx:
        page = RoundsPage(ctx)
        qtbot.addWidget(page)
        page.show()
        assert page.repair_button.isEnabled() and page.undo_button.isEnabled()
        play(event_path, first)
        ctx.changed.emit(Changes.match(first))
        for button, action in ((page.repair_button, "paired again"), (page.undo_button, "undone")):
            assert not button.isEnabled()
            assert button.toolTip() == f"round 1 has results: it cannot be {action}"


def test_the_round_is_not_finished_message_goes_once_it_is(qtbot: QtBot, event_path: Path) -> None:
    first, second = seed_teams(event_path, 4, pair=True)
    with event_context(event_path) as ctx:
        page = RoundsPage(ctx)
        qtbot.addWidget(page)
        page.show()
        page.pair_next_round()
        assert page.messages.text.startswith("round 1 is not finished yet (table 1, table 2)")
        play(event_path, first)
        ctx.changed.emit(Changes.match(first))
        assert page.messages.text.startswith("round 1 is not finished yet (table 2)")
        play(event_path, second)
        ctx.changed.emit(Changes.match(second))
        assert page.messages.kind != "error"
        assert "not finished" not in page.messages.text


def test_the_bye_takes_no_table_number(qtbot: QtBot, event_path: Path) -> None:
    seed_teams(event_path, 5, pair=True)
    with event_context(event_path) as ctx:
        page = RoundsPage(ctx)
        qtbot.addWidget(page)
        page.show()
        column = COLUMNS.index("Table")
        tables = [page.model.index(r, column).data() for r in range(page.model.rowCount())]
        assert tables == ["1", "2", "–"]  # two matches at tables 1 and 2, the bye at none
    run = subprocess.run(
        [sys.executable, "-m", "director.cli", "pair", str(event_path), "--round", "1"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    lines = run.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == ["table 1", "table 2", "bye"]
