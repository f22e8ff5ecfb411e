"""Push streams under one greedy client (issue #26.6), against the real server on loopback:
one address cannot lock new phones out, and a page whose stream is refused still shows its
data and tries again."""

from __future__ import annotations

import contextlib
import json
import socket
import urllib.request
from collections.abc import Iterator

import pytest
from selenium.webdriver.common.by import By

from director.web import api
from director.web.server import TableService
from tests.web.browser import phone, text_of, wait_for
from tests.web.conftest import pair_round, request
from tests.web.rawhttp import address, head

GREEDY = "127.0.0.2"  # another address on loopback: the attacker's machine


def open_stream(url: str, source: str) -> tuple[socket.socket, int]:
    """A push stream opened from `source`: the socket (kept open) and the answer's status."""
    host, port = address(url)
    sock = socket.create_connection((host, port), timeout=5, source_address=(source, 0))
    sock.sendall(head("GET", "/events?ch=pairings", url, Accept="text/event-stream"))
    first = sock.recv(64)
    return sock, int(first[9:12]) if first.startswith(b"HTTP/1.1 ") else 0


@contextlib.contextmanager
def streams(url: str, source: str, count: int) -> Iterator[list[int]]:
    opened = [open_stream(url, source) for _ in range(count)]
    try:
        yield [status for _sock, status in opened]
    finally:
        for sock, _status in opened:
            sock.close()


def test_one_address_cannot_take_every_stream(
    served: tuple[TableService, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    service, url = served
    pair_round(service.web.db)
    monkeypatch.setattr(api, "MAX_STREAMS", 20)  # a small room: the same rule
    monkeypatch.setattr(api, "MAX_STREAMS_PER_ADDRESS", 8, raising=False)
    with streams(url, GREEDY, 20) as greedy:
        assert greedy.count(200) <= 8 and 200 in greedy
        with streams(url, "127.0.0.1", 1) as phone_status:
            assert phone_status == [200]  # a new phone still gets its stream


def test_a_page_whose_stream_is_refused_reads_the_api_and_retries(
    served: tuple[TableService, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    service, url = served
    match_id = pair_round(service.web.db)[0]
    monkeypatch.setattr(api, "MAX_STREAMS", 0)  # every stream refused (503)
    with phone() as driver:
        driver.get(url)
        wait_for(
            driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'article[data-match="{match_id}"]')
        )
        assert "Loading" not in text_of(driver, "main")
        assert "reconnecting" in text_of(driver, "#live")
        monkeypatch.setattr(api, "MAX_STREAMS", 4000)  # the room has space again
        wait_for(
            driver,
            lambda d: "live" in text_of(d, "#live") and "reconnecting" not in text_of(d, "#live"),
            timeout=15,
        )
    assert request(url + "api/latest?ch=pairings&ch=" + "x" * 41).status == 400
    assert b"at most 40 characters" in request(url + "api/latest?ch=" + "x" * 41).body


def test_the_crosstables_legend_says_what_a_question_mark_is(
    served: tuple[TableService, str],
) -> None:
    service, url = served
    pair_round(service.web.db)  # a round in play: every result is "?"
    with phone() as driver:
        driver.get(url + "crosstable")
        wait_for(driver, lambda d: "?" in text_of(d, "tbody"))
        assert "? not finished yet" in text_of(driver, "main")


def test_the_pairings_card_says_the_clocks_run(served: tuple[TableService, str]) -> None:
    """Issue #26.10: "not started" while both clocks ran."""
    from director.domain.rules import Side
    from director.services import slips

    service, url = served
    match_id = pair_round(service.web.db)[0]
    with service.web.db.Session() as s, s.begin():
        token = slips.token_for(s, match_id, Side.A)
    for board in (1, 2):
        mover = {"kind": "first-mover", "t_ns": "1", "board": board, "side": "A", "value": None}
        request(f"{url}api/clock/{token}/{board}/log", {"first": 0, "events": [mover]})
    card = f'article[data-match="{match_id}"]'
    with phone() as driver:
        driver.get(url)
        wait_for(driver, lambda d: "not started" in text_of(d, card))
        assert request(f"{url}api/clock/{token}/start", {}).status == 200
        wait_for(driver, lambda d: "pair 1: clocks running" in text_of(d, card))


def test_a_message_reaches_each_stream_that_asked_once(served: tuple[TableService, str]) -> None:
    """The hub offers a message only to the streams that named its channel or a wildcard of it
    (a room of 3,000 phones was each asked about every message): each gets it once, one that
    asked both ways too, and a stream of another channel not at all."""
    service, url = served
    match_id = pair_round(service.web.db)[0]
    asked = {
        "named": [f"match:{match_id}"],
        "wildcard": ["match:*"],
        "both": [f"match:{match_id}", "match:*"],
        "other": ["standings"],
    }
    opened = {
        name: urllib.request.urlopen(
            url + "events?" + "&".join(f"ch={c}" for c in channels), timeout=10
        )
        for name, channels in asked.items()
    }

    def marks_until(stream: object, last: int) -> list[int]:
        seen: list[int] = []
        while last not in seen:
            line = stream.readline().decode()  # type: ignore[attr-defined]
            if line.startswith("data: ") and '"mark"' in line:
                seen.append(json.loads(line[6:])["mark"])
        return seen

    try:
        # the first mark tells that every stream has subscribed (it may come as the latest
        # message of its channel when the stream subscribed after it went out)
        service.web.hub.publish(f"match:{match_id}", {"mark": 1})
        for name in ("named", "wildcard", "both"):
            marks_until(opened[name], 1)
        for mark in (2, 3, 4):
            service.web.hub.publish(f"match:{match_id}", {"mark": mark})
            for name in ("named", "wildcard", "both"):
                assert marks_until(opened[name], mark) == [mark], name
        service.web.hub.publish("standings", {"mark": 5})
        assert marks_until(opened["other"], 5) == [5]
    finally:
        for stream in opened.values():
            stream.close()
