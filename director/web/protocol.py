"""The HTTP connection as uvicorn's h11 protocol, with the deadline uvicorn lacks, and a way
for a push stream to write its messages straight to the connection.

uvicorn times a connection out only while it idles between requests: one that sends a header
line every 10 s is never cut off, and 1,100 of them used every file the server may open, so
nobody else got an answer. Here a request must arrive whole (its head and its body) within
`REQUEST_SECONDS` of the connection or of the previous answer; a slower one is closed. A push
stream's request is whole at once, and its answer may then last as long as the page is open.

Each request's scope carries a `DirectBody` (`direct_body(scope)`): a push message sent the
ASGI way costs each stream a task step, h11's framing and four wrappers, about 45 µs, which a
room of 3,000 phones paid 3,000 times per result (the last phone saw it a quarter of a second
after the first); written directly, the same bytes framed once go to each connection's socket.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import time
from collections.abc import MutableMapping
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol, RequestResponseCycle

REQUEST_SECONDS = 10.0
LOG_EVERY_SECONDS = 60.0
log = logging.getLogger(__name__)


DIRECT_BODY = "director.direct_body"  # the scope's extension: {"body": DirectBody}


class DirectBody:
    """A response's body written straight to its connection, past the ASGI send, while that is
    safe: its head has gone out (through h11, which chose the body's framing), its end has
    not, and the connection has nothing waiting to go out (a slow phone's stream keeps the
    ASGI way, with its flow control, and its messages wait in the hub)."""

    def __init__(self, protocol: TimedH11Protocol, cycle: RequestResponseCycle) -> None:
        self._protocol = protocol
        self._cycle = cycle
        # h11 frames a body of unknown length in chunks for an HTTP/1.1 client, and sends an
        # HTTP/1.0 one the bare bytes (then closes the connection)
        self.chunked = protocol.conn.their_http_version == b"1.1"

    def write(self, data: bytes, chunk: bytes) -> bool:
        """Write `data` (`chunk`: the same framed as one HTTP/1.1 chunk) now, and say so;
        False: it must be sent the ASGI way."""
        protocol, cycle = self._protocol, self._cycle
        transport = protocol.transport
        if (
            protocol.cycle is not cycle
            or not cycle.response_started
            or cycle.response_complete
            or cycle.disconnected
            or protocol.flow.write_paused
            or transport.is_closing()
            or transport.get_write_buffer_size()
        ):
            return False
        transport.write(chunk if self.chunked else data)
        return True


def direct_body(scope: MutableMapping[str, Any]) -> DirectBody | None:
    """The request's `DirectBody` (None: not served by `TimedH11Protocol`)."""
    body = scope.get("extensions", {}).get(DIRECT_BODY, {}).get("body")
    return body if isinstance(body, DirectBody) else None


class TimedH11Protocol(H11Protocol):
    _deadline: asyncio.TimerHandle | None = None
    _waiting_after: object = None  # the cycle answered before the request being waited for
    _offered: object = None  # the cycle whose scope has its DirectBody

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def handle_events(self) -> None:
        super().handle_events()
        cycle = self.cycle
        if cycle is not None and cycle is not self._offered:
            # a new request: its application task has been made, and runs after this returns
            self._offered = cycle
            extensions = cycle.scope.setdefault("extensions", {})
            extensions[DIRECT_BODY] = {"body": DirectBody(self, cycle)}
        if cycle is not None and cycle is not self._waiting_after and not cycle.more_body:
            self._disarm()  # the request is whole

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request on this connection has its deadline too

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._waiting_after = self.cycle
        self._deadline = self.loop.call_later(REQUEST_SECONDS, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        cycle = self.cycle
        if cycle is None or cycle is self._waiting_after or cycle.more_body:
            self.transport.close()


class Refusals:
    """The event loop's handler for failures outside any request: "too many open files" and
    its kin are logged once a minute with how many there were, not once a connection."""

    def __init__(self, clock: Any = time.monotonic) -> None:
        self.clock = clock
        self.last = -LOG_EVERY_SECONDS
        self.quiet = 0

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        if isinstance(exc, OSError) and exc.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS):
            now = self.clock()
            if now - self.last < LOG_EVERY_SECONDS:
                self.quiet += 1
                return
            log.warning(
                "table service: refusing connections, %s (%d more since the last notice)",
                exc.strerror,
                self.quiet,
            )
            self.last, self.quiet = now, 0
            return
        loop.default_exception_handler(context)
