"""The Reports menu over real event files: the demo club night (three rounds) or an empty one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from director.services.simulate import DEMO_NAME, build_demo
from director.ui.main_window import MainWindow
from director.ui.reports.menu import ReportsMenu

EVENT_NAME = DEMO_NAME


@pytest.fixture(scope="session")
def demo_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo club night, built once: 8 teams, rounds 1-2 played, round 3 under way."""
    path = tmp_path_factory.mktemp("demo") / "demo.tandem"
    build_demo(str(path))
    return path


@pytest.fixture
def demo_path(demo_template: Path, tmp_path: Path) -> Path:
    return Path(shutil.copy(demo_template, tmp_path / "club night.tandem"))


@pytest.fixture
def demo_window(window: MainWindow, demo_path: Path) -> MainWindow:
    assert window.open_target(str(demo_path), remember=False)
    return window


@pytest.fixture
def menu(demo_window: MainWindow) -> ReportsMenu:
    assert isinstance(demo_window.reports_menu, ReportsMenu)
    return demo_window.reports_menu
