"""An individual match's clock on a phone (RULES §10), in headless Chromium against the real
table service: board 1 alone on the match reserve with a simple delay; a recorded game pauses
it with both reserves kept (no stop, no reset), the next game starts with a tap, and a flag
says the match is lost (the desk records it with `games.record_lost_on_time`)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

from pytestqt.qtbot import QtBot

from director.domain.clock import EventKind, Phase, replay
from director.domain.rules import (
    ClockMode,
    End,
    EventOptions,
    Format,
    Level,
    MatchRules,
    Side,
    TimeControl,
)
from director.domain.scoring import Game
from director.services import games, matches, rounds, slips
from director.services.events import update_event
from director.services.teams import add_player
from director.web.server import TableService
from tests.web.clock_browser import tap
from tests.web.test_clock_desk import cell, view_of
from tests.web.test_clock_page import clock_page, kinds, page, stored, synced, wait_for

A, B = Side.A, Side.B


def individual_match(
    service: TableService,
    per_point: int = 120,
    players: tuple[str, ...] = ("Ana", "Cleo", "Dora", "Eve"),
    mode: ClockMode = ClockMode.DELAY,
    length: int = 5,
) -> tuple[int, str]:
    """The first match of a round of four players, to 5 (a second match keeps the round
    going after this one: a finished round's tokens open no slip)."""
    db = service.web.db
    options = EventOptions(
        match=MatchRules(match_length=length, format=Format.INDIVIDUAL),
        time_control=TimeControl(per_point, 12, mode),
    )
    with db.Session() as s, s.begin():
        update_event(s, options=options)
        for name in players:
            add_player(s, name)
        match = rounds.pair_next_round(s).value.matches[0]
        token = slips.token_for(s, match.id, A)
    assert token is not None
    return match.id, token


def names(service: TableService, match_id: int) -> tuple[str, str]:
    with service.web.db.Session() as s:
        match = matches.get_match(s, match_id)
    assert match.team_b is not None
    return match.team_a.name, match.team_b.name


def record(service: TableService, match_id: int, winner: Side) -> None:
    with service.web.db.Session() as s, s.begin():
        number = matches.get_match(s, match_id).outcome.current_pair
        games.record_game(s, match_id, Game(number, 1, winner, End.BEAR_OFF, level=Level.SINGLE))
    service.notify()


def test_rules_10_a_recorded_game_pauses_the_match_reserve_and_a_tap_starts_the_next(
    served: tuple[TableService, str], tmp_path: Path
) -> None:
    service, url = served
    match_id, token = individual_match(service)
    db = service.web.db
    with clock_page(url, token, 1) as one:
        shown = one.find_element("id", "face-near").text
        assert (
            names(service, match_id)[0] in shown and "10:00" in shown and "·" not in shown
        )  # a player, no team
        assert "game 1 · match reserve" in one.find_element("id", "status").text
        tap(one, "face-near")  # Ana moves first
        wait_for(lambda: synced(one))
        one.find_element("id", "start").click()  # the desk's start: board 1 alone is ready
        wait_for(lambda: page(one, "phase") == "running")
        tap(one, "face-near")  # Ana's move ends: Cleo runs
        wait_for(lambda: synced(one))
        record(service, match_id, A)
        wait_for(lambda: page(one, "phase") == "paused")
        wait_for(lambda: synced(one))
        assert "tap to start your opponent" in one.find_element("id", "face-near").text
        one.save_screenshot(str(tmp_path / "between-games.png"))
        paused = stored(db, match_id, 1)
        with db.Session() as s:
            tc = matches.get_match(s, match_id).time_control
        board = replay(paused, tc).board(1)
        assert board.phase is Phase.PAUSED and board.on_move is B
        reserves = (board.a.remaining_ns, board.b.remaining_ns)
        assert 0 < reserves[1] <= 600 * 10**9 and reserves[0] == 600 * 10**9  # Ana in her delay
        tap(one, "face-far")  # Cleo was on move: her tap starts game 2 with Ana to play
        wait_for(lambda: page(one, "phase") == "running")
        wait_for(lambda: synced(one))
        log = stored(db, match_id, 1)
        after = replay(log, tc).board(1)
        assert after.on_move is A
        assert after.b.remaining_ns == reserves[1]  # the reserves were kept, not reset
        assert "reset" not in kinds(log) and "stop" not in kinds(log)
        assert kinds(log)[-2:] == ["first-mover", "resume"]  # no press: nobody is credited
        one.save_screenshot(str(tmp_path / "game-2.png"))


def test_rules_10_a_phone_clock_started_at_3_2_in_a_7_point_match_gives_9_minutes(
    served: tuple[TableService, str],
) -> None:
    """RULES §10's worked example on the phone: a clock first opened at 3–2 in a match to 7
    gets 14 − 1 × (3 + 2) = 9 minutes each, and the served log replays with 9 minutes too."""
    service, url = served
    match_id, token = individual_match(service, length=7)
    for winner in (A, A, B, A, B):  # 3–2 before the clock's first event
        record(service, match_id, winner)
    db = service.web.db
    with clock_page(url, token, 1) as one:
        assert "9:00" in one.find_element("id", "face-near").text
        assert "9:00" in one.find_element("id", "face-far").text
        tap(one, "face-near")  # Ana moves first
        wait_for(lambda: synced(one))
        one.find_element("id", "start").click()
        wait_for(lambda: page(one, "phase") == "running")
        tap(one, "face-near")  # Ana's move ends inside her delay: Cleo runs
        wait_for(lambda: synced(one))
        log = stored(db, match_id, 1)
    with db.Session() as s:
        tc = matches.get_match(s, match_id).clock
        assert matches.get_match(s, match_id).outcome.score.a == 3
    assert tc.base_seconds == 9 * 60
    board = replay(log, tc).board(1)
    assert board.a.remaining_ns == 9 * 60 * 10**9  # Ana moved inside her delay
    assert 0 < board.b.remaining_ns <= 9 * 60 * 10**9


def test_rules_10_a_flag_on_the_phone_loses_the_match_at_the_desk(
    served: tuple[TableService, str],
) -> None:
    service, url = served
    match_id, token = individual_match(service, per_point=1)  # a 5 s reserve
    db = service.web.db
    with clock_page(url, token, 1) as one:
        tap(one, "face-near")
        wait_for(lambda: synced(one))
        one.find_element("id", "start").click()
        wait_for(lambda: page(one, "phase") == "stopped", timeout=30)  # 12 s delay + 5 s
        wait_for(lambda: synced(one))
        ana, cleo = names(service, match_id)
        assert (
            f"{ana}'s reserve ran out: {cleo} wins the match"
            in one.find_element("id", "status").text
        )
        assert not one.find_element("id", "forfeit").is_displayed()  # no rule 5 game slip

        def flags() -> list[tuple[EventKind, Side | None]]:
            return [(e.kind, e.side) for e in stored(db, match_id, 1) if e.kind is EventKind.FLAG]

        # the page's counts are drawn each frame: on a busy machine they may lag the send
        wait_for(flags, timeout=30)
        assert flags() == [(EventKind.FLAG, A)]
        with db.Session() as s, s.begin():  # as the desk's clock window records it
            games.record_lost_on_time(s, match_id, A)
        service.notify()
        wait_for(lambda: "Match over" in one.find_element("id", "status").text)
        with db.Session() as s:
            assert matches.get_match(s, match_id).outcome.final.b == 5


def answer(url: str) -> tuple[int, dict[str, object]]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_rules_10_an_individual_match_has_no_board_2_clock(
    served: tuple[TableService, str],
) -> None:
    """#28: `/api/clock/TOKEN/2` of an individual match answered a board 2 clock (and took
    its log): the match has board 1 alone, so board 2 is refused with the reason."""
    service, url = served
    _match_id, token = individual_match(service)
    status, body = answer(f"{url}api/clock/{token}/2")
    assert status == 422 and "board 1 alone" in str(body["error"]), body
    request = urllib.request.Request(
        f"{url}api/clock/{token}/2/log",
        data=json.dumps({"first": 0, "events": []}).encode(),
        headers={"Content-Type": "application/json", "Origin": url.rstrip("/")},
        method="POST",
    )
    try:
        urllib.request.urlopen(request, timeout=10)
        raise AssertionError("board 2's log was taken")
    except urllib.error.HTTPError as e:
        assert e.code == 422 and "board 1 alone" in json.loads(e.read())["error"]
    assert answer(f"{url}api/clock/{token}/1")[0] == 200


def test_rules_10_between_games_is_known_to_the_desk_and_to_every_phone(
    qtbot: QtBot, served: tuple[TableService, str]
) -> None:
    """#28: "between games" was kept in the phone's own storage only: a second phone (or the
    same one with its storage cleared) showed the paused clock as "paused", and the desk knew
    nothing of it. The desk derives it from the board's log and the recorded games."""
    service, url = served
    match_id, token = individual_match(service, mode=ClockMode.FISCHER)
    view = view_of(qtbot, service)
    assert (match_id, 2) not in view.rows  # one board, one row
    with clock_page(url, token, 1) as one:
        tap(one, "face-near")  # Ana moves first
        wait_for(lambda: synced(one))
        one.find_element("id", "start").click()
        wait_for(lambda: page(one, "phase") == "running")
        tap(one, "face-near")
        wait_for(lambda: synced(one))
        record(service, match_id, A)
        wait_for(lambda: page(one, "phase") == "paused" and synced(one))
    assert answer(f"{url}api/clock/{token}/1")[1]["between_games"] is True
    qtbot.waitUntil(lambda: "between games" in cell(view, match_id, 1, 4), timeout=5000)
    with clock_page(url, token, 1) as two:  # another phone, its storage empty
        wait_for(lambda: "tap to start your opponent" in two.find_element("id", "face-far").text)
        tap(two, "face-far")  # Cleo starts game 2, Ana to play
        wait_for(lambda: page(two, "phase") == "running")
        wait_for(lambda: synced(two))
        assert kinds(stored(service.web.db, match_id, 1))[-2:] == ["first-mover", "resume"]
        qtbot.waitUntil(lambda: "A to move" in cell(view, match_id, 1, 4), timeout=5000)
    assert answer(f"{url}api/clock/{token}/1")[1]["between_games"] is False


def test_rules_10_the_last_match_of_a_round_ends_on_the_phone_as_match_over(
    served: tuple[TableService, str],
) -> None:
    """#28: once the round's last match ended its tokens opened nothing, so the phone never
    heard that its match was over and offered to start another game. It shows the winner and
    the score, and its clock stops (the stop reaches the desk)."""
    service, url = served
    match_id, token = individual_match(service, players=("Ana", "Cleo"))  # one match: the last
    ana, cleo = names(service, match_id)
    with clock_page(url, token, 1) as one:
        tap(one, "face-near")
        wait_for(lambda: synced(one))
        one.find_element("id", "start").click()
        wait_for(lambda: page(one, "phase") == "running")
        for _ in range(5):
            record(service, match_id, A)
        status = one.find_element("id", "status")
        wait_for(lambda: f"Match over: {ana} 5 – 0 {cleo}" in status.text)
        assert f"{ana} wins the match" in status.text
        wait_for(lambda: page(one, "phase") == "stopped" and synced(one))
        assert "tap to start" not in one.find_element("id", "face-near").text
        assert "match over" in one.find_element("id", "face-near").text
        assert "not valid" not in status.text
    assert kinds(stored(service.web.db, match_id, 1))[-1] == "stop"
