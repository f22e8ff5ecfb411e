"""The app's look: one palette, one style sheet, the icons, and a few labelled building blocks.

Pages use these helpers instead of styling widgets one by one, so spacing and typography stay
the same everywhere and change in one place.
"""

from __future__ import annotations

import contextlib
import os
from functools import cache
from typing import TYPE_CHECKING

from PySide6.QtCore import QSize
from PySide6.QtGui import QColor, QIcon, QPalette
from PySide6.QtWidgets import QApplication, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from director.resources import resource_path
from director.ui.plain import plain_label

if TYPE_CHECKING:
    from PySide6.QtGui import QFont

ACCENT = "#1d5c4a"
ACCENT_LIGHT = "#dcebe5"
ERROR = "#b3261e"
ERROR_BACKGROUND = "#fbe9e7"
HINT = "#5b6661"
SURFACE = "#f5f7f6"
BORDER = "#d5dcd9"

STYLE_SHEET = f"""
QListWidget#navigation {{
    background: {SURFACE};
    border: none;
    outline: none;
    padding-top: 6px;
}}
QListWidget#navigation::item {{
    padding: 0px 10px;
    margin: 1px 0px;
    border-radius: 6px;
    color: #22302b;
}}
QListWidget#navigation::item:selected {{
    background: {ACCENT_LIGHT};
    color: {ACCENT};
    font-weight: bold;
}}
QListWidget#navigation::item:hover:!selected {{ background: #e9eeec; }}
QWidget#navigationPanel {{ background: {SURFACE}; border-right: 1px solid {BORDER}; }}
QLabel[role="page-title"] {{ font-size: 20pt; font-weight: bold; color: #1b2a25; }}
QLabel[role="section"] {{ font-size: 12pt; font-weight: bold; color: #1b2a25; }}
QLabel[role="hint"] {{ color: {HINT}; }}
QLabel[role="error"] {{ color: {ERROR}; }}
QLabel[role="counts"] {{ color: {HINT}; font-size: 11pt; }}
QListWidget#recentEvents {{ border: 1px solid {BORDER}; border-radius: 8px; background: white;
    padding: 4px; }}
QListWidget#recentEvents::item {{ padding: 4px 8px; border-radius: 6px; }}
QListWidget#recentEvents::item:selected {{ background: {ACCENT_LIGHT}; color: #111; }}
QFrame#messageBar[kind="error"] {{
    background: {ERROR_BACKGROUND}; border: 1px solid #f1b8b2; border-radius: 6px;
}}
QFrame#messageBar[kind="info"] {{
    background: {ACCENT_LIGHT}; border: 1px solid #b5d3c7; border-radius: 6px;
}}
QPushButton[role="primary"] {{
    background: {ACCENT}; color: white; border: 1px solid {ACCENT}; border-radius: 5px;
    padding: 6px 16px; font-weight: bold;
}}
QPushButton[role="primary"]:hover {{ background: #247158; }}
QPushButton[role="primary"]:disabled {{ background: #9fb9af; border-color: #9fb9af; }}
QPushButton[role="big"] {{
    text-align: left; padding: 14px 18px; font-size: 12pt; border: 1px solid {BORDER};
    border-radius: 8px; background: white;
}}
QPushButton[role="big"]:hover {{ border-color: {ACCENT}; background: #f3f8f6; }}
QDialogButtonBox {{ dialogbuttonbox-buttons-have-icons: 0; }}
QTableView {{ gridline-color: #e4e9e7; selection-background-color: {ACCENT_LIGHT};
    selection-color: #111; }}
QHeaderView::section {{ padding: 5px 6px; font-weight: bold; background: {SURFACE};
    border: none; border-bottom: 1px solid {BORDER}; border-right: 1px solid #e4e9e7; }}
"""


