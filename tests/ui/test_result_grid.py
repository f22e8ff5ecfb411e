"""The round's result grid (#24 point 5): every table's final score typed from paper in one
grid, checked as typed by the match's rules, each table saved as it is entered and found in
the file reopened from disk; tables played at the desk are shown, not typed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from director.domain.rules import End, Level, Side
from director.domain.score import Result, Score
from director.domain.scoring import Game
from director.services import games, matches
from director.services.audit import entries, match_places, team_names
from director.store.engine import open_database
from director.ui.context import EventContext
from director.ui.result_grid import ResultGridDialog
from director.ui.rounds_page import RoundsPage
from tests.event_files import read_back, seed_teams, stored_match
from tests.ui.app_helpers import event_context, shown_page, type_chars

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


@pytest.fixture
def ids(event_path: Path) -> list[int]:
    """Round 1 of 7 teams: three tables and a bye; table 1 has a game played at the desk."""
    db_ids = seed_teams(event_path, 7, pair=True)
    db = open_database(str(event_path))
    with db.Session() as s, s.begin():
        first = matches.get_match(s, db_ids[0])
        games.record_game(s, first.id, Game(1, 1, Side.A, End.BEAR_OFF, level=Level.SINGLE))
    db.close()
    return db_ids


@pytest.fixture
def ctx(event_path: Path, ids: list[int]) -> Iterator[EventContext]:
    with event_context(event_path) as context:
        yield context


PAGES: list[RoundsPage] = []  # the pages the grids were opened from, alive for the test


@pytest.fixture(autouse=True)
def _pages() -> Iterator[None]:
    yield
    PAGES.clear()


def grid_of(qtbot: QtBot, ctx: EventContext) -> ResultGridDialog:
    """The grid as the director opens it: the Rounds page's button, the first cell focused."""
    page = shown_page(qtbot, RoundsPage(ctx))
    PAGES.append(page)
    assert page.results_button.isEnabled()
    qtbot.mouseClick(page.results_button, Qt.MouseButton.LeftButton)
    grid = page.dialog
    assert isinstance(grid, ResultGridDialog)
    qtbot.waitExposed(grid)
    first = grid.first_cell()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is first)
    return grid


def type_row(qtbot: QtBot, grid: ResultGridDialog, a: str, b: str) -> None:
    """Type into the focused A cell, Enter, the B cell, Enter: as at the desk with a sheet."""
    for text in (a, b):
        cell = QApplication.focusWidget()
        assert cell in [c for r in grid.rows if r.cells for c in r.cells]
        qtbot.keyClicks(cell, text)
        qtbot.keyClick(cell, Qt.Key.Key_Return)


def test_scores_typed_down_the_grid_are_saved_table_by_table(
    qtbot: QtBot, ctx: EventContext, event_path: Path, ids: list[int]
) -> None:
    grid = grid_of(qtbot, ctx)
    assert len(grid.rows) == 4  # three tables and the bye
    desk, second, third, bye = grid.rows
    assert desk.cells is None and "played game by game at the desk (1 game)" in grid.problem_of(0)
    assert bye.cells is None and grid.problem_of(3) == "bye: Team 7 wins"
    assert QApplication.focusWidget() is second.cells[0]  # the first table to type
    type_row(qtbot, grid, "5", "2")
    # saved at once, before the next table is typed: on disk through another connection
    on_disk = stored_match(event_path, second.match.id)
    assert on_disk.outcome.from_paper and on_disk.outcome.result is Result.A
    assert on_disk.outcome.final == Score(5, 2)
    assert QApplication.focusWidget() is third.cells[0]
    assert "saved" in grid.problem_of(1)
    type_row(qtbot, grid, "4", "6")
    assert stored_match(event_path, third.match.id).outcome.result is Result.B
    assert grid.counts.text() == "2 of 3 tables have a result"
    lines = read_back(
        event_path,
        lambda s: [
            line.row({p.id: p for p in match_places(s)}, team_names(s))[2] for line in entries(s)
        ],
    )
    names = second.match.names
    assert (
        f"Result from paper at round 1, table {second.match.table} ({names[0]} v {names[1]})"
        f": 5–2, {names[0]} wins" in lines
    )


