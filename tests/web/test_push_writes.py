"""A push message written straight to each stream's connection (issue #26's room of 3,000
viewers), against the real server on loopback, read from raw sockets: the bytes stay HTTP as
the stream's head announced them, a stream never gets an older state after a newer one, and a
stream that does not read falls back to the queue, which keeps each channel's newest state."""

from __future__ import annotations

import contextlib
import json
import socket
from collections.abc import Iterator

from director.web.hub import PushHub
from director.web.server import TableService
from tests.web.rawhttp import address

MESSAGES = 400
PAD = "x" * 65_536  # 400 messages of 64 kB: far more than the sockets' buffers hold


class RawStream:
    """A push stream on a socket: its head, then its events as they arrive, the body strictly
    de-chunked (HTTP/1.1: each chunk's size line and its CRLF checked) or as sent (HTTP/1.0)."""

    def __init__(self, url: str, channel: str, version: str = "1.1", buffer: int = 0) -> None:
        host, port = address(url)
        self.sock = socket.socket()
        if buffer:  # a phone's small receive buffer (the system's grows to 32 MB on loopback)
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, buffer)
        self.sock.settimeout(10)
        self.sock.connect((host, port))
        self.sock.sendall(
            f"GET /events?ch={channel} HTTP/{version}\r\nHost: {host}:{port}\r\n"
            "Accept: text/event-stream\r\n\r\n".encode()
        )
        self.raw = b""
        while b"\r\n\r\n" not in self.raw:
            self._receive()
        head, _, self.raw = self.raw.partition(b"\r\n\r\n")
        self.head = head.decode("latin-1").lower()
        self.chunked = "transfer-encoding: chunked" in self.head
        self.body = b""
        self.ended = False  # the last chunk (HTTP/1.1) or the connection's end (HTTP/1.0)

    def _receive(self) -> None:
        data = self.sock.recv(1 << 20)
        if not data:
            assert not self.chunked, "the connection ended inside a chunked body"
            self.ended = True
        self.raw += data

    def _unframe(self) -> None:
        if not self.chunked:
            self.body, self.raw = self.body + self.raw, b""
            return
        while (eol := self.raw.find(b"\r\n")) >= 0:
            size = int(self.raw[:eol], 16)  # a size line that is not hex fails here
            if size == 0:  # the last chunk: "0", no trailers, an empty line
                if len(self.raw) >= eol + 4:
                    assert self.raw[eol:] == b"\r\n\r\n", self.raw
                    self.ended = True
                return
            end = eol + 2 + size
            if len(self.raw) < end + 2:
                return
            assert self.raw[end : end + 2] == b"\r\n", "a chunk is not followed by CRLF"
            self.body += self.raw[eol + 2 : end]
            self.raw = self.raw[end + 2 :]

    def events(self) -> Iterator[dict[str, str]]:
        """Each event as it arrives (its fields by name), until the stream ends."""
        while True:
            self._unframe()
            while (cut := self.body.find(b"\n\n")) >= 0:
                block, self.body = self.body[:cut], self.body[cut + 2 :]
                fields = dict(line.split(": ", 1) for line in block.decode().split("\n"))
                if "event" in fields:
                    yield fields
            if self.ended:
                return
            self._receive()

    def marks_until(self, last: int) -> list[int]:
        """The marks of the pairings messages read until `last` (the page's data, whole)."""
        seen: list[int] = []
        for fields in self.events():
            data = json.loads(fields["data"])  # a message cut or interleaved fails here
            if fields["event"] == "pairings" and "mark" in data:
                seen.append(data["mark"])
                if data["mark"] == last:
                    return seen
        raise AssertionError(f"the stream ended before mark {last}: {seen[-5:]}")

    def close(self) -> None:
        self.sock.close()


def settled(phone: RawStream, hub: PushHub) -> None:
    """The stream has read everything sent so far: mark -2 tells that it is subscribed (it may
    come twice: as the channel's latest when it subscribed, and delivered), and mark -1 comes
    after a second copy. (The event is not changed meanwhile: the change watcher publishes
    nothing of its own during these tests.)"""
    for mark in (-2, -1):
        hub.publish("pairings", {"mark": mark})
        assert phone.marks_until(mark)[-1] == mark


@contextlib.contextmanager
def stream(
    url: str, channel: str = "pairings", version: str = "1.1", buffer: int = 0
) -> Iterator[RawStream]:
    opened = RawStream(url, channel, version, buffer)
    try:
        yield opened
    finally:
        opened.close()


def test_an_idle_stream_is_written_to_directly_as_http_chunks_in_order(
    served: tuple[TableService, str],
) -> None:
    """Each message reaches an idle stream in the delivery itself (no task woken for it),
    framed as the HTTP/1.1 chunks its head announced; when the server stops, the body ends
    with its last chunk."""
    service, url = served
    hub = service.web.hub
    with stream(url) as phone:
        assert phone.chunked
        settled(phone, hub)
        before = hub.written_directly
        for mark in range(1, 21):
            hub.publish("pairings", {"mark": mark})
            assert phone.marks_until(mark) == [mark]
        assert hub.written_directly - before == 20
        service.stop()
        assert list(phone.events()) == []
        assert phone.ended


def test_an_http_1_0_stream_is_written_to_directly_without_chunks(
    served: tuple[TableService, str],
) -> None:
    """An HTTP/1.0 client cannot read chunks: its stream's body is the bare events, and the
    connection's end ends it."""
    service, url = served
    hub = service.web.hub
    with stream(url, version="1.0") as phone:
        assert not phone.chunked and "transfer-encoding" not in phone.head
        settled(phone, hub)
        before = hub.written_directly
        for mark in (1, 2, 3):
            hub.publish("pairings", {"mark": mark})
            assert phone.marks_until(mark) == [mark]
        assert hub.written_directly - before == 3
        service.stop()
        assert list(phone.events()) == []
        assert phone.ended


def test_a_stream_that_does_not_read_gets_the_newest_state_and_never_an_older_one(
    served: tuple[TableService, str],
) -> None:
    """400 messages of 64 kB to a phone that reads nothing meanwhile: its sockets fill, the
    messages wait in the hub (a channel's newest replacing the one before), and once it reads,
    every message it gets is whole, newer than the one before it, and the last is the newest."""
    service, url = served
    hub = service.web.hub
    with stream(url, buffer=16_384) as slow:
        settled(slow, hub)
        for mark in range(1, MESSAGES + 1):
            hub.publish("pairings", {"mark": mark, "pad": PAD})
        got = slow.marks_until(MESSAGES)
    assert got == sorted(set(got))  # never an older state after a newer one
    assert len(got) < MESSAGES  # it fell behind: states were replaced, not all sent
