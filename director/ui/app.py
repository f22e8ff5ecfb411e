"""Start the desktop app: the application object, the exception hook and the main window."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import Literal

from PySide6.QtCore import QLoggingCategory, QObject, QTimer
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QApplication

from director import __version__
from director.ui import database_layer

APP_NAME = "Tandem Director"
ORGANISATION = "Tandem Director"  # QSettings: one folder for the app's settings
ORGANISATION_DOMAIN = "tandem-director.org"


def create_application(argv: Sequence[str] | None = None, fonts: Fonts = "all") -> QApplication:
    """The QApplication with the app's name (QSettings keys on it), icon, style and fonts
    (`fonts`: as `register_fonts` takes them; the start registers the other scripts' fonts
    later when its first page shows none of them)."""
    with database_layer.python_import():  # past PySide6's source-reading hook
        from director.resources import resource_path
        from director.ui.style import app_icon, apply_style

    existing = QApplication.instance()
    made = not isinstance(existing, QApplication)  # else a test's, or the screenshots'
    app = QApplication([*(argv or sys.argv), "-style", "Fusion"]) if made else existing
    assert isinstance(app, QApplication)
    app.setApplicationName(APP_NAME)
    app.setApplicationDisplayName(APP_NAME)
    app.setApplicationVersion(__version__)
    app.setOrganizationName(ORGANISATION)
    app.setOrganizationDomain(ORGANISATION_DOMAIN)
    app.setDesktopFileName("tandem-director")
    app.setWindowIcon(app_icon())
    register_fonts(resource_path("fonts"), fonts)
    apply_style(app, made_with_fusion=made)
    # QtMultimedia probes optional system libraries (PipeWire, VA-API) and warns for each one a
    # machine lacks; none is needed for the flag sound, so those probes are not problems.
    QLoggingCategory.setFilterRules("qt.multimedia.symbolsresolver.warning=false")
    return app


Fonts = Literal["all", "latin", "other scripts"]
LATIN_FONTS = "DejaVu"  # the fonts' files for Latin, Greek and Cyrillic start so
OTHER_SCRIPTS_FROM = 0x0590  # Hebrew: the first script past what the Latin fonts draw


def register_fonts(folder: Path | None = None, fonts: Fonts = "all") -> None:
    """The fonts the app ships (Latin, Greek and Cyrillic; Arabic, Hebrew, Devanagari, Thai,
    Korean, Chinese and Japanese, symbols) join Qt's fallback, so a name in those scripts is
    drawn on a machine that has no such font, as the PDFs already are. Qt reads a font file
    only when a glyph is needed: the Latin ones cost ~5 ms (with Qt's first look at the
    system's fonts), the others ~4 ms more. (`folder`: the resources' fonts/, by default.)"""
    if folder is None:
        from director.resources import resource_path

        folder = resource_path("fonts")
    for name in sorted(os.listdir(folder)):  # not glob: its pattern took 1 ms to compile
        latin = name.startswith(LATIN_FONTS)
        if name.endswith(".ttf") and (fonts == "all" or latin == (fonts == "latin")):
            QFontDatabase.addApplicationFont(str(folder / name))


def needs_other_scripts(texts: Iterable[str]) -> bool:
    """Whether a text is written in more than Latin, Greek and Cyrillic."""
    return any(ord(letter) >= OTHER_SCRIPTS_FROM for text in texts for letter in text)


def run_gui(event_file: str | None, db_url: str | None) -> int:
    """Show the main window, open `db_url` or `event_file` if given, and run until closed."""
    gc.disable()  # until the window is up: see collect_from_now_on
    target = db_url or event_file
    if db_url:  # needed at once: loaded while the window is made (an event file's first page
        # is shown from its first look before it is needed: ui/main_window.py)
        database_layer.start_loading()
    app = create_application(fonts="latin")
    with database_layer.python_import():
        from director.ui import crash, termination
        from director.ui.main_window import MainWindow

    crash.install()
    window = MainWindow()
    # the other scripts' fonts before the first paint when the start page shows a name in one
    # (or an event opens with it), else on the next pass, after it
    shown = [text for entry in window.recent.entries() for text in (entry.name, entry.path)]
    if target or needs_other_scripts(shown):
        register_fonts(fonts="other scripts")
    else:
        after_first_paint(partial(register_fonts, None, "other scripts"))
    window.showMaximized() if window.maximized_at_start else window.show()
    termination.install(window.close, window)  # logout, shutdown, Ctrl+C: close, do not crash
    if sys.platform == "darwin":  # only macOS sends it; the filter sees every event of the app
        from director.ui import file_open

        file_open.install(window)  # the Finder's double-click on a .tandem file
    if target:
        from director.ui.waiting import at_start

        with at_start():
            window.open_target(target)
    QTimer.singleShot(0, collect_from_now_on)  # the event loop's first pass
    if not target:  # loaded in the background once the start page is up (the import would
        # contend with its painting for the GIL): the first event opens quickly
        after_first_paint(database_layer.start_loading)
    return app.exec()


def after_first_paint(work: Callable[[], object]) -> None:
    """Do `work` on the event loop's second pass: the first paints the window."""
    QTimer.singleShot(0, lambda: QTimer.singleShot(0, work))


def collect_from_now_on() -> None:
    """Python's cycle collector, off while the app starts: starting (and opening an event)
    makes about a million objects, nearly none of them in cycles, and the collector ran some
    200 times over them, 0.1 s of a 1 s start. From the first pass of the event loop on it
    runs over what is made from then on, on the GUI thread (`GuiThreadCollector`): what the
    start made (the modules and classes, the window, the event opened with it) is frozen
    (`gc.freeze`), kept out of the collector's rounds. Not frozen, the first round went over
    all of it, 60 ms inside the first pass of a 1,000-team event's opening, and every full
    round after it again (a standings refresh, 0.22 s CPU against 0.17 s frozen). Closing the
    event gives it back to the collector (`MainWindow.close_event`): a closed event's cycles
    are collected."""
    gc.freeze()
    app = QApplication.instance()
    assert app is not None
    GuiThreadCollector(app)


class GuiThreadCollector(QObject):
    """Python's cycle collector, run on the GUI thread only, as often as it would run itself.

    Left automatic, it runs in whichever thread allocates when its youngest round is full: a
    database worker's too, and the Qt objects in the garbage it finds are destroyed there (a
    closed window's timers: "Timers cannot be stopped from another thread"; Qt may crash). So
    it stays off, and every `INTERVAL_MS` this runs the rounds that are due, oldest last, as
    the automatic collector does (the recipe of PyQt and PySide applications)."""

    INTERVAL_MS = 1000

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        gc.disable()
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.collect)
        self.timer.start(self.INTERVAL_MS)

    def collect(self) -> None:
        counts, thresholds = gc.get_count(), gc.get_threshold()
        for generation in (2, 1, 0):  # the oldest that is due, with the younger ones
            if counts[generation] > thresholds[generation]:
                gc.collect(generation)
                return
