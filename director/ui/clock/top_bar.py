"""The clock window's top bar: the match, start and pause-all, keys, help, screen choice."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QWidget


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
        self.title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.start_button = button("", "start", start)
        self.pause_button = button("", "pauseAll", pause_all)
        self.keys_button = button("Keys…", "keys", edit_keys)
        self.help_button = button("Help", "help", show_help)
        self.help_button.setToolTip("F1")
        self.full_button = button("Full screen", "fullScreen", toggle_full)
        self.full_button.setToolTip("F11; Esc leaves full screen")
        self.screens = QComboBox()
        self.screens.setObjectName("screens")
        self.screens.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.screens.setToolTip("The screen the clocks go full screen on")
        self.screens.activated.connect(choose_screen)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.title, 1)
        for w in (self.start_button, self.pause_button, self.keys_button, self.help_button):
            row.addWidget(w)
        row.addWidget(self.screens)
        row.addWidget(self.full_button)
        self.fill_screens()

    def fill_screens(self) -> None:
        """Every screen by name and size; the list shows only when there is a choice."""
        self.screens.clear()
        for screen in QGuiApplication.screens():
            size = screen.geometry().size()
            self.screens.addItem(f"{screen.name()} {size.width()}×{size.height()}")
        self.screens.setVisible(self.screens.count() > 1)

    def show_buttons(
        self, start_key: str, pause_key: str, ready: bool, running: bool, paused: bool
    ) -> None:
        self.start_button.setText(f"Start ({start_key})")
        self.start_button.setEnabled(ready)
        verb = "Resume" if paused and not running else "Pause"
        self.pause_button.setText(f"{verb} all ({pause_key})")
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
