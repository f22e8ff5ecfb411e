"""What the app shows when no event is open: start a new one, open one, or try the demo."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSize, Signal
from PySide6.QtGui import QEnterEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from director import __version__
from director.ui.plain import plain_label, set_by_key, tooltip
from director.ui.recent import RecentEvent, RecentEvents
from director.ui.style import ACCENT, app_icon, hint, icon, page_title, section_title
from director.ui.window_parts import shown_target

PATH_ROLE = 0x0100  # Qt.ItemDataRole.UserRole, which is a plain int to setData (plain.START)


class StartPage(QWidget):
    new_requested = Signal()
    open_requested = Signal()
    demo_requested = Signal()
    connect_requested = Signal()
    recent_chosen = Signal(str)

    def __init__(self, recent: RecentEvents, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.recent = recent
        self.new_button = self._big_button(
            "New event…",
            "A Tandem, individual or knockout night: the rules, the clock, the pairings; "
            "then the entrants.",
            "action-new",
        )
        self.open_button = self._big_button(
            "Open event file…", "Continue an event saved in a .tandem file.", "action-open"
        )
        self.demo_button = self._big_button(
            "Open a demo event",
            "A simulated club night, games under way: look around freely.",
            "action-demo",
        )
        self.connect_button = QPushButton("Connect to a shared event on a server…", self)
        self.connect_button.setFlat(True)
        self.connect_button.setStyleSheet(
            f"QPushButton {{ color: {ACCENT}; border: none; padding: 4px 2px; }}"
            "QPushButton:hover { text-decoration: underline; }"
        )
        self.recent_list = QListWidget(self)
        self.recent_list.setObjectName("recentEvents")
        self.recent_list.setSpacing(2)
        self.recent_list.setMinimumWidth(360)
        self.no_recent = hint("Events you open or create appear here.", self)
        set_by_key(self.no_recent, "alignment", "AlignTop")
        self._hands_shown = False
        self.new_button.clicked.connect(self.new_requested)
        self.open_button.clicked.connect(self.open_requested)
        self.demo_button.clicked.connect(self.demo_requested)
        self.connect_button.clicked.connect(self.connect_requested)
        self.recent_list.itemActivated.connect(self._activated)
        self._lay_out()
        self.refresh()

    def _big_button(self, title: str, text: str, icon_name: str) -> QPushButton:
        """A large button with a bold title and a quieter line under it."""
        button = QPushButton(self)
        button.setProperty("role", "big")
        button.setAccessibleName(title)
        button.setMinimumHeight(78)
        picture = QLabel(button)
        picture.setPixmap(icon(icon_name).pixmap(QSize(40, 40)))
        heading = QLabel(title, button)
        heading.setStyleSheet("font-size: 12pt; font-weight: bold; color: #1b2a25;")
        words = hint(text, button)
        texts = QVBoxLayout()
        texts.setSpacing(2)
        texts.addWidget(heading)
        texts.addWidget(words)
        layout = QHBoxLayout(button)
        layout.setContentsMargins(16, 10, 16, 10)
        layout.setSpacing(14)
        layout.addWidget(picture)
        layout.addLayout(texts, 1)
        return button

    def enterEvent(self, event: QEnterEvent) -> None:
        """The pointing hand over the buttons, set when the pointer first comes onto the page
        (a cursor shape needs PySide's `Qt` namespace, which the first paint does without:
        plain.START)."""
        if not self._hands_shown:
            from PySide6.QtCore import Qt

            for button in (self.new_button, self.open_button, self.demo_button):
                button.setCursor(Qt.CursorShape.PointingHandCursor)
            self.connect_button.setCursor(Qt.CursorShape.PointingHandCursor)
            self._hands_shown = True
        super().enterEvent(event)

    def _lay_out(self) -> None:
        logo = QLabel(self)
        logo.setPixmap(app_icon().pixmap(QSize(72, 72)))
        title = page_title("Tandem Director", self)
        subtitle = hint(
            "Run a backgammon club's nights: Tandem team matches, individual matches and knockout "
            "brackets, with clocks, results, standings and the club's ratings.",
            self,
        )
        heading = QVBoxLayout()
        heading.setSpacing(2)
        heading.addStretch(1)
        heading.addWidget(title)
        heading.addWidget(subtitle)
        heading.addStretch(1)
        top = QHBoxLayout()
        top.addWidget(logo)
        top.addSpacing(14)
        top.addLayout(heading, 1)
        actions = QVBoxLayout()
        actions.setSpacing(12)
        actions.addWidget(section_title("Start", self))
        for button in (self.new_button, self.open_button, self.demo_button):
            actions.addWidget(button)
        link = QHBoxLayout()  # as wide as its words, on the left
        link.addWidget(self.connect_button)
        link.addStretch(1)
        actions.addLayout(link)
        actions.addStretch(1)
        recent = QVBoxLayout()
        recent.setSpacing(12)
        recent.addWidget(section_title("Recent events", self))
        recent.addWidget(self.recent_list)
        recent.addWidget(self.no_recent)
        recent.addStretch(1)
        columns = QHBoxLayout()
        columns.setSpacing(36)
        columns.addLayout(actions, 5)
        columns.addLayout(recent, 4)
        panel = QFrame(self)
        panel.setMaximumWidth(1100)
        inner = QVBoxLayout(panel)
        inner.setSpacing(28)
        inner.addLayout(top)
        inner.addLayout(columns, 1)
        footer = hint(
            f"Version {__version__} · F1 for help · every change is saved at once: "
            "there is no Save.",
            panel,
        )
        inner.addWidget(footer)
        outer = QHBoxLayout(self)
        outer.setContentsMargins(40, 36, 40, 24)
        outer.addStretch(1)
        outer.addWidget(panel, 10)
        outer.addStretch(1)

    def refresh(self) -> None:
        self.recent_list.clear()
        entries = self.recent.entries()
        for entry in entries:
            item = QListWidgetItem(self.recent_list)
            item.setData(PATH_ROLE, entry.path)
            item.setToolTip(tooltip(shown_target(entry.path)))  # a server's without its password
            item.setSizeHint(QSize(0, 54))
            self.recent_list.setItemWidget(item, self._entry_widget(entry))
        # the list is as tall as its entries: an empty white box would look like an error
        self.recent_list.setFixedHeight(min(len(entries), 8) * 58 + 12)
        self.recent_list.setVisible(bool(entries))
        self.no_recent.setVisible(not entries)

    def _entry_widget(self, entry: RecentEvent) -> QWidget:
        widget = QWidget(self.recent_list)
        name = plain_label(entry.name or Path(entry.path).stem, widget)  # as typed
        name.setStyleSheet("font-weight: bold;")
        shown = shown_target(entry.path)
        where = hint(shown if entry.exists else f"{shown} (file not found)", widget)
        where.setWordWrap(False)
        layout = QVBoxLayout(widget)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.setSpacing(1)
        layout.addWidget(name)
        layout.addWidget(where)
        widget.setEnabled(entry.exists)
        return widget

    def _activated(self, item: QListWidgetItem) -> None:
        self.recent_chosen.emit(str(item.data(PATH_ROLE)))
