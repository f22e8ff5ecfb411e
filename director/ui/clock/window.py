"""The clock window of one match: both boards side by side, keys on key-down (RULES §7, §5).

What is shown is repainted from a timer (about 60 Hz) that reads each side's remaining time at
that instant; time is charged by the engine at each press, never by counting ticks, so a late
frame shows late but charges nothing wrong. A press repaints at once, without waiting for it.
"""

from __future__ import annotations

import contextlib
import logging

from PySide6.QtCore import QEvent, QSettings, Qt, QTimer
from PySide6.QtGui import QCloseEvent, QColor, QFontDatabase, QPalette, QShowEvent
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from director.domain.changes import Changes
from director.domain.clock import ClockError, Phase, TimeSource
from director.domain.errors import UserError
from director.domain.event import MatchInfo
from director.domain.rules import Side
from director.domain.wording import isolated
from director.services import clocks, matches
from director.ui.clock.adjust import AdjustDialog
from director.ui.clock.awake import ScreenAwake
from director.ui.clock.board_view import BoardView, Showing, next_change_ns
from director.ui.clock.controller import ClockController, ClockTimes
from director.ui.clock.entries import GameEntries
from director.ui.clock.help import show_clock_help
from director.ui.clock.input import ClockInput
from director.ui.clock.keys import KeyMap, KeyMapDialog, press_action
from director.ui.clock.sound import FlagAlarm, FlagSound
from director.ui.clock.top_bar import TopBar, move_to_screen
from director.ui.context import EventContext
from director.ui.desk.scoreline import away_text
from director.ui.plain import tooltip

log = logging.getLogger(__name__)

