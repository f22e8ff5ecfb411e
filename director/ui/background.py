"""The one door for database work in the GUI: every call runs off the GUI thread.

Like Anki's `QueryOp`/`CollectionOp` (qt/aqt/operations): a service and its arguments go to one
worker thread per open event, which runs it in a session of its own (in a transaction when it
is a change; `store.work`) and sorts its failure: the user's and the environment's become a
`UserError` (a `ConflictError` when another station got there first), a bug keeps its
traceback and is raised on the GUI thread, where the crash hook reports it.

Two ways in:

- `run(service, ..., on_done=, on_failed=)` returns at once and answers on the GUI thread
  (the server watch, a result entered at a shared server, the CSV import). `aside=True` runs
  it on a second worker, for long reads that must not hold up the pages' calls (a report's
  rendering): only on a server event does it say "not answering" (a long report on this
  computer is busy, not hung).
- `call(service, ...)` returns the service's result (or raises its refusal) like a direct
  call, for the pages and dialogs that read and change through `EventContext`. A server's
  call that has not answered within `waiting.QUICK_S` (an event file on this computer answers in
  milliseconds; a server, a busy drive or a big event may not) waits while the window
  paints, runs its timers and holds back the person's clicks and keys until the answer (so
  nothing is entered twice or in between).

Either way a call that has not answered after `SLOW_MS` says so through `on_slow` ("the
database server is not answering ...") while the window keeps painting, and `on_recovered`
once it answers: nothing is lost, because a change is only shown as saved once the database
accepted it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Concatenate, ParamSpec, TypeVar

from PySide6.QtCore import QObject, QTimer, Signal
from sqlalchemy.orm import Session

from director.domain.errors import UserError
from director.store.engine import EventDatabase
from director.store.errors import UNREACHABLE as _UNREACHABLE
from director.store.work import failure_of, in_session
from director.ui.waiting import wait_for

P = ParamSpec("P")
T = TypeVar("T")

SLOW_MS = 4000  # "not answering" shows within 5 s of a call
NOT_ANSWERING = (
    "the database server is not answering: waiting for it; nothing is lost, and what you "
    "entered is shown as saved only once the server has accepted it"
)
FILE_NOT_ANSWERING = (
    "the event file is not answering (a slow or busy drive, or another program holding it): "
    "waiting for it; nothing is lost, and what you entered is shown as saved only once it is "
    "written"
)
UNREACHABLE = _UNREACHABLE.message
LEFT_WAITING = (
    "the event was closed while the database server had not answered: what was being saved "
    "is saved only if the server accepted it; check when the event is open again"
)
CLOSED = "the event is closed"


@dataclass
class _Call:
    on_done: Callable[[Any], object]
    on_failed: Callable[[UserError], object]
    timer: QTimer
    slow: bool = False
    on_bug: Callable[[BaseException], object] | None = None


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
        self.aside = ThreadPoolExecutor(max_workers=1, thread_name_prefix="database-aside")
        self.calls: dict[int, _Call] = {}
        self.ids = itertools.count(1)
        self.stopped = False
        self.finished.connect(self._finish)

    @property
    def busy(self) -> bool:
        return bool(self.calls)

    def _start(
        self,
        on_done: Callable[[Any], object],
        on_failed: Callable[[UserError], object],
        *,
        timed: bool = True,
        on_bug: Callable[[BaseException], object] | None = None,
    ) -> int:
        if self.stopped:
            raise UserError(CLOSED)
        number = next(self.ids)
        timer = QTimer(self)
        timer.setSingleShot(True)
        timer.setInterval(self.slow_ms)
        timer.timeout.connect(lambda: self._slow(number))
        self.calls[number] = _Call(on_done, on_failed, timer, on_bug=on_bug)
        if timed:
            timer.start()
        return number

    def run(
        self,
        service: Callable[..., Any],
        *args: Any,
        change: bool = False,
        on_done: Callable[[Any], object] = lambda _result: None,
        on_failed: Callable[[UserError], object] = lambda _failure: None,
        on_bug: Callable[[BaseException], object] | None = None,
        aside: bool = False,
        **kwargs: Any,
    ) -> int:
        """Run `service(session, *args, **kwargs)` off the GUI thread; returns the call's id.
        A bug is raised on the GUI thread after `on_bug(exc)` (the caller's own clean-up)."""
        timed = not aside or not self.db.is_sqlite
        number = self._start(on_done, on_failed, timed=timed, on_bug=on_bug)
        (self.aside if aside else self.pool).submit(
            self._work, number, service, args, kwargs, change
        )
        return number

    def call(
        self,
        service: Callable[Concatenate[Session, P], T],
        change: bool,
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        """`service(session, *args, **kwargs)` off the GUI thread, waited for (see the module's
        doc); a refusal is raised as the `UserError` a person can act on."""
        if self.stopped:  # a late caller (a widget's timer that outlived its event) reads as
            return in_session(self.db, service, change, *args, **kwargs)  # it always did
        number = self._start(lambda _result: None, lambda _failure: None)
        future: Future[T] = self.pool.submit(
            lambda: in_session(self.db, service, change, *args, **kwargs)
        )
        try:
            wait_for(future, lambda: self.stopped)
        finally:
            self._end(number)
        if not future.done():  # the event was closed while the call waited
            raise UserError(LEFT_WAITING)
        exc = future.exception()
        if exc is None:
            return future.result()
        failure = failure_of(exc, self.db)
        if failure is None:
            raise exc  # a bug: the crash hook reports it
        raise failure

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
            result = in_session(self.db, service, change, *args, **kwargs)
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
            self.on_slow(FILE_NOT_ANSWERING if self.db.is_sqlite else NOT_ANSWERING)

    def _end(self, number: int) -> _Call | None:
        """Forget a call that answered; "answers again" once no slow call is left."""
        call = self.calls.pop(number, None)
        if call is None:
            return None
        call.timer.stop()
        call.timer.deleteLater()
        recovered = call.slow and not any(c.slow for c in self.calls.values())
        if recovered and self.on_recovered is not None and not self.stopped:
            self.on_recovered()
        return call

    def _finish(self, number: int, succeeded: bool, outcome: Any) -> None:
        call = self._end(number)
        if call is None or self.stopped:
            return
        if succeeded:
            call.on_done(outcome)
            return
        failure = failure_of(outcome, self.db)
        if failure is None:
            if call.on_bug is not None:
                call.on_bug(outcome)
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
        self.aside.shutdown(wait=not hung, cancel_futures=True)
