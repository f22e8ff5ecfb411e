"""A clock face: one side's name and remaining time, readable across a playing hall.

The running side is a bright filled panel and every other face is dark, so who is on move can
be told from 10 m by colour alone; low time turns the running panel amber, a flag turns the
face red with a flag mark. The time is painted in one large font fitted to the face, with
tabular digits so it does not jitter as it counts down.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from PySide6.QtCore import QRect, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontDatabase, QFontMetricsF, QMouseEvent, QPainter
from PySide6.QtWidgets import QSizePolicy, QWidget

from director.resources import resource_path


class Look(StrEnum):
    READY = "ready"  # before the start: waiting for the opening roll
    FIRST = "first"  # before the start: chosen to move first
    RUNNING = "running"
    ON_MOVE_PAUSED = "on-move-paused"
    WAITING = "waiting"  # the other side is on move
    FLAGGED = "flagged"
    STOPPED = "stopped"  # the game is recorded
    TESTED = "tested"  # the key test: this player's key works


# background, time colour, text colour
COLOURS: dict[Look, tuple[str, str, str]] = {
    Look.READY: ("#262b30", "#e8eaed", "#c4c9ce"),
    Look.FIRST: ("#1d4ed8", "#ffffff", "#dbeafe"),
    Look.RUNNING: ("#22c55e", "#04130a", "#04130a"),
    Look.ON_MOVE_PAUSED: ("#14532d", "#ffffff", "#bbf7d0"),
    Look.WAITING: ("#1b1f23", "#9aa3ab", "#9aa3ab"),
    Look.FLAGGED: ("#b91c1c", "#ffffff", "#ffffff"),
    Look.STOPPED: ("#111315", "#5f666d", "#5f666d"),
    Look.TESTED: ("#7c3aed", "#ffffff", "#ede9fe"),
}
FLASH = ("#ffffff", "#b91c1c", "#b91c1c")  # the flag alarm's other half
LOW_RUNNING = ("#f59e0b", "#1a0f00", "#1a0f00")
LOW_TIME = "#f59e0b"  # the time of a waiting face that is low


@dataclass(frozen=True)
class FaceState:
    seat: str  # "A1"
    player: str
    team: str
    time: str  # as format_remaining shows it
    look: Look
    low: bool = False
    note: str = ""  # under the time: "moves first", "paused", "delay 4.2"...
    key: str = ""  # the key that presses this face
    flash: bool = False  # the flag alarm's bright half
    turned: bool = False  # painted upside down, for the player across a flat screen


@cache
def clock_font_family() -> str:
    """DejaVu Sans Bold from the resources (tabular digits everywhere), else the default."""
    try:
        font_id = QFontDatabase.addApplicationFont(
            str(resource_path("fonts", "DejaVuSans-Bold.ttf"))
        )
    except FileNotFoundError:
        return QFont().family()
    families = QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
    return families[0] if families else QFont().family()


@cache
def fitted_font(family: str, template: str, width: int, height: int) -> QFont:
    """The largest bold font in which `template` fits width × height (cached per size)."""
    font = QFont(family)
    font.setBold(True)
    font.setPixelSize(100)
    metrics = QFontMetricsF(font)
    scale = min(width / max(1.0, metrics.horizontalAdvance(template)), height / metrics.height())
    font.setPixelSize(max(8, int(100 * scale)))
    return font


def template_of(text: str) -> str:
    """Every digit as 0: the width of a time depends only on its shape, so the font is stable."""
    return "".join("0" if c.isdigit() else c for c in text)


TENTHS_TEMPLATE = "0:00.0"  # the widest everyday shape: the digits never shrink below 20 s


def time_font(family: str, text: str, width: int, height: int) -> QFont:
    """One size from 9:59 down to 0:00.0, so the digits keep their size exactly when players
    look hardest; only a longer shape (10:00, 1:00:00) makes them smaller."""
    own = fitted_font(family, template_of(text) or "0:00", width, height)
    tenths = fitted_font(family, TENTHS_TEMPLATE, width, height)
    return own if own.pixelSize() < tenths.pixelSize() else tenths


class Face(QWidget):
    """One side of one board; a press of the mouse (or a touch) on it is a key-down."""

    pressed = Signal(object)  # the click's platform timestamp (int ms; 0 when none)
    menu_requested = Signal()  # right click: the director's menu (adjust while paused)

    def __init__(self, board: int, seat: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.board = board
        self.setObjectName(f"face-{seat}")
        self.state = FaceState(seat, "", "", "", Look.READY)
        self.painted: tuple[str, int] = ("", 0)  # what the last paint showed, and when
        self.digits_px = 0  # the size the time was last painted in
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(120, 120)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.setAttribute(Qt.WidgetAttribute.WA_AcceptTouchEvents, False)  # touch → mouse

    def show_state(self, state: FaceState) -> bool:
        """Repaint only when what is shown changes; True when it did."""
        if state == self.state:
            return False
        self.state = state
        self.setAccessibleName(f"{state.seat} {state.player}: {state.time} {state.note}")
        self.update()
        return True

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.pressed.emit(event.timestamp())
        elif event.button() == Qt.MouseButton.RightButton:
            self.menu_requested.emit()
        event.accept()

    def colours(self) -> tuple[QColor, QColor, QColor]:
        s = self.state
        background, digits, text = COLOURS[s.look]
        if s.flash and s.look is Look.FLAGGED:
            background, digits, text = FLASH
        elif s.low and s.look is Look.RUNNING:
            background, digits, text = LOW_RUNNING
        elif s.low and s.look in (Look.WAITING, Look.ON_MOVE_PAUSED):
            digits = LOW_TIME
        return QColor(background), QColor(digits), QColor(text)

    def paintEvent(self, _event: object) -> None:
        s = self.state
        background, digits, text = self.colours()
        w, h = self.width(), self.height()
        family = clock_font_family()
        painter = QPainter(self)
        painter.setRenderHints(
            QPainter.RenderHint.TextAntialiasing | QPainter.RenderHint.Antialiasing
        )
        painter.fillRect(self.rect(), background)
        if s.turned:  # the player sits across the flat screen: the face is upside down
            painter.translate(w, h)
            painter.rotate(180)
        pad = max(6, w // 30)
        band = max(18, h // 7)
        inner = w - 2 * pad
        left = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        # the seat and the player's name, the team under it
        painter.setPen(text)
        name = f"{s.seat}  {s.player}"
        painter.setFont(fitted_font(family, name[:26], inner, band))
        painter.drawText(QRect(pad, pad // 2, inner, band), left, name)
        painter.setFont(fitted_font(family, "M" * 18, inner, band * 11 // 20))
        painter.drawText(QRect(pad, pad // 2 + band, inner, band * 3 // 5), left, s.team)
        # the time: as large as the face allows
        time_box = QRectF(pad, band * 17 // 10, inner, h - band * 33 // 10)
        painter.setPen(digits)
        digits_font = time_font(family, s.time, inner, int(time_box.height()))
        self.digits_px = digits_font.pixelSize()
        painter.setFont(digits_font)
        painter.drawText(time_box, Qt.AlignmentFlag.AlignCenter, s.time)
        # the note (flag, paused, first mover, delay) and the key that presses this face
        foot_h = band * 6 // 5
        foot = QRect(pad, h - pad - foot_h, inner, foot_h)
        badge = self._key_badge(painter, family, foot, text)
        painter.setPen(text)
        note_h = foot_h * 9 // 20
        painter.setFont(fitted_font(family, s.note or "M", foot.width() - badge, note_h))
        painter.drawText(foot.adjusted(0, 0, -badge, 0), left, s.note)
        painter.end()
        self.painted = (s.time, time.monotonic_ns())

    def _key_badge(self, painter: QPainter, family: str, foot: QRect, colour: QColor) -> int:
        """The key in a framed box at the foot's right end; returns the width it took."""
        if not self.state.key:
            return 0
        size = foot.height() * 4 // 5
        font = fitted_font(family, "W", size, size * 3 // 5)
        foot = QRect(foot.left(), foot.bottom() - size, foot.width(), size)
        width = max(size, int(QFontMetricsF(font).horizontalAdvance(self.state.key)) + size // 2)
        box = QRectF(foot.right() - width, foot.top(), width, size)
        pen = painter.pen()
        pen.setColor(colour)
        pen.setWidth(max(2, size // 16))
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(box, size / 6, size / 6)
        painter.setFont(font)
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, self.state.key)
        return width + size // 4
