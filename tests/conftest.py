"""Shared test set-up: Qt renders offscreen, and event files are real SQLite files on disk."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from director.domain.rules import EventOptions
from director.services.events import create_event
from director.store.engine import EventDatabase, create_database, open_database
from tests.reports.eventdata import Built, build_event

# The user folders (the demo events, the crash logs, the settings) of this test process and
# its children, fresh and its own: never the person's, and never another pytest-xdist
# worker's (two workers building a demo in the same second would pick the same file name).
_USER = Path(tempfile.mkdtemp(prefix="tandem-tests-"))
atexit.register(shutil.rmtree, _USER, ignore_errors=True)
for _variable in ("XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME"):
    os.environ[_variable] = str(_USER / _variable.lower())


WM_MODULE = "_wm.py"  # the modules of the `wm` tests end so: tests/ui/clock/test_clock_wm.py
# modules of few tests that take minutes (kills at every step, the state machine, fuzzing):
# pytest-xdist hands them out first (ModuleScheduling below)
LONG_MODULES = ("tests/reliability/",)


@pytest.hookimpl(tryfirst=True)  # before `-m` selects by the marks added here
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The `wm` tests share one X server and window manager, whose focus is the thing they
    test: under pytest-xdist they all run on one worker, one after another, found by their
    modules' names (below). A `wm` test elsewhere would run beside them: refused. They time
    focus and key-downs, so they are `serial` too: scripts/test.sh runs those after the rest,
    in one process, with the machine to themselves."""
    for item in items:
        if item.path.name.endswith(WM_MODULE):
            item.add_marker(pytest.mark.serial)
    stray = sorted(
        {str(item.path) for item in items if item.get_closest_marker("wm")}
        - {str(item.path) for item in items if item.path.name.endswith(WM_MODULE)}
    )
    if stray:
        raise pytest.UsageError(f"`wm` tests belong in a module named *{WM_MODULE}: {stray}")


def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """scripts/test.sh runs the suite on pytest-xdist workers with `--dist loadscope`: here
    each module goes to one worker whole (its module-wide set-up is made once), and every
    *_wm.py module to one and the same worker. Other modes are pytest-xdist's own."""
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ModuleScheduling(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return "wm" if module.endswith(WM_MODULE) else module

        def _assign_work_unit(self, node: object) -> None:
            """The longest modules first, so that no worker starts one of minutes while the
            other has nothing left: pytest-xdist's own order (most tests first) handed out the
            reliability modules, a single test of 1-3 minutes each, last of all."""
            heaviest = max(self.workqueue, key=self._weight)
            self.workqueue.move_to_end(heaviest, last=False)
            super()._assign_work_unit(node)

        def _weight(self, scope: str) -> tuple[bool, int]:
            return scope.startswith(LONG_MODULES), len(self.workqueue[scope])

    return ModuleScheduling(config, log)


@pytest.fixture(scope="session")
def template_event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty event file built once through the real migrations; tests copy it."""
    path = tmp_path_factory.mktemp("template") / "template.tandem"
    db = create_database(str(path))
    with db.Session() as session, session.begin():
        create_event(session, "Template Open", EventOptions())
    db.close()
    return path


@pytest.fixture(scope="session")
def built_template(
    template_event: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, Built]:
    """The report tests' usual event (six teams, three rounds: a forfeit in round 2, an
    unfinished match in round 3), built once through the services; the tests copy the file."""
    path = tmp_path_factory.mktemp("built") / "built.tandem"
    shutil.copy(template_event, path)
    db = open_database(str(path))
    try:
        with db.Session() as session, session.begin():
            built = build_event(session)
    finally:
        db.close()
    return path, built


@pytest.fixture
def event_path(template_event: Path, tmp_path: Path) -> Path:
    return Path(shutil.copy(template_event, tmp_path / "event.tandem"))


@pytest.fixture
def db(event_path: Path) -> Iterator[EventDatabase]:
    database = open_database(str(event_path))
    yield database
    database.close()
