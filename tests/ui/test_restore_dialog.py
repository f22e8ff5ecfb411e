"""File → Restore from backup…: the event's backups listed, one put back, refusals said clearly."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from director.services.audit import entries
from director.services.backups import backup_folder
from director.services.teams import add_team, list_teams
from director.ui.main_window import MainWindow
from director.ui.restore_dialog import COLUMNS, RestoreDialog
from tests.event_files import seed_teams
from tests.ui.app_helpers import (
    OFFSCREEN_NOISE,
    backed_up_at_open,
    locked_until_the_window_ticks,
    stored_teams,
)

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)


@pytest.fixture
def opened(window: MainWindow, event_path: Path) -> MainWindow:
    """Two teams when the event was opened (so in its backup), a third added since."""
    seed_teams(event_path, 2, clubs=True)
    assert window.open_target(str(event_path))
    assert window.ctx is not None
    window.ctx.change(add_team, "Late Comers", ("Ann", "Bob"))
    return window


def names(path: Path) -> list[str]:
    return sorted(t.name for t in stored_teams(path))


def row(dialog: RestoreDialog, number: int) -> dict[str, str]:
    cells = (dialog.table.item(number, c) for c in range(len(COLUMNS)))
    return {title: cell.text() for title, cell in zip(COLUMNS, cells, strict=True) if cell}


def restore_dialog(qtbot: QtBot, window: MainWindow) -> RestoreDialog:
    dialog = window.restore_from_backup()
    assert dialog is not None
    qtbot.addWidget(dialog)
    assert dialog.isVisible()
    return dialog


def test_without_an_event_there_is_nothing_to_restore(window: MainWindow) -> None:
    assert not window.restore_action.isEnabled()
    assert window.restore_from_backup() is None


def test_restoring_a_backup_puts_the_earlier_event_back_and_keeps_the_replaced_file(
    qtbot: QtBot, opened: MainWindow, event_path: Path
) -> None:
    assert opened.restore_action.isEnabled()
    assert names(event_path) == ["Late Comers", "Team 1", "Team 2"]
    dialog = restore_dialog(qtbot, opened)
    assert dialog.table.rowCount() == 1
    shown = row(dialog, 0)
    assert (shown["Why"], shown["Teams"], shown["Games"], shown["State"]) == (
        "open",
        "2",
        "0",
        "good",
    )
    assert dialog.restore_button.isEnabled()
    dialog.reason.clear()
    qtbot.keyClicks(dialog.reason, "the late team was entered in the wrong event")
    with qtbot.waitSignal(dialog.finished):
        dialog.restore_button.click()
    assert names(event_path) == ["Team 1", "Team 2"]  # on disk, read by a fresh connection
    assert opened.ctx is not None and opened.ctx.db.target == str(event_path)
    assert sorted(t.name for t in opened.ctx.read(list_teams)) == ["Team 1", "Team 2"]
    [replaced] = event_path.parent.glob("event.tandem.replaced-*")
    assert names(replaced) == ["Late Comers", "Team 1", "Team 2"]  # nothing destroyed
    assert opened.messages.text.startswith("Restored the backup ")
    assert str(replaced) in opened.messages.text
    restores = [e for e in opened.ctx.read(entries) if e.action == "restore"]
    assert [e.reason for e in restores] == ["the late team was entered in the wrong event"]


def test_a_restore_that_fails_says_why_and_reopens_the_event_as_it_was(
    qtbot: QtBot, opened: MainWindow, event_path: Path
) -> None:
    dialog = restore_dialog(qtbot, opened)
    chosen = dialog.backups[0].path
    chosen.unlink()  # gone since the list was shown (someone tidied the folder)
    dialog.restore_button.click()
    assert dialog.isVisible()
    assert dialog.error.isVisible()
    assert dialog.error.text() == f"Not restored: {chosen} does not exist"
    assert opened.ctx is not None  # open again, unchanged
    assert names(event_path) == ["Late Comers", "Team 1", "Team 2"]
    assert not list(event_path.parent.glob("event.tandem.replaced-*"))


def test_a_restore_needs_a_reason(qtbot: QtBot, opened: MainWindow, event_path: Path) -> None:
    dialog = restore_dialog(qtbot, opened)
    dialog.reason.clear()
    qtbot.keyClicks(dialog.reason, "   ")
    dialog.restore_button.click()
    assert dialog.isVisible()
    assert dialog.reason_error.isVisible()
    assert "Say why the event is restored" in dialog.reason_error.text()
    assert opened.ctx is not None and opened.ctx.db.lock is not None  # never closed
    qtbot.keyClicks(dialog.reason, "x")
    assert not dialog.reason_error.isVisible()  # the message goes once the field is edited
    assert names(event_path) == ["Late Comers", "Team 1", "Team 2"]


def test_a_damaged_backup_is_listed_as_damaged_and_cannot_be_restored(
    qtbot: QtBot, opened: MainWindow, event_path: Path
) -> None:
    broken = backup_folder(event_path.resolve()) / "2001-01-01_000000_by-hand.tandem"
    broken.write_bytes(b"SQLite format 3\x00" + b"\xff" * 5000)
    dialog = restore_dialog(qtbot, opened)
    states = [row(dialog, r)["State"] for r in range(dialog.table.rowCount())]
    [damaged_row] = [r for r, state in enumerate(states) if state.startswith("damaged: ")]
    [good_row] = [r for r, state in enumerate(states) if state == "good"]
    assert dialog.chosen() == dialog.backups[good_row]  # the good one is offered first
    assert dialog.restore_button.isEnabled()
    dialog.table.selectRow(damaged_row)
    assert not dialog.restore_button.isEnabled()
    dialog.restore_chosen()  # the key path cannot restore it either
    assert names(event_path) == ["Late Comers", "Team 1", "Team 2"]
    assert opened.ctx is not None


def test_an_event_without_backups_says_when_they_are_made(
    qtbot: QtBot, window: MainWindow, event_path: Path
) -> None:
    assert window.open_target(str(event_path))
    backed_up_at_open(qtbot, window)
    for backup in backup_folder(event_path.resolve()).iterdir():
        backup.unlink()
    dialog = restore_dialog(qtbot, window)
    assert not dialog.table.isVisible()
    assert dialog.empty.isVisible()
    assert "one is made when the event is opened" in dialog.empty.text()
    assert not dialog.restore_button.isEnabled()


def test_the_window_keeps_running_while_a_backup_is_restored(
    qtbot: QtBot, opened: MainWindow, event_path: Path
) -> None:
    """Issue 14 point 5: the restore (copy, check, open the copy as an event) runs off the GUI
    thread. Another program holds the chosen backup locked, so the restore waits for it;
    meanwhile the window's timers run, and one of them lets the backup go."""
    dialog = restore_dialog(qtbot, opened)
    with (
        locked_until_the_window_ticks(opened, dialog.backups[0].path) as ticks,
        qtbot.waitSignal(dialog.finished, timeout=30_000),
    ):
        dialog.restore_button.click()
    assert len(ticks) >= 3
    assert names(event_path) == ["Team 1", "Team 2"]


def test_the_window_keeps_running_while_the_backups_are_checked_for_the_list(
    qtbot: QtBot, opened: MainWindow, event_path: Path
) -> None:
    """Listing the backups opens and checks each one: off the GUI thread. Another program
    holds the backup locked; the window's timer lets it go, and the backup is listed good."""
    [backup] = backup_folder(event_path.resolve()).glob("*.tandem")
    with locked_until_the_window_ticks(opened, backup) as ticks:
        dialog = restore_dialog(qtbot, opened)
    assert len(ticks) >= 3
    assert row(dialog, 0)["State"] == "good"
