"""Import a team list CSV: every row previewed, each bad row marked with its reason, then import.

Nothing is written until the person presses Import. With bad rows, the import is refused by
the service unless "import the good rows only" is ticked (FORMATS.md, team list). The import
runs off the GUI thread (ui.background) with a progress bar; Cancel stops it and, as the whole
list is one transaction, nothing of it is imported.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QProgressBar,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from director.domain.errors import UserError
from director.domain.teamlist import BadRow, ParsedTeamList, TeamRow, decode
from director.services.teams import ImportResult, import_teams
from director.ui.context import EventContext
from director.ui.style import ACCENT, ERROR, ERROR_BACKGROUND, error_label, show_error

Index = QModelIndex | QPersistentModelIndex
HEADERS = ("Line", "Team", "Board 1", "Board 2", "Club", "Rating", "Seed", "Check")
CHECK_COLUMN = len(HEADERS) - 1
BAD_BACKGROUND = QColor(ERROR_BACKGROUND)
BAD_TEXT = QColor(ERROR)
GOOD_TEXT = QColor(ACCENT)
CANCELLED = "the import was cancelled: nothing was imported"


class ImportCancelled(UserError):
    """Cancel was pressed during the import: its transaction is rolled back."""


class _Relay(QObject):
    """Carries the worker thread's progress to the GUI thread (a queued signal)."""

    progressed = Signal(int, int)  # steps done, steps


@dataclass(frozen=True)
class PreviewRow:
    line: int
    row: TeamRow | None  # None: a bad row
    reason: str
    source: str  # the line as written in the file, to recognise a bad row

    def cells(self) -> tuple[str, ...]:
        if self.row is None:
            return (str(self.line), self.source, "", "", "", "", "", self.reason)
        r = self.row
        rating = "" if r.rating is None else str(r.rating)
        seed = "" if r.seed is None else str(r.seed)
        return (str(r.line), r.team, r.player1, r.player2, r.club, rating, seed, "OK")


def preview_rows(parsed: ParsedTeamList, text: str) -> list[PreviewRow]:
    lines = text.removeprefix("\ufeff").splitlines()

    def source(number: int) -> str:
        return lines[number - 1] if 0 < number <= len(lines) else ""

    rows = [PreviewRow(r.line, r, "", source(r.line)) for r in parsed.rows]
    rows += [PreviewRow(b.line, None, b.reason, source(b.line)) for b in parsed.bad]
    return sorted(rows, key=lambda p: p.line)


