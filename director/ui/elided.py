"""Names that never widen the window: a label that shortens its text to the room it has, and
names shortened to a width inside a longer text.

A team may be called by 100 characters (MAX_NAME); a QLabel that does not wrap asks for room
for all of them, and the main window grew past the screen (#24 point 4). What is shortened ends
in "…", and its whole text is in the tooltip.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFontMetrics, QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import QComboBox, QLabel, QStyle, QStyleOption, QWidget

from director.ui.plain import tooltip

LEAST_CHARACTERS = 12  # an elided label still shows this many average characters
# pixels a name may take inside a wrapped text: a name without spaces cannot wrap, and asked
# the whole width of its line
NAME_ROOM = 300


ISOLATES = ("\u2068", "\u2069")  # wording.isolated's marks around a right-to-left name


def shortened(metrics: QFontMetrics, text: str, width: int) -> str:
    """`text` cut to `width` pixels with "…" (a right-to-left name loses its logical end); a
    name set apart by `wording.isolated` keeps its closing mark."""
    if len(text) > 1 and text.startswith(ISOLATES[0]) and text.endswith(ISOLATES[1]):
        inner = metrics.elidedText(text[1:-1], Qt.TextElideMode.ElideRight, width)
        return f"{ISOLATES[0]}{inner}{ISOLATES[1]}"
    return metrics.elidedText(text, Qt.TextElideMode.ElideRight, width)


def short_names(widget: QWidget, names: Iterable[str], room: int = NAME_ROOM) -> tuple[str, ...]:
    """`names` shortened to `room` pixels in `widget`'s font, for a text that wraps."""
    widget.ensurePolished()  # its style sheet's font
    metrics = widget.fontMetrics()
    return tuple(shortened(metrics, name, room) for name in names)


def narrow(box: QComboBox, characters: int = 40) -> None:
    """A list of names that asks for the room of `characters`, not of its longest line."""
    box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    box.setMinimumContentsLength(characters)


def add_tooltips(box: QComboBox) -> None:
    """Each item's whole text in its tooltip (a narrow list cuts the longest)."""
    for index in range(box.count()):
        box.setItemData(index, tooltip(box.itemText(index)), Qt.ItemDataRole.ToolTipRole)


def names_shortened_in(widget: QWidget, text: str, names: Iterable[str]) -> str:
    """`text` (a sentence of the domain's that names teams) with each name shortened."""
    for name, short in zip(names, short_names(widget, names), strict=True):
        if short != name:
            text = text.replace(name, short)
    return text


class ElidedLabel(QLabel):
    """A plain-text label on one line that asks for little room and paints its text shortened
    to the room it gets; `text()` stays the whole text, and so does the tooltip when shortened."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setText(text)

    def setText(self, text: str) -> None:
        super().setText(text)
        self._tooltip()

    def minimumSizeHint(self) -> QSize:
        least = super().minimumSizeHint()
        room = self.fontMetrics().averageCharWidth() * LEAST_CHARACTERS
        margins = self.contentsMargins()
        return QSize(min(least.width(), room + margins.left() + margins.right()), least.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._tooltip()

    def is_shortened(self) -> bool:
        room = self.contentsRect().width() - 2 * self.margin()
        return self.fontMetrics().horizontalAdvance(self.text()) > room

    def _tooltip(self) -> None:
        self.setToolTip(tooltip(self.text()) if self.is_shortened() else "")

    def paintEvent(self, event: QPaintEvent) -> None:
        if not self.is_shortened():
            super().paintEvent(event)
            return
        painter = QPainter(self)
        option = QStyleOption()
        option.initFrom(self)
        self.style().drawPrimitive(QStyle.PrimitiveElement.PE_Widget, option, painter, self)
        room = self.contentsRect().adjusted(
            self.margin(), self.margin(), -self.margin(), -self.margin()
        )
        text = shortened(self.fontMetrics(), self.text(), room.width())
        self.style().drawItemText(
            painter,
            room,
            int(self.alignment()),
            self.palette(),
            self.isEnabled(),
            text,
            self.foregroundRole(),
        )
