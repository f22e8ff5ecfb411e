"""The Rounds page of a knockout (#29, RULES §11): the brackets shown as brackets, the matches
ready to start highlighted, and "Pair ready matches" pairing each match as soon as both its
feeders are finished, not when the whole round is."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from director.domain.brackets.draw import MatchKey
from director.domain.brackets.plan import ready_made
from director.domain.rules import End, Level, PairingSystem, Side
from director.domain.scoring import Game
from director.services import games, rounds
from director.services.brackets import set_plan
from director.services.events import get_event, update_event
from director.services.matches import get_match, list_matches
from director.services.teams import edit_team, list_teams
from director.store.engine import open_database
from director.ui.bracket_chart import MatchBox, side
from director.ui.context import EventContext
from director.ui.round_dialogs import PairRoundDialog
from director.ui.rounds_page import RoundsPage
from tests.event_files import seed_teams
from tests.ui.app_helpers import event_context, shown_page

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


@pytest.fixture
def ctx(event_path: Path) -> Iterator[EventContext]:
    db = open_database(str(event_path))
    with db.Session() as s, s.begin():
        options = get_event(s).options
        update_event(s, options=replace(options, pairing_system=PairingSystem.KNOCKOUT))
    db.close()
    seed_teams(event_path, 8)
    db = open_database(str(event_path))
    with db.Session() as s, s.begin():
        set_plan(s, ready_made("consolation-last-chance"))
    db.close()
    with event_context(event_path) as context:
        yield context


def publish(qtbot: QtBot, page: RoundsPage) -> None:
    qtbot.mouseClick(page.pair_button, Qt.MouseButton.LeftButton)
    dialog = page.dialog
    assert isinstance(dialog, PairRoundDialog), page.messages.text
    qtbot.mouseClick(dialog.publish_button, Qt.MouseButton.LeftButton)


def boxes(page: RoundsPage) -> dict[str, list[MatchBox]]:
    """The drawn boxes of each bracket's tab, by the tab's bracket title, round by round."""
    return {chart.view.title: [chart.boxes[k] for k in sorted(chart.boxes)]
            for chart in page.brackets.charts}  # fmt: skip


def play_out(event_path: Path, match_ids: list[int]) -> None:
    """Side A wins each match over the board (the file written as another station would)."""
    db = open_database(str(event_path))
    with db.Session() as s, s.begin():
        for match_id in match_ids:
            board = 1
            while get_match(s, match_id).pair_state.match_live:
                game = Game(0, board, Side.A, End.BEAR_OFF, level=Level.BACKGAMMON)
                games.record_game(s, match_id, game)
                board = 3 - board
    db.close()


def test_the_brackets_are_drawn_and_a_match_is_paired_when_its_feeders_finish(
    qtbot: QtBot, ctx: EventContext, event_path: Path
) -> None:
    page = shown_page(qtbot, RoundsPage(ctx))
    assert page.pair_button.text() == "Pair ready matches…"
    publish(qtbot, page)
    tabs = page.brackets
    assert tabs.isVisible()
    assert [tabs.tabText(i) for i in range(tabs.count())] == [
        "Main bracket (4 ready)", "Consolation bracket", "Last chance bracket"]  # fmt: skip
    main = boxes(page)["Main bracket"]
    assert [b.line.round_title for b in main[:4]] == ["Quarter-final · to 7"] * 4
    assert all(b.ready and "ready to start" in b.accessibleName() for b in main[:4])
    assert not main[4].ready and "…" in main[4].names and "waiting" in main[4].accessibleName()
    assert [chart.view.rounds for chart in tabs.charts][0] == (
        ("Quarter-final · to 7", 4), ("Semi-final · to 7", 2), ("Final · to 9", 1))  # fmt: skip
    play_out(event_path, first_two(event_path))
    ctx.changed.emit(ctx_changes())
    main = boxes(page)["Main bracket"]
    ready = [b for b in main if b.ready]
    assert [b.line.round_title for b in ready] == ["Quarter-final · to 7"] * 2 + [
        "Semi-final · to 7"
    ]
    semi = ready[-1]
    assert semi.match_id is None and "ready: pair it" in semi.accessibleName()
    for done in main[:2]:  # the winner (in bold) and both scores as stored
        assert done.line.winner == done.names[0] and int(done.scores[0]) >= 7
    assert_drawn_as_stored(page, event_path)
    publish(qtbot, page)
    main = boxes(page)["Main bracket"]
    semi = next(b for b in main if b.key == semi.key)
    assert (
        semi.ready
        and semi.match_id is not None
        and "table 1: ready to start" in semi.accessibleName()
    )
    consolation = boxes(page)["Consolation bracket"]
    assert consolation[0].ready and consolation[0].line.table is not None
    assert page.messages.text == "Round 2 is published."
    assert not page.edit_button.isEnabled()  # a bracket is paired by its plan
    assert_drawn_as_stored(page, event_path)
    with qtbot.waitSignal(ctx.match_requested) as opened:  # a double-click opens it at the desk
        qtbot.mouseDClick(semi, Qt.MouseButton.LeftButton)
    assert opened.args == [semi.match_id]


def assert_drawn_as_stored(page: RoundsPage, event_path: Path) -> None:
    """One box per stored match of each bracket, at its bracket, round and slot, with the
    stored names and, once finished, the stored scores."""
    db = open_database(str(event_path))
    with db.Session() as s:
        stored = list_matches(s)
    db.close()
    drawn = {(chart.view.name, key): box for chart in page.brackets.charts
             for key, box in chart.boxes.items()}  # fmt: skip
    with_match = {box.match_id for box in drawn.values() if box.match_id is not None}
    assert with_match == {m.id for m in stored}
    for m in stored:
        assert m.bracket is not None and m.bracket_round is not None and m.slot is not None
        box = drawn[(m.bracket, MatchKey(m.bracket, m.bracket_round, m.slot))]
        assert box.match_id == m.id
        assert box.names == (m.team_a.name, m.team_b.name if m.team_b else "bye")
        if m.team_b is not None and m.outcome.finished:
            assert box.scores == (str(m.outcome.final.a), str(m.outcome.final.b))
        elif m.team_b is not None:
            assert box.scores == ("", "")


def first_two(event_path: Path) -> list[int]:
    db = open_database(str(event_path))
    with db.Session() as s:
        ids = [m.id for m in rounds.get_round(s, 1).matches[:2]]
    db.close()
    return ids


def ctx_changes() -> object:
    from director.domain.changes import Area, Changes

    return Changes.of(Area.ROUNDS, Area.RESULTS)


def test_a_match_is_chosen_by_a_click_and_the_keyboard_moves_along_the_bracket(
    qtbot: QtBot, ctx: EventContext, event_path: Path
) -> None:
    page = shown_page(qtbot, RoundsPage(ctx))
    publish(qtbot, page)
    page.activateWindow()
    qtbot.waitUntil(page.isActiveWindow)  # the keyboard's focus goes to the active window
    main = boxes(page)["Main bracket"]
    first, second = main[0], main[1]
    qtbot.mouseClick(second, Qt.MouseButton.LeftButton)  # chosen for the desk's buttons
    chosen = page.selected_match()
    assert chosen is not None and chosen.id == second.match_id
    assert page.no_show_button.isEnabled()
    qtbot.keyClick(second, Qt.Key.Key_Up)
    assert first.hasFocus()
    chosen = page.selected_match()
    assert chosen is not None and chosen.id == first.match_id
    qtbot.keyClick(first, Qt.Key.Key_Right)  # to the match its winner plays next
    semi = next(b for b in boxes(page)["Main bracket"] if b.hasFocus())
    assert semi.key == first.line.feeds and semi.line.round_title.startswith("Semi-final")
    qtbot.keyClick(semi, Qt.Key.Key_Left)
    assert first.hasFocus()
    with qtbot.waitSignal(ctx.match_requested) as opened:  # Enter opens it at the desk
        qtbot.keyClick(first, Qt.Key.Key_Return)
    assert opened.args == [first.match_id]


def test_long_and_right_to_left_names_are_shortened_with_the_whole_name_in_the_tooltip(
    qtbot: QtBot, ctx: EventContext, event_path: Path
) -> None:
    long_name = "The Extraordinarily Long-Named Backgammon Society of the Northern Harbour"
    hebrew = "שרה לוי"
    db = open_database(str(event_path))
    with db.Session() as s, s.begin():
        teams = {t.name: t.id for t in list_teams(s)}
        edit_team(s, teams["Team 1"], name=long_name)
        edit_team(s, teams["Team 8"], name=hebrew)
    db.close()
    page = shown_page(qtbot, RoundsPage(ctx))
    publish(qtbot, page)
    first = boxes(page)["Main bracket"][0]
    assert first.names == (long_name, hebrew)  # seed 1 meets seed 8
    assert long_name in first.toolTip() and hebrew in first.toolTip()
    assert long_name in first.accessibleName()
    assert first.width() < first.fontMetrics().horizontalAdvance(long_name)  # so: shortened
    assert (
        side(hebrew) == Qt.AlignmentFlag.AlignRight
        and side(long_name) == Qt.AlignmentFlag.AlignLeft
    )


def test_a_result_updates_the_drawn_boxes_in_place_and_keeps_the_focus(
    qtbot: QtBot, ctx: EventContext, event_path: Path
) -> None:
    """A director refreshes after every result: the boxes show it without being built again
    (a 256-player night draws 500 of them), so the same widgets stay, the focused match keeps
    the keyboard, and the scores, the winners and the semi-final they reach are filled in."""
    from director.domain.changes import Changes

    page = shown_page(qtbot, RoundsPage(ctx))
    publish(qtbot, page)
    page.activateWindow()
    qtbot.waitUntil(page.isActiveWindow)
    before = boxes(page)
    focused = before["Main bracket"][1]
    focused.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.waitUntil(focused.hasFocus)
    ids = first_two(event_path)
    play_out(event_path, ids)
    ctx.changed.emit(Changes.match(ids[0]) | Changes.match(ids[1]))  # as the desk tells it
    after = boxes(page)
    assert all(a is b for title in before for a, b in zip(before[title], after[title], strict=True))
    assert focused.hasFocus()
    main = after["Main bracket"]
    assert [b.line.winner == b.names[0] != "" for b in main[:2]] == [True, True]
    semi = main[4]
    assert semi.ready and semi.names == (main[0].names[0], main[1].names[0])
    assert page.brackets.tabText(0) == "Main bracket (3 ready)"
    assert_drawn_as_stored(page, event_path)


def test_the_sql_statements_of_a_refresh_do_not_grow_with_the_matches(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """A refresh of a knockout's Rounds page reads the draw with a fixed set of queries, not a
    read per match: an 8-player and a 64-player progressive consolation, each part-played,
    send the same number of SQL statements for a whole refresh and for one after a result."""
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    from director.domain.changes import Changes
    from director.domain.rules import Format
    from director.services.simulate import SimulationSettings, simulate_event

    sent: list[int] = []

    def count(*_: object) -> None:
        sent.append(1)

    counts = []
    for players in (8, 64):
        path = tmp_path / f"{players}.tandem"
        settings = SimulationSettings(
            teams=players, format=Format.INDIVIDUAL, system=PairingSystem.KNOCKOUT,
            plan=ready_made("progressive-consolation"), rounds_to_play=2, seed=3,
        )  # fmt: skip
        simulate_event(str(path), settings).close()
        with event_context(path) as context:
            page = shown_page(qtbot, RoundsPage(context))
            assert sum(len(c.boxes) for c in page.brackets.charts) > players // 2
            result = Changes.match(page.rounds[-1].matches[-1].id)
            event.listen(Engine, "before_cursor_execute", count)
            try:
                sent.clear()
                page.refresh()
                whole = len(sent)
                sent.clear()
                page.on_event_changed(result)
                counts.append((whole, len(sent)))
            finally:
                event.remove(Engine, "before_cursor_execute", count)
            page.hide()
    assert counts[0] == counts[1], counts
