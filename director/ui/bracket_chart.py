"""A knockout's brackets drawn as the wall chart looks (RULES §11): one tab per bracket, one
column per round of it (its name and match length at the top), each match a box with both
entrants and their scores, lines joining each match to the one its winner plays next, the
places after the last column.

A box is a widget of its own, so it takes the keyboard focus (Tab, the arrow keys: up and down
in a round, right to the match it feeds, left to its first feeder), says what it shows to a
screen reader (`accessibleName`), and is activated by a double-click, Enter or Space. The
matches ready to start (both feeders finished, not started yet) are filled with the accent
colour; a finished match shows its winner in bold; a match being played is tinted.

Names are plain text, shortened to the box with the whole name in the tooltip; a right-to-left
name is set right, where it starts.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFocusEvent,
    QFont,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
)
from PySide6.QtWidgets import QScrollArea, QTabWidget, QWidget

from director.domain.brackets.draw import MatchKey, Status, Vacant, shown
from director.domain.wording import isolated, right_to_left
from director.services.bracket_pairing import BracketLine, BracketView
from director.ui.elided import shortened
from director.ui.plain import tooltip
from director.ui.style import ACCENT, ACCENT_LIGHT, BORDER, HINT

BOX_W, BOX_H = 156, 44  # a match: two names, their scores
GAP = 28  # between two columns: the joining lines
UNIT = 66  # the height a first-round match takes: its box and the line of state above it
CAPTION_H = 16
TITLE_H = 30  # the round headings
HEAD_H = TITLE_H + CAPTION_H
MARGIN = 12
ROW_H = 20
SCORE_W = 26
PLACES_W = 170
PLAYING = "#fdf3d8"  # a match being played
PLAYING_BORDER = "#d9b45a"


LEFT, RIGHT = Qt.AlignmentFlag.AlignLeft, Qt.AlignmentFlag.AlignRight
MIDDLE = Qt.AlignmentFlag.AlignVCenter


def side(name: str) -> Qt.AlignmentFlag:
    """A name is set where it starts: a right-to-left one on the right."""
    return RIGHT if right_to_left(name) else LEFT


def state_words(line: BracketLine) -> str:
    """Where a match is played, or that it is to pair: the line above its box ("" for a match
    decided or waiting for a feeder)."""
    if line.status is not Status.READY:
        return "forfeit" if line.score == "forfeit" else ""
    if line.table is None:
        return "ready: pair it"
    return f"table {line.table}: " + ("playing" if line.started else "ready to start")


def described(line: BracketLine) -> str:
    """The box's words for a screen reader and its tooltip: round, both entrants with their
    scores, and its state."""
    sides = [f"{shown(name)} {score}".strip()
             for name, score in zip(line.names, line.scores, strict=True)]  # fmt: skip
    state = state_words(line) or line.status.value
    out = f"{line.round_title}: {sides[0]} against {sides[1]}; {state}"
    return f"{out}; {line.winner} wins" if line.winner else out


def tab_title(view: BracketView) -> str:
    """A bracket's tab: its title, and how many of its matches are ready to start."""
    ready = sum(line.ready for line in view.lines)
    return f"{view.title} ({ready} ready)" if ready else view.title


