"""A slide for the public display: a title and a table, painted in type readable across a room.

The font follows the window's height (about 18 lines a screen), so the same slide reads as
well on a 720p TV as on a 4K projector. Text too long for its column is elided, never wrapped.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPaintEvent
from PySide6.QtWidgets import QWidget

LINES_PER_SCREEN = 18
BACKGROUND = QColor("#10261f")
STRIPE = QColor("#173328")
TITLE = QColor("#ffffff")
HEADER = QColor("#9cc7b6")
TEXT = QColor("#f1f5f3")
QUIET = QColor("#9fb3ab")
ACCENT = QColor("#f3c969")


@dataclass(frozen=True)
class Column:
    title: str
    weight: float = 1.0  # share of the width
    align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignLeft


@dataclass(frozen=True)
class Slide:
    title: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[str, ...], ...]
    page: str = ""  # "page 1 of 3"
    footer: str = ""
    highlight: frozenset[int] = field(default_factory=frozenset)  # rows drawn in the accent
    # (row, column) cells that hold no name (a bye, a player not known yet): quiet, italic
    quiet: frozenset[tuple[int, int]] = field(default_factory=frozenset)


def line_height(height: int) -> int:
    return max(24, height // LINES_PER_SCREEN)


def rows_per_slide(height: int) -> int:
    """Rows that fit under the title and the column headers (and a footer line)."""
    return max(3, height // line_height(height) - 4)


class SlideView(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.slide: Slide | None = None
        self.heading = ""  # the event's name, above every slide
        self.setAutoFillBackground(False)

    def show_slide(self, slide: Slide | None, heading: str) -> None:
        self.slide = slide
        self.heading = heading
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        painter.fillRect(self.rect(), BACKGROUND)
        step = line_height(self.height())
        margin = step // 2
        width = self.width() - 2 * margin
        font = QFont(self.font())
        font.setPixelSize(int(step * 0.55))
        slide = self.slide
        # the title line: the event's name, the slide's title and its page
        big = QFont(font)
        big.setPixelSize(int(step * 0.8))
        big.setBold(True)
        painter.setFont(big)
        painter.setPen(TITLE)
        title_box = QRect(margin, 0, width, int(step * 1.5))
        title = slide.title if slide else "Waiting for the first round"
        painter.drawText(title_box, Qt.AlignmentFlag.AlignVCenter, title)
        painter.setFont(font)
        painter.setPen(QUIET)
        right = f"{self.heading}   {slide.page if slide else ''}".strip()
        painter.drawText(
            title_box, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight, right
        )
        if slide is None:
            painter.end()
            return
        top = int(step * 1.7)
        xs = self._columns(slide, margin, width)
        bold = QFont(font)
        bold.setBold(True)
        painter.setFont(bold)
        painter.setPen(HEADER)
        bold_metrics = QFontMetrics(bold)
        for (x, w), column in zip(xs, slide.columns, strict=True):
            box = QRect(x, top, w, step)
            shown = bold_metrics.elidedText(column.title, Qt.TextElideMode.ElideRight, w)
            painter.drawText(box, column.align | Qt.AlignmentFlag.AlignVCenter, shown)
        top += step
        painter.setFont(font)
        metrics = QFontMetrics(font)
        italic = QFont(font)
        italic.setItalic(True)
        for i, row in enumerate(slide.rows):
            y = top + i * step
            if i % 2 == 0:
                painter.fillRect(QRect(margin // 2, y, width + margin, step), STRIPE)
            for j, ((x, w), column, text) in enumerate(zip(xs, slide.columns, row, strict=True)):
                quiet = (i, j) in slide.quiet
                painter.setFont(italic if quiet else font)
                painter.setPen(QUIET if quiet else ACCENT if i in slide.highlight else TEXT)
                box = QRect(x, y, w, step)
                shown = metrics.elidedText(text, Qt.TextElideMode.ElideRight, w)
                painter.drawText(box, column.align | Qt.AlignmentFlag.AlignVCenter, shown)
        painter.setFont(font)
        if slide.footer:
            painter.setPen(QUIET)
            box = QRect(margin, self.height() - step, width, step)
            footer = metrics.elidedText(slide.footer, Qt.TextElideMode.ElideRight, width)
            painter.drawText(box, Qt.AlignmentFlag.AlignVCenter, footer)
        painter.end()

    @staticmethod
    def _columns(slide: Slide, left: int, width: int) -> list[tuple[int, int]]:
        gap = width // 80
        total = sum(c.weight for c in slide.columns) or 1.0
        out = []
        x = left
        for column in slide.columns:
            w = int(width * column.weight / total)
            out.append((x, max(1, w - gap)))
            x += w
        return out