class PreviewModel(QAbstractTableModel):
    def __init__(self, rows: list[PreviewRow], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.rows = rows

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if (
            role == Qt.ItemDataRole.DisplayRole
            and orientation is Qt.Orientation.Horizontal
            and 0 <= section < len(HEADERS)
        ):
            return HEADERS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        entry = self.rows[index.row()]
        bad = entry.row is None
        if role == Qt.ItemDataRole.DisplayRole:
            return entry.cells()[index.column()]
        if role == Qt.ItemDataRole.ToolTipRole and bad:
            return f"line {entry.line}: {entry.reason}\n{entry.source}"
        if role == Qt.ItemDataRole.BackgroundRole and bad:
            return BAD_BACKGROUND
        if role == Qt.ItemDataRole.ForegroundRole and index.column() == CHECK_COLUMN:
            return BAD_TEXT if bad else GOOD_TEXT
        if role == Qt.ItemDataRole.FontRole and bad and index.column() in (1, CHECK_COLUMN):
            font = QFont()
            font.setItalic(index.column() == 1)
            font.setBold(index.column() == CHECK_COLUMN)
            return font
        return None


class CsvImportDialog(QDialog):
    def __init__(
        self,
        ctx: EventContext,
        data: bytes,
        parsed: ParsedTeamList,
        source_name: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.data = data
        self.parsed = parsed
        self.result_: ImportResult | None = None
        self.setWindowTitle(f"Import teams from {source_name}")
        self.resize(940, 560)
        good, bad = len(parsed.rows), len(parsed.bad)
        summary = f"{good} team{'s' if good != 1 else ''} ready to import"
        if bad:
            summary += f"; {bad} bad row{'s' if bad != 1 else ''}, marked in red with the reason"
        self.summary = QLabel(summary + ".", self)
        self.summary.setProperty("role", "section")
        self.model = PreviewModel(preview_rows(parsed, decode(data)), self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setStretchLastSection(True)  # the reason gets the room that is left
        self.table.resizeColumnsToContents()
        for column in range(1, CHECK_COLUMN):
            header.resizeSection(column, min(header.sectionSize(column), 220))
        skip = f"skip {bad} bad row{'s' if bad != 1 else ''}"
        self.skip_bad = QCheckBox(f"Import the good rows only ({skip})", self)
        self.skip_bad.setVisible(bad > 0)
        self.skip_bad.toggled.connect(self._update_button)
        self.error = error_label(self)
        self.button_box = buttons = QDialogButtonBox(self)
        self.import_button = QPushButton(f"Import {good} team{'s' if good != 1 else ''}", self)
        self.import_button.setProperty("role", "primary")
        buttons.addButton(self.import_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.import_button.clicked.connect(self.do_import)
        buttons.rejected.connect(self.reject)
        self.progress = QProgressBar(self)
        self.progress.setVisible(False)
        self.importing = False
        self.cancelling = threading.Event()
        # owned by the dialog, so it is destroyed on this thread, never on the worker's
        self.relay = _Relay(self)
        self.relay.progressed.connect(self._progressed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(18, 16, 18, 12)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.skip_bad)
        layout.addWidget(self.progress)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self._update_button()

    def _update_button(self) -> None:
        allowed = bool(self.parsed.rows) and (not self.parsed.bad or self.skip_bad.isChecked())
        self.import_button.setEnabled(allowed)
        if not self.parsed.rows:
            show_error(self.error, "No row can be imported: correct the file and import it again.")
        elif self.parsed.bad and not self.skip_bad.isChecked():
            show_error(
                self.error,
                "Nothing is imported while the list has bad rows: correct the file, or tick "
                "“import the good rows only”.",
            )
        else:
            show_error(self.error, "")

    def do_import(self) -> None:
        """Import off the GUI thread; the dialog closes once the list is stored."""
        if self.importing:
            return
        self.importing = True
        self.cancelling.clear()
        self.import_button.setEnabled(False)
        self.skip_bad.setEnabled(False)
        self.progress.setRange(0, 0)  # busy until the first report
        self.progress.setVisible(True)
        show_error(self.error, "")
        self.ctx.change_in_background(
            import_teams,
            self.data,
            skip_bad_rows=self.skip_bad.isChecked(),
            progress=self._report,
            on_done=self._imported,
            on_failed=self._refused,
        )

    def _report(self, done: int, total: int) -> None:
        """On the worker thread: pass the progress on, or stop the import if cancelled."""
        if self.cancelling.is_set() or not isValid(self.relay):  # cancelled, or event closed
            raise ImportCancelled(CANCELLED)
        self.relay.progressed.emit(done, total)

    def _progressed(self, done: int, total: int) -> None:
        if self.importing:
            self.progress.setRange(0, max(total, 1))
            self.progress.setValue(done)

    def _imported(self, result: ImportResult) -> None:
        self.importing = False
        self.result_ = result
        self.accept()

    def _refused(self, refusal: UserError) -> None:
        self.importing = False
        self.progress.setVisible(False)
        if isinstance(refusal, ImportCancelled):
            super().reject()
            return
        self.skip_bad.setEnabled(True)
        self._update_button()
        show_error(self.error, str(refusal))

    def reject(self) -> None:
        """Cancel (or Escape, or closing the window): during an import, stop it first; the
        dialog closes once the import has been rolled back."""
        if not self.importing:
            super().reject()
            return
        self.cancelling.set()
        self.progress.setFormat("Cancelling…")

    @property
    def bad_rows(self) -> tuple[BadRow, ...]:
        return self.parsed.bad