class MatchBox(QWidget):
    """One match of the chart; `ready`, `names`, `scores` and `match_id` say what it shows."""

    activated = Signal(object)  # the stored match's id, or None for a match not paired yet
    chosen = Signal(object)  # clicked: the stored match's id
    moved = Signal(object, int)  # (this box, the arrow key pressed)

    def __init__(self, line: BracketLine, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.line = line
        self.setFixedSize(BOX_W, BOX_H)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setObjectName("matchBox")
        self.setAccessibleName(described(line))
        self.setToolTip(tooltip(described(line)))

    def show_line(self, line: BracketLine) -> None:
        """Show `line` (the same match, read again): repainted only when it changed."""
        if line == self.line:
            return
        self.line = line
        self.setAccessibleName(described(line))
        self.setToolTip(tooltip(described(line)))
        self.update()

    @property
    def key(self) -> MatchKey:
        return self.line.key

    @property
    def match_id(self) -> int | None:
        return self.line.match_id

    @property
    def ready(self) -> bool:
        return self.line.ready

    @property
    def names(self) -> tuple[str, str]:
        """What the box shows on its two lines: the names, "bye" or "…" for nobody."""
        a, b = self.line.names
        return shown(a), shown(b)

    @property
    def scores(self) -> tuple[str, str]:
        return self.line.scores

    def sizeHint(self) -> QSize:
        return QSize(BOX_W, BOX_H)

    def paintEvent(self, event: QPaintEvent) -> None:
        line = self.line
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        fill, border, width = QColor("white"), QColor(BORDER), 1.0
        if line.ready:
            fill, border, width = QColor(ACCENT_LIGHT), QColor(ACCENT), 2.0
        elif line.status is Status.READY:
            fill, border = QColor(PLAYING), QColor(PLAYING_BORDER)
        if self.hasFocus():
            border, width = QColor(ACCENT), 3.0
        painter.setPen(QPen(border, width))
        painter.setBrush(fill)
        painter.drawRoundedRect(self.rect().adjusted(1, 1, -2, -2), 4, 4)
        base = self.font()
        for row, (name, score) in enumerate(zip(line.names, line.scores, strict=True)):
            top = 3 + row * ROW_H
            font = QFont(base)
            font.setBold(bool(line.winner) and name == line.winner)
            nobody = isinstance(name, Vacant)
            font.setItalic(nobody)
            painter.setFont(font)
            painter.setPen(QColor(HINT) if nobody else QColor("#1b2a25"))
            area = QRect(8, top, BOX_W - 16 - SCORE_W, ROW_H)
            words = shown(name)
            cut = shortened(painter.fontMetrics(), isolated(words), area.width())
            painter.drawText(area, side(words) | MIDDLE, cut)
            painter.drawText(QRect(BOX_W - 8 - SCORE_W, top, SCORE_W, ROW_H), RIGHT | MIDDLE, score)
            if row == 0:
                painter.setPen(QPen(QColor(BORDER), 1))
                painter.drawLine(6, top + ROW_H, BOX_W - 7, top + ROW_H)
        painter.end()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.setFocus(Qt.FocusReason.MouseFocusReason)
        self.chosen.emit(self.match_id)
        super().mousePressEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        self.activated.emit(self.match_id)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space):
            self.activated.emit(self.match_id)
            return
        if key in (Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_Left, Qt.Key.Key_Right):
            self.moved.emit(self, int(key))
            return
        super().keyPressEvent(event)

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        area = self.parentWidget()
        while area is not None and not isinstance(area, QScrollArea):
            area = area.parentWidget()
        if area is not None:  # Tab and the arrow keys scroll to the box they reach
            area.ensureWidgetVisible(self, 40, 40)
        self.chosen.emit(self.match_id)
        self.update()

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        self.update()


