"""The exception hook: a person's error shows its message; a bug is logged and reported.

STYLE habit 6: a `UserError` (or a database failure we recognise) is something the person can
act on, so its words are shown as they are. Anything else is a bug: its traceback goes to a
log file in the user log folder and a "please report" dialog names that file. Every change
was committed when it was made, so the dialog can say the event file is safe.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from director import __version__

if TYPE_CHECKING:
    from types import TracebackType

    from PySide6.QtWidgets import QMessageBox, QWidget

# The hook is installed as the app starts; what it shows and writes loads when it is called
# (platformdirs, datetime, traceback and the message box were 7 ms of the app's start).

APP_DIR_NAME = "tandem-director"
_open_boxes: list[QMessageBox] = []  # a box shown with open() must outlive the hook call


def log_folder() -> Path:
    import platformdirs

    return Path(platformdirs.user_log_dir(APP_DIR_NAME, appauthor=False))


def write_crash_log(
    exc_type: type[BaseException],
    exc: BaseException,
    tb: TracebackType | None,
    folder: Path | None = None,
) -> Path:
    """Write the traceback with the versions a bug report needs; return the file."""
    import traceback
    from datetime import datetime

    folder = folder or log_folder()
    folder.mkdir(parents=True, exist_ok=True)
    now = datetime.now()
    path = folder / f"crash-{now:%Y%m%d-%H%M%S-%f}.log"
    import platform  # here, not at start-up: only a crash needs it

    import PySide6

    header = (
        f"Tandem Director {__version__} crash report, {now.isoformat(timespec='seconds')}\n"
        f"Python {platform.python_version()}, PySide6 {PySide6.__version__}, "
        f"{platform.platform()}\n\n"
    )
    body = "".join(traceback.format_exception(exc_type, exc, tb))
    path.write_text(header + body, encoding="utf-8")
    return path


def _show(box: QMessageBox) -> QMessageBox:
    _open_boxes.append(box)
    box.finished.connect(lambda _result: _open_boxes.remove(box))
    box.open()
    return box


def show_user_error(message: str, parent: QWidget | None = None) -> QMessageBox:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QMessageBox

    box = QMessageBox(
        QMessageBox.Icon.Warning, "Tandem Director", message, QMessageBox.StandardButton.Ok, parent
    )
    box.setTextFormat(Qt.TextFormat.PlainText)  # a refusal quotes names people typed
    return _show(box)


def show_bug_report(log_path: Path, parent: QWidget | None = None) -> QMessageBox:
    from PySide6.QtCore import QUrl
    from PySide6.QtGui import QDesktopServices, QGuiApplication
    from PySide6.QtWidgets import QMessageBox

    box = QMessageBox(
        QMessageBox.Icon.Critical,
        "Tandem Director: please report",
        "Something went wrong inside Tandem Director. This is a bug, not your "
        "mistake: please report it.",
        QMessageBox.StandardButton.Ok,
        parent,
    )
    box.setInformativeText(
        f"The details are in this log file; please attach it to your report:\n{log_path}\n\n"
        "Your event is safe: every change was saved when you made it."
    )
    box.setDetailedText(log_path.read_text(encoding="utf-8"))
    copy = box.addButton("Copy log path", QMessageBox.ButtonRole.ActionRole)
    folder = box.addButton("Open log folder", QMessageBox.ButtonRole.ActionRole)

    def act() -> None:
        if box.clickedButton() is copy:
            QGuiApplication.clipboard().setText(str(log_path))
        elif box.clickedButton() is folder:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(log_path.parent)))

    box.buttonClicked.connect(lambda _button: act())
    return _show(box)


def handle_exception(
    exc_type: type[BaseException],
    exc: BaseException,
    tb: TracebackType | None,
    folder: Path | None = None,
) -> QMessageBox | None:
    """What the hook does; returns the box shown (None when there is no app to show it in)."""
    if issubclass(exc_type, KeyboardInterrupt):
        sys.__excepthook__(exc_type, exc, tb)
        return None
    from PySide6.QtWidgets import QApplication

    from director.domain.errors import UserError
    from director.store.errors import known_database_error  # SQLAlchemy loads only if needed

    message = str(exc) if isinstance(exc, UserError) else known_database_error(exc)
    parent = QApplication.activeWindow()
    if message is not None:
        return show_user_error(message, parent) if QApplication.instance() else None
    try:
        log_path = write_crash_log(exc_type, exc, tb, folder)
    except OSError:
        sys.__excepthook__(exc_type, exc, tb)  # cannot even log: at least the terminal has it
        return None
    sys.stderr.write(f"tandem-director: a bug; details in {log_path}\n")
    return show_bug_report(log_path, parent) if QApplication.instance() else None


def install(folder: Path | None = None) -> None:
    """Route every uncaught exception (including those raised in Qt slots) to the hook."""

    def hook(exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        handle_exception(exc_type, exc, tb, folder)

    sys.excepthook = hook
