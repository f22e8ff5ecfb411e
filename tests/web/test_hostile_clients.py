"""Hostile clients against the real table service on loopback: bodies, slow senders, hosts
(issue #26). Raw sockets send what a browser would not."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging

import pytest

from director.domain.rules import Side
from director.services import slips
from director.web import protocol
from director.web.server import TableService
from tests.web.conftest import hexid, pair_round
from tests.web.rawhttp import connect, head, read_answer

MEGABYTE = b"x" * (1 << 20)


def chunked_flood(url: str, path: str, megabytes: int = 64) -> tuple[int, bytes, bool, int]:
    """POST a chunked body of `megabytes` MB with no Content-Length, never ending it; what
    the server answered, whether it closed, and how many MB it let in before that."""
    sock = connect(url, timeout=5)
    with sock:
        sock.sendall(
            head(
                "POST",
                path,
                url,
                Origin=url.rstrip("/"),
                Content_Type="application/json",
                Transfer_Encoding="chunked",
            )  # fmt: skip
        )
        sent = 0
        with contextlib.suppress(ConnectionResetError, BrokenPipeError, TimeoutError):
            for _ in range(megabytes):
                sock.sendall(b"%x\r\n%s\r\n" % (len(MEGABYTE), MEGABYTE))
                sent += 1
        status, data, closed = read_answer(sock)
    return status, data, closed, sent


def test_a_chunked_body_is_refused_as_it_arrives(served: tuple[TableService, str]) -> None:
    """Issue #26.1: 16 KB is the limit, counted as the bytes arrive, without a token too."""
    service, url = served
    match_id = pair_round(service.web.db)[0]
    with service.web.db.Session() as s, s.begin():
        token = slips.token_for(s, match_id, Side.A)
    for path in (
        "/api/slip/NOT-A-TOKEN",
        "/api/slip/x/answer",
        "/api/clock/y/1/log",
        f"/api/slip/{token}",
    ):
        status, data, closed, sent = chunked_flood(url, path)
        assert status == 413, (path, data[:200])
        assert closed, path
        assert sent < 64, path  # refused long before the sender was done


def test_a_small_chunked_body_is_read(served: tuple[TableService, str]) -> None:
    service, url = served
    match_id = pair_round(service.web.db)[0]
    with service.web.db.Session() as s, s.begin():
        token = slips.token_for(s, match_id, Side.A)
    body = (
        b'{"uid": "%s", "side": "A", "device": "%s", "game": {"pair": 1, "board": 1, '
        b'"winner": "A", "end": "bear-off", "level": "single", "cube": 1}}'
    ) % (hexid().encode(), hexid().encode())
    with connect(url) as sock:
        sock.sendall(
            head(
                "POST",
                f"/api/slip/{token}",
                url,
                Origin=url.rstrip("/"),
                Content_Type="application/json",
                Transfer_Encoding="chunked",
                Connection="close",
            )  # fmt: skip
            + b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
        )
        status, data, _closed = read_answer(sock)
    assert status == 200, data


def raw(url: str, method: str, path: str, body: bytes = b"", **headers: str) -> tuple[int, bytes]:
    with connect(url) as sock:
        extra = {"Content_Length": str(len(body))} if body else {}
        sock.sendall(head(method, path, url, Connection="close", **extra, **headers) + body)
        status, data, _closed = read_answer(sock)
    return status, data


def test_only_the_services_own_addresses_are_served(served: tuple[TableService, str]) -> None:
    """Issue #26.9: DNS rebinding (Host = Origin = evil.example:PORT), an https:// Origin on
    this http server, and a Host put into /static's redirect."""
    service, url = served
    match_id = pair_round(service.web.db)[0]
    with service.web.db.Session() as s, s.begin():
        token = slips.token_for(s, match_id, Side.A)
    port = url.rstrip("/").rsplit(":", 1)[1]
    evil = f"evil.example:{port}"
    slip = (
        b'{"uid": "%s", "device": "%s", "game": {"pair": 1, "board": 1, "winner": "A", '
        b'"end": "bear-off", "level": "single", "cube": 1}}'
    ) % (hexid().encode(), hexid().encode())
    json = {"Content_Type": "application/json"}
    status, _ = raw(url, "POST", f"/api/slip/{token}", slip, Host=evil,
                    Origin=f"http://{evil}", **json)  # fmt: skip
    assert status in (400, 421)
    status, _ = raw(url, "GET", "/api/event", Host=evil)
    assert status in (400, 421)
    status, data = raw(url, "GET", "/static", Host=evil)
    assert status in (400, 421) and b"evil.example" not in data
    status, _ = raw(url, "POST", f"/api/slip/{token}", slip,
                    Origin=f"https://127.0.0.1:{port}", **json)  # fmt: skip
    assert status == 403
    with service.web.db.Session() as s:
        assert slips.slips_of_match(s, str(token))[1] == []
    # the service's own address, and localhost on loopback, are served
    assert raw(url, "GET", "/api/event")[0] == 200
    assert raw(url, "GET", "/api/event", Host=f"localhost:{port}")[0] == 200
    status, _ = raw(url, "POST", f"/api/slip/{token}", slip, Origin=url.rstrip("/"), **json)
    assert status == 200


def test_a_slow_sender_is_cut_off(
    served: tuple[TableService, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue #26.7: a request head sent a line at a time is closed after the deadline, and so
    is a body that never ends; a whole request is answered as ever."""
    _service, url = served
    monkeypatch.setattr(protocol, "REQUEST_SECONDS", 0.5)
    with connect(url, timeout=8) as slow:
        slow.sendall(b"GET /api/event HTTP/1.1\r\n")
        slow.sendall(b"X-Slow: 1\r\n")  # and never the blank line
        status, _data, closed = read_answer(slow)
    assert closed and status == 0
    with connect(url, timeout=8) as trickle:
        trickle.sendall(head("POST", "/api/slip/x", url, Origin=url.rstrip("/"),
                             Content_Length="100") + b"{")  # fmt: skip
        _status, _data, closed = read_answer(trickle)
    assert closed
    assert raw(url, "GET", "/api/event")[0] == 200


def test_a_connection_that_sends_nothing_is_cut_off(
    served: tuple[TableService, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue #26.7 says idle requests too: a connection that never sends a byte, and one
    that goes quiet after its answer (kept alive), are closed after the deadline."""
    _service, url = served
    monkeypatch.setattr(protocol, "REQUEST_SECONDS", 0.5)
    with connect(url, timeout=8) as idle:
        status, _data, closed = read_answer(idle)
    assert closed and status == 0
    with connect(url, timeout=8) as kept:
        kept.sendall(head("GET", "/api/event", url))  # keep-alive: no Connection: close
        status, _data, closed = read_answer(kept)
    assert closed and status == 200


def test_refused_connections_are_logged_once_a_minute(caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    handler = protocol.Refusals(clock=lambda: now[0])
    loop = asyncio.new_event_loop()
    try:
        with caplog.at_level(logging.WARNING, logger=protocol.__name__):
            for second in range(120):  # a flood: 100 refusals a second for two minutes
                now[0] = float(second)
                for _ in range(100):
                    handler(loop, {"exception": OSError(errno.EMFILE, "Too many open files")})
    finally:
        loop.close()
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2
    assert "Too many open files" in lines[1] and "5999 more" in lines[1]
