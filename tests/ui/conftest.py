"""Fixtures the GUI tests share: a throwaway settings file, a shown main window, and a fresh
copy of a module's simulated event (the module defines `sim_template`)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from director.store.engine import open_database
from director.ui.context import EventContext
from director.ui.main_window import MainWindow
from tests.ui.app_helpers import make_window, throwaway_settings


@pytest.fixture(autouse=True)
def _application(qapp: QApplication) -> QApplication:
    """Every GUI test runs with the application in place, also one that asks for no `qtbot`: an
    `EventContext` made before it has no event dispatcher for its worker's timers, and the
    test fails on Qt's warning when it is the first GUI test of its process."""
    return qapp


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    """A throwaway settings file: the tests never touch the user's (recent files, key map)."""
    return throwaway_settings(tmp_path)


@pytest.fixture
def window(qtbot: QtBot, settings: QSettings) -> Iterator[MainWindow]:
    main = make_window(qtbot, settings)
    yield main
    main.close_event()


@pytest.fixture
def sim_path(sim_template: Path, tmp_path: Path) -> Path:
    """A copy of the module's `sim_template` event, so each test may change it."""
    return Path(shutil.copy(sim_template, tmp_path / "sim.tandem"))


@pytest.fixture
def ctx(sim_path: Path) -> Iterator[EventContext]:
    """The open copy of `sim_template`; modules with another event define their own `ctx`."""
    context = EventContext(open_database(str(sim_path)))
    yield context
    context.close()
