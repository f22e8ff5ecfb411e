"""Forbidden pairs (RULES §8): teams that must not meet, set and lifted with a reason.

The pairing engine never pairs a forbidden pair; a pairing by hand that has one is warned.
The list, the checks and the audit are `services.manual_pairing`'s.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from director.domain.errors import UserError
from director.domain.wording import entrant_words
from director.services import manual_pairing
from director.services.teams import entrant_format, list_teams
from director.ui.context import EventContext
from director.ui.round_dialogs import set_warnings, warnings_label
from director.ui.style import error_label, hint, section_title, show_error


class ForbiddenPairsDialog(QDialog):
    def __init__(self, ctx: EventContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        entrant = ctx.read(entrant_format).entrant  # "player" in an individual event (§10)
        self.setWindowTitle("Forbidden pairs")
        self.pairs = QListWidget(self)
        self.pairs.setObjectName("forbiddenPairs")
        self.first = QComboBox(self)
        self.second = QComboBox(self)
        for team in ctx.read(list_teams):
            for combo in (self.first, self.second):
                combo.addItem(team.name, team.id)  # a combo shows its items as plain text
        self.second.setCurrentIndex(min(1, self.second.count() - 1))
        self.reason = QLineEdit(self)
        self.reason.setPlaceholderText("why (kept in the audit log), e.g. same club")
        self.error = error_label(self)
        self.error.setObjectName("refusal")
        self.error.setTextFormat(Qt.TextFormat.PlainText)  # it names teams
        self.warnings = warnings_label([], self)  # the pair meets in a round not started
        self.forbid_button = QPushButton("Forbid this pair", self)
        self.forbid_button.setProperty("role", "primary")
        self.allow_button = QPushButton("Allow the chosen pair again", self)
        self.forbid_button.clicked.connect(self.forbid)
        self.allow_button.clicked.connect(self.allow)
        self.pairs.currentRowChanged.connect(self.update_buttons)
        form = QFormLayout()
        form.addRow(entrant.capitalize(), self.first)
        form.addRow("must not meet", self.second)
        form.addRow("Reason", self.reason)
        row = QHBoxLayout()
        row.addWidget(self.forbid_button)
        row.addWidget(self.allow_button)
        row.addStretch(1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(section_title(entrant_words("Teams that must not meet", entrant), self))
        layout.addWidget(
            hint(
                entrant_words(
                    "The pairing engine never pairs these teams; a pairing made by hand that "
                    "has one is warned. Each change is kept in the audit log with its reason.",
                    entrant,
                ),
                self,
            )
        )
        layout.addWidget(self.pairs, 1)
        layout.addLayout(form)
        layout.addLayout(row)
        layout.addWidget(self.error)
        layout.addWidget(self.warnings)
        layout.addWidget(buttons)
        self.resize(560, 480)
        self.refresh()

    def refresh(self) -> None:
        self.pairs.clear()
        for pair in self.ctx.read(manual_pairing.list_forbidden_pairs):
            item = QListWidgetItem(f"{pair.first.name}  ✕  {pair.second.name}", self.pairs)
            item.setData(Qt.ItemDataRole.UserRole, pair.ids)
        self.update_buttons()

    def update_buttons(self) -> None:
        self.allow_button.setEnabled(self.pairs.currentItem() is not None)

    def forbid(self) -> None:
        first, second = int(self.first.currentData()), int(self.second.currentData())
        if first == second:
            show_error(self.error, "choose two different teams")
            return
        self._change(first, second, forbidden=True)

    def allow(self) -> None:
        item = self.pairs.currentItem()
        if item is None:
            return
        first, second = item.data(Qt.ItemDataRole.UserRole)
        self._change(first, second, forbidden=False)

    def _change(self, first: int, second: int, *, forbidden: bool) -> None:
        try:
            warnings = self.ctx.change(
                manual_pairing.set_forbidden,
                first,
                second,
                forbidden,
                self.reason.text(),
            )
        except UserError as refusal:
            show_error(self.error, str(refusal))
            return
        show_error(self.error, "")
        set_warnings(self.warnings, warnings)
        self.reason.clear()
        self.refresh()
