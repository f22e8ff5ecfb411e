"""Waiting for database work on another thread without freezing the window (issue 14 point 5).

The GUI thread waits for an answer while the window paints and runs its timers, and the
person's clicks and keys are held back until the answer (so nothing is entered twice or in
between). `ui.background` waits so for an open event's calls; `waited` is for the work done
before an event is open (opening a file, connecting to a server). No SQLAlchemy here: the main
window imports this module before any event is open.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QEventLoop, QObject, QThread, Signal, Slot

if TYPE_CHECKING:
    from concurrent.futures import Future

T = TypeVar("T")

QUICK_S = 0.1  # work that answers within this keeps the GUI thread simply waiting


class _Waker(QObject):
    """Ends a wait from the worker thread (a queued signal wakes the GUI thread)."""

    answered = Signal()

    @Slot()
    def woken(self) -> None:
        """Nothing to do: being called is what ends the wait for more events."""


class _PutOffDeletes(QObject):
    """An event filter that keeps deferred deletes for after a wait (see `wait_for`)."""

    def __init__(self) -> None:
        super().__init__()
        self.put_off: list[QObject] = []

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.DeferredDelete:
            self.put_off.append(watched)
            return True  # not now
        return False

    def delete_now_later(self) -> None:
        """Posted again, so the event loop deletes them once control is back with it."""
        for thing in self.put_off:
            if shiboken6.isValid(thing):
                thing.deleteLater()
        self.put_off.clear()


def wait_for(
    future: Future[Any], given_up: Callable[[], bool] = lambda: False, *, quick: bool = True
) -> None:
    """Until the future is done (or `given_up()`: the event was closed meanwhile): the window
    paints and runs its timers, and the person's clicks and keys are held back (Qt delivers
    them once the wait is over).

    The events are processed by hand, not by a nested `QEventLoop.exec`, and a deferred
    delete that falls due meanwhile is put off until the wait is over: a wait inside a closing
    message box's `finished` would otherwise delete the box under the signal still running.

    `quick`: the work may answer within `QUICK_S`, waited for first without running the
    window's events; else they run from the start (a page on the screen meanwhile)."""
    from concurrent.futures import wait  # loaded with the first wait, not at start-up

    from PySide6.QtCore import Qt  # the same (plain.START)

    if quick and wait([future], QUICK_S).done:
        return
    waker = _Waker()
    waker.answered.connect(waker.woken, Qt.ConnectionType.QueuedConnection)
    # The worker may drop the future (and its callbacks) last: a callback holding the waker
    # would then destroy a QObject of this thread on the worker's, which crashes Qt later.
    # So the callback reaches the waker only through this box, emptied before we return.
    box = [waker]
    lock = threading.Lock()

    def answered(_future: Future[Any]) -> None:
        with lock:
            if box:
                box[0].answered.emit()

    future.add_done_callback(answered)
    flags = (
        QEventLoop.ProcessEventsFlag.WaitForMoreEvents
        | QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents
    )
    app = None if _under_no_handler() else QCoreApplication.instance()
    later = _PutOffDeletes()
    if app is not None:
        app.installEventFilter(later)
    _waits[0] += 1
    try:
        while not future.done() and not given_up():
            QCoreApplication.processEvents(flags)
    finally:
        _waits[0] -= 1
        with lock:
            box.clear()
        if app is not None:
            app.removeEventFilter(later)
        later.delete_now_later()


_waits = [0]  # the waits under way on the GUI thread (one may run inside another's event)
_starting = [False]


def _under_no_handler() -> bool:
    """At the app's start, outside any event loop (a dialog's included) and any other wait."""
    return _starting[0] and not _waits[0] and QThread.currentThread().loopLevel() == 0


@contextlib.contextmanager
def at_start() -> Iterator[None]:
    """Around the app's own start (`run_gui`, before its event loop), where a wait runs inside
    no event's handler: Qt deletes nothing there before its handler has returned, so no
    deferred delete is put off (a wait inside another's event still puts them off). The
    filter saw every event of the app in Python meanwhile, and its first sight of each kind
    of object made PySide6 set up most of Qt's classes and their enums: some 25 ms CPU of
    opening a 1,000-team event."""
    _starting[0] = True
    try:
        yield
    finally:
        _starting[0] = False


@contextlib.contextmanager
def busy() -> Iterator[None]:
    """The wait cursor over the whole app while the block runs."""
    from PySide6.QtCore import Qt  # here, not at import: plain.START
    from PySide6.QtGui import QGuiApplication

    QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
    try:
        yield
    finally:
        QGuiApplication.restoreOverrideCursor()


def waited(work: Callable[[], T], *, quick: bool = True) -> T:
    """`work()` on a thread of its own, waited for as an open event's calls are: for the
    database work done before an event is open (opening an event file, connecting to a
    server, bounded by its connect timeout). Whatever it raises is raised here. `quick`: as
    `wait_for` takes it."""
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="database-open")
    try:
        future = pool.submit(work)
        wait_for(future, quick=quick)
    finally:
        pool.shutdown(wait=False)
    return future.result()
