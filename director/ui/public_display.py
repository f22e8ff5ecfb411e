"""A second window for a projector or TV: the current round's pairings with live scores, a
knockout's brackets (what is played now and what waits), then the standings, rotating every
few seconds, in type readable from across the room.

It reads only (`services.rounds`, `services.matches`, `services.standings`) and refreshes on
`ctx.changed`. Keys: Right/Left next/previous slide, Space pauses the rotation, F11 or Escape
leaves full screen; the right-click menu chooses the screen and the rotation time.
"""

from __future__ import annotations

import time
from functools import partial

from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtGui import QAction, QGuiApplication, QKeyEvent, QResizeEvent, QScreen
from PySide6.QtWidgets import QMenu, QVBoxLayout, QWidget

from director.domain.brackets.draw import Status, Vacant, shown
from director.domain.changes import Changes
from director.domain.event import MatchInfo
from director.services import standings
from director.services.bracket_pairing import BracketLine, bracket_views
from director.services.events import get_event, rounds_paired
from director.services.matches import list_matches
from director.services.teams import entrant_format
from director.ui.context import EventContext
from director.ui.models.round_model import FINISHED, NOT_STARTED, match_status, result_words
from director.ui.models.standings_model import number, title_of
from director.ui.slide_view import Column, Slide, SlideView, rows_per_slide

DEFAULT_SECONDS = 15
REFRESH_DELAY_MS = 300
ROTATION_CHOICES = (8, 10, 15, 20, 30, 60)
RIGHT = Qt.AlignmentFlag.AlignRight
CENTRE = Qt.AlignmentFlag.AlignHCenter


def pairing_columns(entrant: str = "team") -> tuple[Column, ...]:
    """The pairings' columns, headed by who enters ("Player A" in an individual event)."""
    who = entrant.capitalize()
    return (
        Column("Table", 0.7, CENTRE),
        Column(f"{who} A", 3.0, RIGHT),
        Column("Score", 1.3, CENTRE),
        Column(f"{who} B", 3.0),
        Column("", 2.6),
    )


BRACKET_COLUMNS = (
    Column("Round", 2.6),
    Column("Table", 1.0, CENTRE),
    Column("Player A", 3.0, RIGHT),
    Column("Score", 1.1, CENTRE),
    Column("Player B", 3.0),
    Column("", 1.4),
)


def bracket_row(line: BracketLine) -> tuple[str, ...]:
    state = "waiting"
    if line.status is Status.READY:
        state = "playing" if line.table is not None else "to pair"
    table = str(line.table) if line.table is not None else ""
    a, b = (shown(name) for name in line.names)
    return (line.round_title, table, a, line.score, b, state)


def pages(rows: list[tuple[str, ...]], size: int) -> list[list[tuple[str, ...]]]:
    return [rows[i : i + size] for i in range(0, len(rows), size)] or [[]]


def pairing_row(match: MatchInfo) -> tuple[str, ...]:
    status = match_status(match)
    if match.is_bye or match.forfeit_by is not None:
        score = "–"
    else:
        score = f"{match.outcome.final.a} – {match.outcome.final.b}"
    if status == FINISHED:
        state = result_words(match)
    elif status == NOT_STARTED:
        state = "not started"
    else:
        state = f"{match.rules.event_format.unit} {match.outcome.current_pair}"  # or a game
    b = match.names[1] if match.team_b else "bye"
    return (match.table_label, match.names[0], score, b, state)


