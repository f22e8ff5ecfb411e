"""Restoring an event from a backup: File → Restore from backup…, and after a damaged file;
a club's register the same way, from the Club page's Restore from backup….

The dialog lists what `services.backups.list_backups` finds (when, why, what it holds, good or
damaged) and asks why the event is restored (the audit log keeps it). The restore closes the
event in the window (a restore is refused while it is open), restores and opens it again.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from director.domain.errors import UserError
from director.services.backups import (
    BackupInfo,
    backup_folder,
    file_kind,
    list_backups,
    restore_backup,
)
from director.store.integrity import EVENT, FileKind
from director.ui.message_bar import MessageBar
from director.ui.plain import tooltip
from director.ui.safe_open import when
from director.ui.style import error_label, hint, show_error
from director.ui.waiting import waited


def columns(kind: FileKind) -> tuple[str, ...]:
    """The table's columns: what a backup of this kind holds between why and its state."""
    return ("Taken", "Why", *(what.capitalize() for what, _table in kind.held), "State")


COLUMNS = columns(EVENT)
DEFAULT_REASON = "restored from a backup"
# (backup, reason) -> None when restored, else why not (shown in the dialog)
Restore = Callable[[Path, str], str | None]


class Window(Protocol):
    """What a restore needs of the main window: close the event, open it again, say so."""

    messages: MessageBar

    def close_event(self) -> None: ...

    def open_target(self, target: str, remember: bool = True) -> bool: ...


def restore_and_reopen(window: Window, target: str, backup: Path, reason: str) -> str | None:
    """Close the event (its clock windows too), restore `backup`, open it again; None when
    done, else why not (the event is opened again as it was)."""
    return restore_closed(
        window.close_event, window.open_target, window.messages.show_notice, target, backup, reason
    )


def restore_closed(
    close: Callable[[], None],
    reopen: Callable[[str], bool],
    notice: Callable[[str], None],
    target: str,
    backup: Path,
    reason: str,
) -> str | None:
    """`close` the event or club (a restore is refused while it is open), restore `backup`,
    `reopen` it; None when done (`notice` says so), else why not (it is opened again as it
    was). The event's window and the Club page both restore this way."""
    close()
    try:
        done = waited(partial(restore_backup, target, backup, reason))  # the window paints
    except UserError as exc:
        reopen(target)
        return f"Not restored: {exc}"
    if reopen(target):
        kept = f" The file it replaced is kept as {done.replaced}." if done.replaced else ""
        notice(f"Restored the backup {backup.name}.{kept}")
    return None


def restore_damaged(window: Window, target: str, moved_to: Path | None, backup: Path) -> bool:
    """The answer to "restore the newest good backup?" after a damaged file was moved aside."""
    try:
        waited(
            partial(
                restore_backup, target, backup, "the event file was damaged; restored its backup"
            )
        )
    except UserError as exc:
        window.messages.show_error(f"The backup was not restored: {exc}")
        return False
    if not window.open_target(target):
        return False
    aside = f"; the damaged file is kept as {moved_to}" if moved_to is not None else ""
    window.messages.show_notice(
        f"The backup {backup.name} was restored and opened: results entered after it must be "
        f"entered again{aside}."
    )
    return True


def state_text(info: BackupInfo) -> str:
    return "good" if info.good else f"damaged: {'; '.join(info.problems)}"


class RestoreDialog(QDialog):
    def __init__(self, event: Path, restore: Restore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.restore = restore
        self.kind = kind = file_kind(event)
        self.setWindowTitle("Restore from a backup")
        self.setMinimumSize(720, 420)
        self.backups = waited(partial(list_backups, event))  # each opened and checked
        titles = columns(kind)
        self.table = QTableWidget(len(self.backups), len(titles), self)
        self.table.setHorizontalHeaderLabels(titles)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        for row, info in enumerate(self.backups):
            held = (str(n) for _what, n in info.held)
            cells = (when(info), info.reason, *held, state_text(info))
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(tooltip(str(info.path)))
                if 2 <= column < len(titles) - 1:
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                self.table.setItem(row, column, item)
        made = (
            "when the event is opened, after each round is paired and after each round is finished"
            if kind is EVENT
            else "when the club is opened and before each publication"
        )
        self.empty = hint(
            f"There are no backups of {event.name} yet (they are kept in "
            f"{backup_folder(event.resolve()).name}): one is made {made}.",
            self,
        )
        self.empty.setVisible(not self.backups)
        self.table.setVisible(bool(self.backups))
        self.reason = QLineEdit(DEFAULT_REASON, self)
        self.reason.setMaxLength(200)
        self.reason_error = error_label(self)
        self.error = error_label(self)
        self.restore_button = QPushButton("Restore", self)
        self.restore_button.setProperty("role", "primary")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.addButton(self.restore_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        self.restore_button.clicked.connect(self.restore_chosen)
        self.table.itemSelectionChanged.connect(self._update)
        self.reason.textEdited.connect(lambda _text: show_error(self.reason_error, ""))
        self._lay_out(event, buttons)
        good = [row for row, info in enumerate(self.backups) if info.good]
        if good:
            self.table.selectRow(good[0])  # the newest good one: what a person usually wants
        self._update()

    def _lay_out(self, event: Path, buttons: QDialogButtonBox) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 18, 20, 14)
        noun = self.kind.noun
        again = (
            "Results entered after the backup must be entered again."
            if self.kind is EVENT
            else "Events published after the backup must be published again."
        )
        layout.addWidget(
            hint(
                f"The backups of {event.name}, newest first. Restoring closes the {noun}, puts "
                "the chosen backup in its place and opens it again. The current file is not "
                f"deleted: it is kept beside it as {event.name}.replaced-DATE. {again}",
                self,
            )
        )
        layout.addWidget(self.table, 1)
        layout.addWidget(self.empty)
        kept = "the event's audit log" if self.kind is EVENT else "the club file"
        layout.addWidget(QLabel(f"Why (kept in {kept})", self))
        layout.addWidget(self.reason)
        layout.addWidget(self.reason_error)
        layout.addWidget(self.error)
        layout.addWidget(buttons)

    def chosen(self) -> BackupInfo | None:
        rows = self.table.selectionModel().selectedRows()
        return self.backups[rows[0].row()] if rows else None

    def _update(self) -> None:
        info = self.chosen()
        self.restore_button.setEnabled(info is not None and info.good)
        show_error(self.error, "")

    def restore_chosen(self) -> None:
        info = self.chosen()
        if info is None or not info.good:
            return
        reason = self.reason.text().strip()
        if not reason:
            show_error(
                self.reason_error,
                f"Say why the {self.kind.noun} is restored: "
                + ("the audit log keeps it." if self.kind is EVENT else "the club file keeps it."),
            )
            self.reason.setFocus()
            return
        problem = self.restore(info.path, reason)
        if problem is not None:
            show_error(self.error, problem)
            return
        self.accept()
