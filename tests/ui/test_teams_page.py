"""The teams page and its model: real widgets over a real event file, checked by reopening it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QLineEdit
from pytestqt.qtbot import QtBot

from director.domain.errors import UserError
from director.domain.teamlist import parse_team_list
from director.domain.wording import quoted
from director.services.matches import create_match
from director.services.teams import add_team, edit_team, list_teams
from director.store.engine import open_database
from director.ui.context import EventContext
from director.ui.team_model import COLUMNS, TeamModel, counts_text
from director.ui.teams_page import TeamsPage
from tests.event_files import seed_teams
from tests.ui.app_helpers import (
    OFFSCREEN_NOISE,
    answer,
    event_context,
    stored_teams,
    type_chars,
)

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)

NAME = [c.title for c in COLUMNS].index("Team")
RATING = [c.title for c in COLUMNS].index("Rating")
PAID = [c.title for c in COLUMNS].index("Paid")


@pytest.fixture
def ctx(event_path: Path) -> Iterator[EventContext]:
    seed_teams(event_path, 4, clubs=True)
    with event_context(event_path) as context:
        yield context


@pytest.fixture
def page(qtbot: QtBot, ctx: EventContext) -> TeamsPage:
    widget = TeamsPage(ctx)
    qtbot.addWidget(widget)
    widget.show()  # a hidden page reads again only when shown (ui/refresh.py)
    return widget


def proxy_row(page: TeamsPage, name: str) -> int:
    for row in range(page.proxy.rowCount()):
        if page.proxy.index(row, NAME).data() == name:
            return row
    raise AssertionError(f"{name} not shown")


def select(page: TeamsPage, *names: str) -> None:
    page.table.clearSelection()
    for name in names:
        page.table.selectionModel().select(
            page.proxy.index(proxy_row(page, name), 0),
            page.table.selectionModel().SelectionFlag.Select
            | page.table.selectionModel().SelectionFlag.Rows,
        )


def test_model_passes_the_model_tester(qtmodeltester, ctx: EventContext) -> None:  # type: ignore[no-untyped-def]
    model = TeamModel(ctx)
    model.set_teams(ctx.read(list_teams))
    qtmodeltester.check(model)


def test_reload_keeps_rows_in_place_and_appends_new_teams(ctx: EventContext, qtbot: QtBot) -> None:
    model = TeamModel(ctx)
    model.set_teams(ctx.read(list_teams))
    first = model.team_at(0).id
    ctx.change(add_team, "Late Team", ("X", "Y"))
    with qtbot.waitSignal(model.rowsInserted):
        model.set_teams(ctx.read(list_teams))
    assert model.team_at(0).id == first
    assert model.team_at(model.rowCount() - 1).name == "Late Team"


def test_the_page_shows_every_team_and_the_counts(page: TeamsPage) -> None:
    assert page.proxy.rowCount() == 4
    assert page.counts.text() == "4 teams · 0 present · 0 paid"


def test_an_inline_edit_is_written_at_once(page: TeamsPage, event_path: Path) -> None:
    index = page.proxy.index(proxy_row(page, "Team 2"), NAME)
    assert page.proxy.setData(index, "Gammonites")
    assert "Gammonites" in [t.name for t in stored_teams(event_path)]
    assert page.proxy.index(proxy_row(page, "Gammonites"), NAME).data() == "Gammonites"


def test_a_refused_edit_shows_the_reason_and_keeps_the_stored_value(
    page: TeamsPage, event_path: Path
) -> None:
    index = page.proxy.index(proxy_row(page, "Team 2"), NAME)
    assert not page.proxy.setData(index, "team 1")
    assert "already registered" in page.messages.text
    assert [t.name for t in stored_teams(event_path)] == ["Team 1", "Team 2", "Team 3", "Team 4"]
    assert index.data() == "Team 2"


def test_a_rating_that_is_not_a_number_is_refused(page: TeamsPage, event_path: Path) -> None:
    index = page.proxy.index(proxy_row(page, "Team 3"), RATING)
    assert not page.proxy.setData(index, "strong")
    assert page.messages.text == "the rating must be a whole number, not 'strong'"
    assert all(t.rating is None for t in stored_teams(event_path))
    assert page.proxy.setData(index, "1650")
    assert {t.name: t.rating for t in stored_teams(event_path)}["Team 3"] == 1650
    assert page.proxy.setData(index, "")  # an emptied cell clears the rating
    assert {t.name: t.rating for t in stored_teams(event_path)}["Team 3"] is None


@pytest.mark.parametrize(
    "typed", ["١٦٥٠", "1_650", "9" * 25], ids=["arabic-digits", "underscore", "25-digits"]
)
def test_a_rating_in_other_digits_or_too_long_is_refused_in_the_cell_and_the_dialog(
    qtbot: QtBot, page: TeamsPage, event_path: Path, typed: str
) -> None:
    """int() read "١٦٥٠" as 1650 and "1_650" as 1650, and took 25 nines, which SQLite cannot
    store (the app's "This is a bug")."""
    index = page.proxy.index(proxy_row(page, "Team 3"), RATING)
    assert not page.proxy.setData(index, typed)
    assert page.messages.text == f"the rating must be a whole number, not {quoted(typed)}"
    dialog = page.add_teams()
    for field, text in (("name", "Blue Bar"), ("player1", "Ana"), ("player2", "Ben")):
        qtbot.keyClicks(getattr(dialog, field), text)
    type_chars(dialog.seed, typed)
    dialog.add_button.click()
    assert dialog.error.text() == f"the seed must be a whole number, not {quoted(typed)}"
    assert len(stored_teams(event_path)) == 4
    assert all(t.rating is None for t in stored_teams(event_path))


def test_ticking_paid_is_written(page: TeamsPage, event_path: Path) -> None:
    index = page.proxy.index(proxy_row(page, "Team 4"), PAID)
    assert page.proxy.setData(index, Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole)
    assert {t.name: t.paid for t in stored_teams(event_path)}["Team 4"] is True
    assert page.counts.text() == "4 teams · 0 present · 1 paid"


def test_add_dialog_refuses_an_empty_player_and_writes_nothing(
    qtbot: QtBot, page: TeamsPage, event_path: Path
) -> None:
    dialog = page.add_teams()
    qtbot.keyClicks(dialog.name, "Blue Bar")
    qtbot.keyClicks(dialog.player1, "Ana")
    dialog.add_button.click()
    assert dialog.error.isVisible()
    assert dialog.error.text() == "the board 2 player cannot be empty"
    assert len(stored_teams(event_path)) == 4
    qtbot.keyClicks(dialog.player2, "Ben")
    qtbot.keyClicks(dialog.rating, "12x")
    dialog.add_button.click()
    assert dialog.error.text() == "the rating must be a whole number, not '12x'"
    assert len(stored_teams(event_path)) == 4
    dialog.rating.clear()
    dialog.add_button.click()
    assert not dialog.error.isVisible()
    assert stored_teams(event_path)[-1].players == ("Ana", "Ben")
    assert dialog.name.text() == ""  # ready for the next team
    assert page.proxy.rowCount() == 5


def test_remove_asks_then_removes(qtbot: QtBot, page: TeamsPage, event_path: Path) -> None:
    select(page, "Team 1")
    page.remove_button.click()
    answer(qtbot, page, "Cancel")
    assert len(stored_teams(event_path)) == 4
    page.remove_button.click()
    answer(qtbot, page, "Remove")
    assert [t.name for t in stored_teams(event_path)] == ["Team 2", "Team 3", "Team 4"]
    assert page.proxy.rowCount() == 3


def test_a_team_in_a_pairing_cannot_be_removed(
    qtbot: QtBot, page: TeamsPage, ctx: EventContext, event_path: Path
) -> None:
    ids = {t.name: t.id for t in ctx.read(list_teams)}
    ctx.change(create_match, ids["Team 1"], ids["Team 2"])
    select(page, "Team 1")
    page.remove_button.click()
    answer(qtbot, page, "Remove")
    assert page.messages.kind == "error"
    assert "withdraw it instead" in page.messages.text
    assert len(stored_teams(event_path)) == 4


def test_withdraw_and_reinstate(page: TeamsPage, event_path: Path) -> None:
    select(page, "Team 3")
    assert page.withdraw_button.text() == "Withdraw"
    page.withdraw_button.click()
    assert {t.name: t.withdrawn for t in stored_teams(event_path)}["Team 3"]
    assert page.counts.text().startswith("4 teams, 1 withdrawn")
    select(page, "Team 3")
    assert page.withdraw_button.text() == "Reinstate"
    page.withdraw_button.click()
    assert not any(t.withdrawn for t in stored_teams(event_path))


def test_search_and_show_filter_the_rows(qtbot: QtBot, page: TeamsPage) -> None:
    qtbot.keyClicks(page.search, "bob 2")
    assert page.proxy.rowCount() == 1
    page.search.clear()
    qtbot.keyClicks(page.search, "club")
    assert page.proxy.rowCount() == 2
    page.search.clear()
    page.show_choice.setCurrentText("Withdrawn")
    assert page.proxy.rowCount() == 0


def test_export_writes_a_team_list_that_reads_back(page: TeamsPage, tmp_path: Path) -> None:
    target = tmp_path / "teams.csv"
    assert page.export_csv(str(target)) == target
    parsed = parse_team_list(target.read_text(encoding="utf-8"))
    assert [r.team for r in parsed.rows] == ["Team 1", "Team 2", "Team 3", "Team 4"]
    assert not parsed.bad


def test_export_into_a_missing_folder_is_refused(page: TeamsPage, tmp_path: Path) -> None:
    assert page.export_csv(str(tmp_path / "nowhere" / "teams.csv")) is None
    assert "does not exist" in page.messages.text


def test_counts_text_words() -> None:
    assert counts_text([]) == "0 teams"


def test_a_click_in_the_paid_cell_ticks_it(qtbot: QtBot, page: TeamsPage, event_path: Path) -> None:
    page.resize(1200, 500)
    page.show()
    qtbot.waitExposed(page)
    index = page.proxy.index(proxy_row(page, "Team 2"), PAID)
    centre = page.table.visualRect(index).center()
    qtbot.mouseClick(page.table.viewport(), Qt.MouseButton.LeftButton, pos=centre)
    assert {t.name: t.paid for t in stored_teams(event_path)}["Team 2"] is True
    page.table.setCurrentIndex(index)
    qtbot.keyClick(page.table, Qt.Key.Key_Space)
    assert {t.name: t.paid for t in stored_teams(event_path)}["Team 2"] is False


def test_an_edit_over_another_stations_change_is_refused_and_shows_theirs(
    page: TeamsPage, event_path: Path
) -> None:
    other = open_database(str(event_path))  # a second station on the same file
    with other.Session() as session, session.begin():
        team = next(t for t in list_teams(session) if t.name == "Team 2")
        edit_team(session, team.id, version=team.version, club="Harbour")
    other.close()
    index = page.proxy.index(proxy_row(page, "Team 2"), NAME)
    assert not page.proxy.setData(index, "Too Late")
    assert "changed on another station" in page.messages.text
    club = [c.title for c in COLUMNS].index("Club")
    assert page.proxy.index(proxy_row(page, "Team 2"), club).data() == "Harbour"
    assert {t.name for t in stored_teams(event_path)} == {"Team 1", "Team 2", "Team 3", "Team 4"}


def test_a_player_of_another_team_is_refused_next_to_the_fields(
    qtbot: QtBot, page: TeamsPage, event_path: Path
) -> None:
    """FORMATS: one player, one team. Team 2's Ann 1 typed again, in capitals, is refused."""
    dialog = page.add_teams()
    qtbot.keyClicks(dialog.name, "Late Team")
    qtbot.keyClicks(dialog.player1, "Zoe")
    qtbot.keyClicks(dialog.player2, "ANN 1")
    dialog.add_button.click()
    assert dialog.error.isVisible()
    assert dialog.error.text() == "player 'ANN 1' already plays for team 'Team 2'"
    assert len(stored_teams(event_path)) == 4
    with pytest.raises(UserError, match="cannot play both boards"):
        page.ctx.change(edit_team, stored_teams(event_path)[0].id,
                        players=("Ann 0", "ann 0"))  # fmt: skip
    assert stored_teams(event_path)[0].players == ("Ann 0", "Bob 0")


def test_an_inline_edit_leaves_only_its_row_selected(qtbot: QtBot, page: TeamsPage) -> None:
    """Three rows chosen, then a name typed into the current one: Withdraw must not then act
    on the two others."""
    select(page, "Team 1", "Team 2", "Team 3")
    index = page.proxy.index(proxy_row(page, "Team 2"), NAME)
    page.table.selectionModel().setCurrentIndex(
        index, page.table.selectionModel().SelectionFlag.NoUpdate
    )
    page.table.edit(index)
    editor = page.table.indexWidget(index)  # the cell's editor
    assert isinstance(editor, QLineEdit)
    editor.setText("Gammonites")
    qtbot.keyClick(editor, Qt.Key.Key_Return)  # the delegate commits and closes, queued
    qtbot.waitUntil(lambda: page.table.state() is not QAbstractItemView.State.EditingState)
    assert [t.name for t in page.selected_teams()] == ["Gammonites"]
    assert page.withdraw_button.isEnabled()


def shown_names(page: TeamsPage) -> list[str]:
    return [page.proxy.index(row, NAME).data() for row in range(page.proxy.rowCount())]


def test_the_table_sorts_by_the_column_clicked_numbers_as_numbers_and_follows_edits(
    page: TeamsPage, ctx: EventContext
) -> None:
    teams = {t.name: t for t in ctx.read(list_teams)}
    for name, rating, new_name in (
        ("Team 1", 1500, "delta"),
        ("Team 2", None, "Bravo"),
        ("Team 3", 900, "alpha"),
        ("Team 4", 10000, "Charlie"),
    ):
        team = teams[name]
        ctx.change(
            edit_team, team.id, version=team.version, name=new_name,
            rating=rating,
        )  # fmt: skip
    page.refresh()
    assert shown_names(page) == ["delta", "Bravo", "alpha", "Charlie"]  # by seed, at first
    header = page.table.horizontalHeader()
    header.sectionClicked.emit(NAME)  # the view sorts as a click on the header does
    page.table.sortByColumn(NAME, Qt.SortOrder.AscendingOrder)
    assert shown_names(page) == ["alpha", "Bravo", "Charlie", "delta"]  # case does not count
    page.table.sortByColumn(RATING, Qt.SortOrder.AscendingOrder)
    assert shown_names(page) == ["Bravo", "alpha", "delta", "Charlie"]  # 900 before 10000
    page.table.sortByColumn(RATING, Qt.SortOrder.DescendingOrder)
    assert shown_names(page) == ["Charlie", "delta", "alpha", "Bravo"]
    row = page.proxy.mapToSource(page.proxy.index(shown_names(page).index("alpha"), RATING))
    assert page.model.setData(row, "20000", Qt.ItemDataRole.EditRole)  # an inline edit
    assert shown_names(page) == ["alpha", "Charlie", "delta", "Bravo"]  # its row moves
