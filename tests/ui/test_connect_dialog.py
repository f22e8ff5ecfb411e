"""Connecting to a shared event on a server: a bad or unreachable address is said clearly."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from director.ui.connect_dialog import ConnectDialog
from tests.ui.app_helpers import OFFSCREEN_NOISE

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)


def dialog_with(qtbot: QtBot, url: str) -> ConnectDialog:
    dialog = ConnectDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.keyClicks(dialog.url, url)
    dialog.connect_button.click()
    return dialog


def test_an_address_that_is_not_a_postgresql_url_is_refused(qtbot: QtBot) -> None:
    dialog = dialog_with(qtbot, "club-server/spring")
    assert dialog.isVisible()
    assert dialog.database is None
    assert dialog.error.text().startswith("A server address starts with postgresql://")


def test_an_unreachable_server_is_reported_in_the_dialog(qtbot: QtBot) -> None:
    dialog = dialog_with(qtbot, "postgresql://director:hush@127.0.0.1:9/spring")  # 9: discard
    assert dialog.isVisible()
    assert dialog.database is None
    assert dialog.error.isVisible()
    assert "cannot" in dialog.error.text()
    assert "hush" not in dialog.error.text()
