"""What a phone may put in its board's clock log (issue #26.4, #26.5), against the real server
on loopback: only what a phone does; time adjustments and resets are the desk's."""

from __future__ import annotations

import time

import pytest

from director.domain.clock import EventKind
from director.domain.rules import Side
from director.services import audit, phone_clocks, slips
from director.web.server import TableService
from tests.web.conftest import hexid, pair_round, request, win_games

S = 1_000_000_000


def ev(
    kind: str, t_s: float, side: str | None = None, value: int | None = None
) -> dict[str, object]:
    return {"kind": kind, "t_ns": str(int(t_s * S)), "board": 1, "side": side,
            "value": None if value is None else str(value)}  # fmt: skip


def started(service: TableService, url: str) -> tuple[int, str, list[dict[str, object]]]:
    """A match's board 1 running on a phone, A on move: its id, token, and the log so far."""
    match_id = pair_round(service.web.db)[0]
    with service.web.db.Session() as s, s.begin():
        token = slips.token_for(s, match_id, Side.A)
    log = [ev("first-mover", 1, "A"), ev("start", 2, "A"), ev("press", 3, "A")]
    answer = request(f"{url}api/clock/{token}/1/log", {"first": 0, "events": log})
    assert answer.status == 200, answer.body
    return match_id, str(token), log


def stored_kinds(service: TableService, match_id: int) -> list[str]:
    with service.web.db.Session() as s:
        return [e.kind.value for e in phone_clocks.board_events(s, match_id, 1)]


def test_a_phone_cannot_set_a_clocks_time(served: tuple[TableService, str]) -> None:
    """pause → adjust (B to 10 h, A to 1 ns) → resume from a token holder: refused, nothing
    stored; the pause alone is a phone's to log."""
    service, url = served
    match_id, token, log = started(service, url)
    forged = [ev("pause", 4), ev("adjust", 5, "B", 36_000 * S), ev("adjust", 5, "A", 1),
              ev("resume", 6)]  # fmt: skip
    answer = request(f"{url}api/clock/{token}/1/log", {"first": len(log), "events": forged})
    assert answer.status == 422, answer.body
    assert "desk" in answer.json()["error"]  # type: ignore[index]
    assert stored_kinds(service, match_id) == ["first-mover", "start", "press"]
    answer = request(f"{url}api/clock/{token}/1/log", {"first": len(log), "events": forged[:1]})
    assert answer.status == 200


def test_a_phone_cannot_reset_or_stop_a_game_in_play(served: tuple[TableService, str]) -> None:
    service, url = served
    match_id, token, log = started(service, url)
    for kind in ("reset", "stop"):
        sent = [ev("pause", 4), ev(kind, 5)] if kind == "reset" else [ev(kind, 5)]
        answer = request(f"{url}api/clock/{token}/1/log", {"first": len(log), "events": sent})
        assert answer.status == 422, (kind, answer.body)
    assert stored_kinds(service, match_id) == ["first-mover", "start", "press"]
    # once the desk has the board's game, the phone stops its clock (and resets for the next)
    win_games(service.web.db, match_id, count=2)  # pair 1 over on both boards
    done = [ev("stop", 5), ev("reset", 6)]
    answer = request(f"{url}api/clock/{token}/1/log", {"first": len(log), "events": done})
    assert answer.status == 200, answer.body


def test_a_desk_restore_carried_out_by_the_phone_is_stored_and_audited(
    served: tuple[TableService, str],
) -> None:
    service, url = served
    match_id, token, log = started(service, url)
    room = service.web.clocks
    service.web.session_run(room.command, match_id, 1, EventKind.PAUSE)
    service.web.session_run(
        room.command, match_id, 1, EventKind.ADJUST, Side.A, 30 * S, "clock fault"
    )
    done = [ev("pause", 4), ev("adjust", 5, "A", 30 * S)]
    answer = request(f"{url}api/clock/{token}/1/log", {"first": len(log), "events": done})
    assert answer.status == 200, answer.body
    # the same restore a second time: no second command asked for it
    again = [ev("adjust", 6, "A", 30 * S)]
    answer = request(f"{url}api/clock/{token}/1/log", {"first": len(log) + 2, "events": again})
    assert answer.status == 422, answer.body
    with service.web.db.Session() as s:
        reasons = [e.reason for e in audit.entries(s) if e.action == phone_clocks.ADJUST_ACTION]
    assert reasons == ["clock fault"]


