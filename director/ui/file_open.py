"""Documents macOS opens in the running app.

The Finder's double-click on a `.tandem` file, or a file dropped on the Dock icon, reaches a
running app as a QFileOpenEvent sent to the application, not as a command-line argument
(the frozen app's argv emulation covers only the launch). The window opens it as File → Open
does; the file it already has open stays as it is.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QFileOpenEvent
from PySide6.QtWidgets import QApplication

if TYPE_CHECKING:
    from director.ui.main_window import MainWindow


class FileOpenHandler(QObject):
    """An event filter on the application: a QFileOpenEvent opens its file in `window`."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.FileOpen or not isinstance(event, QFileOpenEvent):
            return False
        target = event.file()  # empty for an address that is not a local file
        if not target:
            return False
        ctx = self.window.ctx
        if ctx is None or not ctx.db.is_sqlite or ctx.db.path.resolve() != Path(target).resolve():
            self.window.open_target(target)
        return True

    def remove(self) -> None:
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self)


def install(window: MainWindow) -> FileOpenHandler:
    app = QApplication.instance()
    assert app is not None, "the QApplication comes first"
    handler = FileOpenHandler(window)
    app.installEventFilter(handler)
    return handler
