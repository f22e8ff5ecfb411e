"""Asks the MET handout's model parameters (RULES §9): gammon rate, backgammon rate, size."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QSpinBox,
    QWidget,
)

from director.domain.met import MAX_SIZE, MetError, MetParameters


class MetDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Match equity table")
        defaults = MetParameters()
        form = QFormLayout(self)
        self.gammon = QDoubleSpinBox(self)
        self.backgammon = QDoubleSpinBox(self)
        for box, value in ((self.gammon, defaults.gammon_rate),
                           (self.backgammon, defaults.backgammon_rate)):  # fmt: skip
            box.setRange(0.0, 1.0)
            box.setDecimals(3)
            box.setSingleStep(0.01)
            box.setValue(value)
        self.table_size = QSpinBox(self)
        self.table_size.setRange(1, MAX_SIZE)
        self.table_size.setValue(defaults.size)
        form.addRow("Gammon rate g", self.gammon)
        form.addRow("Backgammon rate b", self.backgammon)
        form.addRow("Table size (points needed)", self.table_size)
        self.error = QLabel(self)
        self.error.setTextFormat(Qt.TextFormat.PlainText)
        self.error.setStyleSheet("color: #b00020")
        self.error.setWordWrap(True)
        form.addRow(self.error)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def parameters(self) -> MetParameters:
        return MetParameters(self.gammon.value(), self.backgammon.value(), self.table_size.value())

    def accept(self) -> None:
        try:
            self.parameters().check()
        except MetError as exc:
            self.error.setText(f"{str(exc)[:1].upper()}{str(exc)[1:]}.")
            return
        super().accept()
