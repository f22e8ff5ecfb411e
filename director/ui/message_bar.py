"""A page's message strip (refused actions, confirmations) and a non-blocking question box.

Refusals are shown where the person is looking, in words from the service, and stay until the
next action or the close button; confirmations fade after a few seconds. Questions never block
the event loop (`QMessageBox.open`, not `exec`), so tests drive them like any other widget.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from director.ui.plain import plain_label, set_by_key

if TYPE_CHECKING:  # a message box's class builds its enums: made when one is shown
    from PySide6.QtWidgets import QMessageBox

INFO_SECONDS = 6


class MessageBar(QFrame):
    """One line of feedback above a page's content; hidden while there is nothing to say."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("messageBar")
        self.label = plain_label("", self)  # refusals quote names people typed
        self.label.setWordWrap(True)
        set_by_key(self.label, "textInteractionFlags", "TextSelectableByMouse")
        close = QToolButton(self)
        close.setText("✕")
        close.setAutoRaise(True)
        close.setToolTip("Hide this message")
        close.clicked.connect(self.clear)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(12, 6, 6, 6)
        layout.addWidget(self.label, 1)
        corner = QVBoxLayout()  # the close button at the top of a message of several lines
        corner.addWidget(close)
        corner.addStretch(1)
        layout.addLayout(corner)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.clear)
        self.hide()

    @property
    def text(self) -> str:
        return "" if self.isHidden() else self.label.text()

    @property
    def kind(self) -> str:
        return str(self.property("kind") or "")

    def show_error(self, text: str) -> None:
        self._show(text, "error")

    def show_info(self, text: str) -> None:
        self._show(text, "info")
        self._timer.start(INFO_SECONDS * 1000)

    def show_notice(self, text: str) -> None:
        """Calm, like a confirmation, but it stays: something to read, not a refusal."""
        self._show(text, "info")

    def _show(self, text: str, kind: str) -> None:
        self._timer.stop()
        self.setProperty("kind", kind)
        self.style().unpolish(self)  # the style sheet keys on the property: re-read it
        self.style().polish(self)
        self.label.setText(text)
        self.show()

    def clear(self) -> None:
        self._timer.stop()
        self.label.clear()
        self.hide()


class MessageHolder(QWidget):
    """A message bar with room around it, taking no room at all while the bar is hidden."""

    def __init__(self, bar: MessageBar, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 10, 16, 0)
        layout.addWidget(bar)
        self.bar = bar
        self.setVisible(not bar.isHidden())
        bar.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # ShowToParent/HideToParent: sent even while this holder is hidden
        shown, hidden = QEvent.Type.ShowToParent, QEvent.Type.HideToParent
        if watched is self.bar and event.type() in (shown, hidden):
            self.setVisible(event.type() == shown)
        return super().eventFilter(watched, event)


def ask(
    parent: QWidget,
    title: str,
    text: str,
    yes_text: str,
    on_yes: Callable[[], None],
    informative: str = "",
) -> QMessageBox:
    """Ask before a change that cannot be undone; `on_yes` runs only if the person agrees."""
    from PySide6.QtCore import Qt  # here, not at import: plain.START
    from PySide6.QtWidgets import QMessageBox

    box = QMessageBox(
        QMessageBox.Icon.Question, title, text, QMessageBox.StandardButton.NoButton, parent
    )
    box.setTextFormat(Qt.TextFormat.PlainText)  # questions name teams and players
    box.setInformativeText(informative)
    yes = box.addButton(yes_text, QMessageBox.ButtonRole.AcceptRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

    def done() -> None:
        if box.clickedButton() is yes:
            on_yes()

    box.finished.connect(done)
    box.open()
    return box
