"""`tandem-director --smoke-test OUTDIR`: prove that a built app works, then quit by itself.

The installer's smoke test (scripts/smoke_frozen.sh) runs this inside the frozen bundle, where
a missing module, resource or Qt plugin shows up only at run time. It checks every resource
(fonts load, icons draw, help pages read), builds a small simulated event, opens it in the
main window, shows every page, the help, the public display and a clock window, renders
every report to PDF in OUTDIR through the service the Reports menu uses, reads one back
through QtPdf, and exits 0. Any problem, any Qt warning (a plugin that does not load, an image
format that is missing) and any Python warning or logged error make the status 1, with one
line per problem on stderr. The user's settings are not touched.
"""

from __future__ import annotations

import logging
import os
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from PySide6.QtCore import (
    QMessageLogContext,
    QSettings,
    QSize,
    QTimer,
    QtMsgType,
    qInstallMessageHandler,
)
from PySide6.QtGui import QFontDatabase, QIcon, QImageReader
from PySide6.QtWidgets import QApplication

from director.store.targets import EXTENSION

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from director.services.club import EventResults, Published
    from director.ui.main_window import MainWindow

EXIT_FAILED = 1
WATCHDOG_MS = 180_000  # a dialog waiting for a click would hang CI: give up instead
# what the offscreen platform says about window-manager features it lacks
OFFSCREEN_NOISE = ("This plugin does not support",)
RESOURCE_FOLDERS = {"fonts": ".ttf", "icons": ".svg", "help": ".md", "sounds": ".wav"}


