"""Other stations' changes on a shared server event, shown within a few seconds (issue 7).

Every `POLL_SECONDS` a worker thread asks the server what changed (`services.sync`); the
answer comes back to the GUI thread as a queued signal and is passed on as `ctx.changed`, so a
page refreshes exactly as after a change made at this station. The question runs off the GUI
thread because an unreachable server can take seconds to answer: the station stays usable.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor

from PySide6.QtCore import QObject, QTimer, Signal
from sqlalchemy.exc import DBAPIError

from director.services.sync import AREAS, POLL_SECONDS, ChangeToken, changes_since
from director.store.errors import known_database_error
from director.ui.context import EventContext

Answer = tuple[ChangeToken, frozenset[str]] | BaseException
UNREACHABLE = "the database server cannot be reached: check the network and the server"


def names_to_emit(names: Iterable[str]) -> list[str]:
    """What to tell the pages, in a stable order: the event, teams and rounds before matches.

    "results" is the sum of the per-match names, and "audit" changes with every change; the
    pages read neither, and each name costs a refresh, so they go only when nothing else came.
    """
    found = set(names)
    areas = [a for a in AREAS if a in found]
    matches = sorted((n for n in found if n.startswith("match:")), key=lambda n: int(n[6:]))
    wanted = [a for a in areas if a not in ("results", "audit")]
    if not wanted and not matches:
        return areas
    return [*(a for a in wanted if a != "clocks"), *matches, *(a for a in wanted if a == "clocks")]


class ServerWatch(QObject):
    """Polls a server event while it is open; `stop()` before the event is closed."""

    answered = Signal(object)  # an Answer, from the worker thread to the GUI thread

    def __init__(self, ctx: EventContext, report: Callable[[str, bool], None]) -> None:
        super().__init__(ctx)  # deleted with the event's context
        self.ctx = ctx
        self.report = report  # (message, is_problem): the window shows it in its message bar
        self.token: ChangeToken | None = None
        self.asking = False
        self.stopped = False
        self.failing = False
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="server-watch")
        self.answered.connect(self._take)
        self.timer = QTimer(self)
        self.timer.setInterval(int(POLL_SECONDS * 1000))
        self.timer.timeout.connect(self.poll)

    def start(self) -> None:
        """Take the server's state now (the pages have just read it), then watch for changes."""
        self.token = self.ctx.read(changes_since, None)[0]
        self.timer.start()

    def stop(self) -> None:
        """Stop asking; a question already out is waited for (its answer is ignored), so no
        thread uses the database once the event is closed."""
        self.stopped = True
        self.timer.stop()
        self.pool.shutdown(wait=True, cancel_futures=True)

    def poll(self) -> None:
        if self.asking or self.stopped:
            return  # the last question is still out (a slow server): no pile-up
        self.asking = True
        self.pool.submit(self._ask, self.token)

    def _ask(self, token: ChangeToken | None) -> None:
        """Runs on the worker thread: a fresh session, then the answer to the GUI thread."""
        answer: Answer
        try:
            with self.ctx.db.Session() as session:
                answer = changes_since(session, token)
        except Exception as exc:  # handed to the GUI thread, which decides what it means
            answer = exc
        if not self.stopped:
            self.answered.emit(answer)

    def _take(self, answer: Answer) -> None:
        self.asking = False
        if self.stopped:
            return
        if isinstance(answer, BaseException):
            known = known_database_error(answer)
            if known is None and isinstance(answer, DBAPIError):
                known = UNREACHABLE  # a dropped connection, in the driver's own words
            if known is None:
                raise answer  # a bug, not the network: the crash hook reports it
            if not self.failing:
                self.failing = True
                self.report(f"{known}; other stations' results will show once it is back", True)
            return
        if self.failing:
            self.failing = False
            self.report("The database server can be reached again.", False)
        self.token, names = answer
        for name in names_to_emit(names):
            if self.stopped:  # a page's refresh closed the event
                return
            self.ctx.changed.emit(name)
