"""Import a team list CSV: every row previewed, each bad row marked with its reason, then import.

Nothing is written until the person presses Import. The list is read and checked off the GUI
thread (ui.background) first: a long one shows a progress dialog with Cancel. The preview
shows the seed each team will get (its own, else by rating). With bad rows, the import is
refused by the service unless "import the good rows only" is ticked (FORMATS.md, team list).
The import runs off the GUI thread with a progress bar; Cancel stops it and, as the whole list
is one transaction, nothing of it is imported.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QEventLoop,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimer,
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
    QProgressDialog,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from director.domain.errors import UserError
from director.domain.teamlist import BadRow, TeamRow, decode
from director.domain.wording import counted
from director.services.teams import (
    ImportResult,
    TeamListPreview,
    entrant_format,
    import_teams,
    preview_team_list,
)
from director.ui.context import EventContext
from director.ui.style import ACCENT, ERROR, ERROR_BACKGROUND, error_label, show_error

Index = QModelIndex | QPersistentModelIndex
HEADERS = ("Line", "Team", "Board 1", "Board 2", "Club", "Rating", "Seed", "Check")
CHECK_COLUMN = len(HEADERS) - 1
BOARD_HEADERS = tuple(int(h.split()[1]) for h in HEADERS if h.startswith("Board "))
BAD_BACKGROUND = QColor(ERROR_BACKGROUND)
BAD_TEXT = QColor(ERROR)
GOOD_TEXT = QColor(ACCENT)
CANCELLED = "the import was cancelled: nothing was imported"
READING_CANCELLED = "reading the list was cancelled"
READING_SHOWN_MS = 400  # a list read sooner than this never shows the reading dialog


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
    seed: int = 0  # the seed the import gives a good row

    def cells(self) -> tuple[str, ...]:
        if self.row is None:
            return (str(self.line), self.source, "", "", "", "", "", self.reason)
        r = self.row
        rating = "" if r.rating is None else str(r.rating)
        return (str(r.line), r.team, r.player1, r.player2, r.club, rating, self.seed_text, "OK")

    @property
    def seed_text(self) -> str:
        """The seed the import gives the row, and where it comes from when the file has none."""
        if self.row is None or self.row.seed is not None:
            return str(self.seed) if self.row is not None else ""
        return (
            f"{self.seed} (by rating)" if self.row.rating is not None else f"{self.seed} (unrated)"
        )


def preview_rows(preview: TeamListPreview, text: str) -> list[PreviewRow]:
    lines = text.removeprefix("\ufeff").splitlines()

    def source(number: int) -> str:
        return lines[number - 1] if 0 < number <= len(lines) else ""

    parsed = preview.parsed
    rows = [
        PreviewRow(r.line, r, "", source(r.line), seed)
        for r, seed in zip(parsed.rows, preview.seeds, strict=True)
    ]
    rows += [PreviewRow(b.line, None, b.reason, source(b.line)) for b in parsed.bad]
    return sorted(rows, key=lambda p: p.line)


def read_team_list(
    ctx: EventContext, data: bytes, source_name: str, parent: QWidget
) -> TeamListPreview | None:
    """Read and check a team list off the GUI thread (ui.background). A long list shows a
    modal progress dialog whose Cancel stops the reading (`ImportCancelled`); the window
    paints and runs meanwhile, and nothing else can be entered in between. A refusal raises
    its `UserError`; None after a bug (reported by the crash hook)."""
    box = QProgressDialog("", "Cancel", 0, 0, parent)
    label = QLabel(f"Reading {source_name}…", box)
    label.setTextFormat(Qt.TextFormat.PlainText)  # a file's name is shown as it is written
    box.setLabel(label)
    box.setWindowTitle(f"Import {ctx.read(entrant_format).entrant}s")
    box.setWindowModality(Qt.WindowModality.WindowModal)
    box.setMinimumDuration(READING_SHOWN_MS)
    box.setAutoReset(False)
    box.setAutoClose(False)
    cancelling = threading.Event()
    box.canceled.connect(cancelling.set)
    box.rejected.connect(cancelling.set)  # Esc
    relay = _Relay(box)  # the worker's progress, to this thread
    relay.progressed.connect(lambda done, total: _show_progress(box, done, total))
    answers: list[object] = []
    loop = QEventLoop()

    def report(done: int, total: int) -> None:  # on the worker thread
        if cancelling.is_set() or not isValid(relay):
            raise ImportCancelled(READING_CANCELLED)
        relay.progressed.emit(done, total)

    def answered(answer: object) -> None:
        answers.append(answer)
        loop.quit()

    closed = QTimer(box)  # the event closed meanwhile: its answer will never come
    closed.timeout.connect(lambda: _quit_if(ctx.background.stopped, loop))
    closed.start(100)
    ctx.background.run(
        preview_team_list,
        data,
        progress=report,
        aside=True,  # a long read: the pages' own calls are not held up
        on_done=answered,
        on_failed=answered,
        on_bug=answered,
    )
    if not answers:
        loop.exec()
    closed.stop()
    cancelled = cancelling.is_set()  # before the close, which counts as a rejection too
    box.close()
    box.deleteLater()
    if cancelled:  # Cancel pressed as the last rows were read: still no preview
        return None
    answer = answers[0] if answers else None
    if isinstance(answer, UserError):
        raise answer
    return answer if isinstance(answer, TeamListPreview) else None


class PreviewModel(QAbstractTableModel):
    def __init__(
        self, rows: list[PreviewRow], parent: QObject | None = None, entrant: str = "team"
    ) -> None:
        super().__init__(parent)
        self.rows = rows
        self.entrant = entrant  # the second column names who enters: a team, or a player

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
            return self.entrant.capitalize() if section == 1 else HEADERS[section]
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


def _show_progress(box: QProgressDialog, done: int, total: int) -> None:
    box.setMaximum(max(total, 1))
    box.setValue(done)


def _quit_if(stopped: bool, loop: QEventLoop) -> None:
    if stopped:
        loop.quit()


class CsvImportDialog(QDialog):
    def __init__(
        self,
        ctx: EventContext,
        data: bytes,
        preview: TeamListPreview,
        source_name: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.data = data
        self.parsed = parsed = preview.parsed
        self.result_: ImportResult | None = None
        record = ctx.read(entrant_format)
        entrant = record.entrant
        self.setWindowTitle(f"Import {entrant}s from {source_name}")
        self.resize(940, 560)
        good, bad = len(parsed.rows), len(parsed.bad)
        summary = f"{counted(good, entrant)} ready to import"
        if bad:
            summary += f"; {counted(bad, 'bad row')}, marked in red with the reason"
        self.summary = QLabel(summary + ".", self)
        self.summary.setProperty("role", "section")
        self.model = PreviewModel(preview_rows(preview, decode(data)), self, entrant)
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
        for board in BOARD_HEADERS:  # a format's boards: a player list has no board columns
            column = HEADERS.index(f"Board {board}")
            self.table.setColumnHidden(column, board not in record.boards or record.one_board)
        skip = f"skip {counted(bad, 'bad row')}"
        self.skip_bad = QCheckBox(f"Import the good rows only ({skip})", self)
        self.skip_bad.setVisible(bad > 0)
        self.skip_bad.toggled.connect(self._update_button)
        self.error = error_label(self)
        self.button_box = buttons = QDialogButtonBox(self)
        self.import_button = QPushButton(f"Import {counted(good, entrant)}", self)
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
