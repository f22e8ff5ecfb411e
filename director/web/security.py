"""What keeps the table service safe on a club's open Wi-Fi.

- Every request must name this server as the address it reached (`Host`: the address the
  connection came in on, or this computer's own names), so a name of another site pointed at
  this computer (DNS rebinding) is refused; writes need a team's token (checked by the slip
  service) and an `Origin` of `http://` and that same address: a page on another site cannot
  post into ours from a player's browser.
- Rate limits per client address: writes, and above all failed token look-ups (guessing).
- Every answer carries a Content-Security-Policy without inline scripts: names are put on the
  page as text by our script, and even a name that slipped through could not run.
- A failure is answered with a short sentence, never a stack trace.
"""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        # the clock page's silent video that keeps a phone's screen on (NoSleep.js, data: URIs)
        "media-src 'self' data:; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # the slip token is in the address: never pass it on
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


def same_origin(origin: str | None, host: str | None) -> bool:
    """The request's Origin names this server (the host and port the browser connected to),
    over http: this server speaks nothing else."""
    if not origin or not host or origin == "null":
        return False
    parts = urlsplit(origin)
    return parts.scheme == "http" and parts.netloc.lower() == host.lower()


def own_names() -> frozenset[str]:
    """This computer's names, lower case: a phone may reach it by them too."""
    name = socket.gethostname().lower()
    return frozenset((name, f"{name}.local", name.split(".")[0]))


def our_host(host: str | None, server: tuple[str, int] | None) -> bool:
    """`Host` names the address and port this connection came in on (`server`, as the ASGI
    scope gives it), `localhost` on loopback, or this computer's own name."""
    if not host or server is None:
        return False
    address, port = server
    try:
        parts = urlsplit(f"//{host}")
        name, given = (parts.hostname or "").lower(), parts.port or 80
    except ValueError:  # a port that is not a number
        return False
    if given != port:
        return False
    loopback = address.startswith("127.") or address == "::1"
    return name == address.lower() or (loopback and name == "localhost") or name in own_names()


@dataclass
class Bucket:
    tokens: float
    stamp: float


@dataclass
class RateLimit:
    """A token bucket per client address: `burst` at once, then `per_minute`."""

    per_minute: float
    burst: int
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _buckets: dict[str, Bucket] = field(default_factory=dict)

    def _bucket(self, client: str, now: float) -> Bucket:
        bucket = self._buckets.get(client)
        if bucket is None:
            if len(self._buckets) > 10_000:  # a flood of addresses: start afresh
                self._buckets.clear()
            bucket = self._buckets[client] = Bucket(float(self.burst), now)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.stamp) * self.per_minute / 60)
        bucket.stamp = now
        return bucket

    def allow(self, client: str, now: float | None = None) -> bool:
        """Take one from the client's bucket; False when it is empty."""
        with self._lock:
            bucket = self._bucket(client, time.monotonic() if now is None else now)
            if bucket.tokens < 1:
                return False
            bucket.tokens -= 1
            return True

    def exhausted(self, client: str, now: float | None = None) -> bool:
        """Whether the client's bucket is empty, without taking from it."""
        with self._lock:
            return self._bucket(client, time.monotonic() if now is None else now).tokens < 1


@dataclass
class RateLimits:
    # a table sends a few slips per game; 32 phones behind one hotspot address still fit
    writes: RateLimit = field(default_factory=lambda: RateLimit(per_minute=240, burst=60))
    # a wrong token is a mistyped address once, a guess when it repeats
    bad_tokens: RateLimit = field(default_factory=lambda: RateLimit(per_minute=10, burst=10))
    # every read; generous (a projector and a room of phones may share one address)
    reads: RateLimit = field(default_factory=lambda: RateLimit(per_minute=6000, burst=1000))