class PublicDisplay(QWidget):
    title = "Public display"

    def __init__(self, ctx: EventContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # Its own top-level window even when it has a parent (closed with the main window).
        self.setWindowFlag(Qt.WindowType.Window, True)
        self.setWindowTitle("Tandem Director: public display")
        self.ctx = ctx
        self.slides: list[Slide] = []
        self.index = 0
        self.seconds = DEFAULT_SECONDS
        self.view = SlideView(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)
        self.timer = QTimer(self)
        self.timer.setInterval(self.seconds * 1000)
        self.timer.timeout.connect(self.next_slide)
        self.pending = QTimer(self)
        self.pending.setSingleShot(True)
        self.last_refresh_ms = 0
        self.pending.timeout.connect(self.refresh)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self.show_menu)
        self.resize(1280, 720)
        ctx.changed.connect(self.on_event_changed)
        self.refresh()
        self.timer.start()

    # -- slides -------------------------------------------------------------------------

    def on_event_changed(self, _changes: Changes) -> None:
        # A busy desk sends many changes; the projector needs one read per burst, not each. The
        # wait grows with the cost of a read, so a large event never stalls the director's desk.
        if not self.pending.isActive():
            self.pending.start(max(REFRESH_DELAY_MS, 5 * self.last_refresh_ms))

    def refresh(self) -> None:
        """Read the event again and rebuild the slides, staying on the slide being shown."""
        if self.ctx.background.stopped:  # the event is closed: a late timer has nothing to read
            return
        started = time.perf_counter()
        shown = self.slides[self.index].title if self.slides else None
        size = rows_per_slide(self.height())
        self.slides = (
            self.pairing_slides(size) + self.bracket_slides(size) + self.standings_slides(size)
        )
        titles = [s.title for s in self.slides]
        self.index = titles.index(shown) if shown in titles else min(self.index, len(titles) - 1)
        self.index = max(self.index, 0)
        self.show_current()
        self.last_refresh_ms = int((time.perf_counter() - started) * 1000)

    def pairing_slides(self, size: int) -> list[Slide]:
        current = self.ctx.read(rounds_paired)
        if not current:
            return []
        matches = self.ctx.read(list_matches, current)
        rows = [pairing_row(m) for m in matches]
        chunks = pages(rows, size)
        columns = pairing_columns(self.ctx.read(entrant_format).entrant)
        return [
            Slide(
                f"Round {current}: pairings and live scores",
                columns,
                tuple(chunk),
                self.page_text(i, len(chunks)),
                highlight=frozenset(j for j, row in enumerate(chunk) if row[-1].endswith("wins")),
            )
            for i, chunk in enumerate(chunks)
        ]

    def bracket_slides(self, size: int) -> list[Slide]:
        """A knockout's brackets (RULES §11): per bracket, the matches played now (with their
        tables) and those waiting for a feeder; its places once it is played out."""
        out: list[Slide] = []
        for view in self.ctx.read(bracket_views):
            lines = [line for line in view.lines if line.status in (Status.READY, Status.WAITING)]
            rows = [bracket_row(line) for line in lines]
            # each row's player columns (A, B) that hold nobody: a player not known yet
            nobody = [[c for c, name in zip((2, 4), line.names, strict=True)
                       if isinstance(name, Vacant)] for line in lines]  # fmt: skip
            if not rows:
                rows = [(place, "", name, "", "", "") for place, name in view.places]
            chunks = pages(rows, size)
            places = " · ".join(f"{place} {name}" for place, name in view.places)
            out += [
                Slide(view.title, BRACKET_COLUMNS, tuple(chunk), self.page_text(i, len(chunks)),
                      footer=places, highlight=frozenset(
                          j for j, row in enumerate(chunk) if row[-1] == "playing"),
                      quiet=frozenset((j, c) for j in range(len(chunk))
                                      for c in (nobody[i * size + j] if nobody else ())))
                for i, chunk in enumerate(chunks)
            ]  # fmt: skip
        return out

    def standings_slides(self, size: int) -> list[Slide]:
        view = self.ctx.read(standings.standings)
        if not view.through_round:
            return []
        shown = view.tie_breaks[:2]
        columns = (
            Column("#", 0.6, CENTRE),
            Column(view.entrant.capitalize(), 3.6),
            Column("MP", 0.9, CENTRE),
            Column("W-D-L" if view.draws else "W-L", 1.4, CENTRE),
            *(Column(title_of(view.definitions[tb.value]), 2.2, CENTRE) for tb in shown),
        )
        rows = [
            (
                line.row.place,
                line.team.name + (f" ({line.row.note})" if line.row.note else ""),
                number(line.row.match_points),
                f"{line.row.wins}-{line.row.draws}-{line.row.losses}"
                if view.draws
                else f"{line.row.wins}-{line.row.losses}",
                *(number(line.row.tie_breaks.get(tb)) for tb in shown),
            )
            for line in view.lines
        ]
        chunks = pages(rows, size)
        order = ", ".join(title_of(view.definitions[tb.value]) for tb in view.tie_breaks)
        footer = f"MP: match points · ties: {order}"
        return [
            Slide(
                f"Standings {view.heading}",
                columns,
                tuple(chunk),
                self.page_text(i, len(chunks)),
                footer=footer,
            )
            for i, chunk in enumerate(chunks)
        ]

    @staticmethod
    def page_text(i: int, count: int) -> str:
        return f"{i + 1} / {count}" if count > 1 else ""

    def show_current(self) -> None:
        if self.ctx.background.stopped:  # the event is closed (see refresh)
            return
        slide = self.slides[self.index] if self.slides else None
        self.view.show_slide(slide, self.ctx.read(get_event).name)

    def next_slide(self) -> None:
        if self.slides:
            self.index = (self.index + 1) % len(self.slides)
        self.show_current()

    def previous_slide(self) -> None:
        if self.slides:
            self.index = (self.index - 1) % len(self.slides)
        self.show_current()

    def set_seconds(self, seconds: int) -> None:
        self.seconds = seconds
        self.timer.setInterval(seconds * 1000)

    # -- screens ------------------------------------------------------------------------

    @staticmethod
    def screen_names() -> list[str]:
        return [
            f"Screen {i + 1}: {s.name()} ({s.size().width()}×{s.size().height()})"
            for i, s in enumerate(QGuiApplication.screens())
        ]

    def show_on(self, screen: QScreen | int | None = None) -> None:
        """Full screen on `screen` (an index into the screen list); by default the last one,
        which is the projector when one is plugged in."""
        screens = QGuiApplication.screens()
        if isinstance(screen, int):
            screen = screens[screen]
        target = screen or screens[-1]
        self.setScreen(target)
        self.setGeometry(target.geometry())
        self.showFullScreen()

    def show_menu(self, at: QPoint) -> None:
        menu = QMenu(self)
        for i, name in enumerate(self.screen_names()):
            menu.addAction(f"Full screen on {name}", partial(self.show_on, i))
        menu.addSeparator()
        for seconds in ROTATION_CHOICES:
            action = QAction(f"Next slide every {seconds} s", menu)
            action.setCheckable(True)
            action.setChecked(seconds == self.seconds)
            action.triggered.connect(lambda _c=False, s=seconds: self.set_seconds(s))
            menu.addAction(action)
        menu.addSeparator()
        menu.addAction("Leave full screen", self.showNormal)
        menu.addAction("Close the display", self.close)
        menu.popup(self.mapToGlobal(at))

    # -- events -------------------------------------------------------------------------

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key in (Qt.Key.Key_Right, Qt.Key.Key_PageDown):
            self.next_slide()
        elif key in (Qt.Key.Key_Left, Qt.Key.Key_PageUp):
            self.previous_slide()
        elif key == Qt.Key.Key_Space:
            if self.timer.isActive():
                self.timer.stop()
            else:
                self.timer.start()
        elif key in (Qt.Key.Key_F11, Qt.Key.Key_Escape) and self.isFullScreen():
            self.showNormal()
        elif key == Qt.Key.Key_F11:
            self.show_on(self.screen())
        else:
            super().keyPressEvent(event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if rows_per_slide(event.size().height()) != rows_per_slide(event.oldSize().height()):
            self.refresh()  # more or fewer rows fit: page again
