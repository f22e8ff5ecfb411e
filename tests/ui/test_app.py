"""The application object: its name (QSettings keys on it), icon and style; the warm-up."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from director.ui.app import APP_NAME, ORGANISATION, WARM_UP, create_application, warm_up
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


def test_the_warm_up_loads_the_database_layer_and_services() -> None:
    warm_up()
    for name in WARM_UP:
        assert name in sys.modules
