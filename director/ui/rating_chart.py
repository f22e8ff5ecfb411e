"""A person's rating history on the Club page, drawn with Qt Charts.

Qt Charts rather than a plotting library: it comes with PySide6 (the app depends on nothing
more), it is a widget like every other one (the app's fonts, palette and offscreen tests), and
the installer only has to keep its library in the bundle (installer/tandem-director.spec).

The points are `domain.rating.history_points`, the same the PDF card plots: x is the rated
match (0 is the start), y the rating after it. The provisional part (experience under 100) is
a dashed line, the rest solid; the x axis marks the events by their dates (by month, or year,
when there are many). Every text on the chart is the app's own (dates, numbers, fixed words):
a person's or an event's name never reaches it, as Qt Charts reads its labels as rich text.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCharts import QCategoryAxis, QChart, QChartView, QLineSeries, QValueAxis
from PySide6.QtCore import QMargins, QPointF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from director.domain.rating import HistoryPoint, chart_range, provisional_split
from director.ui.style import ACCENT, HINT

MOST_MARKS = 8  # event dates on the x axis before they are grouped by month, then by year
MOST_DOTS = 60  # up to this many matches each is a dot on the line
PROVISIONAL_COLOUR = "#8fb5a7"  # the accent, paler: the rating is not settled yet
PROVISIONAL = "Provisional (experience under 100)"
ESTABLISHED = "Rating"
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def date_marks(points: Sequence[HistoryPoint]) -> tuple[list[tuple[str, int]], str]:
    """The x axis's marks, (label, the last match under it), and its title: by event date ("5
    Mar"), or by month ("Mar") or year when there would be more than `MOST_MARKS`; the year is
    in the title when it is one, in the marks when there are several."""
    days = [(p.day, p.match) for p in points if p.day is not None]
    years = sorted({d.year for d, _ in days})
    year = "" if len(years) == 1 else " {0.year}"
    groupings = (
        ("by event date", "{0.day} {1}" + year),
        ("by month", "{1}" + year),
        ("by year", "{0.year}"),
    )
    each = [
        (how, {form.format(d, MONTHS[d.month - 1]): match for d, match in days})
        for how, form in groupings
    ]  # a label's match: the last one under it
    how, marks = next((g for g in each if len(g[1]) <= MOST_MARKS), each[-1])
    if not year and how != "by year":
        how += f", {years[0]}"
    return list(marks.items()), f"Rated matches, {how}"


class RatingChart(QChartView):
    """`set_points(history_points(view.history))`: the person's rating history, or nothing."""

    def __init__(self, parent: QWidget | None = None) -> None:
        chart = QChart()
        super().__init__(chart, parent)
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setMinimumHeight(200)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setAccessibleName("Rating history")
        chart.setBackgroundVisible(False)
        chart.setMargins(QMargins(0, 0, 0, 0))
        chart.legend().setAlignment(Qt.AlignmentFlag.AlignBottom)
        self.provisional = QLineSeries()
        self.provisional.setName(PROVISIONAL)
        self.provisional.setPen(QPen(QColor(PROVISIONAL_COLOUR), 2, Qt.PenStyle.DashLine))
        self.provisional.setColor(QColor(PROVISIONAL_COLOUR))  # its dots and legend mark too
        self.established = QLineSeries()
        self.established.setName(ESTABLISHED)
        self.established.setPen(QPen(QColor(ACCENT), 2.5))
        self.established.setColor(QColor(ACCENT))
        self.x_axis = QCategoryAxis()
        self.y_axis = QValueAxis()
        self.y_axis.setTitleText("Rating")
        self.y_axis.setLabelFormat("%.0f")
        self.y_axis.setTickCount(5)
        for axis in (self.x_axis, self.y_axis):
            axis.setTitleBrush(QColor(HINT))
        for series in (self.provisional, self.established):
            chart.addSeries(series)
        chart.addAxis(self.x_axis, Qt.AlignmentFlag.AlignBottom)
        chart.addAxis(self.y_axis, Qt.AlignmentFlag.AlignLeft)
        for series in (self.provisional, self.established):
            series.attachAxis(self.x_axis)
            series.attachAxis(self.y_axis)
        self.set_points([])

    def set_points(self, points: Sequence[HistoryPoint]) -> None:
        provisional, established = provisional_split(points)
        for series, part in ((self.provisional, provisional), (self.established, established)):
            series.replace([QPointF(p.match, p.rating) for p in part])
            series.setPointsVisible(len(points) <= MOST_DOTS)
            legend = self.chart().legend().markers(series)
            if legend:
                legend[0].setVisible(bool(part))
        for label in self.x_axis.categoriesLabels():
            self.x_axis.remove(label)
        rated = len(points) > 1
        for axis in (self.x_axis, self.y_axis):
            axis.setVisible(rated)
        self.chart().setTitle("" if rated else "No rated match yet")
        if not rated:
            self.setToolTip("")
            return
        last = points[-1].match
        self.x_axis.setStartValue(0)
        marks, title = date_marks(points)
        for label, end in marks:
            self.x_axis.append(label, end)
        self.x_axis.setTitleText(title)
        margin = max(0.15, last / 50)  # the first and last dots whole, not cut by the frame
        self.x_axis.setRange(-margin, last + margin)
        self.y_axis.setRange(*chart_range(points))
        self.y_axis.applyNiceNumbers()  # round ticks; the range only grows
        self.setToolTip(f"{last} rated matches: {points[0].rating:.2f} to {points[-1].rating:.2f}")
