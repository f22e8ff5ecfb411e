"""Flow: a director creates an event through the dialog, imports the team list through the
preview (one bad row skipped), checks a team in, and finds it all in the file afterwards."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from director.ui.event_dialog import EventDialog
from director.ui.main_window import MainWindow
from director.ui.team_model import COLUMNS
from director.ui.teams_page import TeamsPage
from tests.ui.app_helpers import OFFSCREEN_NOISE, stored_event, stored_teams, throwaway_settings

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)

TEAM_LIST = """\ufeffteam,player1,player2,club,rating,seed
Blue Bar,Ana Adler,Ben Brandt,North,1710,1
Gammonites,Cleo Costa,Dev Dahl,South,1690,2
Prime Time,Eva Evans,Femi Fischer,North,1650,3
Double Trouble,Gus Greco,Hana Holm,,1600,4
Anchor Crew,Ivo Ivanova,Jade Jensen,Harbour,1580,5
Back Game,Kofi Kaya,Lena Larsen,South,,6
Bear Off,Milo Moreau,Nora Novak,,1540,7
Blitz,Omar Ortiz,Pia Petrov,Harbour,1500,8
Cube Club,Quin Quinn,,North,,9
"""
PRESENT = [c.title for c in COLUMNS].index("Present")


def test_create_an_event_and_import_its_team_list(qtbot: QtBot, tmp_path: Path) -> None:
    window = MainWindow(throwaway_settings(tmp_path))
    qtbot.addWidget(window)
    window.show()

    # New event, from the start page
    window.start.new_button.click()
    dialog = window.findChild(EventDialog)
    assert dialog is not None and dialog.isVisible()
    qtbot.keyClicks(dialog.name, "Club Night")
    dialog.options_form.match_length.setValue(7)
    dialog.set_path(str(tmp_path / "club night"))
    with qtbot.waitSignal(dialog.finished):
        dialog.ok_button.click()
    event_file = tmp_path / "club night.tandem"
    assert window.windowTitle() == "Club Night – Tandem Director"
    assert window.view is not None
    page = window.view.page(0)
    assert isinstance(page, TeamsPage)
    assert page.stack.currentIndex() == 0  # "No teams yet"

    # Import the team list through its preview
    team_list = tmp_path / "teams.csv"
    team_list.write_text(TEAM_LIST, encoding="utf-8")
    preview = page.import_csv(str(team_list))
    assert preview is not None
    assert preview.model.rowCount() == 9
    assert [str(b) for b in preview.bad_rows] == ["line 10: player2 is empty"]
    assert stored_teams(event_file) == []  # nothing written by the preview
    preview.skip_bad.setChecked(True)
    with qtbot.waitSignal(preview.finished):
        preview.import_button.click()

    # The teams page shows them, in seed order
    assert page.stack.currentIndex() == 1
    shown = [page.proxy.index(row, 1).data() for row in range(page.proxy.rowCount())]
    assert shown == [
        "Blue Bar",
        "Gammonites",
        "Prime Time",
        "Double Trouble",
        "Anchor Crew",
        "Back Game",
        "Bear Off",
        "Blitz",
    ]
    assert page.counts.text() == "8 teams · 0 present · 0 paid"

    # Check one team in
    present = page.proxy.index(0, PRESENT)
    assert page.proxy.setData(present, Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole)
    assert page.counts.text() == "8 teams · 1 present · 0 paid"
    window.close()

    # Everything is in the file
    assert stored_event(event_file).options.match.match_length == 7
    teams = stored_teams(event_file)
    assert [(t.seed, t.name, t.players) for t in teams][:2] == [
        (1, "Blue Bar", ("Ana Adler", "Ben Brandt")),
        (2, "Gammonites", ("Cleo Costa", "Dev Dahl")),
    ]
    assert len(teams) == 8
    assert [t.name for t in teams if t.present] == ["Blue Bar"]
