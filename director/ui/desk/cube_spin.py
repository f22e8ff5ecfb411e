"""The cube value of a game: a spin over 1, 2, 4 … 64 in which typed digits are the value.

A combo box's type-ahead takes a digit as the prefix of an entry ("3" picks 32, "1" picks 16
when 1 is already shown); here "3" is refused, "32" is 32, and the arrows double and halve.
"""

from __future__ import annotations

from PySide6.QtGui import QValidator
from PySide6.QtWidgets import QAbstractSpinBox, QSpinBox, QWidget

from director.domain.numbers import typed_number
from director.domain.rules import MAX_CUBE

CUBE_VALUES = tuple(1 << n for n in range(MAX_CUBE.bit_length()))


def cube_text_state(text: str) -> QValidator.State:
    typed = text.strip()
    if not typed:
        return QValidator.State.Intermediate
    value = typed_number(typed)  # "²" and "٢" are no cube: str.isdigit passed both
    if value is None:
        return QValidator.State.Invalid
    if value in CUBE_VALUES:
        return QValidator.State.Acceptable
    if any(str(value).startswith(typed) for value in CUBE_VALUES):
        return QValidator.State.Intermediate  # on the way to 16, 32 or 64
    return QValidator.State.Invalid


class CubeSpin(QSpinBox):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setRange(1, MAX_CUBE)
        self.setCorrectionMode(QAbstractSpinBox.CorrectionMode.CorrectToPreviousValue)
        self.setToolTip("1, 2, 4 … 64: type the value, or use the arrows to double and halve")
        self.setMaximumWidth(110)

    def validate(self, text: str, pos: int) -> tuple[QValidator.State, str, int]:
        return cube_text_state(text), text, pos

    def stepBy(self, steps: int) -> None:
        place = CUBE_VALUES.index(self.value()) if self.value() in CUBE_VALUES else 0
        self.setValue(CUBE_VALUES[max(0, min(len(CUBE_VALUES) - 1, place + steps))])