class BracketChart(QWidget):
    """One bracket drawn: the boxes placed by round and slot, the lines painted between."""

    def __init__(self, view: BracketView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = view
        self.boxes: dict[MatchKey, MatchBox] = {}
        counts = [count for _, count in view.rounds] or [1]
        # a round that halves the one before doubles the height of each of its matches; a
        # round fed by later losers keeps its matches level with the ones they come from
        self.spans = [1]
        for r in range(1, len(counts)):
            self.spans.append(self.spans[-1] * (2 if counts[r] < counts[r - 1] else 1))
        last = len(counts)
        height = HEAD_H + counts[0] * UNIT
        self.playoff = next((x for x in view.lines if x.key == MatchKey(view.name, last, 2)), None)
        if self.playoff is not None:
            height = max(height, self._centre(last, 1) + UNIT + CAPTION_H + BOX_H)
        self.setMinimumSize(2 * MARGIN + last * (BOX_W + GAP) + PLACES_W, height + MARGIN)
        for line in sorted(view.lines, key=lambda x: (x.key.round, x.key.number)):
            box = MatchBox(line, self)
            box.move(self._spot(line.key))
            self.boxes[line.key] = box

    def fits(self, view: BracketView) -> bool:
        """Whether `view` has the rounds and the matches drawn here (only what they show may
        differ): then it is shown in these boxes."""
        return (
            view.rounds == self.view.rounds
            and len(view.lines) == len(self.boxes)
            and all(line.key in self.boxes for line in view.lines)
        )

    def show_view(self, view: BracketView) -> None:
        """Show `view`, which `fits`, in the boxes there are: each updated, none built again."""
        self.view = view
        for line in view.lines:
            self.boxes[line.key].show_line(line)
        if self.playoff is not None:
            self.playoff = self.boxes[self.playoff.key].line
        self.update()  # the joining lines, the states above the boxes, the places

    def _centre(self, round_no: int, number: int) -> int:
        span = self.spans[round_no - 1] * UNIT
        return HEAD_H + (number - 1) * span + span // 2

    def _spot(self, key: MatchKey) -> QPoint:
        x = MARGIN + (key.round - 1) * (BOX_W + GAP)
        if self.playoff is not None and key == self.playoff.key:
            return QPoint(x, self._centre(key.round, 1) + UNIT + CAPTION_H)
        return QPoint(x, self._centre(key.round, key.number) - BOX_H // 2)

    def sizeHint(self) -> QSize:
        return self.minimumSize()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor("#fbfcfb"))
        bold = QFont(self.font())
        bold.setBold(True)
        painter.setFont(bold)
        painter.setPen(QColor("#1b2a25"))
        for r, (heading, _) in enumerate(self.view.rounds):
            x = MARGIN + r * (BOX_W + GAP)
            painter.drawText(QRect(x, 4, BOX_W, TITLE_H - 8), LEFT, heading)
            painter.setPen(QPen(QColor(BORDER), 1))
            painter.drawLine(x, TITLE_H - 4, x + BOX_W, TITLE_H - 4)
            painter.setPen(QColor("#1b2a25"))
        for line in self.view.lines:
            if line.feeds is None or line.feeds not in self.boxes:
                continue
            here, there = self.boxes[line.key].geometry(), self.boxes[line.feeds].geometry()
            went = line.status in (Status.DONE, Status.BYE)  # its winner has gone on
            painter.setPen(QPen(QColor(ACCENT) if went else QColor("#9aa8a2"), 2 if went else 1))
            start = QPoint(here.right() + 1, here.center().y())
            end = QPoint(there.left() - 1, there.center().y())
            middle = start.x() + GAP // 2
            painter.drawPolyline([start, QPoint(middle, start.y()), QPoint(middle, end.y()), end])
        small = QFont(self.font())
        small.setPointSizeF(max(6.0, small.pointSizeF() - 1.0))
        painter.setFont(small)
        for box in self.boxes.values():
            words = state_words(box.line)
            if words:
                place = box.geometry()
                painter.setPen(QColor(ACCENT) if box.ready else QColor(HINT))
                painter.drawText(QRect(place.left() + 2, place.top() - CAPTION_H, BOX_W, CAPTION_H),
                                 LEFT | Qt.AlignmentFlag.AlignBottom, words)  # fmt: skip
        if self.playoff is not None:
            place = self.boxes[self.playoff.key].geometry()
            painter.setPen(QColor("#1b2a25"))
            painter.drawText(QRect(place.left(), place.top() - 2 * CAPTION_H, BOX_W, CAPTION_H),
                             LEFT, self.playoff.round_title)  # fmt: skip
        self._paint_places(painter, bold)
        painter.end()

    def _paint_places(self, painter: QPainter, bold: QFont) -> None:
        rounds = len(self.view.rounds)
        x = MARGIN + rounds * (BOX_W + GAP)
        top = self._centre(rounds, 1) - BOX_H // 2 if rounds else HEAD_H
        painter.setFont(bold)
        painter.setPen(QColor("#1b2a25"))
        painter.drawText(QRect(x, 4, PLACES_W - MARGIN, TITLE_H - 8), LEFT, "Places")
        painter.setFont(self.font())
        metrics = painter.fontMetrics()
        for i, (place, name) in enumerate(self.view.places):
            y = top + i * ROW_H
            painter.drawText(QRect(x, y, 28, ROW_H), Qt.AlignmentFlag.AlignLeft, place)
            room = QRect(x + 30, y, PLACES_W - MARGIN - 30, ROW_H)
            shown = shortened(metrics, isolated(name), room.width())
            painter.drawText(room, side(name), shown)

    def neighbour(self, box: MatchBox, key: int) -> MatchBox | None:
        """The box an arrow key moves to from `box`."""
        here = box.key
        if key == Qt.Key.Key_Right.value:
            return self.boxes.get(box.line.feeds) if box.line.feeds is not None else None
        if key == Qt.Key.Key_Left.value:
            feeders = sorted(k for k, b in self.boxes.items() if b.line.feeds == here)
            return self.boxes[feeders[0]] if feeders else None
        column = sorted(k for k in self.boxes if k.round == here.round)
        at = column.index(here) + (1 if key == Qt.Key.Key_Down.value else -1)
        return self.boxes[column[at]] if 0 <= at < len(column) else None


class BracketTabs(QTabWidget):
    """Every bracket of the knockout, a tab each, scrolled when bigger than the page."""

    activated = Signal(int)  # a stored match to open at the desk
    chosen = Signal(int)  # a stored match clicked or reached by the keyboard

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("brackets")
        self.charts: list[BracketChart] = []
        self.areas: list[QScrollArea] = []

    def show_views(self, views: list[BracketView]) -> None:
        """Draw `views` again, keeping the tab, the scroll position and the focused match. A
        result changes only what boxes show: they are updated in place (a 256-player night
        has 500 of them), and built again only when matches were added or taken away."""
        if len(views) == len(self.charts) and all(
            view.name == chart.view.name and chart.fits(view)
            for view, chart in zip(views, self.charts, strict=True)
        ):
            for i, (view, chart) in enumerate(zip(views, self.charts, strict=True)):
                chart.show_view(view)
                self.setTabText(i, tab_title(view))
            return
        current = self.currentIndex()
        focused = next((k for c in self.charts for k, b in c.boxes.items() if b.hasFocus()), None)
        scrolls = [(a.horizontalScrollBar().value(), a.verticalScrollBar().value())
                   for a in self.areas]  # fmt: skip
        self.clear()
        self.charts, self.areas = [], []
        for i, view in enumerate(views):
            chart = BracketChart(view)
            area = QScrollArea(self)
            area.setWidget(chart)
            area.setWidgetResizable(False)
            area.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
            self.addTab(area, tab_title(view))
            for box in chart.boxes.values():
                box.activated.connect(self._activated)
                box.chosen.connect(self._chosen)
                box.moved.connect(lambda b, k, c=chart: self._move(c, b, k))
            self.charts.append(chart)
            self.areas.append(area)
            if i < len(scrolls):
                area.horizontalScrollBar().setValue(scrolls[i][0])
                area.verticalScrollBar().setValue(scrolls[i][1])
        if 0 <= current < self.count():
            self.setCurrentIndex(current)
        for chart in self.charts:
            if focused is not None and focused in chart.boxes:
                chart.boxes[focused].setFocus(Qt.FocusReason.OtherFocusReason)

    def boxes(self) -> list[MatchBox]:
        return [box for chart in self.charts for box in chart.boxes.values()]

    def _activated(self, match_id: object) -> None:
        if isinstance(match_id, int):
            self.activated.emit(match_id)

    def _chosen(self, match_id: object) -> None:
        if isinstance(match_id, int):
            self.chosen.emit(match_id)

    def _move(self, chart: BracketChart, box: MatchBox, key: int) -> None:
        target = chart.neighbour(box, key)
        if target is not None:
            target.setFocus(Qt.FocusReason.OtherFocusReason)
