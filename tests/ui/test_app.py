"""The application object: its name (QSettings keys on it), icon and style; the warm-up."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from director.resources import resource_path
from director.ui.app import APP_NAME, ORGANISATION, create_application
from director.ui.style import ACCENT
from tests.event_files import seed_teams
from tests.ui.app_helpers import OFFSCREEN_NOISE

# restyling the app re-polishes every window still open from earlier tests
pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)


@pytest.fixture
def app_look(qapp: QApplication) -> Iterator[QApplication]:
    """Put the test app's names and style back after the test changes them."""
    names = (qapp.applicationName(), qapp.organizationName(), qapp.organizationDomain())
    look = (qapp.styleSheet(), qapp.palette(), qapp.style().name())
    yield qapp
    qapp.setApplicationName(names[0])
    qapp.setOrganizationName(names[1])
    qapp.setOrganizationDomain(names[2])
    qapp.setStyleSheet(look[0])
    qapp.setPalette(look[1])
    qapp.setStyle(look[2])


def test_the_app_is_named_for_its_settings_and_has_its_icon(app_look: QApplication) -> None:
    app = create_application([])
    assert app is app_look  # an app that exists is reused, never a second one
    assert (app.applicationName(), app.organizationName()) == (APP_NAME, ORGANISATION)
    assert not app.windowIcon().isNull()
    assert app.palette().color(QPalette.ColorRole.Highlight).name() == ACCENT.lower()


WARM_UP_PROBE = """
import builtins, sys
import director.ui.app
from director.ui.database_layer import LAYER, load
hooked = builtins.__import__  # PySide6's, which reads each new module's source
before = [name for name in LAYER if name in sys.modules]
load()
after = [name for name in LAYER if name in sys.modules]
assert builtins.__import__ is hooked
print(len(before), len(after), len(LAYER))
"""


