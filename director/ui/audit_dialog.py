"""The audit viewer: every correction, override, forfeit and adjustment, with its reason.

Filter by round or match and by kind of change; Print… makes the "audit" report of the
chosen round or match (every kind of change). The lines and their words are
`services.audit`'s.
"""

from __future__ import annotations

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from director.domain.wording import counted
from director.services import audit
from director.services.audit import AuditLine, MatchPlace
from director.ui.context import EventContext
from director.ui.elided import add_tooltips, narrow
from director.ui.plain import tooltip
from director.ui.reports.request import ReportRequest
from director.ui.style import hint, section_title

HEADERS = ("When", "Station", "What happened", "Reason")
EVERYTHING = "all changes"


class AuditDialog(QDialog):
    def __init__(
        self,
        ctx: EventContext,
        parent: QWidget | None = None,
        settings: QSettings | None = None,
        match: int | None = None,
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.settings = settings if settings is not None else QSettings()
        self.preview: QDialog | None = None
        self.setWindowTitle("Audit log")
        self.lines: list[AuditLine] = []
        self.places: dict[int, MatchPlace] = {}
        self.teams: dict[int, str] = {}
        self.subject = QComboBox(self)
        self.subject.setObjectName("subject")
        narrow(self.subject)  # its matches are named by their teams: any length
        self.action = QComboBox(self)
        self.action.setObjectName("action")
        self.table = QTableWidget(0, len(HEADERS), self)
        self.table.setObjectName("auditLines")
        self.table.setHorizontalHeaderLabels(list(HEADERS))
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(True)
        header = self.table.horizontalHeader()
        for column in range(2):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        for column in range(2, len(HEADERS)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
        # a sentence's height follows its column's width: measured again when that changes
        header.sectionResized.connect(lambda *_: self.table.resizeRowsToContents())
        self.count = QLabel(self)
        self.count.setObjectName("count")
        self.print_button = QPushButton("Print…", self)
        self.print_button.setToolTip(
            "The audit log of the chosen round or match (every kind of change), to print or save"
        )
        self.print_button.clicked.connect(self.open_print)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.addButton(self.print_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow("Show", self.subject)
        form.addRow("Kind of change", self.action)
        layout = QVBoxLayout(self)
        layout.addWidget(section_title("Audit log", self))
        layout.addWidget(
            hint(
                "Every correction, override, forfeit, adjustment and restore, oldest first, "
                "with the station and the reason given.",
                self,
            )
        )
        layout.addLayout(form)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.count)
        layout.addWidget(buttons)
        self.resize(1100, 620)
        self.load()
        if match is not None:
            self.subject.setCurrentIndex(max(0, self.subject.findData(f"match {match}")))
        self.subject.currentIndexChanged.connect(self.show_lines)
        self.action.currentIndexChanged.connect(self.show_lines)
        self.show_lines()

    def load(self) -> None:
        """Read the whole log once; the filters choose among its lines."""
        self.lines = self.ctx.read(audit.entries)
        self.places = {p.id: p for p in self.ctx.read(audit.match_places)}
        self.teams = self.ctx.read(audit.team_names)
        self.subject.clear()
        self.subject.addItem("the whole event", None)
        rounds = sorted({p.round for p in self.places.values() if p.round is not None})
        touched = {line.match_id for line in self.lines}
        for number in rounds:
            self.subject.addItem(f"round {number}: its pairings and matches", f"round {number}")
            for place in self.places.values():
                if place.round == number and place.id in touched:
                    self.subject.addItem(f"    {place.label}", f"match {place.id}")
        add_tooltips(self.subject)
        self.action.clear()
        self.action.addItem(EVERYTHING, None)
        for action in sorted({line.action for line in self.lines}):
            self.action.addItem(action, action)

    def chosen(self) -> tuple[int | None, int | None]:
        """(round, match) of the filter: both None for the whole event."""
        data = self.subject.currentData()  # "round 2", "match 12" (None: everything)
        if not data:
            return None, None
        kind, number = str(data).split()
        return (int(number), None) if kind == "round" else (None, int(number))

    def shown(self) -> list[AuditLine]:
        number, match = self.chosen()
        action = self.action.currentData()
        lines = self.ctx.read(audit.entries, match=match, round=number)
        return [line for line in lines if action is None or line.action == action]

    def show_lines(self) -> None:
        lines = self.shown()
        self.table.setRowCount(len(lines))
        for row, line in enumerate(lines):
            for column, value in enumerate(line.row(self.places, self.teams)):
                item = QTableWidgetItem(value)  # an item shows its text as typed
                item.setToolTip(tooltip(line.reason if column == len(HEADERS) - 1 else value))
                self.table.setItem(row, column, item)
        self.table.resizeRowsToContents()
        count = len(lines)
        self.count.setText(f"{counted(count, 'entry', 'entries')} of {len(self.lines)}")

    def request(self) -> ReportRequest:
        number, match = self.chosen()
        label = self.places[match].label if match in self.places else ""
        return ReportRequest("audit", number, match, match_label=label)

    def open_print(self) -> None:
        from director.ui.reports.preview import ReportPreview  # the PDF viewer: only now

        preview = ReportPreview(self.ctx, self.request(), self.settings, self)
        preview.finished.connect(preview.deleteLater)
        self.preview = preview
        preview.show()
