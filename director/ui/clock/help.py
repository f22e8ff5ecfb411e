"""The clock window's help page (resources/help/clock.md), shown in a plain dialog."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QTextBrowser, QVBoxLayout, QWidget

from director.resources import resource_path


def show_clock_help(parent: QWidget) -> QDialog:
    dialog = QDialog(parent)
    dialog.setWindowTitle("Match clocks: help")
    browser = QTextBrowser(dialog)
    try:
        browser.setSearchPaths([str(resource_path("help"))])  # the set-ups' pictures
        browser.setMarkdown(resource_path("help", "clock.md").read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        browser.setPlainText(str(exc))
    QVBoxLayout(dialog).addWidget(browser)
    dialog.resize(720, 640)
    dialog.open()
    return dialog
