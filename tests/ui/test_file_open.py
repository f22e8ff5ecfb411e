"""macOS opens a document in a running app with a QFileOpenEvent to the application (the
Finder's double-click, a file dropped on the Dock icon): the window opens that event as
File → Open does. Qt delivers the same event on every platform, so it runs here."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QFileOpenEvent
from PySide6.QtWidgets import QApplication

from director.ui import file_open
from director.ui.main_window import MainWindow


def finder_opens(target: str | QUrl) -> bool:
    app = QApplication.instance()
    assert app is not None
    return QApplication.sendEvent(app, QFileOpenEvent(target))


def test_a_file_the_finder_opens_opens_in_the_window(
    window: MainWindow, event_path: Path, tmp_path: Path
) -> None:
    handler = file_open.install(window)
    try:
        assert finder_opens(str(event_path))
        assert window.ctx is not None and window.ctx.db.path == event_path
        opened = window.ctx
        # the launch's argv and the Finder's event may both name the file: it stays open
        assert finder_opens(str(event_path))
        assert window.ctx is opened
        assert window.messages.kind != "error"
        # a file that is no event is refused in the window's message bar, as File → Open does
        notes = tmp_path / "notes.tandem"
        notes.write_bytes(b"shopping list")
        assert finder_opens(str(notes))
        assert window.messages.kind == "error"
        assert "not a Tandem Director event" in window.messages.text
        assert window.ctx is opened
        # a web address is not a file: nothing happens
        assert not finder_opens(QUrl("https://example.org/event.tandem"))
        assert window.ctx is opened
    finally:
        handler.remove()
