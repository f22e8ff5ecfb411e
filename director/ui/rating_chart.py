"""A person's rating history drawn with QPainter: the rating after each rated match.

A chart of one line needs no charting module: the installer leaves QtCharts and QtGraphs out
(installer/*.spec, `QT_UNUSED`), and a plotting library would add megabytes for one line.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

LINE = QColor("#1d5c4a")
AXIS = QColor("#8a8a8a")


class RatingChart(QWidget):
    """`set_points([1500, 1522.4, …])`: the start and the rating after each rated match."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.points: list[float] = []
        self.setMinimumHeight(160)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setAccessibleName("Rating history")

    def set_points(self, points: list[float]) -> None:
        self.points = list(points)
        self.setToolTip(
            f"{len(points) - 1} rated matches: {points[0]:.2f} to {points[-1]:.2f}"
            if len(points) > 1 else ""
        )  # fmt: skip
        self.update()

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        metrics = painter.fontMetrics()
        left = metrics.horizontalAdvance("00000") + 8
        plot = QRectF(left, 8, self.width() - left - 10, self.height() - metrics.height() - 20)
        painter.setPen(QPen(AXIS, 1))
        painter.drawLine(plot.bottomLeft(), plot.bottomRight())
        painter.drawLine(plot.bottomLeft(), plot.topLeft())
        if len(self.points) < 2:
            painter.drawText(plot, Qt.AlignmentFlag.AlignCenter, "No rated match yet")
            return
        low, high = min(self.points), max(self.points)
        pad = max(5.0, (high - low) * 0.1)
        low, high = low - pad, high + pad
        last = len(self.points) - 1

        def at(i: int, value: float) -> QPointF:
            x = plot.left() + plot.width() * i / last
            return QPointF(x, plot.bottom() - plot.height() * (value - low) / (high - low))

        for value in (low + pad, high - pad):  # the lowest and highest rating reached
            y = at(0, value).y()
            painter.drawText(QRectF(0, y - 8, left - 6, 16),
                             Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                             f"{value:.0f}")  # fmt: skip
        painter.drawText(QRectF(plot.left(), plot.bottom() + 4, plot.width(), metrics.height()),
                         Qt.AlignmentFlag.AlignRight, f"{last} rated matches")  # fmt: skip
        painter.setPen(QPen(LINE, 2))
        painter.drawPolyline([at(i, v) for i, v in enumerate(self.points)])