def test_a_score_no_game_can_give_is_refused_beside_its_cells(
    qtbot: QtBot, ctx: EventContext, event_path: Path
) -> None:
    grid = grid_of(qtbot, ctx)
    row = grid.rows[1]
    a, b = row.cells or ()
    qtbot.keyClicks(a, "4")
    qtbot.keyClick(a, Qt.Key.Key_Tab)
    qtbot.keyClicks(b, "3")
    assert grid.problem_of(1) == "not over: a match to 5 ends when a team reaches 5"
    qtbot.keyClick(b, Qt.Key.Key_Return)
    assert QApplication.focusWidget() is b  # refused: the focus stays to correct it
    assert not stored_match(event_path, row.match.id).outcome.finished
    qtbot.keyClick(b, Qt.Key.Key_Backspace)
    qtbot.keyClicks(b, "200")  # a one-cube pair from 1-away: at most 192 + 3 more
    assert grid.problem_of(1).startswith("no match to 5 ends 4–200: its last pair")
    b.selectAll()
    qtbot.keyClicks(b, "5")
    assert grid.problem_of(1).endswith("wins · Enter saves")
    qtbot.keyClick(b, Qt.Key.Key_Return)
    assert stored_match(event_path, row.match.id).outcome.final == Score(4, 5)


def test_a_paper_result_is_cleared_by_emptying_its_cells(
    qtbot: QtBot, ctx: EventContext, event_path: Path
) -> None:
    grid = grid_of(qtbot, ctx)
    type_row(qtbot, grid, "5", "0")
    match_id = grid.rows[1].match.id
    assert stored_match(event_path, match_id).outcome.finished
    a, b = grid.rows[1].cells or ()
    a.setFocus()
    a.clear()
    b.clear()
    b.textEdited.emit("")
    qtbot.keyClick(b, Qt.Key.Key_Return)
    assert not stored_match(event_path, match_id).outcome.finished


def test_leaving_a_row_by_the_mouse_saves_it(
    qtbot: QtBot, ctx: EventContext, event_path: Path
) -> None:
    grid = grid_of(qtbot, ctx)
    a, b = grid.rows[1].cells or ()
    qtbot.keyClicks(a, "6")
    qtbot.keyClick(a, Qt.Key.Key_Return)
    qtbot.keyClicks(b, "1")
    other = grid.rows[2].cells[0]  # type: ignore[index]
    qtbot.mouseClick(other, Qt.MouseButton.LeftButton)
    other.setFocus()
    qtbot.waitUntil(
        lambda: stored_match(event_path, grid.rows[1].match.id).outcome.final == Score(6, 1)
    )


@pytest.mark.parametrize("typed", ["²", "٣", "5²"])
def test_a_digit_that_is_not_0_to_9_is_refused_beside_its_cells(
    qtbot: QtBot, ctx: EventContext, event_path: Path, typed: str
) -> None:
    """ "²" passed str.isdigit and then failed int() (an error dialog, "This is a bug"); "٣"
    was read as 3 and saved."""
    grid = grid_of(qtbot, ctx)
    row = grid.rows[1]
    a, b = row.cells or ()
    qtbot.keyClicks(a, "5")
    qtbot.keyClick(a, Qt.Key.Key_Tab)
    type_chars(b, typed)
    assert b.text() == typed
    assert grid.problem_of(1) == "a score is a whole number of points"
    qtbot.keyClick(b, Qt.Key.Key_Return)
    assert not stored_match(event_path, row.match.id).outcome.finished


def test_one_table_is_counted_in_the_singular(qtbot: QtBot, event_path: Path) -> None:
    """A final of two teams: "0 of 1 tables have a result"."""
    seed_teams(event_path, 2, pair=True)
    with event_context(event_path) as context:
        grid = grid_of(qtbot, context)
        assert grid.counts.text() == "0 of 1 table has a result"
        type_row(qtbot, grid, "5", "3")
        assert grid.counts.text() == "1 of 1 table has a result"
        grid.close()