def apply_style(app: QApplication, made_with_fusion: bool = False) -> None:
    """Fusion everywhere (the same look on Windows, macOS and Linux) with the house colours.
    `made_with_fusion`: the application was made with Qt's `-style Fusion` option, as
    `create_application` does (setStyle returns the style, and PySide's wrapper of it builds
    its 11 enums: 6 ms of the start page, plain.START)."""
    if not made_with_fusion:
        app.setStyle("Fusion")
    palette = app.palette()
    palette.setColor(QPalette.ColorRole.Highlight, QColor(ACCENT))
    palette.setColor(QPalette.ColorRole.HighlightedText, QColor("white"))
    palette.setColor(QPalette.ColorRole.Link, QColor(ACCENT))
    palette.setColor(QPalette.ColorRole.Window, QColor("#fbfcfb"))
    palette.setColor(QPalette.ColorRole.AlternateBase, QColor("#f4f7f6"))
    app.setPalette(palette)
    app.setStyleSheet(STYLE_SHEET)


@cache
def icon(name: str) -> QIcon:
    """An icon of resources/icons, from the PNGs its SVG is rendered to at the sizes the app
    shows it (scripts/render_icons.py): Qt draws a PNG itself, where an SVG loads the SVG
    icon engine and renders the drawing, 10 ms of the start page. Qt picks the rendering
    for the size and the screen's density. An empty icon when there is none."""
    shown = QIcon()
    for size, path in _renderings().get(name, ()):
        shown.addFile(path, QSize(size, size))
    return shown


@cache
def _renderings() -> dict[str, list[tuple[int, str]]]:
    """Each icon's renderings, NAME-SIZE.png, by name (one listing of the folder: a pattern
    for each icon, as `Path.glob` makes, took 1 ms to compile)."""
    found: dict[str, list[tuple[int, str]]] = {}
    with contextlib.suppress(FileNotFoundError):
        for entry in os.scandir(resource_path("icons", "rendered")):
            name, _, size = entry.name.removesuffix(".png").rpartition("-")
            if entry.name.endswith(".png") and size.isdigit():
                found.setdefault(name, []).append((int(size), entry.path))
    return found


def app_icon() -> QIcon:
    return icon("tandem-director")


def _label(text: str, role: str, parent: QWidget | None = None) -> QLabel:
    label = plain_label(text, parent)  # titles, hints and refusals quote names and file names
    label.setProperty("role", role)
    return label


def page_title(text: str, parent: QWidget | None = None) -> QLabel:
    return _label(text, "page-title", parent)


def page_header(title: str, summary: QWidget, page: QWidget) -> QHBoxLayout:
    """A page's title with its one-line summary beside it; callers add their own tools."""
    from PySide6.QtCore import Qt  # here, not at import: plain.START

    top = QHBoxLayout()
    top.addWidget(page_title(title, page))
    top.addSpacing(16)
    top.addWidget(summary, 0, Qt.AlignmentFlag.AlignBottom)
    top.addStretch(1)
    return top


def page_layout(page: QWidget) -> QVBoxLayout:
    """The margins and spacing every main page uses."""
    layout = QVBoxLayout(page)
    layout.setContentsMargins(24, 18, 24, 18)
    layout.setSpacing(12)
    return layout


def section_title(text: str, parent: QWidget | None = None) -> QLabel:
    return _label(text, "section", parent)


def hint(text: str, parent: QWidget | None = None) -> QLabel:
    """A one-line explanation in a quieter colour; wraps rather than widening the dialog."""
    label = _label(text, "hint", parent)
    label.setWordWrap(True)
    return label


def error_label(parent: QWidget | None = None) -> QLabel:
    """Where a refused value's message appears, next to its field; hidden while empty."""
    label = _label("", "error", parent)
    label.setWordWrap(True)
    label.hide()
    return label


def show_error(label: QLabel, text: str) -> None:
    label.setText(text)
    label.setVisible(bool(text))


def bold(font: QFont) -> QFont:
    from PySide6.QtGui import QFont  # here, not at import: its 13 enums, not for the start page

    font = QFont(font)
    font.setBold(True)
    return font
