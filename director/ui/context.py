"""The one door for data changes in the GUI (STYLE habit 1).

Pages never hold sessions or ORM objects. They call `ctx.read(service, ...)` for snapshots and
`ctx.change(service, ...)` for changes; a change runs in its own transaction, commits at once,
and `ctx.changed` tells every page to refresh. A refused change raises `UserError` with the
message the page shows next to the field (or in a message box).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Concatenate, ParamSpec, Protocol, TypeVar

from PySide6.QtCore import QObject, Signal
from sqlalchemy.orm import Session

from director.domain.errors import ConflictError, UserError
from director.services.backups import backup_after_pairing, backup_after_round
from director.services.rounds import progress
from director.store.backup import space_warning
from director.store.engine import EventDatabase
from director.store.errors import classify

P = ParamSpec("P")
T = TypeVar("T")
ClockTimes = tuple[int | None, int | None]  # side A's and B's remaining ns on one board


class ClockReader(Protocol):
    """An open clock window (director/ui/clock), as the desk sees it."""

    def clock_times(self, board: int) -> ClockTimes: ...


class EventContext(QObject):
    """An open event: its database, and the signal every page listens to."""

    changed = Signal(str)  # what changed, e.g. "teams", "match:12", "rounds", "event"
    show_match = Signal(int)  # a page asks for a match to be shown at the match desk
    notice = Signal(str)  # something the director should know that is not a refusal

    def __init__(self, db: EventDatabase, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.db = db
        self.clock_windows: dict[int, ClockReader] = {}  # match id -> its open clock window
        self.milestone = self.read(progress)  # (last round paired, is it finished)

    @property
    def title(self) -> str:
        return self.db.title  # a server URL without its password

    def back_up_at_milestones(self) -> None:
        """A backup after each round is paired and after each round is finished (issue 7)."""
        last, finished = self.read(progress)
        before, self.milestone = self.milestone, (last, finished)
        if not self.db.is_sqlite or (last, finished) == before:
            return
        try:
            if last > before[0]:
                backup_after_pairing(self.db, last)
            if finished and last >= before[0]:
                backup_after_round(self.db, last)
        except UserError as failure:  # the change itself is committed: say so, carry on
            self.notice.emit(f"the automatic backup failed: {failure}")
            return
        warning = space_warning(self.db.path.resolve())
        if warning:  # early, while backups still fit: before anything fails
            self.notice.emit(warning)

    def read(
        self, service: Callable[Concatenate[Session, P], T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        with self.db.Session() as session:
            return service(session, *args, **kwargs)

    def change(
        self,
        what: str,
        service: Callable[Concatenate[Session, P], T],
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        """Run a service in its own transaction; committed when it returns, then `changed`."""
        try:
            with self.db.Session() as session, session.begin():
                result = service(session, *args, **kwargs)
        except ConflictError:
            self.changed.emit(what)  # another station's change: show it, as the message says
            raise
        except UserError:
            raise
        except Exception as exc:
            known = classify(exc)
            if known is None:
                raise
            if known.conflict:  # lost a race with another station: show what it stored
                self.changed.emit(what)
                raise ConflictError(known.message) from exc
            raise UserError(known.message) from exc
        self.changed.emit(what)
        self.back_up_at_milestones()
        return result

    def clock_times(self, match_id: int, board: int) -> ClockTimes:
        """A board's remaining times from the match's open clock window, to store with the
        game being recorded; (None, None) when no clock window is open for the match."""
        window = self.clock_windows.get(match_id)
        return (None, None) if window is None else window.clock_times(board)

    def close(self) -> None:
        self.db.close()
