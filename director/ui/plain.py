"""Text people typed is shown as typed: the one place widgets are given names and other text.

Qt interprets text in three ways: a label or tooltip that looks like HTML is rendered as rich
text (`R&D <Team>` shows as "R&D ", `<img src=…>` loads an image), and a button, tab, group box
or menu takes `&` for a keyboard mnemonic ("R&D" shows as "RD"). Every widget that shows a
team's, a player's or the event's name goes through one of these helpers.

START: the modules the start page loads (this one, style, message_bar, start_page,
window_parts, safe_open, waiting and main_window) take PySide6's `Qt` inside the functions
that use it, never at import, and the start page's widgets are built without it: the `Qt`
namespace is 93 enums, built the first time it is imported (18 ms, a sixth of the app's cold
start; tests/benchmarks/bench_gui.py, figure 1). They set an enum-valued property by its
key's name instead, through Qt's property system (`set_by_key`). tests/ui/test_app.py fails
when the start page's first paint builds the namespace.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QLabel, QWidget


def set_by_key(widget: QObject, name: str, key: str) -> None:
    """`set_by_key(label, "textFormat", "PlainText")` does `label.setTextFormat(
    Qt.TextFormat.PlainText)` through Qt's property system, which takes an enum's key by its
    name (flags too: "AlignLeft|AlignTop"), without PySide's `Qt` namespace (START); and a
    value Qt makes from its text, as an action's "shortcut" from "Ctrl+N"."""
    if not widget.setProperty(name, key):  # no such property, or no such key: a typo
        raise ValueError(f"{type(widget).__name__} has no {name} {key!r}")


def plain_label(text: str = "", parent: QWidget | None = None) -> QLabel:
    """A label that never interprets its text."""
    label = QLabel(parent)
    set_by_key(label, "textFormat", "PlainText")
    label.setText(text)
    return label


def esc(text: str) -> str:
    """Typed text inside a rich-text label of ours (one with <b> of its own)."""
    import html  # not at the app's start, which shows no typed text in markup

    return html.escape(text, quote=False)


def rich_label(parent: QWidget | None = None) -> QLabel:
    """A label whose text is our own markup with every typed part passed through `esc`."""
    label = QLabel(parent)
    set_by_key(label, "textFormat", "RichText")
    return label


def mnemonic_safe(text: str) -> str:
    """Text for a button, tab, group box or action: a typed `&` stays an ampersand."""
    return text.replace("&", "&&")


def tooltip(text: str) -> str:
    """A tooltip is rendered as rich text when it looks like HTML: then send it escaped."""
    if "<" not in text and "&lt;" not in text:  # what Qt's guess looks for: no Qt needed
        return text
    from PySide6.QtGui import Qt as GuiQt  # START

    return GuiQt.convertFromPlainText(text) if GuiQt.mightBeRichText(text) else text
