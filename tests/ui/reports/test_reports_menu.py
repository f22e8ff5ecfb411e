"""The Reports menu: every report listed, a round's reports ask for the round, one click for a
round's scoresheets, and a clear word when there is nothing to print yet."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from director.services.matches import list_matches
from director.services.reports import KINDS, REPORTS, report, title_of
from director.services.rounds import list_rounds
from director.store.engine import open_database
from director.ui.main_window import MainWindow
from director.ui.reports.chooser import ReportChooser
from director.ui.reports.menu import ReportsMenu
from director.ui.reports.preview import ReportPreview
from tests.event_files import read_back
from tests.reports.pdfcheck import pdf_text
from tests.ui.app_helpers import OFFSCREEN_NOISE
from tests.ui.reports.conftest import EVENT_NAME
from tests.ui.reports.report_helpers import pages_of, shown

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)


def round_teams(path: Path, number: int) -> list[tuple[int, str, str]]:
    """(match id, team A, team B) of a round, read from the file with a fresh connection."""
    return read_back(path, lambda s: [(m.id, *m.names) for m in list_matches(s, number)])


def test_the_menu_lists_every_report_and_waits_for_an_event(
    window: MainWindow, demo_path: Path
) -> None:
    menu = window.reports_menu
    assert isinstance(menu, ReportsMenu)
    assert not menu.isEnabled()
    assert sorted(menu.kind_actions) == sorted(KINDS)
    for kind, action in menu.kind_actions.items():
        assert action.data() == kind
        assert action.text().startswith(title_of(kind))
        assert action in menu.actions()
        assert action.text().endswith("…") == report(kind).of_round  # a question follows
    assert window.open_target(str(demo_path), remember=False)
    assert menu.isEnabled()
    menu.refresh()
    assert menu.round_action.isEnabled()
    assert menu.round_action.text() == "Scoresheets for round 3"


@pytest.mark.parametrize("kind", [r.kind for r in REPORTS if r.of_round])
def test_a_round_report_asks_which_round_first(menu: ReportsMenu, kind: str) -> None:
    menu.kind_actions[kind].trigger()
    chooser = menu.chooser
    assert isinstance(chooser, ReportChooser)
    assert chooser.isVisible()
    assert menu.preview is None  # nothing is rendered before the round is chosen
    rounds = [chooser.round_box.itemData(i) for i in range(chooser.round_box.count())]
    assert rounds == [1, 2, 3]
    assert chooser.round_box.currentData() == 3  # the latest, so Enter is enough
    assert chooser.match_box.isVisibleTo(chooser) == report(kind).of_match


def test_the_chosen_round_is_the_one_printed(
    qtbot: QtBot, menu: ReportsMenu, demo_path: Path
) -> None:
    menu.kind_actions["pairings"].trigger()
    chooser = menu.chooser
    assert chooser is not None
    chooser.choose(2)
    chooser.preview_button.click()
    preview = shown(qtbot, menu.preview)
    assert preview.request.kind == "pairings"
    assert preview.request.round == 2
    text = pdf_text(preview.pdf or b"")
    assert "round 2" in text.lower()
    for _id, team_a, team_b in round_teams(demo_path, 2):
        assert team_a in text
        assert team_b in text


def test_one_match_of_a_round_can_be_chosen(
    qtbot: QtBot, menu: ReportsMenu, demo_path: Path
) -> None:
    (match_id, team_a, team_b), *others = round_teams(demo_path, 3)
    menu.kind_actions["match-report"].trigger()
    chooser = menu.chooser
    assert chooser is not None
    assert chooser.match_box.count() == 1 + 1 + len(others)  # every match, then each one
    assert chooser.match_box.currentData() is None  # the whole round by default
    chooser.choose(3, match_id)
    assert team_a in chooser.match_box.currentText()
    chooser.preview_button.click()
    preview = shown(qtbot, menu.preview)
    assert preview.request.match == match_id
    text = pdf_text(preview.pdf or b"")
    assert team_a in text
    assert team_b in text
    for _id, other_a, other_b in others:
        assert other_a not in text
        assert other_b not in text


def test_a_rounds_scoresheets_in_one_click(
    qtbot: QtBot, menu: ReportsMenu, demo_path: Path
) -> None:
    menu.refresh()
    menu.round_action.trigger()
    assert menu.chooser is None  # no question: the latest round, every match
    preview = shown(qtbot, menu.preview)
    assert preview.request.kind == "scoresheet"
    assert preview.request.round == 3
    assert preview.page_count() == pages_of(preview.pdf or b"")
    text = pdf_text(preview.pdf or b"")
    matches = round_teams(demo_path, 3)
    assert len(matches) == 4
    for _id, team_a, team_b in matches:
        assert team_a in text
        assert team_b in text
    assert preview.page_count() >= len(matches)  # a sheet for every table


@pytest.mark.parametrize("kind", ["teams", "boards", "event", "bracket"])
def test_a_report_of_the_whole_event_opens_at_once(
    qtbot: QtBot, menu: ReportsMenu, kind: str
) -> None:
    menu.kind_actions[kind].trigger()
    assert menu.chooser is None
    preview = shown(qtbot, menu.preview)
    assert isinstance(preview, ReportPreview)
    assert preview.isVisible()
    assert preview.windowTitle().startswith(title_of(kind))
    assert EVENT_NAME in pdf_text(preview.pdf or b"")


def test_the_met_asks_gammon_rate_backgammon_rate_and_size_first(
    qtbot: QtBot, menu: ReportsMenu
) -> None:
    from director.ui.reports.met_dialog import MetDialog

    menu.kind_actions["met"].trigger()
    dialog = menu.met_dialog
    assert isinstance(dialog, MetDialog) and menu.preview is None
    dialog.gammon.setValue(0.8)
    dialog.backgammon.setValue(0.3)  # together more than 1: refused beside the fields
    dialog.accept()
    assert dialog.isVisible() and "cannot exceed 1" in dialog.error.text()
    assert menu.preview is None
    dialog.gammon.setValue(0.2)
    dialog.backgammon.setValue(0.05)
    dialog.table_size.setValue(8)
    dialog.accept()
    preview = shown(qtbot, menu.preview)
    assert isinstance(preview, ReportPreview)
    text = pdf_text(preview.pdf or b"")
    assert "g = 0.2" in text and "b = 0.05" in text and "8 × 8" in text


def test_before_round_one_there_is_nothing_to_print_for_a_round(
    window: MainWindow, event_path: Path
) -> None:
    assert window.open_target(str(event_path), remember=False)
    menu = window.reports_menu
    assert isinstance(menu, ReportsMenu)
    menu.refresh()
    assert not menu.round_action.isEnabled()
    assert "none paired yet" in menu.round_action.text()
    for kind in ("pairings", "scoresheet", "match-report"):
        window.messages.clear()
        menu.kind_actions[kind].trigger()
        assert menu.chooser is None
        assert menu.preview is None
        assert window.messages.kind == "error"
        assert window.messages.text.startswith("No round is paired yet")
        assert title_of(kind).lower() in window.messages.text


def test_standings_before_round_one_need_no_question(
    qtbot: QtBot, window: MainWindow, event_path: Path
) -> None:
    assert window.open_target(str(event_path), remember=False)
    menu = window.reports_menu
    assert isinstance(menu, ReportsMenu)
    menu.kind_actions["standings"].trigger()
    assert menu.chooser is None
    preview = shown(qtbot, menu.preview)
    assert "Template Open" in pdf_text(preview.pdf or b"")


def test_the_round_list_is_the_events(menu: ReportsMenu, demo_path: Path) -> None:
    db = open_database(str(demo_path))
    try:
        with db.Session() as session:
            published = {r.number: r.published for r in list_rounds(session)}
    finally:
        db.close()
    menu.kind_actions["standings"].trigger()
    chooser = menu.chooser
    assert chooser is not None
    texts = [chooser.round_box.itemText(i) for i in range(chooser.round_box.count())]
    assert [t.split(" (")[0] for t in texts] == [f"After round {n}" for n in published]
    chooser.reject()
    assert menu.preview is None
