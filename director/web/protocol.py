"""The HTTP connection as uvicorn's h11 protocol, with the deadline uvicorn lacks.

uvicorn times a connection out only while it idles between requests: one that sends a header
line every 10 s is never cut off, and 1,100 of them used every file the server may open, so
nobody else got an answer. Here a request must arrive whole (its head and its body) within
`REQUEST_SECONDS` of the connection or of the previous answer; a slower one is closed. A push
stream's request is whole at once, and its answer may then last as long as the page is open.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import time
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_SECONDS = 10.0
LOG_EVERY_SECONDS = 60.0
log = logging.getLogger(__name__)


class TimedH11Protocol(H11Protocol):
    _deadline: asyncio.TimerHandle | None = None
    _waiting_after: object = None  # the cycle answered before the request being waited for

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def handle_events(self) -> None:
        super().handle_events()
        cycle = self.cycle
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
