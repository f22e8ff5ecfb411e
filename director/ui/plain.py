"""Text people typed is shown as typed: the one place widgets are given names and other text.

Qt interprets text in three ways: a label or tooltip that looks like HTML is rendered as rich
text (`R&D <Team>` shows as "R&D ", `<img src=…>` loads an image), and a button, tab, group box
or menu takes `&` for a keyboard mnemonic ("R&D" shows as "RD"). Every widget that shows a
team's, a player's or the event's name goes through one of these helpers.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import QLabel, QWidget


def plain_label(text: str = "", parent: QWidget | None = None) -> QLabel:
    """A label that never interprets its text."""
    label = QLabel(parent)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setText(text)
    return label


def esc(text: str) -> str:
    """Typed text inside a rich-text label of ours (one with <b> of its own)."""
    import html  # not at the app's start, which shows no typed text in markup

    return html.escape(text, quote=False)


def rich_label(parent: QWidget | None = None) -> QLabel:
    """A label whose text is our own markup with every typed part passed through `esc`."""
    label = QLabel(parent)
    label.setTextFormat(Qt.TextFormat.RichText)
    return label


def mnemonic_safe(text: str) -> str:
    """Text for a button, tab, group box or action: a typed `&` stays an ampersand."""
    return text.replace("&", "&&")


def tooltip(text: str) -> str:
    """A tooltip is rendered as rich text when it looks like HTML: then send it escaped."""
    return GuiQt.convertFromPlainText(text) if GuiQt.mightBeRichText(text) else text
