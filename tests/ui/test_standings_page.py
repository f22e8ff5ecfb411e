"""The standings page over a simulated event file: values equal the services', definitions shown."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from director.services import standings as service
from director.services.simulate import SimulationSettings, simulate_event
from director.services.teams import withdraw_team
from director.store.engine import open_database
from director.ui.context import EventContext
from director.ui.models.board_stats_model import BoardStatsModel
from director.ui.models.crosstable_model import CrosstableModel
from director.ui.models.standings_model import StandingsModel
from director.ui.standings_page import StandingsPage
from tests.event_files import read_back
from tests.ui.app_helpers import shown_page

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


@pytest.fixture(scope="module")
def sim_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("standings") / "sim.tandem"
    simulate_event(str(path), SimulationSettings(teams=9, rounds=3, seed=7)).close()
    return path


@pytest.fixture
def page(qtbot: QtBot, ctx: EventContext) -> StandingsPage:
    return shown_page(qtbot, StandingsPage(ctx))


def stored(path: Path, through: int | None = None) -> service.Standings:
    return read_back(path, lambda session: service.standings(session, through))


def column(model: StandingsModel, title: str) -> list[str]:
    c = model.columns.index(title)
    return [str(model.data(model.index(r, c))) for r in range(model.rowCount())]


def test_the_table_shows_the_services_standings(page: StandingsPage, sim_path: Path) -> None:
    view = stored(sim_path)
    assert column(page.model, "Team") == [line.team.name for line in view.lines]
    assert column(page.model, "MP") == [f"{line.row.match_points:g}" for line in view.lines]
    buchholz = [line.row.tie_breaks[view.tie_breaks[0]] for line in view.lines]
    assert column(page.model, "Buchholz") == [f"{b:g}" for b in buchholz]
    assert page.summary.text() == "after round 3, 9 teams"


def test_every_tie_break_column_names_its_definition(page: StandingsPage) -> None:
    model = page.model
    for title in ("Buchholz", "Points difference", "Points for", "Head-to-head", "Seed"):
        c = model.columns.index(title)
        tip = model.headerData(c, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
        assert str(tip).startswith(f"{title}:")
        assert f"<b>{title}</b>:" in page.legend.text()
    mp = model.headerData(
        model.columns.index("MP"), Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole
    )
    assert str(mp).startswith("Match points: win 2, draw 1")


def test_an_earlier_round_shows_the_standings_then(page: StandingsPage, sim_path: Path) -> None:
    assert [page.through.itemText(i) for i in range(page.through.count())] == [
        "latest",
        "1",
        "2",
        "3",
    ]
    page.through.setCurrentIndex(page.through.findData(1))
    page.tabs.setCurrentIndex(1)
    after_one = stored(sim_path, 1)
    assert column(page.model, "Team") == [line.team.name for line in after_one.lines]
    assert page.cross_model.columnCount() == 4  # rank, team, R1, MP
    assert page.summary.text() == "after round 1, 9 teams"


def test_crosstable_and_board_statistics_match_the_services(
    page: StandingsPage, sim_path: Path
) -> None:
    db = open_database(str(sim_path))
    with db.Session() as session:
        cells = service.event_crosstable(session)
        totals = service.board_statistics(session)
    db.close()
    assert page.cross_model.rowCount() == 0  # not read until its tab is shown
    page.tabs.setCurrentIndex(1)
    page.tabs.setCurrentIndex(2)
    cross = page.cross_model
    first = page.model.line(0).team.id
    for r in (1, 2, 3):
        cell = cells[first].get(r)
        text = cross.data(cross.index(0, 1 + r))
        if cell is None:
            assert text == ""
        elif cell.opponent is None:
            assert text == "bye"
        else:
            assert str(text).startswith(f"{cell.result} {cell.points_for}–{cell.points_against}")
    assert page.boards_model.rowCount() == len(totals)
    won = sum(int(page.boards_model.value(r, 4)) for r in range(len(totals)))  # type: ignore[call-overload]
    assert won == sum(t.won for t in totals)


def test_a_change_elsewhere_refreshes_the_standings(page: StandingsPage, sim_path: Path) -> None:
    leader = page.model.line(0).team
    page.ctx.change(withdraw_team, leader.id)
    assert f"{leader.name} (withdrawn)" in column(page.model, "Team")


def test_models_pass_the_model_tester(qtmodeltester: ModelTester, sim_path: Path) -> None:
    view = stored(sim_path)
    db = open_database(str(sim_path))
    with db.Session() as session:
        cells = service.event_crosstable(session)
        totals = service.board_statistics(session)
    db.close()
    standings = StandingsModel()
    qtmodeltester.check(standings)
    standings.set_standings(view)
    qtmodeltester.check(standings)
    cross = CrosstableModel()
    cross.set_data(view, cells)
    qtmodeltester.check(cross)
    boards = BoardStatsModel()
    boards.set_totals(totals, {line.team.id: line.team for line in view.lines})
    qtmodeltester.check(boards)


def test_the_screen_the_paper_and_the_phones_show_the_same_places(
    qtbot: QtBot, event_path: Path
) -> None:
    """Three teams equal on every criterion (no round yet, no seed tie-break): each surface
    shows the strict rank with "=" for a team equal to the one above (RULES §8)."""
    from director.domain.rules import EventOptions, TieBreak
    from director.services.events import update_event
    from director.services.reports import render
    from director.web.views import standings_page
    from tests.event_files import seed_teams
    from tests.reports.pdfcheck import pdf_text

    seed_teams(event_path, 3, clubs=True)
    ctx = EventContext(open_database(str(event_path)))
    try:
        ctx.change(
            update_event,
            options=EventOptions(tie_breaks=(TieBreak.BUCHHOLZ,)),
        )
        phones = [row["place"] for row in ctx.read(standings_page)["rows"]]
        paper = pdf_text(ctx.read(render, "standings"))
        page = StandingsPage(ctx)
        qtbot.addWidget(page)
        screen = column(page.model, "Rank")
    finally:
        ctx.close()
    assert screen == phones == ["1", "2=", "3="]
    assert "2= Team" in paper and "3= Team" in paper
