"""One match does not block another (issue #26.5), against the real server on loopback.

A token holder grew a board's log to 27,930 events; each append then replayed the whole log
(2.7–7.7 s) under the lock every phone's write shares, and another match's press waited
8–11 s. Here one match's write is held up for as long as the test likes, in two ways, and
another match must get its answers meanwhile:

- its clock log's replay (a gate stands in for a long replay's seconds, so that nothing races
  a clock);
- the database's write lock held by the desk, with that match's phones resending: each
  waiting write held one of the server's worker threads, and every read queued behind them.

The gate and the lock are released in `finally`: a failing test ends, it does not hang.
"""

from __future__ import annotations

import http.client
import json
import sqlite3
import threading
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from director.domain.clock import ClockEvent, MatchClockState
from director.domain.rules import Side, TimeControl
from director.services import phone_clocks, slips
from director.web.server import TableService
from tests.web.conftest import Answer, pair_round

S = 1_000_000_000
WAIT_S = 8.0  # how long the other match's answer may take while the first one is held up
RESENT = 50  # writes of the held-up match in flight at once: more than the 40 worker threads


def ev(kind: str, t_s: float, side: str | None = None, board: int = 1) -> dict[str, object]:
    return {"kind": kind, "t_ns": str(int(t_s * S)), "board": board, "side": side,
            "value": None}  # fmt: skip


def call(url: str, body: object = None, timeout: float = WAIT_S) -> Answer:
    """One request with its own deadline: a timeout is an answer of status 0."""
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(str(parts.hostname), parts.port, timeout=timeout)
    headers = {"Content-Type": "application/json"}
    if body is not None:
        headers["Origin"] = f"http://{parts.netloc}"
    try:
        connection.request(
            "GET" if body is None else "POST",
            parts.path,
            None if body is None else json.dumps(body),
            headers,
        )
        response = connection.getresponse()
        return Answer(response.status, dict(response.headers), response.read())
    except TimeoutError:
        return Answer(0, {}, b"no answer in time")
    finally:
        connection.close()


def two_matches(service: TableService) -> tuple[str, str, int]:
    """Team A's tokens of two matches of the round, and the second one's id."""
    first, second = pair_round(service.web.db)[:2]
    with service.web.db.Session() as s, s.begin():
        one, two = (slips.token_for(s, m, Side.A) for m in (first, second))
    assert one and two
    return one, two, second


def running(url: str, token: str) -> int:
    """Board 1 of the token's match running on a phone; the count of events logged."""
    log = [ev("first-mover", 1, "A"), ev("start", 2, "A"), ev("press", 3, "A")]
    answer = call(f"{url}api/clock/{token}/1/log", {"first": 0, "events": log})
    assert answer.status == 200, answer.body
    return len(log)


class Gate:
    """Stands in for a long replay: a replay of at least `events` events waits to be let go."""

    def __init__(self, events: int) -> None:
        self.events = events
        self.entered = threading.Event()
        self.go = threading.Event()

    def wrap(self, replay: Callable[..., MatchClockState]) -> Callable[..., MatchClockState]:
        def held(events: list[ClockEvent], tc: TimeControl, *rest: object) -> MatchClockState:
            events = list(events)
            if len(events) >= self.events:
                self.entered.set()
                self.go.wait(60)
            return replay(events, tc, *rest)

        return held


@contextmanager
def in_background(fn: Callable[[], Answer]) -> Iterator[list[Answer]]:
    out: list[Answer] = []
    thread = threading.Thread(target=lambda: out.append(fn()))
    thread.start()
    try:
        yield out
    finally:
        thread.join(60)


def test_a_long_replay_of_one_match_does_not_hold_up_another(
    served: tuple[TableService, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    service, url = served
    slow, other, _ = two_matches(service)
    slow_count = running(url, slow)
    more = [ev("checkpoint", 3 + i / 10) for i in range(1, 4)]
    assert call(f"{url}api/clock/{slow}/1/log", {"first": slow_count, "events": more}).status == 200
    slow_count += len(more)
    other_count = running(url, other)
    gate = Gate(events=slow_count)
    monkeypatch.setattr(phone_clocks, "replay", gate.wrap(phone_clocks.replay))
    # the service forgets what it replayed (a restart, another station's write): the slow
    # match's next append replays its whole log
    service.stop()
    service.start()
    url = service.urls[0]
    try:
        press = {"first": slow_count, "events": [ev("press", 10, "B")]}
        with in_background(lambda: call(f"{url}api/clock/{slow}/1/log", press, 60)) as held:
            assert gate.entered.wait(10), "the slow match's append never replayed its log"
            answer = call(
                f"{url}api/clock/{other}/1/log",
                {"first": other_count, "events": [ev("press", 4, "B")]},
            )
            assert answer.status == 200, f"another match's press: {answer.body!r}"
            assert call(f"{url}api/clock/{other}/1").status == 200
            assert call(f"{url}api/slip/{other}").status == 200
            gate.go.set()
        assert held[0].status == 200, held[0].body
    finally:
        gate.go.set()


def test_a_locked_write_of_one_match_does_not_hold_up_anothers_reads(
    served: tuple[TableService, str],
) -> None:
    service, url = served
    slow, other, other_id = two_matches(service)
    slow_count = running(url, slow)
    running(url, other)
    desk = sqlite3.connect(service.web.db.path, isolation_level=None)
    desk.execute("BEGIN IMMEDIATE")  # the desk writes, for long
    locked = True
    sent = threading.Barrier(RESENT + 1)
    answers: list[Answer] = []

    def resend(i: int) -> None:
        parts = urllib.parse.urlsplit(url)
        connection = http.client.HTTPConnection(str(parts.hostname), parts.port, timeout=60)
        body = {"first": slow_count, "events": [ev("checkpoint", 3 + (i + 1) / 1000)]}
        headers = {"Content-Type": "application/json", "Origin": f"http://{parts.netloc}"}
        try:
            connection.request("POST", f"/api/clock/{slow}/1/log", json.dumps(body), headers)
            sent.wait(10)  # every resend is on its way before the other match asks
            response = connection.getresponse()
            answers.append(Answer(response.status, {}, response.read()))
        finally:
            connection.close()

    threads = [threading.Thread(target=resend, args=(i,)) for i in range(RESENT)]
    try:
        for t in threads:
            t.start()
        sent.wait(10)
        for path in (f"api/clock/{other}/1", f"api/slip/{other}", f"api/matches/{other_id}"):
            answer = call(url + path)
            assert answer.status == 200, f"{path} while another match waits: {answer.body!r}"
        desk.execute("ROLLBACK")
        locked = False
        for t in threads:
            t.join(60)
        # one of the resends is stored, the others are told what the desk has: none fails
        assert sorted({a.status for a in answers}) in ([200], [200, 409]), answers
    finally:
        if locked:
            desk.execute("ROLLBACK")
        desk.close()
