"""Manual pairing from the rounds page: pair two teams, give the bye, forbidden pairs (#12)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from director.domain.pairing.model import Pairing
from director.domain.rules import End, Level, Side
from director.domain.scoring import Game
from director.services import games, rounds
from director.services.audit import entries
from director.services.manual_pairing import Edit
from director.store.engine import open_database
from director.ui.context import EventContext
from director.ui.forbidden_pairs_dialog import ForbiddenPairsDialog
from director.ui.round_dialogs import EditPairingsDialog, PairRoundDialog
from director.ui.rounds_page import RoundsPage
from tests.ui.test_rounds_page import click, ctx, page, publish_round, stored_rounds

__all__ = ["ctx", "page"]  # the rounds page's fixtures: eight teams on a real event file

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


def pairings(path: Path, number: int) -> list[Pairing]:
    return [
        Pairing(m.table, m.team_a.id, m.team_b.id if m.team_b else None)
        for m in stored_rounds(path)[number - 1].matches
    ]


def open_edit(qtbot: QtBot, page: RoundsPage, edit: Edit) -> EditPairingsDialog:
    click(qtbot, page.edit_button)
    dialog = page.dialog
    assert isinstance(dialog, EditPairingsDialog)
    dialog.edit.setCurrentIndex(dialog.edit.findData(edit.value))
    return dialog


def test_pair_two_teams_directly_their_opponents_meet(
    qtbot: QtBot, page: RoundsPage, event_path: Path
) -> None:
    publish_round(qtbot, page)
    (one, two), (three, four) = [(p.team_a, p.team_b) for p in pairings(event_path, 1)[:2]]
    dialog = open_edit(qtbot, page, Edit.PAIR)
    assert dialog.save_button.text() == "Pair them"
    assert dialog.second_label.text() == "plays"
    dialog.first.setCurrentIndex(dialog.first.findData(one))
    dialog.second.setCurrentIndex(dialog.second.findData(three))
    shown = [(dialog.table.item(r, 1).text(), dialog.table.item(r, 2).text()) for r in range(2)]
    name = dialog.names
    assert shown == [(name[one], name[three]), (name[two], name[four])]  # before saving
    click(qtbot, dialog.save_button)  # no reason yet: refused in the dialog
    assert dialog.isVisible() and "needs a reason" in dialog.error.text()
    qtbot.keyClicks(dialog.reason, "brothers on tables 1 and 2")
    click(qtbot, dialog.save_button)
    after = pairings(event_path, 1)
    assert {one, three} == set(after[0].teams) and {two, four} == set(after[1].teams)
    assert page.messages.text.startswith("The pairings are changed.")
    db = open_database(str(event_path))
    with db.Session() as session:
        [line] = [e for e in entries(session) if e.action == "edit pairings"]
    db.close()
    assert line.reason.startswith("pair together: ") and "brothers" in line.reason


def test_giving_the_bye_in_a_round_without_one_is_warned_first(
    qtbot: QtBot, page: RoundsPage, event_path: Path
) -> None:
    publish_round(qtbot, page)
    before = pairings(event_path, 1)
    dialog = open_edit(qtbot, page, Edit.BYE)
    assert dialog.second.isHidden() and dialog.save_button.text() == "Give the bye"
    assert "2 byes" in dialog.warnings.text()
    assert dialog.table.rowCount() == 5
    assert pairings(event_path, 1) == before  # shown, not written
    qtbot.keyClicks(dialog.reason, "team 1 must leave early")
    click(qtbot, dialog.save_button)
    assert len([p for p in pairings(event_path, 1) if p.team_b is None]) == 2
    assert "2 byes" in page.messages.text


def test_the_edit_dialog_says_when_the_teams_already_meet(
    qtbot: QtBot, page: RoundsPage, event_path: Path
) -> None:
    publish_round(qtbot, page)
    first = pairings(event_path, 1)[0]
    dialog = open_edit(qtbot, page, Edit.PAIR)
    dialog.first.setCurrentIndex(dialog.first.findData(first.team_a))
    dialog.second.setCurrentIndex(dialog.second.findData(first.team_b))
    assert dialog.choice_error.text() == "these two teams are already paired together"
    assert not dialog.save_button.isEnabled()


def test_forbidden_pairs_set_in_the_gui_keep_the_engine_apart(
    qtbot: QtBot, page: RoundsPage, ctx: EventContext, event_path: Path
) -> None:
    click(qtbot, page.forbidden_button)
    dialog = page.dialog
    assert isinstance(dialog, ForbiddenPairsDialog)
    team_1, team_5 = dialog.first.itemData(0), dialog.first.itemData(4)
    engine = ctx.read(rounds.preview_next_round).pairings
    assert {team_1, team_5} in [set(p.teams) for p in engine]  # the engine's choice today
    dialog.first.setCurrentIndex(0)
    dialog.second.setCurrentIndex(4)
    click(qtbot, dialog.forbid_button)
    assert "needs a reason" in dialog.error.text() and dialog.pairs.count() == 0
    qtbot.keyClicks(dialog.reason, "same club")
    click(qtbot, dialog.forbid_button)
    assert [dialog.pairs.item(0).text()] == ["Team 1  ✕  Team 5"]
    assert dialog.error.isHidden()
    dialog.close()
    # the engine never puts a forbidden pair together
    preview = ctx.read(rounds.preview_next_round)
    assert all(set(p.teams) != {team_1, team_5} for p in preview.pairings)
    publish_round(qtbot, page)
    edit = open_edit(qtbot, page, Edit.PAIR)
    edit.first.setCurrentIndex(edit.first.findData(team_1))
    edit.second.setCurrentIndex(edit.second.findData(team_5))
    assert "Team 1 v Team 5 is a forbidden pair" in edit.warnings.text()
    edit.reject()
    click(qtbot, page.forbidden_button)
    again = page.dialog
    assert isinstance(again, ForbiddenPairsDialog)
    again.pairs.setCurrentRow(0)
    qtbot.keyClicks(again.reason, "clubs merged")
    click(qtbot, again.allow_button)
    assert again.pairs.count() == 0
    db = open_database(str(event_path))
    with db.Session() as session:
        actions = [(e.action, e.reason) for e in entries(session)]
    db.close()
    assert actions == [("forbid pair", "same club"), ("allow pair", "clubs merged")]


def test_edit_pairings_is_off_with_the_reason_once_the_round_has_a_result(
    qtbot: QtBot, page: RoundsPage, event_path: Path
) -> None:
    """Friction: the button used to open a dialog whose Save then refused."""
    assert not page.edit_button.isEnabled()
    assert page.edit_button.toolTip() == "pair a round first"
    publish_round(qtbot, page)
    assert page.edit_button.isEnabled()
    match = page.rounds[-1].matches[0]
    game = Game(0, 1, Side.A, End.BEAR_OFF, level=Level.SINGLE)
    page.ctx.change(games.record_game, match.id, game)
    assert not page.edit_button.isEnabled()
    assert page.edit_button.toolTip() == "round 1 has results: it cannot be edited"


def test_the_edit_dialog_shows_a_bye_at_no_table(qtbot: QtBot, tmp_path: Path) -> None:
    """Issue #24 point 5: the bye was listed as "table 4" here, "–" everywhere else."""
    from director.services.events import create_event
    from director.store.engine import create_database
    from tests.event_files import seed_teams
    from tests.ui.app_helpers import event_context, shown_page

    path = tmp_path / "odd.tandem"
    db = create_database(str(path))
    with db.Session() as session, session.begin():
        create_event(session, "Odd night")
    db.close()
    seed_teams(path, 7)
    with event_context(path) as context:
        page = shown_page(qtbot, RoundsPage(context))
        publish_round(qtbot, page)
        (bye,) = [p for p in pairings(path, 1) if p.team_b is None]
        dialog = open_edit(qtbot, page, Edit.SWAP)
        shown = dialog.first.itemText(dialog.first.findData(bye.team_a))
        assert shown.startswith("–") and "bye" in shown and "table" not in shown
        dialog.close()