class Problems(logging.Handler):
    """Collects every problem: Qt messages of warning level and up, Python warnings, logged
    warnings and errors, and the checks' own findings."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.found: list[str] = []

    def add(self, text: str) -> None:
        self.found.append(text)
        print(f"smoke: PROBLEM: {text}", file=sys.stderr, flush=True)

    def emit(self, record: logging.LogRecord) -> None:
        self.add(f"log {record.levelname.lower()}: {record.getMessage()}")

    def qt_message(self, kind: QtMsgType, _context: QMessageLogContext, message: str) -> None:
        if kind in (QtMsgType.QtDebugMsg, QtMsgType.QtInfoMsg):
            return
        if message.startswith(OFFSCREEN_NOISE) and os.environ.get("QT_QPA_PLATFORM") == "offscreen":
            return
        self.add(f"Qt {kind.name}: {message}")

    def python_warning(
        self,
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: TextIO | None = None,
        line: str | None = None,
    ) -> None:
        self.add(f"{category.__name__}: {message} ({filename}:{lineno})")


def say(text: str) -> None:
    print(f"smoke: {text}", flush=True)


def check_resources(problems: Problems) -> None:
    """Every resource folder is there and every file in it can be used."""
    from director.resources import resource_root

    root = resource_root()
    bundle = getattr(sys, "_MEIPASS", None)  # the frozen app's own folder
    if bundle is not None and not root.is_relative_to(Path(bundle)):
        problems.add(f"the app reads resources from {root}, not from its bundle")
    formats = {bytes(f.data()).decode() for f in QImageReader.supportedImageFormats()}
    for needed in ("svg", "png"):
        if needed not in formats:
            problems.add(f"Qt cannot read {needed} images (the imageformats plugin is missing)")
    count = 0
    for folder, suffix in RESOURCE_FOLDERS.items():
        files = sorted((root / folder).glob(f"*{suffix}"))
        if not files:
            problems.add(f"no {suffix} files in {root / folder}")
        for path in files:
            count += 1
            if suffix == ".ttf" and QFontDatabase.addApplicationFont(str(path)) < 0:
                problems.add(f"Qt cannot load the font {path.name}")
            elif suffix == ".svg" and QIcon(str(path)).pixmap(QSize(32, 32)).isNull():
                problems.add(f"the icon {path.name} does not draw (SVG icon engine missing?)")
            elif suffix == ".md" and not path.read_text(encoding="utf-8").strip():
                problems.add(f"the help page {path.name} is empty")
            elif suffix == ".wav" and path.read_bytes()[:4] != b"RIFF":
                problems.add(f"the sound {path.name} is not a WAV file")
    say(f"resources: {count} files in {root}")


def check_multimedia(problems: Problems) -> None:
    """QtMultimedia (the clock's flag sound) is in the bundle. It loads the system's sound
    library (PulseAudio on Linux); a computer without one gets the system beep instead."""
    try:
        import PySide6.QtMultimedia  # noqa: F401
    except ModuleNotFoundError:
        problems.add("QtMultimedia is not in the app: the flag sound cannot play")
    except ImportError as exc:
        if any(ours in str(exc) for ours in ("Qt6", "pyside6", "shiboken6")):
            problems.add(f"QtMultimedia does not load: {exc}")
        else:
            say(f"flag sound: QtMultimedia needs a system library this computer lacks ({exc})")
    else:
        say("flag sound: QtMultimedia loads")


def build_event(folder: Path) -> Path:
    from director.services.events import update_event
    from director.services.simulate import SimulationSettings, simulate_event
    from director.store.work import in_session

    path = folder / f"smoke{EXTENSION}"
    for stale in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        stale.unlink(missing_ok=True)
    settings = SimulationSettings(teams=6, rounds=3, seed=7, name="Smoke test club night")
    db = simulate_event(str(path), settings)
    try:  # dated, as a club night is: the Club page publishes it
        in_session(db, update_event, True, event_date="2026-03-05")
    finally:
        db.close()
    say(f"event: {path}")
    return path


def check_pdf(path: Path, problems: Problems) -> None:
    """Read a PDF back with QtPdf, as a preview would, and draw its first page."""
    from PySide6.QtPdf import QPdfDocument

    document = QPdfDocument()
    if document.load(str(path)) != QPdfDocument.Error.None_ or document.pageCount() < 1:
        problems.add(f"QtPdf cannot read {path.name}")
        return
    page = document.render(0, QSize(595, 842))
    if page.isNull() or not page.save(str(path.with_suffix(".png"))):
        problems.add(f"QtPdf cannot draw the first page of {path.name}")
    document.close()


def publish_matched(session: Session, results: EventResults) -> Published:
    """Publish an event's results to the club with the names matched as `club publish`
    matches them (every name is new to a new club)."""
    from director.services import club

    return club.publish(session, results, club.match_event(session, results))


def check_club_page(
    app: QApplication, window: MainWindow, outdir: Path, problems: Problems
) -> None:
    """The event published to a new club, opened on the Club page: a person's rating chart is
    drawn with Qt Charts, which the bundle must carry (its library and the plugin-free module)."""
    from director.services import club
    from director.store.club import create_club
    from director.store.work import in_session
    from director.ui.club_page import ClubPage
    from director.ui.pages import page_index

    assert window.ctx is not None and window.view is not None
    path = outdir / "smoke.club"
    for stale in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        stale.unlink(missing_ok=True)
    results = window.ctx.read(club.event_results)
    db = create_club(str(path))
    try:
        in_session(db, publish_matched, True, results)
    finally:
        db.close()
    index = page_index("club")
    window.show_page(index)
    page = window.view.page(index)
    assert isinstance(page, ClubPage)
    if not page.open_club(str(path)):
        problems.add(f"the Club page did not open {path.name}: {page.error.text()}")
        return
    for _ in range(3):  # the chart lays its legend out in a later pass
        app.processEvents()
    drawn = len(page.chart.provisional.points()) + len(page.chart.established.points())
    if drawn < 2:
        problems.add(f"the Club page's rating chart holds {drawn} points for {page.name.text()}")
    page.grab().save(str(outdir / "club-page.png"))
    say(f"club page: {page.name.text()}'s rating chart, {drawn} points (Qt Charts)")


def exercise_gui(app: QApplication, outdir: Path, event: Path, problems: Problems) -> None:
    from director.domain.errors import UserError
    from director.services import reports
    from director.services.matches import list_matches
    from director.ui.clock.launch import open_clock_window
    from director.ui.main_window import MainWindow
    from director.ui.pages import PAGES

    settings = QSettings(str(outdir / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings)
    window.show()
    if not window.open_target(str(event), remember=False) or window.ctx is None:
        problems.add(f"the main window did not open {event}")
        return
    ctx = window.ctx
    for index, page in enumerate(PAGES):
        window.show_page(index)
        app.processEvents()
        say(f"page: {page.title}")
    check_club_page(app, window, outdir, problems)
    window.show_help()
    window.show_public_display()
    played = [m for m in ctx.read(list_matches) if not m.is_bye and m.forfeit_by is None]
    if played:
        try:
            open_clock_window(ctx, played[0].id, settings=settings, parent=window).close()
            say(f"clock window: match {played[0].id}")
        except UserError as exc:
            problems.add(f"the clock window did not open: {exc}")
    app.processEvents()
    window.grab().save(str(outdir / "main-window.png"))
    for kind in reports.KINDS:
        pdf = ctx.read(reports.render, kind)
        path = outdir / reports.suggested_file_name(kind)
        path.write_bytes(pdf)
        if not pdf.startswith(b"%PDF"):
            problems.add(f"the {kind} report is not a PDF")
        say(f"report: {path.name} ({len(pdf)} bytes)")
    check_pdf(outdir / reports.suggested_file_name("standings"), problems)
    window.close()
    app.processEvents()


def run(outdir: Path) -> int:
    started = time.monotonic()
    outdir.mkdir(parents=True, exist_ok=True)
    problems = Problems()
    logging.getLogger().addHandler(problems)
    warnings.showwarning = problems.python_warning
    warnings.simplefilter("always")
    qInstallMessageHandler(problems.qt_message)
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)  # the user's settings stay as they are
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(outdir))

    from director.ui.app import create_application

    app = create_application(["tandem-director", "--smoke-test", str(outdir)])
    say(f"Qt platform: {app.platformName()}; started in {time.monotonic() - started:.2f} s")
    status: list[int] = []

    def step(action: Callable[[], None]) -> None:
        try:
            action()
        except Exception as exc:  # a failure of the built app is what this test looks for
            import traceback

            traceback.print_exc()
            problems.add(f"{type(exc).__name__}: {exc}")

    def main_steps() -> None:
        step(lambda: check_resources(problems))
        step(lambda: check_multimedia(problems))
        event_path: list[Path] = []
        step(lambda: event_path.append(build_event(outdir)))
        if event_path:
            step(lambda: exercise_gui(app, outdir, event_path[0], problems))
        status.append(EXIT_FAILED if problems.found else 0)
        app.exit(status[0])

    def watchdog() -> None:
        problems.add(f"still running after {WATCHDOG_MS // 1000} s (a dialog waiting?)")
        app.exit(EXIT_FAILED)

    QTimer.singleShot(0, main_steps)
    QTimer.singleShot(WATCHDOG_MS, watchdog)
    code = app.exec()
    qInstallMessageHandler(None)
    code = code or (EXIT_FAILED if problems.found else 0)
    verdict = "ok" if code == 0 else f"FAILED ({len(problems.found)} problems)"
    say(f"{verdict} in {time.monotonic() - started:.2f} s")
    return code


def main(argv: Sequence[str]) -> int:
    """`--smoke-test OUTDIR`: the arguments after the flag."""
    if len(argv) != 1 or argv[0].startswith("-"):
        print("tandem-director: --smoke-test needs one folder for its files", file=sys.stderr)
        return 2
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    return run(Path(argv[0]))
