"""The application object: its name (QSettings keys on it), icon and style; the warm-up."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from director.ui.app import APP_NAME, ORGANISATION, create_application
from director.ui.style import ACCENT
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
