"""Other stations' changes on a shared server event, shown within a few seconds (issue 7).

Every `POLL_SECONDS` the background helper (`ui.background`) asks the server what changed
(`services.sync`) on a worker thread; the answer comes back to the GUI thread and is passed on
as `ctx.changed`, so a page refreshes exactly as after a change made at this station. A server
that does not answer is reported within 5 s ("not answering"); the station stays usable.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer

from director.domain.changes import Changes
from director.domain.errors import UserError
from director.services.sync import POLL_SECONDS, ChangeToken, changes_since
from director.ui.background import UNREACHABLE, Background
from director.ui.context import EventContext

__all__ = ["UNREACHABLE", "ServerWatch"]


class ServerWatch(QObject):
    """Polls a server event while it is open; `stop()` before the event is closed."""

    def __init__(self, ctx: EventContext, report: Callable[[str, bool], None]) -> None:
        super().__init__(ctx)  # deleted with the event's context
        self.ctx = ctx
        self.report = report  # (message, is_problem): the window shows it in its message bar
        self.token: ChangeToken | None = None
        self.asking = False
        self.stopped = False
        self.failing = False
        # its own worker: a question to a hung server says "not answering" within 5 s
        self.background = Background(
            ctx.db, self, on_slow=self._not_answering, on_recovered=self._answering
        )
        self.timer = QTimer(self)
        self.timer.setInterval(int(POLL_SECONDS * 1000))
        self.timer.timeout.connect(self.poll)

    def start(self) -> None:
        """Take the server's state now (the pages have just read it), then watch for changes."""
        self.token = self.ctx.read(changes_since, None)[0]
        self.timer.start()

    def stop(self) -> None:
        """Stop asking; see `Background.stop`."""
        self.stopped = True
        self.timer.stop()
        self.background.stop()

    def poll(self) -> None:
        if self.asking or self.stopped:
            return  # the last question is still out (a slow server): no pile-up
        self.asking = True
        self.background.run(
            changes_since, self.token, on_done=self._answered, on_failed=self._failed
        )

    def _not_answering(self, text: str) -> None:
        self.failing = True
        self.report(f"{text}; other stations' results will show once it answers", True)

    def _answering(self) -> None:
        pass  # the answer itself (or its failure) says what comes next

    def _failed(self, failure: UserError) -> None:
        self.asking = False
        if self.stopped:
            return
        if not self.failing:
            self.failing = True
            self.report(f"{failure}; other stations' results will show once it is back", True)

    def _answered(self, answer: tuple[ChangeToken, Changes]) -> None:
        self.asking = False
        if self.stopped:
            return
        if self.failing:
            self.failing = False
            self.report("The database server can be reached again.", False)
        self.token, changes = answer
        if changes:  # one signal for the whole answer: each page reads again at most once
            self.ctx.changed.emit(changes)