def test_the_warm_up_loads_the_database_layer_and_services() -> None:
    # a fresh interpreter: this test process imported those modules long ago
    done = subprocess.run(
        [sys.executable, "-c", WARM_UP_PROBE],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    before, after, total = map(int, done.stdout.split())
    assert total >= 3
    assert before == 0  # starting the app does not already pay for them
    assert after == total


def app_output(probe: str, settings: Path, *args: str) -> str:
    """What `probe` printed, run with `args` in a fresh offscreen interpreter on settings of
    its own."""
    env = {**os.environ, "XDG_CONFIG_HOME": str(settings), "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-c", probe, *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


GARBAGE_PROBE = """
import gc, sys, threading, time
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QWidget

died_in = []

class Closed(QWidget):  # a closed window left in a cycle, its timer running, as a display was
    def __del__(self):  # where the collector frees it, and Qt destroys it with its timer
        died_in.append(threading.current_thread().name)

def garbage():
    window = Closed()
    window.itself = window  # the cycle
    QTimer(window).start(50)

def busy():  # a database worker's objects (rows, records): enough to fill the youngest round
    kept = [[] for _ in range(20 * gc.get_threshold()[0])]
    del kept

def up(app):  # once the app is up, as on an event night
    app.processEvents()
    app.processEvents()
    garbage()
    worker = threading.Thread(target=busy, name="worker")
    worker.start()
    worker.join()
    deadline = time.monotonic() + 10
    while not died_in and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.05)
    print(gc.isenabled(), *died_in)
    return 0

QApplication.exec = up
from director.ui.app import run_gui
sys.exit(run_gui(None, None))
"""


def test_qt_objects_in_cycles_are_destroyed_on_the_gui_thread(tmp_path: Path) -> None:
    """Python's automatic cycle collector runs in whichever thread allocates when its youngest
    round is full: a database worker's too, and the Qt objects of the garbage it finds are
    destroyed there ("Timers cannot be stopped from another thread"; Qt may crash). So once
    the app is up the collector is off, and a timer runs it on the GUI thread as often as it
    would have run (and never left off: the garbage is collected)."""
    assert app_output(GARBAGE_PROBE, tmp_path).split() == ["False", "MainThread"]


START_PAGE_PROBE = """
import sys, threading
from PySide6.QtWidgets import QApplication

def loaded():
    names = ("director.services.reports", "director.ui.help", "director.store.engine")
    return [name in sys.modules for name in names]

def first_pass(app):  # the event loop's first pass (it paints the start page), then more
    app.processEvents()
    window = next(w for w in app.topLevelWidgets() if type(w).__name__ == "MainWindow")
    menus = [(a.text(), a.isEnabled()) for a in window.menuBar().actions()]
    print(menus, loaded(), [t.name for t in threading.enumerate()])
    app.processEvents()
    next(t for t in threading.enumerate() if t.name == "warm-up").join(60)
    print(loaded())
    return 0

QApplication.exec = first_pass
from director.ui.app import run_gui
sys.exit(run_gui(None, None))
"""


def test_the_start_page_is_painted_before_what_it_does_not_need_is_loaded(
    tmp_path: Path,
) -> None:
    """The first pass paints the start page with every menu in place (Reports disabled, as
    without an event); the Reports menu's service, the help window and the database layer
    are not loaded for it: the layer's warm-up starts on the next pass, off the GUI thread."""
    first, later = app_output(START_PAGE_PROBE, tmp_path).splitlines()
    menus = [("&File", True), ("&Reports", False), ("&View", True), ("&Help", True)]
    assert first == f"{menus} [False, False, False] ['MainThread']"
    assert later == "[False, False, True]"


LISTED_PROBE = """
import json, sys
import PySide6.QtCore

if sys.argv[1:]:  # the event sys.argv[1], named sys.argv[2], in the list of recent events
    settings = PySide6.QtCore.QSettings("Tandem Director", "Tandem Director")
    settings.setValue("recent/events", json.dumps([{"path": sys.argv[1], "name": sys.argv[2]}]))
    settings.sync()
"""  # the start of a probe of the start page, with a recent event when given one

QT_NAMESPACE_PROBE = (
    LISTED_PROBE
    + """
from PySide6.QtWidgets import QApplication

def first_pass(app):  # the event loop's first pass paints the start page
    app.processEvents()
    built = "Qt" in PySide6.QtCore.__dict__  # PySide builds a class the first time it is used
    window = next(w for w in app.topLevelWidgets() if type(w).__name__ == "MainWindow")
    app.setStyleSheet("")  # the style under the style sheet, then
    print(built, window.start.recent_list.count(), app.style().name())
    return 0

QApplication.exec = first_pass
from director.ui.app import run_gui
sys.exit(run_gui(None, None))
"""
)


@pytest.mark.parametrize("recent", [False, True], ids=["first start", "with a recent event"])
def test_the_start_page_is_painted_without_pysides_qt_namespace(
    tmp_path: Path, event_path: Path, recent: bool
) -> None:
    """PySide6 builds its `Qt` namespace, 93 enums, the first time it is imported: 18 ms, a
    sixth of the cold start (tests/benchmarks/bench_gui.py, figure 1). The start page's first
    paint does without it, and without the style's enums (the app is made with Qt's own
    `-style Fusion`), and still in the Fusion style (director/ui/plain.py, START)."""
    args = [str(event_path), "<b>Night"] if recent else []
    output = app_output(QT_NAMESPACE_PROBE, tmp_path, *args)
    assert output.split() == ["False", str(int(recent)), "fusion"]


FONTS_PROBE = (
    LISTED_PROBE
    + """
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QApplication

def shipped():  # how many of the app's own font files Qt was given (their ids count from 0)
    return sum(1 for i in range(100) if QFontDatabase.applicationFontFamilies(i))

def passes(app):  # the event loop's first pass paints the start page; then the next
    app.processEvents()
    print(shipped(), end=" ")
    app.processEvents()
    app.processEvents()
    print(shipped())
    return 0

QApplication.exec = passes
from director.ui.app import run_gui
sys.exit(run_gui(None, None))
"""
)


@pytest.mark.parametrize(
    ("name", "all_at_once"),
    [(None, False), ("Club Ωmega", False), ("نادي الطاولة", True), ("東京クラブ", True)],
    ids=["first start", "a Latin and Greek name", "an Arabic name", "a Japanese name"],
)
def test_the_other_scripts_fonts_come_after_the_first_paint_unless_it_shows_them(
    tmp_path: Path, event_path: Path, name: str | None, all_at_once: bool
) -> None:
    """The Latin fonts come before the start page's first paint; the other scripts' fonts
    (4 ms) after it, or before it when a recent event's name is written in one."""
    files = sorted(f.name for f in resource_path("fonts").iterdir() if f.suffix == ".ttf")
    latin = [f for f in files if f.startswith("DejaVu")]
    assert 3 == len(latin) < len(files)
    args = [] if name is None else [str(event_path), name]
    first, second = map(int, app_output(FONTS_PROBE, tmp_path, *args).split())
    assert (first, second) == (len(files) if all_at_once else len(latin), len(files))


OPENED_PROBE = """
import gc, sys, weakref
from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import QApplication

def first_pass(app):  # the event loop's first pass, then close the event
    app.processEvents()
    window = next(w for w in app.topLevelWidgets() if type(w).__name__ == "MainWindow")
    collecting = any(type(o).__name__ == "GuiThreadCollector" for o in app.children())
    print(collecting, gc.get_freeze_count() > 0, end=" ")
    ctx = weakref.ref(window.ctx)
    window.close_event()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()
    print(gc.get_freeze_count(), ctx() is None)
    return 0

QApplication.exec = first_pass
from director.ui.app import run_gui
sys.exit(run_gui(sys.argv[1], None))
"""


def test_what_the_start_made_is_kept_from_the_collector_until_its_event_closes(
    tmp_path: Path, event_path: Path
) -> None:
    """Once up, what starting the app made, the event it opened included, is frozen out of the
    cycle collector's rounds (they cost 60 ms of opening a 1,000-team event); closing the event
    gives it all back, so the closed event's context, held in cycles, is collected."""
    output = app_output(OPENED_PROBE, tmp_path, str(event_path))
    assert output.split() == ["True", "True", "0", "True"]


SLOW_OPEN_PROBE = """
import sys, time
from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtWidgets import QApplication
import director.ui.main_window as main_window

filters = []  # the event filters put on the whole app
install = QObject.installEventFilter

def recorded(self, event_filter):
    if self is QCoreApplication.instance():
        filters.append(type(event_filter).__name__)
    install(self, event_filter)

QObject.installEventFilter = recorded
opening = main_window._open_event

def slow(*args):  # a slow drive: the opening is waited for
    time.sleep(0.3)
    return opening(*args)

main_window._open_event = slow

def first_pass(app):
    app.processEvents()
    window = next(w for w in app.topLevelWidgets() if type(w).__name__ == "MainWindow")
    print(window.ctx is not None, filters, end=" ")
    assert window.open_target(sys.argv[2], remember=False)
    print(sorted(set(filters)))
    return 0

QApplication.exec = first_pass
from director.ui.app import run_gui
sys.exit(run_gui(sys.argv[1], None))
"""


def test_the_event_opened_at_start_is_waited_for_without_putting_deletes_off(
    tmp_path: Path, event_path: Path
) -> None:
    """Before the event loop runs, the start's wait runs inside no event's handler: there is
    no deferred delete to put off, and no filter sees the app's every event in Python (it
    cost some 25 ms of opening a 1,000-team event). A wait once the app is up still does (the
    first look's paint and the open: each of them)."""
    other = Path(shutil.copy(event_path, tmp_path / "other.tandem"))
    output = app_output(SLOW_OPEN_PROBE, tmp_path, str(event_path), str(other))
    assert output.split() == ["True", "[]", "['_PutOffDeletes']"]


OVERLAP_PROBE = """
import builtins, threading
import director.ui.app
from director.ui.database_layer import python_import
hooked = builtins.__import__
a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()

def a():
    with python_import():
        a_in.set()
        b_in.wait()
    a_out.set()

def b():
    a_in.wait()
    with python_import():
        b_in.set()
        a_out.wait()  # the first to start ends first: the hook must wait for this one
        print(builtins.__import__ is not hooked, end=" ")

threads = [threading.Thread(target=a), threading.Thread(target=b)]
for t in threads: t.start()
for t in threads: t.join()
print(builtins.__import__ is hooked)
"""


def test_threads_importing_past_pysides_hook_at_once_put_it_back_after_the_last() -> None:
    """The warm-up, the open and the window import past PySide6's hook at the same time; the
    hook is set aside while any of them is at it and put back after the last one."""
    done = subprocess.run(
        [sys.executable, "-c", OVERLAP_PROBE],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True"]


FIRST_LOOK_PROBE = """
import sys
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QTableView

seen = []  # at each paint of a table with rows: whether SQLAlchemy was loaded, the rows

class Painted(QObject):
    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.Paint:
            model = watched.parent().model()
            if model is not None and model.rowCount() > 0:
                seen.append(("sqlalchemy" in sys.modules, model.rowCount()))
        return False

painted = Painted()
set_model = QTableView.setModel

def watched(view, model):
    set_model(view, model)
    view.viewport().installEventFilter(painted)

QTableView.setModel = watched

def first_pass(app):  # the event is open by now
    window = next(w for w in app.topLevelWidgets() if type(w).__name__ == "MainWindow")
    page = window.view.page(0)
    print(*seen[0], window.ctx.db.marked, page.model.rowCount(), end=" ")
    print(page.seed_button.toolTip().replace(" ", "_"))
    window.close()
    return 0

QApplication.exec = first_pass
from director.ui.app import run_gui
sys.exit(run_gui(sys.argv[1], None))
"""


def test_an_event_file_shows_its_teams_before_the_database_layer_loads(
    tmp_path: Path, event_path: Path
) -> None:
    """`tandem-director FILE`: its teams page is painted with its rows from the file's first
    look, before SQLAlchemy is imported (most of the wait, #24 point 6); the event then opens
    behind it and the page reads the database (the seed button's reason is the service's)."""
    seed_teams(event_path, 3)
    output = app_output(FIRST_LOOK_PROBE, tmp_path, str(event_path))
    assert output.split() == ["False", "3", "True", "3", "no_team_has_a_rating"]
