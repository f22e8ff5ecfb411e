"""The clock window's top bar: the match on its own line (never cut), then start and pause-all,
the set-up menu (key test, flat view, board 2's own window, low-time warning), keys, help and
the screen choice."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QVBoxLayout,
    QWidget,
)


def button(text: str, name: str, slot: Callable[[], object]) -> QPushButton:
    """A button that never takes the keyboard: every key belongs to the clocks."""
    made = QPushButton(text)
    made.setObjectName(name)
    made.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    made.clicked.connect(slot)
    return made


class TopBar(QWidget):
    def __init__(
        self,
        start: Callable[[], object],
        pause_all: Callable[[], object],
        edit_keys: Callable[[], object],
        show_help: Callable[[], object],
        toggle_full: Callable[[], object],
        choose_screen: Callable[[int], object],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.title = QLabel()
        self.title.setObjectName("title")
        self.title.setTextFormat(Qt.TextFormat.PlainText)  # team names are typed by people
        self.title.setWordWrap(True)  # a long match title wraps, it is never cut
        self.score = QLabel()  # the match score and away scores (the title has the names)
        self.score.setObjectName("score")
        self.score.setTextFormat(Qt.TextFormat.PlainText)
        self.start_button = button("", "start", start)
        self.pause_button = button("", "pauseAll", pause_all)
        self.keys_button = button("Keys…", "keys", edit_keys)
        self.help_button = button("Help", "help", show_help)
        self.help_button.setToolTip("F1")
        self.setup_button = button("Set-up ▾", "setup", lambda: None)
        self.setup_menu = QMenu(self.setup_button)
        self.key_test_action = self._checkable("Key test before the start")
        self.flat_action = self._checkable("Flat screen: faces turned to the players")
        self.board2_action = self._checkable("Board 2 in its own window (second screen)")
        self.low_time_action = self._checkable("Warn at 10 s left")
        self.setup_menu.addSeparator()
        self.log_action = self.setup_menu.addAction("Clock log (for a dispute)…")
        self.setup_button.setMenu(self.setup_menu)
        self.full_button = button("Full screen (F11)", "fullScreen", toggle_full)
        self.full_button.setToolTip("F11; Esc leaves full screen")
        self.screens = QComboBox()
        self.screens.setObjectName("screens")
        self.screens.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.screens.setToolTip("The screen the clocks go full screen on")
        self.screens.activated.connect(choose_screen)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.title)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        column.addLayout(row)
        for w in (self.start_button, self.pause_button):
            row.addWidget(w)
        row.addStretch(1)
        row.addWidget(self.score)
        row.addStretch(1)
        for w in (self.setup_button, self.keys_button, self.help_button):
            row.addWidget(w)
        row.addWidget(self.screens)
        row.addWidget(self.full_button)
        self.fill_screens()

    def _checkable(self, text: str) -> QAction:
        action = QAction(text, self.setup_menu)
        action.setCheckable(True)
        self.setup_menu.addAction(action)
        return action

    def fill_screens(self) -> None:
        """Every screen by name and size; the list shows only when there is a choice."""
        self.screens.clear()
        for screen in QGuiApplication.screens():
            size = screen.geometry().size()
            self.screens.addItem(f"{screen.name()} {size.width()}×{size.height()}")
        self.screens.setVisible(self.screens.count() > 1)

    def show_buttons(
        self,
        start_key: str,
        pause_key: str,
        ready: bool,
        running: bool,
        paused: bool,
        one_board: bool = False,
    ) -> None:
        self.start_button.setText(f"Start ({start_key})")
        self.start_button.setEnabled(ready)
        verb = "Resume" if paused and not running else "Pause"
        every = "" if one_board else " all"  # one board (RULES §10): nothing else to pause
        self.pause_button.setText(f"{verb}{every} ({pause_key})")
        self.pause_button.setEnabled(running or paused)


def move_to_screen(window: QWidget, index: int) -> None:
    """Put the window on screen `index` (full screen stays full screen, on the new screen)."""
    screens = QGuiApplication.screens()
    if not 0 <= index < len(screens):
        return
    full = window.isFullScreen()
    if full:
        window.showNormal()
    window.setScreen(screens[index])
    window.setGeometry(screens[index].availableGeometry())
    if full:
        window.showFullScreen()
