"""No-show at a table: which team did not come, and why (RULES §8); or undo a forfeit.

Opened from the match desk and from the rounds page. The service (`services.no_show`) decides
whether it may be done and writes the forfeit with its reason to the audit log.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from director.domain.errors import UserError
from director.domain.event import MatchInfo
from director.domain.rules import Side
from director.services import no_show
from director.ui.context import EventContext
from director.ui.plain import mnemonic_safe, plain_label
from director.ui.style import error_label, show_error


class NoShowDialog(QDialog):
    def __init__(self, ctx: EventContext, match: MatchInfo, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.match = match
        self.saved: MatchInfo | None = None
        undo = match.forfeit_by is not None
        where = f"table {match.table}" if match.table else f"match {match.id}"
        self.setWindowTitle(f"{'Undo the forfeit' if undo else 'No-show'}: {where}")
        self.sides: dict[Side, QRadioButton] = {}
        self.group = QButtonGroup(self)
        layout = QVBoxLayout(self)
        if undo:
            absent = match.names[0] if match.forfeit_by is Side.A else match.names[1]
            layout.addWidget(
                plain_label(f"{absent} forfeited this match. Undo the forfeit so it is played?")
            )
        else:
            layout.addWidget(
                plain_label(
                    "Which team did not show? It loses the match; the other team wins 0–0,"
                    " as with a bye (RULES §8).",
                )
            )
            for side, name in zip(Side, match.names, strict=True):
                button = QRadioButton(mnemonic_safe(f"Team {side}: {name}"), self)
                button.setObjectName(f"absent{side}")
                self.sides[side] = button
                self.group.addButton(button)
                layout.addWidget(button)
                button.toggled.connect(self.update_state)
        self.reason = QLineEdit(self)
        self.reason.setObjectName("reason")
        self.reason.setPlaceholderText("required: why (kept in the audit log)")
        self.reason.textChanged.connect(self.update_state)
        layout.addWidget(plain_label("Reason"))
        layout.addWidget(self.reason)
        self.error = error_label(self)
        self.error.setObjectName("refusal")
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.ok_button = QPushButton("Undo the forfeit" if undo else "Record the forfeit", self)
        self.ok_button.setProperty("role", "primary")
        buttons.addButton(self.ok_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.setMinimumWidth(480)
        self.update_state()

    def absent(self) -> Side | None:
        return next((side for side, b in self.sides.items() if b.isChecked()), None)

    def update_state(self) -> None:
        chosen = self.match.forfeit_by is not None or self.absent() is not None
        self.ok_button.setEnabled(chosen and bool(self.reason.text().strip()))

    def save(self) -> None:
        if not self.ok_button.isEnabled():
            return
        try:
            self.saved = self.ctx.change(
                no_show.record_no_show,
                self.match.id,
                self.absent(),
                self.reason.text(),
            )
        except UserError as refusal:
            show_error(self.error, f"Not saved: {refusal}")
            return
        self.accept()
