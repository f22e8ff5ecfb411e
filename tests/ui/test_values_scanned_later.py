"""The app's window scans an opened event's stored values while its first page is built
(#24 point 6): a value the app never writes still closes the event with the open's refusal,
no change is made before the scan has passed (a change waits for it), and the event is left
closed cleanly."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from director.domain.errors import UserError
from director.services.teams import add_team
from director.store.engine import open_event
from director.ui.context import EventContext
from director.ui.main_window import MainWindow
from tests.event_files import seed_teams
from tests.ui.app_helpers import OFFSCREEN_NOISE

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)
REFUSED = "holds a value this app never writes (team 2: seed)"


def stored(path: Path) -> list[tuple[object, ...]]:
    """The teams and the file's own facts (its open mark among them), read with sqlite3."""
    connection = sqlite3.connect(path)
    try:
        teams = connection.execute("SELECT id, name, seed FROM team ORDER BY id").fetchall()
        return teams + connection.execute("SELECT key FROM meta ORDER BY key").fetchall()
    finally:
        connection.close()


def bad_seed(path: Path) -> list[tuple[object, ...]]:
    seed_teams(path, 4)
    connection = sqlite3.connect(path)
    connection.execute("UPDATE team SET seed = 'abc' WHERE id = 2")
    connection.commit()
    connection.close()
    return stored(path)


def test_a_value_the_app_never_writes_closes_the_event_with_the_refusal(
    qtbot: QtBot, window: MainWindow, event_path: Path
) -> None:
    before = bad_seed(event_path)
    window.open_target(str(event_path))
    qtbot.waitUntil(lambda: window.ctx is None)
    assert REFUSED in window.messages.text
    assert window.stack.currentWidget() is window.start
    assert stored(event_path) == before  # nothing entered, and closed cleanly


def test_a_change_waits_for_the_scan_and_is_refused_by_it(event_path: Path) -> None:
    before = bad_seed(event_path)
    db = open_event(str(event_path), make_backup=False, values_later=True)
    ctx = EventContext(db)
    try:
        with pytest.raises(UserError, match=r"never writes \(team 2: seed\)"):
            ctx.change(add_team, "Late", ("Lee", "Lou"))
    finally:
        ctx.close()
    assert stored(event_path) == before


def test_a_sound_event_is_marked_open_once_the_scan_has_passed(
    qtbot: QtBot, window: MainWindow, event_path: Path
) -> None:
    seed_teams(event_path, 4)
    assert window.open_target(str(event_path))
    assert window.ctx is not None
    check = window.ctx.db.values_check
    assert check is not None
    qtbot.waitUntil(check.done)
    assert check.result() == "" and window.ctx.db.marked
    assert window.ctx.change(add_team, "Late", ("Lee", "Lou")).name == "Late"


def test_a_value_the_first_look_does_not_read_closes_the_event_it_showed(
    qtbot: QtBot, window: MainWindow, event_path: Path
) -> None:
    """The teams page is shown from the file's first look (its teams are sound); the scan of
    every value then refuses one in a match: the shown event is closed with the refusal."""
    seed_teams(event_path, 4, pair=True)
    connection = sqlite3.connect(event_path)
    connection.execute("UPDATE match SET score_a = 'lots' WHERE id = 1")
    connection.commit()
    connection.close()
    before = stored(event_path)
    glance = window.first_look(str(event_path))
    assert glance is not None and glance.look is not None  # the teams page is shown from it
    assert glance.lock is not None
    glance.lock.release()
    window.drop_first_look()
    window.open_target(str(event_path))
    qtbot.waitUntil(lambda: window.ctx is None)
    assert "holds a value this app never writes (match 1: score_a)" in window.messages.text
    assert window.stack.currentWidget() is window.start and window.looking is None
    assert stored(event_path) == before  # nothing entered, and closed cleanly
