"""The clock window of one match: both boards side by side, keys on key-down (RULES §7, §5).

What is shown is repainted from a timer (about 60 Hz) that reads each side's remaining time at
that instant; time is charged by the engine at each press, never by counting ticks, so a late
frame shows late but charges nothing wrong. A press repaints at once, without waiting for it.
"""

from __future__ import annotations

import contextlib
import logging

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QCloseEvent, QColor, QKeyEvent, QPalette, QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from director.domain.clock import BOARDS, ClockError, TimeSource
from director.domain.errors import UserError
from director.domain.event import MatchInfo
from director.domain.rules import Side
from director.services import results
from director.ui.clock.adjust import AdjustDialog
from director.ui.clock.awake import ScreenAwake
from director.ui.clock.board_view import BoardView, next_change_ns
from director.ui.clock.controller import ClockController, ClockTimes
from director.ui.clock.entries import GameEntries, PressKeys
from director.ui.clock.help import show_clock_help
from director.ui.clock.keys import KeyMap, KeyMapDialog, press_action
from director.ui.clock.sound import FlagSound
from director.ui.clock.top_bar import TopBar, move_to_screen
from director.ui.context import EventContext

log = logging.getLogger(__name__)

FRAME_MS = 16  # the display timer: about 60 frames a second
# on an inner widget, not the window: the game entries are the window's children and keep the
# app's light look
BODY_STYLE = """
QWidget#clockBody { background: #000000; }
QWidget#clockBody QLabel { color: #e8eaed; }
QLabel#title { font-size: 15pt; font-weight: bold; }
QLabel#status { color: #fbbf24; font-size: 12pt; font-weight: bold; }
QLabel#keysHint { color: #9aa3ab; font-size: 11pt; }
QPushButton { font-size: 12pt; padding: 6px 12px; }
QPushButton#start { background: #22c55e; color: #04130a; font-weight: bold; }
QPushButton#start:disabled { background: #30363c; color: #7d858c; }
"""


