"""A page's message strip (refused actions, confirmations) and a non-blocking question box.

Refusals are shown where the person is looking, in words from the service, and stay until the
next action or the close button; confirmations fade after a few seconds. A message floats over
the page and never moves it. Questions never block
the event loop (`QMessageBox.open`, not `exec`), so tests drive them like any other widget.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QMargins, QTimer
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from director.ui.plain import plain_label, set_by_key

if TYPE_CHECKING:  # a message box's class builds its enums: made when one is shown
    from PySide6.QtGui import QMoveEvent, QResizeEvent
    from PySide6.QtWidgets import QMessageBox

INFO_SECONDS = 6


class MessageBar(QWidget):
    """One line of feedback about a page's content, never moving it (#24 point 5: a bar that
    showed and faded pushed the round table down and back, and a click meant for one row
    landed on another). This widget is the message's place in the page's layout and takes no
    room there; the message itself (`frame`) floats over what is below that place, as wide as
    it (above it, for a place in the lower half of the page, as under a preview), so nothing
    the director is about to click moves when a message comes or goes. A click on a message
    that covers a row reaches the message, not the row."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFixedHeight(0)
        self.inset = QMargins()  # room around the message inside its place's width
        self.frame = QFrame(self)
        self.frame.setObjectName("messageBar")
        self.frame.setAutoFillBackground(True)
        self.label = plain_label("", self.frame)  # refusals quote names people typed
        self.label.setWordWrap(True)
        set_by_key(self.label, "textInteractionFlags", "TextSelectableByMouse")
        close = QToolButton(self.frame)
        close.setText("✕")
        close.setAutoRaise(True)
        close.setToolTip("Hide this message")
        close.clicked.connect(self.clear)
        layout = QHBoxLayout(self.frame)
        layout.setContentsMargins(12, 6, 6, 6)
        layout.addWidget(self.label, 1)
        corner = QVBoxLayout()  # the close button at the top of a message of several lines
        corner.addWidget(close)
        corner.addStretch(1)
        layout.addLayout(corner)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.clear)
        self.frame.hide()

    @property
    def text(self) -> str:
        return "" if self.frame.isHidden() else self.label.text()

    @property
    def kind(self) -> str:
        return str(self.property("kind") or "")

    def isVisible(self) -> bool:  # whether a message is shown (the place itself always is)
        return self.frame.isVisible()

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
        self.frame.setProperty("kind", kind)
        self.frame.style().unpolish(self.frame)  # the style sheet keys on the property
        self.frame.style().polish(self.frame)
        self.label.setText(text)
        self._place()
        self.frame.show()
        self.frame.raise_()

    def _place(self) -> None:
        """Over the page, from this place down (or up to it, in the page's lower half)."""
        host = self.parentWidget()
        if host is None:
            return
        if self.frame.parentWidget() is not host:  # a layout gave this place to another widget
            self.frame.setParent(host)
        area = self.geometry().marginsRemoved(self.inset)
        width = max(area.width(), 1)
        layout = self.frame.layout()
        height = layout.totalHeightForWidth(width) if layout is not None else -1
        if height < 0:  # (its size hint wraps at a width of its own)
            height = self.frame.sizeHint().height()
        top = area.top()
        if self.geometry().top() > host.height() // 2:
            top = self.geometry().top() - height - self.inset.bottom()
        top = max(0, min(top, host.height() - height))
        self.frame.setGeometry(area.left(), top, width, height)

    def moveEvent(self, event: QMoveEvent) -> None:
        super().moveEvent(event)
        if not self.frame.isHidden():
            self._place()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if not self.frame.isHidden():
            self._place()

    def clear(self) -> None:
        self._timer.stop()
        self.label.clear()
        self.frame.hide()


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