def test_forbidding_a_pair_that_meets_in_the_unstarted_round_is_warned_in_the_dialog(
    qtbot: QtBot, page: RoundsPage, event_path: Path
) -> None:
    publish_round(qtbot, page)
    first = pairings(event_path, 1)[0]
    click(qtbot, page.forbidden_button)
    dialog = page.dialog
    assert isinstance(dialog, ForbiddenPairsDialog)
    dialog.first.setCurrentIndex(dialog.first.findData(first.team_a))
    dialog.second.setCurrentIndex(dialog.second.findData(first.team_b))
    qtbot.keyClicks(dialog.reason, "brothers")
    click(qtbot, dialog.forbid_button)
    assert dialog.pairs.count() == 1
    assert dialog.warnings.isVisible()
    assert "meet at table 1 of round 1, which has not started" in dialog.warnings.text()


def test_pair_again_shows_the_new_pairing_and_the_swap_it_drops_before_publishing(
    qtbot: QtBot, page: RoundsPage, event_path: Path
) -> None:
    publish_round(qtbot, page)
    engine = pairings(event_path, 1)
    (one, _), (three, _) = [(p.team_a, p.team_b) for p in engine[:2]]
    edit = open_edit(qtbot, page, Edit.SWAP)
    edit.first.setCurrentIndex(edit.first.findData(one))
    edit.second.setCurrentIndex(edit.second.findData(three))
    qtbot.keyClicks(edit.reason, "same club")
    click(qtbot, edit.save_button)
    swapped = pairings(event_path, 1)
    click(qtbot, page.repair_button)
    dialog = page.dialog
    assert isinstance(dialog, PairRoundDialog)
    assert dialog.windowTitle() == "Pair round 1 again"
    assert "same club" in dialog.dropped.text() and dialog.dropped.isVisible()
    assert dialog.table.rowCount() == len(engine)
    assert pairings(event_path, 1) == swapped  # shown, not written
    click(qtbot, dialog.publish_button)  # no reason yet: refused in the dialog
    assert dialog.isVisible() and "needs a reason" in dialog.error.text()
    qtbot.keyClicks(dialog.reason, "the swap was a mistake")
    click(qtbot, dialog.publish_button)
    assert not dialog.isVisible()
    assert set(pairings(event_path, 1)) == set(engine)
    db = open_database(str(event_path))
    with db.Session() as session:
        [line] = [e for e in entries(session) if e.action == "pair again"]
    db.close()
    assert line.reason.startswith("the swap was a mistake; drops the edits made by hand: swap")