class ClockWindow(QWidget):
    def __init__(
        self,
        ctx: EventContext,
        match: MatchInfo,
        controller: ClockController,
        source: TimeSource,
        settings: QSettings,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.ctx, self.match, self.controller = ctx, match, controller
        self.clock, self.source, self.settings = controller.clock, source, settings
        self.keymap = KeyMap.load(settings)
        self.sound = FlagSound(self)
        self.awake = ScreenAwake()
        self.setObjectName("clockWindow")
        palette = self.palette()
        palette.setColor(QPalette.ColorRole.Window, QColor("#000000"))
        self.setPalette(palette)
        self.setAutoFillBackground(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._build()
        self.press_keys = PressKeys(lambda: self.keymap, self.perform)
        self.games = GameEntries(
            ctx, match.id, controller, self.boards, self.press_keys, self, self.show_status
        )
        self.entries = self.games.dialogs  # the open game entry of each board
        controller.changed.connect(self.refresh)
        controller.flagged.connect(self.on_flag)
        ctx.changed.connect(self.on_event_changed)
        self.timer = QTimer(self)
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(FRAME_MS)
        self.timer.timeout.connect(self.tick)
        self.timer.start()
        # and a repaint at the very instant a shown value changes, between the frames
        self.next_change = QTimer(self)
        self.next_change.setSingleShot(True)
        self.next_change.setTimerType(Qt.TimerType.PreciseTimer)
        self.next_change.timeout.connect(self.refresh)
        self.show_match_text()
        self.refresh()

    # -- layout ------------------------------------------------------------------------------

    def _build(self) -> None:
        self.top = TopBar(
            self.start,
            self.controller.toggle_pause_all,
            self.edit_keys,
            self.show_help,
            self.toggle_full,
            self.move_to_screen,
        )
        self.title, self.screens = self.top.title, self.top.screens
        self.start_button, self.pause_button = self.top.start_button, self.top.pause_button
        self.status = QLabel()
        self.status.setObjectName("status")
        self.status.setWordWrap(True)
        self.keys_hint = QLabel()
        self.keys_hint.setObjectName("keysHint")
        self.boards = (BoardView(1), BoardView(2))
        row = QHBoxLayout()
        for view in self.boards:
            view.pause_clicked.connect(self.controller.toggle_pause)
            view.record_clicked.connect(self.record_game)
            for face, side in zip(view.faces, Side, strict=True):
                face.pressed.connect(lambda n=view.board, s=side: self.press(n, s))
                face.context.connect(lambda n=view.board, s=side: self.adjust(n, s))
            row.addWidget(view, 1)
        body = QWidget(self)
        body.setObjectName("clockBody")
        body.setStyleSheet(BODY_STYLE)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(body)
        layout = QVBoxLayout(body)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.addWidget(self.top)
        layout.addWidget(self.status)
        layout.addLayout(row, 1)
        layout.addWidget(self.keys_hint)
        self.status.hide()

    def show_match_text(self) -> None:
        m = self.match
        where = f"Round {m.round}, table {m.table}" if m.round else f"Match {m.id}"
        tc = self.clock.time_control
        self.title.setText(
            f"{where}: {m.names[0]} v {m.names[1]} · pair {self.controller.pair} · {tc}"
        )
        self.setWindowTitle(f"Clocks: {m.names[0]} v {m.names[1]} – Tandem Director")
        k = self.keymap
        self.keys_hint.setText(
            f"Keys: board 1  A1 {k.name('press-1-A')} · B1 {k.name('press-1-B')}   |   "
            f"board 2  A2 {k.name('press-2-A')} · B2 {k.name('press-2-B')}   |   "
            f"{k.name('pause-all')} pause/resume all · {k.name('pause-1')}, {k.name('pause-2')} "
            f"one board · {k.name('start')} start · right-click a paused face to adjust"
        )

    # -- the display --------------------------------------------------------------------------

    def tick(self) -> None:
        self.controller.tick()
        self.refresh()

    def refresh(self) -> None:
        now = self.source()
        k = self.keymap
        waits = []
        for view in self.boards:
            n = view.board
            keys = (k.name(press_action(n, Side.A)), k.name(press_action(n, Side.B)))
            try:
                b = self.clock.board_at(n, now)
            except ClockError:  # a source read before the last action: show it next frame
                continue
            waits.append(next_change_ns(b, self.clock.time_control))
            view.show_board(
                b,
                self.clock.time_control,
                self.match,
                keys,
                k.name(f"pause-{n}"),
                n in self.controller.recorded,
            )
        soonest = min((w for w in waits if w is not None), default=None)
        if soonest is not None and soonest < FRAME_MS * 1_000_000:
            self.next_change.start(-(-soonest // 1_000_000))  # rounded up to whole ms
        running = self.controller.any_running()
        paused = any(self.clock.is_paused(n) for n in BOARDS)
        ready = self.controller.can_start()
        self.top.show_buttons(k.name("start"), k.name("pause-all"), ready, running, paused)
        self.awake.hold(running)
        writer = self.controller.writer
        problem = writer.failure if writer is not None else None
        if problem != (self.status.text() or None) and problem is not None:
            self.show_status(problem)

    def show_status(self, text: str) -> None:
        self.status.setText(text)
        self.status.setVisible(bool(text))

    # -- actions ------------------------------------------------------------------------------

    def press(self, board: int, side: Side) -> None:
        self.controller.press(board, side)

    def start(self) -> None:
        self.controller.start()

    def perform(self, action: str) -> None:
        if action.startswith("press-"):
            _, board, side = action.split("-")
            self.press(int(board), Side(side))
        elif action == "pause-all":
            if self.controller.can_start() and not self.controller.any_running():
                self.start()  # before the start, the pause key starts both boards too
            else:
                self.controller.toggle_pause_all()
        elif action.startswith("pause-"):
            self.controller.toggle_pause(int(action[-1]))
        elif action == "start":
            self.start()
        elif action == "full-screen":
            self.toggle_full()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Key-down, not key-up: the move ends when the key goes down; auto-repeat is not a
        second press."""
        if event.isAutoRepeat():
            event.accept()
            return
        ctrl = event.modifiers() & Qt.KeyboardModifier.ControlModifier
        if ctrl and event.key() in (Qt.Key.Key_1, Qt.Key.Key_2):
            event.accept()
            self.record_game(1 if event.key() == Qt.Key.Key_1 else 2)  # as at the desk
            return
        action = self.keymap.action(event.key())
        if action is not None:
            event.accept()
            self.perform(action)
        elif event.key() == Qt.Key.Key_Escape and self.isFullScreen():
            self.showNormal()
        elif event.key() == Qt.Key.Key_F1:
            self.show_help()
        else:
            super().keyPressEvent(event)

    def adjust(self, board: int, side: Side) -> None:
        if not self.clock.is_paused(board):
            self.show_status(f"Pause board {board} to adjust a time (RULES §7).")
            return
        dialog = AdjustDialog(f"{side.value}{board}", self.clock.remaining_ns(board, side), self)
        for widget in (dialog, *dialog.findChildren(QWidget)):
            widget.installEventFilter(self.press_keys)  # the other board plays on meanwhile
        if dialog.exec() == QDialog.DialogCode.Accepted and dialog.remaining_ns is not None:
            self.controller.adjust(board, side, dialog.remaining_ns)

    def edit_keys(self) -> None:
        dialog = KeyMapDialog(self.keymap, self)
        if dialog.exec() == QDialog.DialogCode.Accepted and dialog.result_map is not None:
            self.keymap = dialog.result_map
            self.keymap.save(self.settings)
            self.show_match_text()
            self.refresh()

    def show_help(self) -> None:
        show_clock_help(self)

    # -- flags and the match's games -----------------------------------------------------------

    def on_flag(self, board: int, side: str) -> None:
        self.sound.play()
        self.refresh()
        QTimer.singleShot(0, lambda: self.open_forfeit(board, Side(side)))

    def open_forfeit(self, board: int, flagged: Side) -> None:
        self.games.open_forfeit(board, flagged)

    def record_game(self, board: int) -> None:
        self.games.record_game(board)

    def on_event_changed(self, what: str) -> None:
        if what.startswith("match:") and what != f"match:{self.match.id}":
            return
        try:
            self.match = self.ctx.read(results.get_match, self.match.id)
        except UserError as exc:
            self.show_status(str(exc))
            return
        self.controller.follow(self.match)
        self.games.close_recorded(self.match)
        self.show_match_text()
        self.refresh()

    def clock_times(self, board: int) -> ClockTimes:
        return self.controller.clock_times(board)

    # -- screens ------------------------------------------------------------------------------

    def move_to_screen(self, index: int) -> None:
        move_to_screen(self, index)

    def toggle_full(self) -> None:
        if self.isFullScreen():
            self.showNormal()
        else:
            self.move_to_screen(self.screens.currentIndex())
            self.showFullScreen()

    # -- opening and closing ------------------------------------------------------------------

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.activateWindow()
        self.setFocus(Qt.FocusReason.ActiveWindowFocusReason)

    def closeEvent(self, event: QCloseEvent) -> None:
        """Closing pauses the running clocks (logged), then the log is written out."""
        self.timer.stop()
        self.next_change.stop()
        if self.controller.any_running():
            self.controller.toggle_pause_all()
        self.games.close_all()
        self.awake.release()
        if self.controller.writer is not None and not self.controller.writer.close():
            log.error("match %s: the clock log was not fully written at close", self.match.id)
        self.ctx.clock_windows.pop(self.match.id, None)
        with contextlib.suppress(RuntimeError, TypeError):  # already disconnected
            self.ctx.changed.disconnect(self.on_event_changed)
        super().closeEvent(event)
