"""Waiting for database work on another thread without freezing the window (issue 14 point 5).

The GUI thread waits for an answer while the window paints and runs its timers, and the
person's clicks and keys are held back until the answer (so nothing is entered twice or in
between). `ui.background` waits so for an open event's calls; `waited` is for the work done
before an event is open (opening a file, connecting to a server). No SQLAlchemy here: the main
window imports this module before any event is open.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from PySide6.QtCore import QCoreApplication, QEventLoop, QObject, Qt, Signal, Slot

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


def wait_for(future: Future[Any], given_up: Callable[[], bool] = lambda: False) -> None:
    """Until the future is done (or `given_up()`: the event was closed meanwhile): the window
    paints and runs its timers, and the person's clicks and keys are held back (Qt delivers
    them once the wait is over).

    The events are processed by hand, not by a nested `QEventLoop.exec`: a nested loop also
    runs the deferred deletes of widgets closed outside any event loop (tests close message
    boxes so), which can delete one under the code still using it; `processEvents` runs only
    those of its own level, as the app's own loop would."""
    from concurrent.futures import wait  # loaded with the first wait, not at start-up

    if wait([future], QUICK_S).done:
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
    try:
        while not future.done() and not given_up():
            QCoreApplication.processEvents(flags)
    finally:
        with lock:
            box.clear()


def waited(work: Callable[[], T]) -> T:
    """`work()` on a thread of its own, waited for as an open event's calls are: for the
    database work done before an event is open (opening an event file, connecting to a
    server, bounded by its connect timeout). Whatever it raises is raised here."""
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="database-open")
    try:
        future = pool.submit(work)
        wait_for(future)
    finally:
        pool.shutdown(wait=False)
    return future.result()
