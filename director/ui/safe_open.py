"""What the director is told when an event opens after trouble, or cannot be opened for editing.

`store.engine.open_event` does the guarding (the lock, the checks after a crash, moving a
damaged file aside, the backup at opening); this module words its findings for the window: a
calm notice after an unclean shutdown, and the two questions it can ask, never blocking the
event loop: restore the newest good backup of a damaged file, or open a read-only file
view-only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QLabel, QWidget

from director.domain.errors import UserError
from director.ui.message_bar import MessageBar

if TYPE_CHECKING:  # the main window imports this module before any event (and SQLAlchemy)
    from PySide6.QtWidgets import QMessageBox

    from director.store.backup import BackupInfo
    from director.store.engine import CorruptEventError, EventDatabase

READ_ONLY_BANNER = (
    "Read-only: changes are refused. This event is open view-only; to work on it, copy the "
    "file somewhere writable and open the copy."
)


def read_only_banner(parent: QWidget) -> QLabel:
    """The strip across the window while a view-only event is open (hidden otherwise)."""
    banner = QLabel(READ_ONLY_BANNER, parent)
    banner.setWordWrap(True)
    banner.setStyleSheet(
        "background: #fff3cd; color: #5c4400; border-bottom: 1px solid #e6cf8a; "
        "padding: 8px 16px; font-weight: bold;"
    )
    banner.hide()
    return banner


def when(info: BackupInfo) -> str:
    """A backup's time as a person reads it (local time)."""
    if info.taken_at is None:
        return "an unknown time"
    return info.taken_at.astimezone().strftime("%Y-%m-%d %H:%M:%S")


def opening_message(db: EventDatabase, running: Sequence[str] = ()) -> tuple[str, str]:
    """What to say once an event is open, and how: ("", "") when all was as it should be;
    kind "notice" (calm, stays), "error" (needs attention) or "info" (fades). `running`: the
    matches whose clocks were running when an unclean close stopped them."""
    report, parts, kind = db.report, [], "info"
    if report.unclean:
        who = f" ({report.left_by})" if report.left_by else ""
        parts.append(
            f"The event was not closed properly last time{who}; it was checked and is sound."
        )
        if running:
            parts.append(
                f"Clocks were running when it stopped: {', '.join(running)}. Open their clocks:"
                " they wait paused at their last saved instant; resume them when the players"
                " are ready."
            )
        if report.backup is not None:
            parts.append(f"A backup of it as it is now: {report.backup}.")
        kind = "notice"
    if report.backup_problem:
        parts.append(
            f"The automatic backup at opening failed ({report.backup_problem}); the event itself "
            "is open and sound."
        )
        kind = "error"
    if db.backup_made is not None:
        parts.append(
            "This event was written by an older version and has been upgraded; the original "
            f"was kept as {db.backup_made}."
        )
    return " ".join(parts), kind if parts else ""


def show_opening_message(bar: MessageBar, db: EventDatabase, running: Sequence[str] = ()) -> None:
    text, kind = opening_message(db, running)
    if text:
        {"error": bar.show_error, "notice": bar.show_notice}.get(kind, bar.show_info)(text)


def refusal_line(target: str, refusal: UserError) -> str:
    """The message bar's line when an event could not be opened (the question says more)."""
    from director.store.engine import ReadOnlyEventError

    if isinstance(refusal, ReadOnlyEventError):  # its own words are those of a refused change
        return f"Cannot open the event for editing: {Path(target).name} is read-only here."
    return f"Cannot open the event: {str(refusal).splitlines()[0]}"


def explain_refusal(
    parent: QWidget,
    target: str,
    refusal: UserError,
    restore: Callable[[Path | None, Path], object],
    view_only: Callable[[], object],
) -> QMessageBox | None:
    """After `open_event` refused: a damaged file's question (restore its newest good backup:
    `restore(moved_to, backup)`) or a read-only file's (open it view-only); else None."""
    from director.store.engine import CorruptEventError, ReadOnlyEventError
    from director.store.lock import LockUnavailableError

    if isinstance(refusal, CorruptEventError):
        moved = refusal.moved_to
        return offer_backup(parent, Path(target), refusal, lambda backup: restore(moved, backup))
    if isinstance(refusal, ReadOnlyEventError | LockUnavailableError):
        return offer_view_only(parent, Path(target), refusal, view_only)
    return None


def _box(parent: QWidget, icon: QMessageBox.Icon, title: str, text: str) -> QMessageBox:
    from PySide6.QtCore import Qt  # here, not at import: plain.START
    from PySide6.QtWidgets import QMessageBox

    box = QMessageBox(icon, title, text, QMessageBox.StandardButton.NoButton, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)  # the file's name, and its details, as they are
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return box


def offer_backup(
    parent: QWidget, event: Path, damage: CorruptEventError, restore: Callable[[Path], object]
) -> QMessageBox:
    """The file was found damaged and moved aside: offer its newest good backup."""
    from PySide6.QtWidgets import QMessageBox

    from director.store.backup import backup_folder, describe_backup

    moved = damage.moved_to
    text = f"{event.name} is damaged and cannot be opened."
    where = (
        f"It was moved aside, untouched, to:\n{moved}\n\n"
        if moved is not None
        else "It was left as it is.\n\n"
    )
    box = _box(parent, QMessageBox.Icon.Warning, "The event file is damaged", text)
    box.setDetailedText(str(damage))
    if not damage.backups:
        box.setInformativeText(
            f"{where}There is no good backup of it in {backup_folder(event.resolve())}."
        )
        box.addButton(QMessageBox.StandardButton.Close)
        box.open()
        return box
    newest = describe_backup(damage.backups[0])
    box.setInformativeText(
        f"{where}The newest good backup is from {when(newest)} ({newest.reason}: "
        f"{newest.holds()}):\n{newest.path}\n\n"
        "Restore it and open the event? Results entered after it must be entered again."
    )
    yes = box.addButton("Restore it", QMessageBox.ButtonRole.AcceptRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(yes)
    box.finished.connect(lambda _result: box.clickedButton() is yes and restore(newest.path))
    box.open()
    return box


def offer_view_only(
    parent: QWidget, event: Path, refusal: UserError, view: Callable[[], object]
) -> QMessageBox:
    """The file (or its folder) cannot be written: offer to open it view-only."""
    from PySide6.QtWidgets import QMessageBox

    box = _box(
        parent,
        QMessageBox.Icon.Warning,
        "The event cannot be changed here",
        f"{event.name} cannot be opened for editing: it is read-only here.",
    )
    box.setInformativeText(
        "You can open it view-only: everything can be looked at and printed, and every change "
        "is refused. To work on it, copy the file somewhere writable and open the copy."
    )
    box.setDetailedText(str(refusal))
    yes = box.addButton("Open view-only", QMessageBox.ButtonRole.AcceptRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(yes)
    box.finished.connect(lambda _result: box.clickedButton() is yes and view())
    box.open()
    return box
