"""Small editors the event options need: a duration in m:ss and an ordered tie-break list."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import (
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from director.domain.rules import TieBreak
from director.domain.standings import TIE_BREAK_DEFINITIONS

DURATION = re.compile(r"^\s*([0-9]{0,3})(?::([0-9]{0,2}))?\s*$")  # not \d: "٢" is one


class DurationBox(QSpinBox):
    """Seconds shown as m:ss ("2:00"); typing "2:30" or "150" both mean 150 seconds."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setRange(0, 3 * 3600)
        self.setSingleStep(15)
        self.setAccelerated(True)

    def textFromValue(self, val: int) -> str:
        return f"{val // 60}:{val % 60:02d}"

    def valueFromText(self, text: str) -> int:
        match = DURATION.match(text)
        if match is None:
            return self.value()
        first, second = match.group(1) or "0", match.group(2)
        if second is None:
            return int(first)  # plain seconds
        return int(first) * 60 + int(second or "0")

    def validate(self, text: str, pos: int) -> tuple[QValidator.State, str, int]:
        match = DURATION.match(text)
        if match is None:
            return QValidator.State.Invalid, text, pos
        if match.group(2) is not None and len(match.group(2)) == 2 and int(match.group(2)) >= 60:
            return QValidator.State.Invalid, text, pos
        state = QValidator.State.Acceptable if match.group(1) else QValidator.State.Intermediate
        return state, text, pos


def tie_break_name(tie_break: TieBreak) -> str:
    return TIE_BREAK_DEFINITIONS[tie_break].split(":", 1)[0]


class TieBreakList(QWidget):
    """The tie-breaks after match points, in order; untick one to leave it out."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.list = QListWidget(self)
        self.list.setMaximumHeight(len(TieBreak) * 24 + 8)
        self.up = QPushButton("Move up", self)
        self.down = QPushButton("Move down", self)
        self.up.clicked.connect(lambda: self._move(-1))
        self.down.clicked.connect(lambda: self._move(1))
        self.list.itemChanged.connect(lambda _item: self.changed.emit())
        buttons = QVBoxLayout()
        buttons.addWidget(self.up)
        buttons.addWidget(self.down)
        buttons.addStretch(1)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.list, 1)
        layout.addLayout(buttons)

    def set_tie_breaks(self, chosen: tuple[TieBreak, ...]) -> None:
        self.list.blockSignals(True)
        self.list.clear()
        rest = [tb for tb in TieBreak if tb not in chosen]
        for tie_break in (*chosen, *rest):
            item = QListWidgetItem(tie_break_name(tie_break), self.list)
            item.setData(Qt.ItemDataRole.UserRole, tie_break.value)
            item.setToolTip(TIE_BREAK_DEFINITIONS[tie_break])
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            on = tie_break in chosen
            item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
        self.list.blockSignals(False)
        self.list.setCurrentRow(0)
        self.changed.emit()

    def tie_breaks(self) -> tuple[TieBreak, ...]:
        items = (self.list.item(row) for row in range(self.list.count()))
        return tuple(
            TieBreak(item.data(Qt.ItemDataRole.UserRole))
            for item in items
            if item.checkState() == Qt.CheckState.Checked
        )

    def _move(self, step: int) -> None:
        row = self.list.currentRow()
        target = row + step
        if row < 0 or not 0 <= target < self.list.count():
            return
        item = self.list.takeItem(row)
        self.list.insertItem(target, item)
        self.list.setCurrentRow(target)
        self.changed.emit()
