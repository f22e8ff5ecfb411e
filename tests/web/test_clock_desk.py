"""The desk sees every phone clock live; a flag on a phone opens the desk's time-forfeit entry
with RULES §5's proposal; the desk starts both boards; the next pair resets both phones and
the match's end shows its score (real server, headless Chromium phones, the real Qt view)."""

from __future__ import annotations

import time

from pytestqt.qtbot import QtBot

from director.domain.clock import NS_PER_SECOND, EventKind, Phase
from director.domain.rules import End, Level, Side
from director.domain.scoring import Game
from director.services import games
from director.ui.context import EventContext
from director.ui.phone_clocks import PhoneClocksView
from director.web.server import TableService
from tests.web.browser import hold_next_answer, release_held_answer
from tests.web.clock_browser import tap
from tests.web.conftest import win_games
from tests.web.test_clock_page import (
    clock_page,
    first_mover_and_start,
    kinds,
    page,
    stored,
    synced,
    table,
    wait_for,
)

__all__ = ["table"]


def view_of(qtbot: QtBot, service: TableService) -> PhoneClocksView:
    view = PhoneClocksView(EventContext(service.web.db), lambda: service.web.clocks)
    qtbot.addWidget(view)
    return view


def cell(view: PhoneClocksView, match_id: int, board: int, column: int) -> str:
    item = view.table.item(view.rows.index((match_id, board)), column)
    return item.text() if item is not None else ""


def test_rules_5_7_a_flag_on_a_phone_opens_the_desks_forfeit_entry_prefilled(
    qtbot: QtBot, table: tuple[TableService, str, list[int], list[str]]
) -> None:
    service, url, ids, tokens = table
    room = service.web.clocks
    view = view_of(qtbot, service)
    with clock_page(url, tokens[0], 1) as one, clock_page(url, tokens[0], 2) as two:
        first_mover_and_start([one, two])
        qtbot.waitUntil(lambda: "A to move" in cell(view, ids[0], 1, 4), timeout=5000)
        assert "2:0" in cell(view, ids[0], 1, 2) or "1:5" in cell(view, ids[0], 1, 2)
        # the arbiter's tools: pause, give A1 one second, resume: A1's flag falls
        service.web.session_run(room.command, ids[0], 1, EventKind.PAUSE)
        wait_for(lambda: page(one, "phase") == "paused" and synced(one))
        view.restore_time(room, ids[0], 1, Side.A, NS_PER_SECOND, "test of the flag")
        wait_for(lambda: "0:01.0" in one.find_element("id", "face-near").text)
        service.web.session_run(room.command, ids[0], 1, EventKind.RESUME)
        qtbot.waitUntil(lambda: bool(view.forfeits), timeout=8000)
        dialog = view.forfeits[0]
        assert (dialog.match.id, dialog.board, dialog.flagged) == (ids[0], 1, Side.A)
        game, _ = dialog.form.check()
        assert game is not None
        assert (game.winner, game.end, game.cube, game.loser_borne_off) == (
            Side.B,
            End.TIME,
            1,
            0,
        )
        assert dialog.points_of(game) == 3  # RULES §5: 3 × cube, nothing borne off
        assert "FLAG A1" in cell(view, ids[0], 1, 4)
        assert "flag" in one.find_element("id", "face-near").text
        assert page(two, "phase") == "running"  # the other board keeps running
        log = stored(service.web.db, ids[0], 1)
        assert kinds(log)[-1] == "flag"
        # the board's slip offers the same: the phone links to it with the proposal
        link = one.find_element("id", "forfeit")
        assert link.is_displayed()
        slip = str(link.get_attribute("href"))
        # the arbiter corrects the flag from the desk: pause it, restore A1's time, resume
        service.web.session_run(room.command, ids[0], 1, EventKind.PAUSE)
        wait_for(lambda: page(one, "phase") == "paused" and synced(one))
        view.restore_time(room, ids[0], 1, Side.A, 30 * NS_PER_SECOND, "clock fault")
        service.web.session_run(room.command, ids[0], 1, EventKind.RESUME)
        wait_for(lambda: page(one, "phase") == "running" and synced(one))
        assert kinds(stored(service.web.db, ids[0], 1))[-4:] == [
            "flag",
            "pause",
            "adjust",
            "resume",
        ]
        assert "your move" in one.find_element("id", "face-near").text  # A is still on move
        qtbot.waitUntil(lambda: "A to move" in cell(view, ids[0], 1, 4), timeout=5000)
        one.get(slip)
        wait_for(lambda: one.find_elements("id", "slip-form"))
        checked = one.execute_script(
            "const f = new FormData(document.getElementById('slip-form'));"
            "return [f.get('board'), f.get('winner'), f.get('end'), f.get('loser_borne_off')];"
        )
        assert checked == ["1", "B", "time", "0"]


