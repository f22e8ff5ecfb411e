"""What every route of the table service gets: the event, the hub, limits, devices.

Database work never runs on the server's event loop (nor on the GUI thread): a route calls
`await web.run_db(service, ...)`, which runs the service in a fresh session on a worker
thread, in its own transaction, committed when it returns. A phone's write calls
`await web.write_db(token, service, ...)`: the phones' writes go one at a time (a writer
queue), take the database's write lock before they read, and are tried again when the desk or
another station was writing: a phone never hears "database is locked".

One match does not hold up another: a write waits for its turn as a coroutine, holding none of
the worker threads every read needs (60 resends of one phone stuck behind the desk's write
once took all 40 of them), and one token has one write in the queue at a time (a phone
resending, or a token holder flooding, waits behind itself, not ahead of the other tables).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Concatenate, ParamSpec, TypeVar

from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from director.domain.changes import Changes
from director.store.engine import EventDatabase
from director.store.errors import contended
from director.store.work import in_write_session
from director.web.clock_room import ClockRoom
from director.web.hub import PushHub
from director.web.security import RateLimits

P = ParamSpec("P")
T = TypeVar("T")
log = logging.getLogger(__name__)
WRITE_TRIES = (
    6  # each after the busy timeout's own wait (store.engine): the desk is never this slow
)


@dataclass
class Device:
    """A phone seen sending or reading slips of a table (shown to the director)."""

    device: str
    match_id: int
    address: str
    agent: str
    last_seen: float


@dataclass
class Devices:
    """The phones seen per match, since the service started (kept in memory only)."""

    _lock: threading.Lock = field(default_factory=threading.Lock)
    _seen: dict[tuple[int, str], Device] = field(default_factory=dict)

    def saw(self, match_id: int, device: str, address: str, agent: str) -> None:
        with self._lock:
            self._seen[(match_id, device)] = Device(
                device, match_id, address, agent[:80], time.monotonic()
            )

    def of_match(self, match_id: int) -> list[Device]:
        with self._lock:
            return sorted(
                (d for (m, _), d in self._seen.items() if m == match_id),
                key=lambda d: -d.last_seen,
            )

    def forget(self, match_id: int) -> None:
        with self._lock:
            for key in [k for k in self._seen if k[0] == match_id]:
                del self._seen[key]


@dataclass
class WriteQueue:
    """The phones' writes in line, on the server's event loop (used from it only): one at a
    time per key (a team's token) and one at a time overall, as coroutines."""

    _loop: asyncio.AbstractEventLoop | None = None
    _writer: asyncio.Lock = field(default_factory=asyncio.Lock)
    _keys: dict[str, tuple[asyncio.Lock, int]] = field(default_factory=dict)

    def _locks_of_this_loop(self) -> None:
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # the service started again: a lock belongs to one loop
            self._loop, self._writer, self._keys = loop, asyncio.Lock(), {}

    @contextlib.asynccontextmanager
    async def turn(self, key: str) -> AsyncIterator[None]:
        """The key's writes one after another (its lock is dropped when nobody waits)."""
        self._locks_of_this_loop()
        lock, waiting = self._keys.get(key, (asyncio.Lock(), 0))
        self._keys[key] = (lock, waiting + 1)
        try:
            async with lock:
                yield
        finally:
            lock, waiting = self._keys[key]
            if waiting > 1:
                self._keys[key] = (lock, waiting - 1)
            else:
                del self._keys[key]

    @contextlib.asynccontextmanager
    async def writer(self) -> AsyncIterator[None]:
        self._locks_of_this_loop()
        async with self._writer:
            yield


@dataclass
class WebContext:
    db: EventDatabase
    hub: PushHub = field(default_factory=PushHub)
    limits: RateLimits = field(default_factory=RateLimits)
    devices: Devices = field(default_factory=Devices)
    # told (from a worker thread) what a slip request changed (an auto-accepted result too)
    on_change: Callable[[Changes], None] = lambda _changes: None
    clocks: ClockRoom = field(init=False)  # the phone clocks (director/web/clock_room.py)
    _writing: threading.Lock = field(default_factory=threading.Lock)
    writes: WriteQueue = field(default_factory=WriteQueue)
    club: EventDatabase | None = None  # the club's register, read only (`serve --club`)

    def __post_init__(self) -> None:
        self.clocks = ClockRoom(self.hub)

    def session_run(
        self, service: Callable[Concatenate[Session, P], T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        """Run a service in its own transaction on the calling thread (a worker thread)."""
        with self.db.Session() as session, session.begin():
            return service(session, *args, **kwargs)

    def session_write(
        self, service: Callable[Concatenate[Session, P], T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        """Run a phone's write on the calling thread (a worker thread): one at a time, the
        write lock first, again while another writer is in the way."""
        for attempt in range(1, WRITE_TRIES + 1):
            try:
                with self._writing:
                    return in_write_session(self.db, service, *args, **kwargs)
            except Exception as exc:
                if attempt == WRITE_TRIES or not contended(exc):
                    raise
                log.warning("table service: a write met another writer; try %d", attempt + 1)
                time.sleep(0.02 * attempt)
        raise AssertionError("unreachable")

    async def write_db(
        self,
        key: str,
        service: Callable[Concatenate[Session, P], T],
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        """A phone's write for `key` (its token), in its turn (see the module's words)."""
        async with self.writes.turn(key):
            return await self.queued_write(service, *args, **kwargs)

    async def queued_write(
        self, service: Callable[Concatenate[Session, P], T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        """A write in the writers' line; the caller has its key's turn (`writes.turn`)."""
        async with self.writes.writer():
            return await run_in_threadpool(
                functools.partial(self.session_write, service, *args, **kwargs)
            )

    async def run_club(
        self, service: Callable[Concatenate[Session, P], T], *args: P.args, **kwargs: P.kwargs
    ) -> T | None:
        """A read of the club's register on a worker thread; None when no club is served."""
        club = self.club
        if club is None:
            return None

        def read() -> T:
            with club.Session() as session:
                return service(session, *args, **kwargs)

        return await run_in_threadpool(read)

    async def run_db(
        self, service: Callable[Concatenate[Session, P], T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        return await run_in_threadpool(
            functools.partial(self.session_run, service, *args, **kwargs)
        )
