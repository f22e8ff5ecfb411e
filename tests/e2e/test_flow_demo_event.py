"""Flow: a newcomer opens the demo from the start page, looks at every page, withdraws a team,
tries to change the match length after games were played (refused, with the reason), and
closes; the event file shows exactly the one change made."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from director.ui.main_window import MainWindow
from director.ui.pages import PAGES
from director.ui.teams_page import TeamsPage
from tests.ui.app_helpers import OFFSCREEN_NOISE, stored_event, stored_teams, throwaway_settings

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)


def test_explore_the_demo_event(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    window = MainWindow(throwaway_settings(tmp_path))
    qtbot.addWidget(window)
    window.show()
    window.start.demo_button.click()
    assert window.ctx is not None and window.view is not None
    demo = window.ctx.db.path
    before = stored_event(demo)

    for index in range(len(PAGES)):
        window.page_actions[index].trigger()
        assert window.view.current_index == index
        assert window.view.page(index).isVisible()

    window.page_actions[0].trigger()
    teams = window.view.page(0)
    assert isinstance(teams, TeamsPage)
    first = teams.model.team_at(0)
    teams.table.selectRow(teams.proxy.mapFromSource(teams.model.index(0, 0)).row())
    teams.withdraw_button.click()
    assert teams.messages.text.startswith(f"Withdrew {first.name}: not paired from round")

    dialog = window.edit_options()
    assert dialog is not None
    dialog.options_form.match_length.setValue(before.options.match.match_length + 2)
    dialog.ok_button.click()
    assert dialog.isVisible()
    assert "cannot change once games are recorded" in dialog.error.text()
    dialog.reject()
    window.close()

    assert stored_event(demo) == before
    assert [t.name for t in stored_teams(demo) if t.withdrawn] == [first.name]
