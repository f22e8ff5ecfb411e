"""What every route of the table service gets: the event, the hub, limits, devices.

Database work never runs on the server's event loop (nor on the GUI thread): a route calls
`await web.run_db(service, ...)`, which runs the service in a fresh session on a worker
thread, in its own transaction, committed when it returns. A phone's write calls
`await web.write_db(token, service, ...)`: the phones' writes go through one writer queue
(those waiting together in one transaction, each in its savepoint, one commit), take the
database's write lock before they read, and are tried again when the desk or another station
was writing: a phone never hears "database is locked".

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
from typing import Any, Concatenate, ParamSpec, TypeVar, cast

from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from director.domain.changes import Changed, Changes
from director.store.engine import EventDatabase
from director.store.errors import contended
from director.store.work import Outcome, in_write_group
from director.web.answers import Answers
from director.web.clock_room import ClockRoom
from director.web.hub import PushHub
from director.web.security import RateLimits

P = ParamSpec("P")
T = TypeVar("T")
log = logging.getLogger(__name__)
WRITE_TRIES = (
    6  # each after the busy timeout's own wait (store.engine): the desk is never this slow
)
GROUP_LIMIT = 32  # phones' writes in one transaction at most: a room's burst of confirmations
# how long an idle writer waits for the rest of a burst before it writes: sixteen tables
# confirming at once arrive over a few milliseconds, and the first alone in a group made the
# other fifteen wait for its commit, then for their own (two results pushed to every viewer
# where one would do)
GATHER_SECONDS = 0.01


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


@dataclass(eq=False)
class Queued:
    """A write waiting in line: the call, and its caller's answer."""

    call: Callable[[Session], Any]
    done: asyncio.Future[Any]
    tries: int = 1


GroupRunner = Callable[[list[Callable[[Session], Any]]], list[Outcome]]


@dataclass
class WriteQueue:
    """The phones' writes in line, on the server's event loop (used from it only): one at a
    time per key (a team's token), as coroutines. The writes waiting when the writer is free go
    together, in one transaction (`store.work.in_write_group`): one commit, one flush to disk."""

    _loop: asyncio.AbstractEventLoop | None = None
    _keys: dict[str, tuple[asyncio.Lock, int]] = field(default_factory=dict)
    _waiting: list[Queued] = field(default_factory=list)
    _writer: asyncio.Task[None] | None = None

    def _of_this_loop(self) -> asyncio.AbstractEventLoop:
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # the service started again: a lock belongs to one loop
            self._loop, self._keys, self._waiting, self._writer = loop, {}, [], None
        return loop

    @contextlib.asynccontextmanager
    async def turn(self, key: str) -> AsyncIterator[None]:
        """The key's writes one after another (its lock is dropped when nobody waits)."""
        self._of_this_loop()
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

    async def write(self, call: Callable[[Session], Any], run: GroupRunner) -> Any:
        """`call(session)` in the next group `run` writes; its answer or its exception."""
        loop = self._of_this_loop()
        queued = Queued(call, loop.create_future())
        self._waiting.append(queued)
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write_all(run))
        return await queued.done

    async def _write_all(self, run: GroupRunner) -> None:
        await asyncio.sleep(GATHER_SECONDS)
        while self._waiting:
            group = [q for q in self._waiting[:GROUP_LIMIT] if not q.done.done()]
            del self._waiting[:GROUP_LIMIT]
            if not group:
                continue
            try:
                outcomes = await run_in_threadpool(run, [q.call for q in group])
            except Exception as exc:  # the transaction itself failed, after its tries
                for q in group:
                    if not q.done.done():
                        q.done.set_exception(exc)
                continue
            self._waiting[:0] = group[len(outcomes) :]  # left out of a group that ran long
            for q, (ok, value) in zip(group, outcomes, strict=False):
                if q.done.done():
                    continue  # its caller has gone
                if ok:
                    q.done.set_result(value)
                elif contended(value) and q.tries < WRITE_TRIES:
                    q.tries += 1  # another station's row lock in the way: in the next group
                    self._waiting.append(q)
                else:
                    q.done.set_exception(value)


@dataclass
class WebContext:
    db: EventDatabase
    hub: PushHub = field(default_factory=PushHub)
    limits: RateLimits = field(default_factory=RateLimits)
    devices: Devices = field(default_factory=Devices)
    # told (on the event loop) what a slip request changed (an auto-accepted result too)
    on_change: Callable[[Changes], None] = lambda _changes: None
    # run on the writer's worker thread once a group of phones' writes that changed something
    # has committed, before the phones hear back: the table service publishes the change there
    # and then (a room waited for the change watcher to wake, read and publish in three more
    # hops between threads, each a wait for a core on a busy machine)
    after_writes: Callable[[], None] = lambda: None
    clocks: ClockRoom = field(init=False)  # the phone clocks (director/web/clock_room.py)
    _writing: threading.Lock = field(default_factory=threading.Lock)
    writes: WriteQueue = field(default_factory=WriteQueue)
    club: EventDatabase | None = None  # the club's register, read only (`serve --club`)
    answers: Answers = field(default_factory=Answers)  # each match's answer, once per change

    def __post_init__(self) -> None:
        self.clocks = ClockRoom(self.hub)

    def session_run(
        self, service: Callable[Concatenate[Session, P], T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        """Run a service in its own transaction on the calling thread (a worker thread)."""
        with self.db.Session() as session, session.begin():
            return service(session, *args, **kwargs)

    def write_group(self, calls: list[Callable[[Session], Any]]) -> list[Outcome]:
        """Run a group of phones' writes on the calling thread (a worker thread): one group at
        a time, the write lock first, again while another writer is in the way; then, if one
        of them changed something, `after_writes`."""
        outcomes = self._write_group(calls)
        if any(ok and isinstance(done, Changed) and done.changes for ok, done in outcomes):
            try:
                self.after_writes()
            except Exception:  # the writes are in: the change watcher publishes them later
                log.exception("table service: publishing the phones' writes failed")
        return outcomes

    def _write_group(self, calls: list[Callable[[Session], Any]]) -> list[Outcome]:
        for attempt in range(1, WRITE_TRIES + 1):
            try:
                with self._writing:
                    return in_write_group(self.db, calls)
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

        def call(session: Session) -> T:
            return service(session, *args, **kwargs)

        return cast(T, await self.writes.write(call, self.write_group))

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