FRAME_MS = 16  # the display timer: about 60 frames a second
LOW_WARNING_NS = 10 * 1_000_000_000  # the optional low-time warning
# on an inner widget, not the window: the game entries are the window's children and keep the
# app's light look
BODY_STYLE = """
QWidget#clockBody { background: #000000; }
QWidget#clockBody QLabel { color: #e8eaed; }
QLabel#title { font-size: 15pt; font-weight: bold; }
QLabel#status { color: #fbbf24; font-size: 12pt; font-weight: bold; }
QLabel#noKeys { background: #b91c1c; color: #ffffff; font-size: 18pt; font-weight: bold;
    padding: 8px; border-radius: 6px; }
QLabel#keysHint { color: #9aa3ab; font-size: 11pt; }
QLabel#score { font-size: 15pt; font-weight: bold; color: #fde68a; }
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
        self.alarm = FlagAlarm(self.sound, self)
        warn_s = settings.value("clock/low-time-warning-s", 0, int)
        self.alarm.low_ns = (warn_s if isinstance(warn_s, int) else 0) * 10**9
        self.alarm.changed.connect(self.refresh)
        self.key_test: dict[int, set[Side]] | None = None  # the key test before the start
        self.flat = False
        self.board2_screen: QWidget | None = None
        self.awake = ScreenAwake()
        self.setObjectName("clockWindow")
        palette = self.palette()
        palette.setColor(QPalette.ColorRole.Window, QColor("#000000"))
        self.setPalette(palette)
        self.setAutoFillBackground(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._build()
        self.input = ClockInput(
            self.members,
            lambda: self.keymap,
            self.perform,
            self.record_game,
            self.window_key,
            source,
        )
        self.games = GameEntries(ctx, match.id, controller, self.boards, self, self.show_status)
        self.entries = self.games.dialogs  # the open game entry of each board
        controller.changed.connect(self.on_clock_changed)
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
        self.top.low_time_action.setChecked(self.alarm.low_ns > 0)
        if settings.value("clock/flat", False, bool):
            self.set_flat(True)
        self.show_match_text()
        self.refresh()

    # -- layout ------------------------------------------------------------------------------

    def _build(self) -> None:
        self.top = TopBar(
            self.start,
            lambda: self.perform("pause-all"),
            self.edit_keys,
            self.show_help,
            self.toggle_full,
            self.move_to_screen,
        )
        self.top.key_test_action.triggered.connect(self.toggle_key_test)
        self.top.flat_action.toggled.connect(self.set_flat)
        self.top.board2_action.toggled.connect(self.set_board2_window)
        self.top.board2_action.setVisible(not self.one_board)  # no board 2 to move (§10)
        self.top.low_time_action.toggled.connect(self.set_low_time_warning)
        self.top.log_action.triggered.connect(self.show_log)
        self.title, self.screens = self.top.title, self.top.screens
        self.start_button, self.pause_button = self.top.start_button, self.top.pause_button
        self.status = QLabel()
        self.status.setObjectName("status")
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.no_keys = QLabel()
        self.no_keys.setObjectName("noKeys")
        self.no_keys.setWordWrap(True)
        self.no_keys.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.no_keys.setTextFormat(Qt.TextFormat.PlainText)
        self.no_keys.hide()
        self.keys_hint = QLabel()
        self.keys_hint.setObjectName("keysHint")
        self.keys_hint.setWordWrap(True)  # every hint shown on a 1280-pixel screen: it wraps
        self.boards = (BoardView(1), BoardView(2))
        row = QHBoxLayout()
        for view in self.boards:
            view.pause_clicked.connect(self.pause_board)
            view.silence_clicked.connect(self.alarm.acknowledge)
            view.record_clicked.connect(self.record_game)
            for face, side in zip(view.faces, Side, strict=True):
                face.pressed.connect(
                    lambda stamp, n=view.board, s=side: self.press(n, s, self.input.time.at(stamp))
                )
                face.menu_requested.connect(lambda n=view.board, s=side: self.adjust(n, s))
            row.addWidget(view, 1)
        self.board_row = row
        body = QWidget(self)
        body.setObjectName("clockBody")
        body.setStyleSheet(BODY_STYLE)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(body)
        layout = QVBoxLayout(body)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.addWidget(self.top)
        layout.addWidget(self.no_keys)
        layout.addWidget(self.status)
        layout.addLayout(row, 1)
        layout.addWidget(self.keys_hint)
        self.status.hide()

    @property
    def one_board(self) -> bool:
        """A match of one board (RULES §10): its words name no board and no seat number."""
        return len(self.clock.boards) == 1

    def _board(self, board: int) -> str:
        return "the clock" if self.one_board else f"board {board}"

    def _where(self, board: int, word: str) -> str:
        """'Board 2: restore', or 'Restore' where the match has one board."""
        return word if self.one_board else f"Board {board}: {word.lower()}"

    def _seat(self, side: Side, board: int) -> str:
        return side.value if self.one_board else f"{side.value}{board}"

    def _versus(self) -> str:
        """ "A v B", each name isolated for the bidi algorithm (a window title, a heading)."""
        return " v ".join(isolated(name) for name in self.match.names)

    def show_match_text(self) -> None:
        m = self.match
        where = f"Round {m.round}, table {m.table}" if m.round else f"Match {m.id}"
        tc = self.clock.time_control
        a, b = (isolated(name) for name in m.names)  # a right-to-left name stays in its place
        record = m.rules.event_format
        clock = (  # one reserve for the whole match (RULES §10), or a game's clock (§7)
            f"reserve {tc.words()}, paused between games" if record.match_clock else f"{tc}"
        )
        self.title.setText(f"{where}: {a} v {b} · {record.unit} {self.controller.pair} · {clock}")
        self.title.setToolTip(tooltip(self.title.text()))
        score = m.outcome.score
        self.top.score.setText(
            f"Score  A {score[Side.A]} – {score[Side.B]} B   ·   "
            f"A {away_text(m, Side.A)}, B {away_text(m, Side.B)}"
        )
        self.setWindowTitle(
            f"{'Match clock' if record.one_board else 'Clocks'}: {a} v {b} – Tandem Director"
        )
        k = self.keymap
        if record.one_board:
            self.keys_hint.setText(
                f"Keys: A {k.name('press-1-A')} · B {k.name('press-1-B')}   |   "
                f"{k.name('pause-all')} pause/resume · {k.name('start')} start · Alt+1 record "
                "a game · right-click a paused face to adjust"
            )
            return
        self.keys_hint.setText(
            f"Keys: board 1  A1 {k.name('press-1-A')} · B1 {k.name('press-1-B')}   |   "
            f"board 2  A2 {k.name('press-2-A')} · B2 {k.name('press-2-B')}   |   "
            f"{k.name('pause-all')} pause/resume all · {k.name('pause-1')}, {k.name('pause-2')} "
            f"one board · {k.name('start')} start · Alt+1, Alt+2 record a game · "
            "right-click a paused face to adjust"
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
            view.setVisible(n in self.clock.boards)  # the match's boards: its format's
            if n not in self.clock.boards:
                continue
            keys = (k.name(press_action(n, Side.A)), k.name(press_action(n, Side.B)))
            try:
                b = self.clock.board_at(n, now)
            except ClockError:  # a source read before the last action: show it next frame
                continue
            waits.append(next_change_ns(b, self.clock.time_control))
            tested = None if self.key_test is None else frozenset(self.key_test[n])
            showing = Showing(self.alarm.flashing(n), self.flat, tested)
            view.show_board(
                b,
                self.clock.time_control,
                self.match,
                keys,
                k.name(f"pause-{n}"),
                n in self.controller.recorded,
                showing,
                n in self.alarm.sounding,
            )
            if b.on_move is not None:
                side = b.side(b.on_move)
                running = b.phase is Phase.RUNNING
                self.alarm.low_time(n, b.on_move.value, side.remaining_ns, running)
        soonest = min((w for w in waits if w is not None), default=None)
        if soonest is not None and soonest < FRAME_MS * 1_000_000:
            self.next_change.start(-(-soonest // 1_000_000))  # rounded up to whole ms
        running = self.controller.any_running()
        paused = any(self.clock.is_paused(n) for n in self.clock.boards)
        ready = self.controller.can_start()
        self.top.show_buttons(
            k.name("start"), k.name("pause-all"), ready, running, paused, self.one_board
        )
        self.top.keys_button.setEnabled(not running)  # the key editor takes every key
        self.top.full_button.setText(
            "Leave full screen (F11)" if self.isFullScreen() else "Full screen (F11)"
        )
        self.show_key_owner()
        self.awake.hold(running)
        writer = self.controller.writer
        problem = writer.problem if writer is not None else None
        if problem != (self.status.text() or None) and problem is not None:
            self.show_status(problem)

    def show_status(self, text: str) -> None:
        """A message about the clocks as they are now: the next change of the clocks clears it
        (a writer failure is shown again while it lasts)."""
        self.status.setText(text)
        self.status.setVisible(bool(text))

    def on_clock_changed(self) -> None:
        self.show_status("")
        self.refresh()

    def members(self) -> tuple[QWidget, ...]:
        """The windows whose keys are this match's clock keys."""
        return (self,) if self.board2_screen is None else (self, self.board2_screen)

    def receives_keys(self) -> bool:
        active = QApplication.activeWindow()
        return active is not None and self.input.owner(active) is not None

    def show_key_owner(self) -> None:
        """Unmistakable when the keys go elsewhere (and where): a dead key decides games."""
        if self.receives_keys() or not self.isVisible():
            self.no_keys.hide()
            return
        active = QApplication.activeWindow()
        where = f"“{active.windowTitle()}”" if active is not None else "another program"
        text = f"KEYS DO NOT REACH THESE CLOCKS: they go to {where}. Click here to take them."
        if text != self.no_keys.text():
            self.no_keys.setText(text)
        self.no_keys.show()

    # -- actions ------------------------------------------------------------------------------

    def press(self, board: int, side: Side, at: int | None = None) -> None:
        self.controller.press(board, side, at)

    def start(self, at: int | None = None) -> None:
        self.controller.start(at)

    def perform(self, action: str, at: int | None = None) -> None:
        """A key's action at the instant the key went down."""
        if self.key_test is not None:
            self.test_key(action)
            return
        if action.startswith("press-"):
            _, board, side = action.split("-")
            self.press(int(board), Side(side), at)
        elif action == "pause-all":
            if self.controller.can_start() and not self.controller.any_running():
                self.start(at)  # before the start, the pause key starts both boards too
            elif not self.controller.toggle_pause_all(at) and self.controller.paused_alone():
                alone = self.controller.paused_alone()
                keys = ", ".join(self.keymap.name(f"pause-{n}") for n in alone)
                boards = " and ".join(str(n) for n in alone)
                self.show_status(
                    f"The clock was paused with its own key ({keys}): that key resumes it."
                    if self.one_board
                    else f"Board {boards} was paused alone: its own key ({keys}) resumes it."
                )
        elif action.startswith("pause-"):
            self.pause_board(int(action[-1]), at)
        elif action == "start":
            self.start(at)
        elif action == "full-screen":
            self.toggle_full()

    # -- the key test, the flat view and board 2's own window -------------------------------

    def toggle_key_test(self) -> None:
        """Before the start: each player presses their key and sees their own face light up;
        nothing reaches the clocks. Return (or the button) ends it."""
        if self.key_test is None and self.controller.any_running():
            self.show_status("The key test is for before the start: pause the clocks first.")
            return
        self.key_test = None if self.key_test is not None else {n: set() for n in self.clock.boards}
        self.top.key_test_action.setChecked(self.key_test is not None)
        if self.key_test is not None:
            k = self.keymap
            pauses = [f"pause-{n}" for n in self.clock.boards] + ["pause-all"]
            self.show_status(
                "Key test: every player presses their key; pause keys "
                f"{', '.join(k.name(p) for p in pauses)} are named here. "
                f"{k.name('start')} ends the test."
            )
        else:
            self.show_status("")
        self.refresh()

    def test_key(self, action: str) -> None:
        assert self.key_test is not None
        if action.startswith("press-"):
            _, board, side = action.split("-")
            self.key_test[int(board)].add(Side(side))
        elif action.startswith("pause-"):
            which = "both boards" if action == "pause-all" else f"board {action[-1]}"
            which = "the clock" if self.one_board else which
            self.show_status(f"Key test: {self.keymap.name(action)} pauses {which}: it works.")
        elif action == "start":
            self.toggle_key_test()
            return
        self.refresh()

    def set_flat(self, flat: bool) -> None:
        """A tablet or a screen lying flat between the teams: in each board B's face is on top,
        turned towards B's player, and A's face is below it, the right way up for A."""
        self.flat = flat
        self.top.flat_action.setChecked(flat)
        for view in self.boards:
            view.set_flat(flat)
        self.settings.setValue("clock/flat", flat)
        self.refresh()

    def set_board2_window(self, on: bool) -> None:
        """Board 2 in a window of its own, on the last screen (a second screen or projector
        for the second board); its keys and taps drive this window's clocks."""
        if on and self.board2_screen is None:
            screen = QWidget(self, Qt.WindowType.Window)
            screen.setObjectName("board2Window")
            screen.setWindowTitle(f"Board 2: {self._versus()}")
            screen.setStyleSheet("QWidget#board2Window { background: #000000; }")
            QVBoxLayout(screen).addWidget(self.boards[1])
            self.board2_screen = screen
            last = len(QApplication.screens()) - 1
            move_to_screen(screen, last)
            screen.show()
        elif not on and self.board2_screen is not None:
            self.board_row.addWidget(self.boards[1], 1)
            self.board2_screen.close()
            self.board2_screen.deleteLater()
            self.board2_screen = None
        self.top.board2_action.setChecked(self.board2_screen is not None)
        self.refresh()

    def set_low_time_warning(self, on: bool) -> None:
        self.alarm.low_ns = LOW_WARNING_NS if on else 0
        self.settings.setValue("clock/low-time-warning-s", LOW_WARNING_NS // 10**9 if on else 0)

    def pause_board(self, board: int, at: int | None = None) -> None:
        b = self.clock.state.board(board)
        if not self.controller.toggle_pause(board, at) and b.flagged is not None:
            if board in self.controller.recorded:
                whose = "The" if self.one_board else f"Board {board}'s"
                self.show_status(f"{whose} game is recorded: correct it at the desk.")
            else:
                self.show_status(
                    f"{self._where(board, 'Restore')} {self._seat(b.flagged, board)}'s time "
                    "(right-click the face) before resuming."
                )

    def window_key(self, key: int) -> bool:
        """The window's own keys besides the clock keys; True when used."""
        if key == Qt.Key.Key_Escape and self.isFullScreen():
            self.showNormal()
            self.refresh()
            return True
        if key == Qt.Key.Key_F1:
            self.show_help()
            return True
        return False

    def adjust(self, board: int, side: Side) -> None:
        if not self.clock.is_paused(board):
            if self.controller.can_correct(board):
                self.show_status(
                    f"Pause {self._board(board)} ({self.keymap.name(f'pause-{board}')}) "
                    "to correct its flag."
                )
            else:
                self.show_status(f"Pause {self._board(board)} to adjust a time (RULES §7).")
            return
        before = self.clock.remaining_ns(board, side)
        dialog = AdjustDialog(self._seat(side, board), before, self)
        if dialog.exec() != QDialog.DialogCode.Accepted or dialog.remaining_ns is None:
            return
        was_flagged = self.clock.state.board(board).flagged
        event = self.controller.adjust(board, side, dialog.remaining_ns, dialog.reason())
        if event is None:
            return
        try:
            self.ctx.change(
                clocks.record_adjustment,
                self.match.id,
                board,
                side,
                before,
                dialog.remaining_ns,
                event.t_ns,
                dialog.reason(),
            )
        except UserError as exc:
            self.show_status(f"The adjustment is in the clock log, not in the audit: {exc}")
        if was_flagged is not None and self.clock.state.board(board).flagged is None:
            self.games.close_board(board)  # the flag was lifted: no forfeit to enter
            self.alarm.acknowledge(board)
            self.show_status(
                f"{self._where(board, 'Flag')} lifted; "
                f"{self.keymap.name(f'pause-{board}')} resumes it."
            )

    def key_dialog(self) -> KeyMapDialog:
        """The key editor for this match's boards."""
        return KeyMapDialog(self.keymap, self, one_board=self.one_board)

    def edit_keys(self) -> None:
        dialog = self.key_dialog()
        if dialog.exec() == QDialog.DialogCode.Accepted and dialog.result_map is not None:
            self.keymap = dialog.result_map
            self.keymap.save(self.settings)
            self.show_match_text()
            self.refresh()

    def show_log(self) -> QDialog:
        """The match's clock log as `clock-log` prints it, for a dispute at the table."""
        writer = self.controller.writer
        if writer is not None:
            writer.flush(2.0)
        try:
            lines = self.ctx.read(clocks.match_clock_log, self.match.id)
            text = "\n".join(clocks.log_line_text(line) for line in lines)
        except UserError as exc:
            text = str(exc)
        dialog = QDialog(self)
        dialog.setObjectName("clockLog")
        dialog.setWindowTitle(f"Clock log: {self._versus()}")
        view = QPlainTextEdit(text or "No clock log yet.")
        view.setObjectName("log")
        view.setReadOnly(True)
        view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        QVBoxLayout(dialog).addWidget(view)
        dialog.resize(900, 560)
        dialog.show()
        return dialog

    def show_help(self) -> None:
        show_clock_help(self)

    # -- flags and the match's games -----------------------------------------------------------

    def on_flag(self, board: int, side: str) -> None:
        self.alarm.raise_flag(board)
        self.refresh()
        QTimer.singleShot(0, lambda: self.open_forfeit(board, Side(side)))

    def open_forfeit(self, board: int, flagged: Side) -> None:
        self.games.open_forfeit(board, flagged)

    def record_game(self, board: int) -> None:
        self.games.record_game(board)

    def on_event_changed(self, changes: Changes) -> None:
        if not changes.concerns(self.match.id):
            return
        try:
            self.match = self.ctx.read(matches.get_match, self.match.id)
        except UserError as exc:
            self.show_status(str(exc))
            return
        self.controller.follow(self.match)
        self.games.close_recorded(self.match)
        over = set() if self.match.pair_state.match_live else set(self.clock.boards)
        for n in self.controller.recorded | over:
            if n in self.alarm.sounding:
                self.alarm.acknowledge(n)  # the flagged game is recorded: the alarm is done
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
        self.refresh()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.WindowStateChange, QEvent.Type.ActivationChange):
            self.refresh()  # the full-screen label and whether the keys reach us

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
        self.input.stop()
        self.alarm.acknowledge()
        if self.board2_screen is not None:
            self.set_board2_window(False)
        self.awake.release()
        if self.controller.writer is not None and not self.controller.writer.close():
            log.error("match %s: the clock log was not fully written at close", self.match.id)
        self.ctx.clock_windows.pop(self.match.id, None)
        with contextlib.suppress(RuntimeError, TypeError):  # already disconnected
            self.ctx.changed.disconnect(self.on_event_changed)
        super().closeEvent(event)
