"""Database work off the GUI thread: one helper for every call that may wait on a server.

Like Anki's `QueryOp`/`CollectionOp` (qt/aqt/operations): `Background.run` takes a service and
its arguments, runs it on a worker thread in a session of its own (in a transaction when it is
a change), and reports on the GUI thread: `on_done(result)` or `on_failed(UserError)` for the
user's and the environment's failures (a refusal, a full disk, a server that went away). A bug
is raised on the GUI thread, where the crash hook reports it.

A call that has not answered after `SLOW_MS` says so through `on_slow` ("the database server is
not answering ...") while the window stays usable, and `on_recovered` once it answers: nothing
is lost, because a change is only shown as saved once the database accepted it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal
from sqlalchemy.exc import DBAPIError

from director.domain.errors import ConflictError, UserError
from director.store.engine import EventDatabase
from director.store.errors import classify

SLOW_MS = 4000  # "not answering" shows within 5 s of a call
NOT_ANSWERING = (
    "the database server is not answering: waiting for it; nothing is lost, and what you "
    "entered is shown as saved only once the server has accepted it"
)
UNREACHABLE = "the database server cannot be reached: check the network and the server"


@dataclass
class _Call:
    on_done: Callable[[Any], object]
    on_failed: Callable[[UserError], object]
    timer: QTimer
    slow: bool = False
    outcome: list[Any] = field(default_factory=list)


def _user_error(exc: BaseException) -> UserError | None:
    """The message for a failure a person can act on (a ConflictError when another station
    got there first); None for a bug."""
    if isinstance(exc, UserError):
        return exc
    known = classify(exc)
    if known is not None:
        return ConflictError(known.message) if known.conflict else UserError(known.message)
    if isinstance(exc, DBAPIError):
        return UserError(UNREACHABLE)  # a dropped connection, in the driver's own words
    return None


class Background(QObject):
    """Runs database calls of one open event on one worker thread, in order."""

    finished = Signal(int, bool, object)  # call id, succeeded, result or exception

    def __init__(
        self,
        db: EventDatabase,
        parent: QObject | None = None,
        *,
        on_slow: Callable[[str], object] | None = None,
        on_recovered: Callable[[], object] | None = None,
        slow_ms: int = SLOW_MS,
    ) -> None:
        super().__init__(parent)
        self.db = db
        self.on_slow = on_slow
        self.on_recovered = on_recovered
        self.slow_ms = slow_ms
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="database")
        self.calls: dict[int, _Call] = {}
        self.ids = itertools.count(1)
        self.stopped = False
        self.finished.connect(self._finish)

    @property
    def busy(self) -> bool:
        return bool(self.calls)

    def run(
        self,
        service: Callable[..., Any],
        *args: Any,
        change: bool = False,
        on_done: Callable[[Any], object] = lambda _result: None,
        on_failed: Callable[[UserError], object] = lambda _failure: None,
        **kwargs: Any,
    ) -> int:
        """Run `service(session, *args, **kwargs)` off the GUI thread; returns the call's id."""
        if self.stopped:
            raise UserError("the event is closed")
        number = next(self.ids)
        timer = QTimer(self)
        timer.setSingleShot(True)
        timer.setInterval(self.slow_ms)
        timer.timeout.connect(lambda: self._slow(number))
        self.calls[number] = _Call(on_done, on_failed, timer)
        timer.start()
        self.pool.submit(self._work, number, service, args, kwargs, change)
        return number

    def _work(
        self,
        number: int,
        service: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        change: bool,
    ) -> None:
        """On the worker thread: a session of its own; the outcome goes to the GUI thread."""
        try:
            with self.db.Session() as session:
                if change:
                    with session.begin():
                        result = service(session, *args, **kwargs)
                else:
                    result = service(session, *args, **kwargs)
        except Exception as exc:  # handed to the GUI thread, which decides what it means
            self.finished.emit(number, False, exc)
            return
        self.finished.emit(number, True, result)

    def _slow(self, number: int) -> None:
        call = self.calls.get(number)
        if call is None or self.stopped:
            return
        first = not any(c.slow for c in self.calls.values())
        call.slow = True
        if first and self.on_slow is not None:
            self.on_slow(NOT_ANSWERING)

    def _finish(self, number: int, succeeded: bool, outcome: Any) -> None:
        call = self.calls.pop(number, None)
        if call is None:
            return
        call.timer.stop()
        call.timer.deleteLater()
        recovered = call.slow and not any(c.slow for c in self.calls.values())
        if recovered and self.on_recovered is not None and not self.stopped:
            self.on_recovered()
        if self.stopped:
            return
        if succeeded:
            call.on_done(outcome)
            return
        failure = _user_error(outcome)
        if failure is None:
            raise outcome  # a bug: the crash hook reports it
        call.on_failed(failure)

    def stop(self) -> None:
        """No new calls; one already running is waited for (its answer is dropped), so no
        thread uses the database once the event is closed; unless the server is not
        answering: closing the window must not hang on it (that call then fails on its own)."""
        self.stopped = True
        hung = any(call.slow for call in self.calls.values())
        for call in self.calls.values():
            call.timer.stop()
        self.pool.shutdown(wait=not hung, cancel_futures=True)
