"""The app opens an event safely: one window per file, a damaged file's backup offered, a calm
word after a crash, a read-only file viewed only."""

from __future__ import annotations

import os
import random
import socket
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from director.domain.errors import UserError
from director.services.teams import add_team, list_teams
from director.store.engine import open_database, open_event
from director.store.errors import READ_ONLY
from director.store.lock import read_holder
from director.ui.main_window import MainWindow
from director.ui.teams_page import TeamsPage
from tests.event_files import seed_teams
from tests.reliability.media import read_only_file
from tests.store.test_lock import Holder
from tests.ui.app_helpers import (
    OFFSCREEN_NOISE,
    answer,
    backed_up_at_open,
    locked_until_the_window_ticks,
    make_window,
    stored_teams,
    throwaway_settings,
    visible_box,
)

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)


def team_names(window: MainWindow) -> list[str]:
    assert window.view is not None
    page = window.view.page(0)
    assert isinstance(page, TeamsPage)
    return sorted(t.name for t in page.model.teams())


def damage(path: Path) -> None:
    """Overwrite pages in the middle of the file with garbage, as a failing disk would."""
    size = path.stat().st_size
    with path.open("r+b") as handle:
        handle.seek(size // 2)
        handle.write(random.Random(size).randbytes(8192))


def test_a_second_window_is_told_where_the_event_is_open_and_leaves_it(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, event_path: Path
) -> None:
    assert window.open_target(str(event_path))
    other = make_window(qtbot, throwaway_settings(tmp_path / "other"))
    assert not other.open_target(str(event_path))
    assert other.ctx is None and other.stack.currentWidget() is other.start
    assert other.messages.kind == "error"
    where = f"open elsewhere (by pid {os.getpid()} on host {socket.gethostname()} since "
    assert where in other.messages.text
    holder = read_holder(event_path)  # the first window still holds the event, and works
    assert holder is not None and holder.pid == os.getpid()
    assert window.ctx is not None
    window.ctx.change(add_team, "Still Here", ("Ann", "Bob"))
    assert [t.name for t in stored_teams(event_path)] == ["Still Here"]
    window.close_event()
    assert other.open_target(str(event_path))  # free once the first window let it go
    assert team_names(other) == ["Still Here"]
    other.close_event()


def test_a_damaged_file_is_moved_aside_and_its_newest_good_backup_restored(
    qtbot: QtBot, window: MainWindow, event_path: Path
) -> None:
    seed_teams(event_path, 3, clubs=True)
    open_event(str(event_path)).close()  # the backup at opening holds the three teams
    db = open_database(str(event_path))  # a team added after the backup: lost with the file
    with db.Session() as session, session.begin():
        add_team(session, "Late Comers", ("Ann", "Bob"))
    db.close()
    damage(event_path)
    damaged = event_path.read_bytes()
    assert not window.open_target(str(event_path))
    assert window.ctx is None
    assert "damaged" in window.messages.text
    [aside] = event_path.parent.glob("event.tandem.corrupt-*")
    assert aside.read_bytes() == damaged  # moved, untouched
    assert not event_path.exists()
    box = visible_box(window)
    assert box.text() == "event.tandem is damaged and cannot be opened."
    assert str(aside) in box.informativeText()
    assert "(open: 3 teams, 0 games)" in box.informativeText()
    answer(qtbot, window, "Restore it")
    assert window.ctx is not None
    assert team_names(window) == ["Team 1", "Team 2", "Team 3"]
    assert [t.name for t in stored_teams(event_path)] == ["Team 1", "Team 2", "Team 3"]
    assert window.messages.kind == "info"
    assert f"the damaged file is kept as {aside}" in window.messages.text
    assert aside.read_bytes() == damaged  # still there for anyone who wants more from it


def test_a_damaged_file_without_backups_is_said_so(
    qtbot: QtBot, window: MainWindow, event_path: Path
) -> None:
    seed_teams(event_path, 40, clubs=True)
    damage(event_path)
    assert not window.open_target(str(event_path))
    box = visible_box(window)
    assert "There is no good backup" in box.informativeText()
    assert box.standardButtons() == QMessageBox.StandardButton.Close
    assert "Restore it" not in [b.text() for b in box.buttons()]
    answer(qtbot, window, "Close")
    assert window.ctx is None
    assert list(event_path.parent.glob("event.tandem.corrupt-*"))


def test_after_a_crash_a_calm_notice_says_the_event_was_checked(
    qtbot: QtBot, window: MainWindow, event_path: Path
) -> None:
    crashed = Holder(event_path)  # another app has it open...
    pid = crashed.proc.pid
    crashed.kill()  # ...and is killed: its lock file stays behind
    assert window.open_target(str(event_path))
    backed_up_at_open(qtbot, window)  # the notice names the backup, made once the event shows
    text = window.messages.text
    assert window.messages.kind == "info"
    assert text.startswith(f"The event was not closed properly last time (by pid {pid} on host")
    assert "it was checked and is sound" in text
    assert window.ctx is not None and window.ctx.db.report.backup is not None
    assert f"A backup of it as it is now: {window.ctx.db.report.backup}." in text
    window.ctx.notified.emit("the automatic backup failed: the disk is full")
    assert window.messages.text == "the automatic backup failed: the disk is full"
    window.close_event()
    assert window.open_target(str(event_path))  # closed properly this time: nothing to say
    assert window.messages.text == ""


def test_a_read_only_file_opens_view_only_and_refuses_changes(
    qtbot: QtBot, window: MainWindow, event_path: Path
) -> None:
    seed_teams(event_path, 2, clubs=True)
    before = event_path.read_bytes()
    with read_only_file(event_path):
        assert not window.open_target(str(event_path))
        assert window.ctx is None
        box = visible_box(window)
        assert "cannot be opened for editing: it is read-only here" in box.text()
        answer(qtbot, window, "Open view-only")
        assert window.ctx is not None and window.read_only
        assert window.read_only_banner.isVisible()
        assert window.read_only_banner.text().startswith("Read-only: changes are refused.")
        assert window.windowTitle() == "Template Open (read-only) – Tandem Director"
        assert team_names(window) == ["Team 1", "Team 2"]
        with pytest.raises(UserError) as refused:
            window.ctx.change(add_team, "Late", ("Ann", "Bob"))
        assert str(refused.value) == READ_ONLY
        window.close_event()
        assert not window.read_only_banner.isVisible()
        assert event_path.read_bytes() == before


def test_a_read_only_question_declined_leaves_the_window_as_it_was(
    qtbot: QtBot, window: MainWindow, event_path: Path
) -> None:
    with read_only_file(event_path):
        assert not window.open_target(str(event_path))
        answer(qtbot, window, "Cancel")
        assert window.ctx is None
        assert not [b for b in window.findChildren(QMessageBox) if b.isVisible()]
        assert (
            window.messages.text
            == "Cannot open the event for editing: event.tandem is read-only here."
        )


def test_the_window_keeps_running_while_an_event_file_opens(
    qtbot: QtBot, window: MainWindow, event_path: Path
) -> None:
    """Issue 14 point 5: opening runs off the GUI thread. Another program holds the file's
    write lock, so the opening waits for it; meanwhile the window's timers run, and one of
    them lets the lock go, after which the event opens."""
    seed_teams(event_path, 2)
    with locked_until_the_window_ticks(window, event_path, "IMMEDIATE") as ticks:
        assert window.open_target(str(event_path)), window.messages.text  # the open's write waits
    assert len(ticks) >= 3
    assert team_names(window) == ["Team 1", "Team 2"]


def test_the_backup_at_opening_holds_the_event_as_opened_before_any_change(
    qtbot: QtBot, window: MainWindow, event_path: Path
) -> None:
    """The backup at opening is made once the window shows the event, off the critical path,
    but still before any change: a team added at once is not in it."""
    seed_teams(event_path, 2)
    assert window.open_target(str(event_path))
    assert window.ctx is not None
    window.ctx.change(add_team, "At Once", ("Ann", "Bob"))
    backed_up_at_open(qtbot, window)
    backup = window.ctx.db.report.backup
    assert backup is not None and "_open" in backup.name
    db = open_database(str(backup), read_only=True)
    try:
        with db.Session() as session:
            assert sorted(t.name for t in list_teams(session)) == ["Team 1", "Team 2"]
    finally:
        db.close()
    assert [t.name for t in stored_teams(event_path)] == ["Team 1", "Team 2", "At Once"]


def test_after_a_crash_the_notice_names_the_clocks_that_were_running(
    qtbot: QtBot, window: MainWindow, event_path: Path
) -> None:
    """#24 point 5: after a crash the desk said nothing of the clocks that were running, so
    nobody thought to resume them. The notice names each match whose clock was running."""
    from director.domain.clock import MatchClock
    from director.domain.rules import Side
    from director.services import clocks
    from director.services.matches import get_match
    from tests.ui.app_helpers import seed_match

    running, paused = seed_match(event_path), seed_match_at(event_path, 4)
    db = open_database(str(event_path))
    try:
        with db.Session() as session, session.begin():
            for match_id in (running, paused):
                tc = get_match(session, match_id).time_control
                clock = MatchClock(tc, iter(range(0, 10**12, 10**9)).__next__)
                for board in clock.boards:
                    clock.set_first_mover(board, Side.A)
                clock.start()
                clock.press(1, Side.A)
                if match_id == paused:
                    for board in clock.boards:
                        clock.pause(board)
                clocks.append_events(session, match_id, 0, clock.events)
    finally:
        db.close()
    crashed = Holder(event_path)
    crashed.kill()
    assert window.open_target(str(event_path))
    backed_up_at_open(qtbot, window)
    text = window.messages.text
    assert "Clocks were running when it stopped: table 3 (Blue Bar v Gammonites)." in text
    assert "table 4" not in text  # its clocks were paused
    window.close_event()
    assert window.open_target(str(event_path))  # closed properly: nothing to say
    assert window.messages.text == ""


def seed_match_at(path: Path, table: int) -> int:
    """Another match of the event, at `table`."""
    from director.services import matches
    from director.services.teams import add_team

    db = open_database(str(path))
    try:
        with db.Session() as session, session.begin():
            a = add_team(session, f"Home {table}", ("Eve", "Finn")).value.id
            b = add_team(session, f"Away {table}", ("Gus", "Hana")).value.id
            return matches.create_match(session, a, b, table=table).value.id
    finally:
        db.close()
