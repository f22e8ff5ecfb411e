"""Start the desktop app: the application object, the exception hook and the main window."""

from __future__ import annotations

import contextlib
import importlib
import sys
import threading
from collections.abc import Sequence

from PySide6.QtCore import QLoggingCategory
from PySide6.QtWidgets import QApplication

from director import __version__

APP_NAME = "Tandem Director"
ORGANISATION = "Tandem Director"  # QSettings: one folder for the app's settings
ORGANISATION_DOMAIN = "tandem-director.org"


def create_application(argv: Sequence[str] | None = None) -> QApplication:
    """The QApplication with the app's name (QSettings keys on it), icon and style."""
    from director.ui.style import app_icon, apply_style

    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(list(argv or sys.argv))
    app.setApplicationName(APP_NAME)
    app.setApplicationDisplayName(APP_NAME)
    app.setApplicationVersion(__version__)
    app.setOrganizationName(ORGANISATION)
    app.setOrganizationDomain(ORGANISATION_DOMAIN)
    app.setDesktopFileName("tandem-director")
    app.setWindowIcon(app_icon())
    apply_style(app)
    # QtMultimedia probes optional system libraries (PipeWire, VA-API) and warns for each one a
    # machine lacks; none is needed for the flag sound, so those probes are not problems.
    QLoggingCategory.setFilterRules("qt.multimedia.symbolsresolver.warning=false")
    return app


# Loaded in the background while the start page is up, so the first event opens quickly.
# Pure Python only: Qt classes are created on the main thread.
WARM_UP = (
    "director.store.engine",
    "director.services.teams",
    "director.services.results",
    "director.services.rounds",
    "director.services.standings",
)


def warm_up() -> None:
    for name in WARM_UP:
        with contextlib.suppress(ImportError):  # a missing module shows when it is needed
            importlib.import_module(name)


def run_gui(event_file: str | None, db_url: str | None) -> int:
    """Show the main window, open `db_url` or `event_file` if given, and run until closed."""
    app = create_application()
    from director.ui import crash
    from director.ui.main_window import MainWindow

    crash.install()
    window = MainWindow()
    window.show()
    from director.ui import termination

    termination.install(window.close, window)  # logout or shutdown: close, do not crash
    if sys.platform == "darwin":  # only macOS sends it; the filter sees every event of the app
        from director.ui import file_open

        file_open.install(window)  # the Finder's double-click on a .tandem file
    target = db_url or event_file
    if target:
        window.open_target(target)
    else:
        threading.Thread(target=warm_up, name="warm-up", daemon=True).start()
    return app.exec()
