"""Hostile clients against the real table service on loopback: bodies, slow senders, hosts
(issue #26). Raw sockets send what a browser would not."""

from __future__ import annotations

import contextlib

from director.services import slips
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
        token = slips.token_for(s, match_id)
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
        token = slips.token_for(s, match_id)
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