def test_a_boards_log_holds_what_its_games_can(
    served: tuple[TableService, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue #26.5: a token holder grew a board's log to 27,930 events in 4 minutes. A board's
    log holds at most BOARD_EVENTS_PER_GAME events per game of the board (here 10)."""
    service, url = served
    monkeypatch.setattr(phone_clocks, "BOARD_EVENTS_PER_GAME", 10, raising=False)
    match_id, token, log = started(service, url)
    more = [ev("checkpoint", 3 + i / 10) for i in range(1, 8)]  # 3 + 7 = 10: the most
    answer = request(f"{url}api/clock/{token}/1/log", {"first": len(log), "events": more})
    assert answer.status == 200, answer.body
    over = [ev("checkpoint", 4)]
    answer = request(f"{url}api/clock/{token}/1/log", {"first": 10, "events": over})
    assert answer.status == 422 and "at most 10 events" in answer.json()["error"]  # type: ignore[index]
    assert len(stored_kinds(service, match_id)) == 10
    win_games(service.web.db, match_id, count=1)  # board 1's game recorded: room for the next
    answer = request(f"{url}api/clock/{token}/1/log", {"first": 10, "events": [ev("stop", 5)]})
    assert answer.status == 200, answer.body


def test_the_phone_reads_the_time_control_in_minutes(served: tuple[TableService, str]) -> None:
    """Issue #26.10: "120+12 Fischer" read as two hours; the command line's 2+12 is minutes."""
    service, url = served
    match_id = pair_round(service.web.db)[0]
    with service.web.db.Session() as s, s.begin():
        token = slips.token_for(s, match_id, Side.A)
    view = request(f"{url}api/clock/{token}/1").json()
    assert view["time_control"]["label"] == "2 min + 12 s Fischer increment"  # type: ignore[index]


def test_the_pairings_say_a_match_is_being_played_once_its_clocks_start(
    served: tuple[TableService, str],
) -> None:
    """Issue #26.10: the pairings card said "not started" while both clocks ran."""
    service, url = served
    match_id = pair_round(service.web.db)[0]
    with service.web.db.Session() as s, s.begin():
        token = slips.token_for(s, match_id, Side.A)
    for board in (1, 2):
        mover = [{**ev("first-mover", 1, "A"), "board": board}]
        answer = request(f"{url}api/clock/{token}/{board}/log", {"first": 0, "events": mover})
        assert answer.status == 200, answer.body

    def card() -> dict[str, object]:
        tables = request(url + "api/pairings").json()["matches"]  # type: ignore[index]
        found = [m for m in tables if m["id"] == match_id]
        return found[0] if found else {}  # type: ignore[no-any-return]

    # the round was paired behind the service's back: it publishes the pairings at its next
    # look, which notify() brings forward (the desk's own changes do so themselves)
    service.notify()
    deadline = time.monotonic() + 5
    while not card() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert card()["clocks_started"] is False
    assert request(f"{url}api/clock/{token}/start", {}).status == 200
    deadline = time.monotonic() + 5
    while card()["clocks_started"] is not True and time.monotonic() < deadline:
        time.sleep(0.05)  # the service publishes within a poll
    assert card()["clocks_started"] is True and card()["status"] == "not started"


def test_a_second_phone_on_a_board_is_told(served: tuple[TableService, str]) -> None:
    """Issue #26.10: a second phone on the same board's clock ran its own clock unaware."""
    service, url = served
    match_id = pair_round(service.web.db)[0]
    with service.web.db.Session() as s, s.begin():
        token = slips.token_for(s, match_id, Side.A)
    one, two = hexid(), hexid()

    def hello(board: int, phone: str) -> object:
        sent = {"first": 0, "events": [], "phone": phone}
        answer = request(f"{url}api/clock/{token}/{board}/log", sent)
        assert answer.status == 200, answer.body
        return answer.json()["other_phone"]  # type: ignore[index]

    assert hello(1, one) is False
    assert hello(2, two) is False  # the other board's phone
    assert hello(1, two) is True  # a second phone on board 1
    assert hello(1, one) is True
