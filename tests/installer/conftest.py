"""Fixtures for the installer's tests."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.installer.helpers import INSTALLER


@pytest.fixture(scope="session")
def icon_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The icon files, drawn once by `python installer/icons.py` in its own process (it makes
    its own QGuiApplication and loads a font: the test process's Qt stays as it is)."""
    out = tmp_path_factory.mktemp("icons")
    subprocess.run(
        [sys.executable, str(INSTALLER / "icons.py"), str(out)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return out
