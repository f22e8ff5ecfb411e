"""Pieces of the main window that need no state of their own: the About box, the recent-events
menu, and where the public display goes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

from PySide6.QtCore import QByteArray, QSettings
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMainWindow, QMenu, QWidget

from director import __version__
from director.resources import resource_path
from director.ui.plain import mnemonic_safe, tooltip
from director.ui.recent import RecentEvents
from director.ui.style import app_icon

if TYPE_CHECKING:  # a message box's class builds its enums: made when one is shown
    from PySide6.QtWidgets import QMessageBox

APP_TITLE = "Tandem Director"


def shown_target(target: str) -> str:
    """An event file's path, or a server address with its password hidden."""
    if "://" not in target:
        return target
    url = urlsplit(target)
    if url.password is None:
        return target
    netloc = url.netloc.replace(f":{url.password}@", ":•••@", 1)
    return urlunsplit(url._replace(netloc=netloc))


def about_box(parent: QWidget) -> QMessageBox:
    from PySide6.QtCore import Qt  # here, not at import: plain.START
    from PySide6.QtWidgets import QMessageBox

    box = QMessageBox(parent)
    box.setWindowTitle(f"About {APP_TITLE}")
    box.setIconPixmap(app_icon().pixmap(64, 64))
    box.setText(f"<b>{APP_TITLE}</b> {__version__}")
    box.setInformativeText(
        "Runs a backgammon club's nights: Tandem team events, individual events and knockout "
        "brackets, with pairings, clocks, results, standings and the club's ratings, and "
        "every change saved at once.\n\nFree software under the MIT licence. Built on "
        "Qt for Python (LGPL-3.0), SQLAlchemy, reportlab and others, and the DejaVu fonts: "
        "Show Details for every licence."
    )
    box.setTextFormat(Qt.TextFormat.RichText)  # our own title only; the notices are plain text
    box.setDetailedText(resource_path("notices", "THIRD-PARTY-NOTICES.txt").read_text("utf-8"))
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box


def fill_recent_menu(
    menu: QMenu,
    recent: RecentEvents,
    open_target: Callable[[str], object],
    cleared: Callable[[], None],
) -> None:
    """The File > Open recent entries, rebuilt each time the menu opens."""
    menu.clear()
    for entry in recent.entries():
        action = menu.addAction(mnemonic_safe(entry.name or Path(entry.path).stem))
        action.setToolTip(tooltip(entry.path))
        action.setEnabled(entry.exists)
        action.triggered.connect(lambda _checked=False, p=entry.path: open_target(p))
    if menu.isEmpty():
        menu.addAction("No recent events").setEnabled(False)
        return

    def clear() -> None:
        recent.clear()
        cleared()

    menu.addSeparator()
    menu.addAction("Clear the list", clear)


def place_public_display(display: QWidget, director_screen_of: QWidget) -> None:
    """Full screen on a screen the director is not using (a projector or TV); with one screen,
    a window the director can move (its right-click menu goes full screen)."""
    screens = QGuiApplication.screens()
    others = [i for i, s in enumerate(screens) if s is not director_screen_of.screen()]
    show_on = getattr(display, "show_on", None)
    if others and callable(show_on):
        show_on(others[0])
        return
    display.resize(1280, 720)
    display.show()
    display.raise_()


def restore_window(window: QMainWindow, settings: QSettings) -> bool:
    """The size, place and toolbars of last time; the first time, a size that suits the screen.
    True when the window is to be shown maximized (`showMaximized`: a window state set here
    would need PySide's `Qt` namespace, plain.START)."""
    geometry = settings.value("window/geometry")
    if isinstance(geometry, QByteArray) and window.restoreGeometry(geometry):
        state = settings.value("window/state")
        if isinstance(state, QByteArray):
            window.restoreState(state)
        return False  # restoreGeometry brings back a maximized window as maximized
    screen = QGuiApplication.primaryScreen().availableGeometry()
    if screen.width() <= 1440 or screen.height() <= 900:
        # a laptop screen: use all of it (the geometry too, for a desktop without a window
        # manager to honour "maximized")
        window.setGeometry(screen)
        return True
    window.resize(1400, 900)
    window.move(screen.center() - window.rect().center())
    return False
