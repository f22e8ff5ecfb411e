"""The rounds page over a real event file: pair, publish, swap, pair again, undo, open a match."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from director.domain.changes import Changes
from director.domain.simulation import simulate_match
from director.services import games, rounds
from director.services.audit import entries
from director.services.events import get_event, update_event
from director.services.rounds import RoundInfo, RoundStatus
from director.store.engine import open_database
from director.ui.context import EventContext
from director.ui.event_view import EventView
from director.ui.models.round_model import RoundMatchesModel
from director.ui.round_dialogs import EditPairingsDialog, PairRoundDialog
from director.ui.rounds_page import RoundsPage
from tests.event_files import read_back, seed_teams
from tests.ui.app_helpers import event_context, shown_page

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


def stored_rounds(path: Path) -> list[RoundInfo]:
    return read_back(path, rounds.list_rounds)


def play_round(path: Path, number: int, seed: int = 1) -> None:
    """Every match of the round played to its end at other stations (simulated games)."""
    rng = random.Random(seed)
    db = open_database(str(path))
    try:
        with db.Session() as session:
            matches = rounds.get_round(session, number).matches
        for match in matches:
            if match.is_bye:
                continue
            for game in simulate_match(match.rules, rng):
                with db.Session() as session, session.begin():
                    games.record_game(session, match.id, replace(game, pair=0))
    finally:
        db.close()


@pytest.fixture
def ctx(event_path: Path) -> Iterator[EventContext]:
    seed_teams(event_path, 8)
    with event_context(event_path) as context:
        yield context


@pytest.fixture
def page(qtbot: QtBot, ctx: EventContext) -> RoundsPage:
    return shown_page(qtbot, RoundsPage(ctx))


def click(qtbot: QtBot, widget: object) -> None:
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)  # type: ignore[arg-type]


def publish_round(qtbot: QtBot, page: RoundsPage) -> PairRoundDialog:
    click(qtbot, page.pair_button)
    dialog = page.dialog
    assert isinstance(dialog, PairRoundDialog)
    click(qtbot, dialog.publish_button)
    return dialog


def answer(box: QMessageBox | None, text: str) -> None:
    assert box is not None and box.isVisible()
    (button,) = [b for b in box.buttons() if b.text() == text]
    button.click()


def test_an_event_without_rounds_says_what_to_do(page: RoundsPage) -> None:
    assert page.stack.currentIndex() == 0
    assert page.summary.text() == "no round yet"
    assert not page.edit_button.isEnabled()


def test_pair_preview_then_publish_writes_the_round(
    qtbot: QtBot, page: RoundsPage, event_path: Path
) -> None:
    click(qtbot, page.pair_button)
    dialog = page.dialog
    assert isinstance(dialog, PairRoundDialog)
    assert dialog.table.rowCount() == 4
    assert stored_rounds(event_path) == []  # a preview writes nothing
    shown = [(dialog.table.item(r, 1).text(), dialog.table.item(r, 4).text()) for r in range(4)]
    click(qtbot, dialog.publish_button)
    (stored,) = stored_rounds(event_path)
    assert [(m.names[0], m.names[1]) for m in stored.matches] == shown
    assert page.model.rowCount() == 4
    assert page.round_list.count() == 1
    assert "not started" in page.round_list.item(0).text()
    assert page.messages.text == "Round 1 is published."


def test_cancelling_the_preview_writes_nothing(
    qtbot: QtBot, page: RoundsPage, event_path: Path
) -> None:
    click(qtbot, page.pair_button)
    assert page.dialog is not None
    page.dialog.reject()
    assert stored_rounds(event_path) == []


def test_the_next_round_is_refused_until_this_one_is_finished(
    qtbot: QtBot, page: RoundsPage, event_path: Path
) -> None:
    publish_round(qtbot, page)
    click(qtbot, page.pair_button)
    assert page.dialog is None or not page.dialog.isVisible()
    assert "round 1 is not finished yet" in page.messages.text
    assert len(stored_rounds(event_path)) == 1


def test_one_round_and_one_match_are_said_in_the_singular(
    qtbot: QtBot, tmp_path: Path, event_path: Path
) -> None:
    """A two-team final of one round: "Swiss, 1 rounds" in the panel, "0 of 1 matches done"."""
    final = tmp_path / "final.tandem"
    final.write_bytes(event_path.read_bytes())
    seed_teams(final, 2)
    db = open_database(str(final))
    with db.Session() as s, s.begin():
        update_event(s, options=replace(get_event(s).options, rounds=1))
        rounds.pair_next_round(s)
    db.close()
    with event_context(final) as ctx:
        view = EventView(ctx)
        qtbot.addWidget(view)
        assert "\nSwiss, 1 round\n" in view.event_summary.text()
        page = shown_page(qtbot, RoundsPage(ctx))
        assert page.summary.text().endswith(", 0 of 1 match done")


def test_statuses_follow_the_results(qtbot: QtBot, page: RoundsPage, event_path: Path) -> None:
    publish_round(qtbot, page)
    play_round(event_path, 1)
    page.ctx.changed.emit(Changes.match(1))  # another station's results: the page re-reads
    assert page.rounds == stored_rounds(event_path)  # the round read alone equals the service's
    assert all(
        page.model.data(page.model.index(r, 4)) == "finished" for r in range(page.model.rowCount())
    )
    assert "finished" in page.round_list.item(0).text()
    assert page.summary.text() == "round 1: finished, 4 of 4 matches done"
    publish_round(qtbot, page)
    assert page.round_list.count() == 2 and page.round_list.currentRow() == 1


def test_a_result_rereads_only_its_round_and_agrees_with_the_service(
    qtbot: QtBot, page: RoundsPage, event_path: Path
) -> None:
    publish_round(qtbot, page)
    match = page.model.match_at(0)
    game = simulate_match(match.rules, random.Random(3))[0]
    page.ctx.change(games.record_game, match.id, replace(game, pair=0))
    (stored,) = stored_rounds(event_path)
    assert stored.status is RoundStatus.IN_PROGRESS
    assert page.rounds == [stored]
    assert page.model.data(page.model.index(0, 4)) == "in progress"
    assert "in progress" in page.round_list.item(0).text()


def test_a_swap_shows_its_warnings_first_and_is_audited(
    qtbot: QtBot, page: RoundsPage, event_path: Path
) -> None:
    publish_round(qtbot, page)
    play_round(event_path, 1)
    page.refresh()
    publish_round(qtbot, page)
    first_round, second_round = stored_rounds(event_path)
    met = {m.team_a.id: m.team_b.id for m in first_round.matches if m.team_b}
    table = second_round.matches[0]
    assert table.team_b is not None
    old_opponent = met.get(table.team_a.id) or next(
        k for k, v in met.items() if v == table.team_a.id
    )
    click(qtbot, page.edit_button)
    dialog = page.dialog
    assert isinstance(dialog, EditPairingsDialog)
    dialog.first.setCurrentIndex(dialog.first.findData(table.team_b.id))
    dialog.second.setCurrentIndex(dialog.second.findData(old_opponent))
    assert "is a rematch" in dialog.warnings.text()
    assert stored_rounds(event_path)[1] == second_round  # nothing written yet
    qtbot.keyClicks(dialog.reason, "same club")
    click(qtbot, dialog.save_button)
    after = stored_rounds(event_path)[1].matches[0]
    assert {after.team_a.id, after.team_b.id if after.team_b else None} == {
        table.team_a.id,
        old_opponent,
    }
    assert "rematch" in page.messages.text
    db = open_database(str(event_path))
    with db.Session() as session:
        (line,) = [e for e in entries(session) if e.action == "edit pairings"]
    db.close()
    assert line.reason.startswith("swap places: ")
    assert "; same club; warnings:" in line.reason


def test_the_same_team_twice_is_not_a_swap(qtbot: QtBot, page: RoundsPage) -> None:
    publish_round(qtbot, page)
    click(qtbot, page.edit_button)
    dialog = page.dialog
    assert isinstance(dialog, EditPairingsDialog)
    dialog.second.setCurrentIndex(dialog.first.currentIndex())
    assert dialog.choice_error.text() == "choose two different teams"
    assert not dialog.save_button.isEnabled()


def test_a_swap_in_a_round_with_results_is_refused_in_the_dialog(
    qtbot: QtBot, page: RoundsPage, event_path: Path
) -> None:
    publish_round(qtbot, page)
    click(qtbot, page.edit_button)
    dialog = page.dialog
    assert isinstance(dialog, EditPairingsDialog)
    play_round(event_path, 1)  # meanwhile, results arrive
    before = stored_rounds(event_path)
    click(qtbot, dialog.save_button)
    assert dialog.isVisible()
    assert "round 1 has results: it cannot be re-paired" in dialog.error.text()
    assert stored_rounds(event_path) == before


def test_undo_last_round_asks_then_deletes_it(
    qtbot: QtBot, page: RoundsPage, event_path: Path
) -> None:
    publish_round(qtbot, page)
    click(qtbot, page.undo_button)
    answer(page.question, "Cancel")
    assert len(stored_rounds(event_path)) == 1
    click(qtbot, page.undo_button)
    answer(page.question, "Undo the round")
    assert stored_rounds(event_path) == []
    assert page.stack.currentIndex() == 0


def test_undo_is_refused_once_results_are_in(
    qtbot: QtBot, page: RoundsPage, event_path: Path
) -> None:
    publish_round(qtbot, page)
    play_round(event_path, 1)
    click(qtbot, page.undo_button)
    answer(page.question, "Undo the round")
    assert "round 1 has results: it cannot be undone" in page.messages.text
    assert len(stored_rounds(event_path)) == 1


def test_pair_again_replaces_the_last_round(
    qtbot: QtBot, page: RoundsPage, event_path: Path
) -> None:
    publish_round(qtbot, page)
    click(qtbot, page.repair_button)
    dialog = page.dialog
    assert isinstance(dialog, PairRoundDialog)
    qtbot.keyClicks(dialog.reason, "a team arrived late")
    click(qtbot, dialog.publish_button)
    (again,) = stored_rounds(event_path)
    assert again.number == 1 and len(again.matches) == 4
    assert page.messages.kind != "error"


def test_double_click_opens_the_match_at_the_desk(qtbot: QtBot, page: RoundsPage) -> None:
    publish_round(qtbot, page)
    index = page.model.index(2, 1)
    rect = page.table.visualRect(index)
    with qtbot.waitSignal(page.ctx.match_requested) as blocker:
        qtbot.mouseClick(page.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        qtbot.mouseDClick(page.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert blocker.args == [page.model.match_at(2).id]


def test_round_model_passes_the_model_tester(
    qtbot: QtBot, qtmodeltester: ModelTester, page: RoundsPage, event_path: Path
) -> None:
    model = RoundMatchesModel()
    qtmodeltester.check(model)
    publish_round(qtbot, page)
    play_round(event_path, 1)
    (info,) = stored_rounds(event_path)
    model.set_matches(info.matches)
    qtmodeltester.check(model)
    assert model.row_of(info.matches[1].id) == 1
    assert model.data(model.index(0, 5)).endswith("wins") or model.data(model.index(0, 5)) == "draw"


def test_a_hidden_page_reads_again_when_shown(
    qtbot: QtBot, page: RoundsPage, event_path: Path
) -> None:
    page.hide()
    page.ctx.change(rounds.pair_next_round)
    assert page.refresher.stale and page.model.rowCount() == 0
    page.show()
    assert page.model.rowCount() == 4


def test_after_the_last_round_pair_next_round_is_no_longer_the_primary_button(
    qtbot: QtBot, event_path: Path
) -> None:
    """Issue #24 point 5: after the last round it stayed the primary button."""
    from director.domain.rules import EventOptions
    from director.services.events import update_event

    seed_teams(event_path, 4)
    db = open_database(str(event_path))
    with db.Session() as session, session.begin():
        update_event(session, options=EventOptions(rounds=1))
        rounds.pair_next_round(session)
    db.close()
    with event_context(event_path) as context:
        page = shown_page(qtbot, RoundsPage(context))
        assert page.pair_button.property("role") == "primary"  # round 1 is being played
        play_round(event_path, 1)
        page.refresh()
        assert page.pair_button.property("role") != "primary"
        assert "rounds of this event are paired" in page.pair_button.toolTip()