def test_rules_7_the_desk_starts_both_boards_and_the_next_pair_resets_the_phones(
    qtbot: QtBot, table: tuple[TableService, str, list[int], list[str]]
) -> None:
    service, url, ids, tokens = table
    db = service.web.db
    view = view_of(qtbot, service)
    with clock_page(url, tokens[0], 1) as one, clock_page(url, tokens[0], 2) as two:
        for d in (one, two):
            tap(d, "face-near")
            wait_for(lambda d=d: synced(d))
        view.table.selectRow(view.rows.index((ids[0], 1)))
        view.start_selected()
        for d in (one, two):
            wait_for(lambda d=d: page(d, "phase") == "running")
        view.pause_match_selected()  # one action pauses both boards
        for d in (one, two):
            wait_for(lambda d=d: page(d, "phase") == "paused")
        for board in (1, 2):  # both games of pair 1: B wins each by a single
            with db.Session() as s, s.begin():
                games.record_game(s, ids[0], Game(1, board, Side.B, End.BEAR_OFF, 1, Level.SINGLE))
            service.notify()
            if board == 1:
                wait_for(lambda: page(one, "phase") == "stopped")
                assert page(two, "phase") == "paused"  # its game is still on: not stopped
        for d in (one, two):
            wait_for(lambda d=d: page(d, "phase") == "ready" and synced(d))
            assert "pair 2" in d.find_element("id", "status").text
        for n in (1, 2):
            assert kinds(stored(db, ids[0], n))[-2:] == ["stop", "reset"]
        qtbot.waitUntil(lambda: "who moves first" in cell(view, ids[0], 1, 4), timeout=5000)


def test_the_match_end_shows_the_final_score_on_the_phones(
    table: tuple[TableService, str, list[int], list[str]],
) -> None:
    service, url, ids, tokens = table
    with clock_page(url, tokens[0], 1) as one:
        final = win_games(service.web.db, ids[0], after_each=service.notify)
        text = f"Match over: Team 1 {final.a} – {final.b} Team 3"
        wait_for(lambda: one.find_element("id", "status").text == text)
        time.sleep(0.2)
        assert page(one, "phase") in (Phase.READY.value, Phase.STOPPED.value)
        assert one.find_element("id", "start").is_displayed() is False


def test_an_answer_overtaken_by_a_newer_one_never_takes_the_match_end_back(
    table: tuple[TableService, str, list[int], list[str]],
) -> None:
    # Each change of the match makes the phone ask for the board again; on a busy Wi-Fi the
    # answers may come back out of order. The answer asked for last is the one the phone keeps.
    service, url, ids, tokens = table
    with clock_page(url, tokens[0], 1) as one:
        hold_next_answer(one, f"/api/clock/{tokens[0]}/1")
        win_games(service.web.db, ids[0], count=1, after_each=service.notify)
        wait_for(lambda: one.execute_script("return window.held") == "answered")
        final = win_games(service.web.db, ids[0], after_each=service.notify)
        text = f"Match over: Team 1 {final.a} – {final.b} Team 3"
        wait_for(lambda: one.find_element("id", "status").text == text)
        release_held_answer(one)  # the answer from before the last games, late
        assert one.find_element("id", "status").text == text
