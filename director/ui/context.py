"""The one door for data changes in the GUI (STYLE habit 1).

Pages never hold sessions or ORM objects. They call `ctx.read(service, ...)` for snapshots and
`ctx.change(service, ...)` for changes; a change runs in its own transaction, commits at once,
and `ctx.changed` tells every page what the service says it changed (the `Changes` of the
`Changed` it returns: areas and match ids), from which each page decides what it reads again
(`ui.refresh`); the caller gets the service's answer. A refused change raises `UserError` with
the message the page shows next to the field (or in a message box); a `ConflictError` first
tells the pages what it names as changed elsewhere, so they show it.

An event file's window may build its first page from the file's first look
(`store/first_look.py`) before the database layer is loaded: the context then has no database
yet (`first_look` holds what the page shows, nothing reads) until `attach` gives it one,
and the view reads what it shows again (`EventView.read_again`). So this module loads no
SQLAlchemy itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, Protocol, TypeVar

from PySide6.QtCore import QObject, Signal

from director.domain.changes import Changed
from director.domain.errors import ConflictError, UserError
from director.ui.waiting import wait_for

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from director.store.engine import EventDatabase
    from director.store.first_look import FirstLook
    from director.ui.background import Background
    from director.ui.club_context import ClubContext

P = ParamSpec("P")
T = TypeVar("T")
ClockTimes = tuple[int | None, int | None]  # side A's and B's remaining ns on one board


class ClockReader(Protocol):
    """An open clock window (director/ui/clock), as the desk sees it."""

    def clock_times(self, board: int) -> ClockTimes: ...


class EventContext(QObject):
    """An open event: its database, and the signal every page listens to."""

    changed = Signal(object)  # Changes: what changed, here or at another station
    match_requested = Signal(int)  # a page asks for a match to be shown at the match desk
    notified = Signal(str)  # something the director should know that is not a refusal

    def __init__(self, db: EventDatabase | None, parent: QObject | None = None) -> None:
        """`db` None: an event file's first look (`looking_at`), its database given later."""
        super().__init__(parent)
        self._db = db
        self._background: Background | None = None
        self.first_look: FirstLook | None = None  # what the first page shows until `attach`
        self._title = ""
        self.clock_windows: dict[int, ClockReader] = {}  # match id -> its open clock window
        # the club opened on the Club page: registering players finds persons in it
        self.club: ClubContext | None = None
        self.milestone = (0, False)
        if db is not None:
            self._start(db)

    @classmethod
    def looking_at(cls, path: str, look: FirstLook, parent: QObject | None = None) -> EventContext:
        """An event file's context before its database is open: its first page shows `look`."""
        ctx = cls(None, parent)
        ctx._title, ctx.first_look = path, look
        return ctx

    def attach(self, db: EventDatabase) -> None:
        """The database of a context made `looking_at` its file: from now on the pages read
        it (`EventView.read_again`)."""
        self._start(db)
        self.first_look = None

    def _start(self, db: EventDatabase) -> None:
        from director.services.rounds import progress
        from director.ui.background import Background

        self._db = db
        # every database call off the GUI thread; "not answering" goes out as a notice
        self._background = Background(
            db,
            self,
            on_slow=self.notified.emit,
            on_recovered=lambda: self.notified.emit("The database server answers again."),
        )
        try:
            self.milestone = self.read(progress)  # (last round paired, is it finished)
        except BaseException:
            self._background.stop()  # the caller closes the event; nothing here outlives it
            self.setParent(None)
            raise

    @property
    def db(self) -> EventDatabase:
        assert self._db is not None, "the event's first look has no database yet"
        return self._db

    @property
    def background(self) -> Background:
        assert self._background is not None, "the event's first look has no database yet"
        return self._background

    @property
    def is_file(self) -> bool:
        """An event file on this computer (else a server's database)."""
        return self._db is None or self._db.is_sqlite

    @property
    def title(self) -> str:
        # a server URL without its password
        return self._db.title if self._db is not None else self._title

    def back_up_at_milestones(self) -> None:
        """A backup after each round is paired and after each round is finished (issue 7)."""
        from director.services.backups import backup_after_pairing, backup_after_round
        from director.services.rounds import progress
        from director.store.backup import space_warning

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
            self.notified.emit(f"the automatic backup failed: {failure}")
            return
        warning = space_warning(self.db.path.resolve())
        if warning:  # early, while backups still fit: before anything fails
            self.notified.emit(warning)

    def scan_refusal(self) -> str:
        """The refusal of the scan of the event's values once it has ended ('' when sound, or
        when there was none): what a page that failed to show may have met before it said so."""
        try:
            self.values_passed()
        except UserError as refusal:
            return str(refusal)
        except Exception:  # the scan failed itself: the window says so when it ends
            return ""
        return ""

    def values_passed(self) -> None:
        """The scan of every stored value the event was opened with (`open_event(values_later=
        True)`) is done and found nothing the app never writes; else its refusal is raised.
        Every change waits for it: nothing is written to a file the app would have refused."""
        check = self.db.values_check
        if check is None:
            return
        if not check.done():
            wait_for(check)
        refusal = check.result()
        if refusal:
            raise UserError(refusal)

    def read(
        self, service: Callable[Concatenate[Session, P], T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        """A snapshot from a service, read off the GUI thread (ui.background). A read that
        fails on a value the app never writes, before the scan has said so, raises the
        scan's refusal, not a bug."""
        try:
            return self.background.call(service, False, *args, **kwargs)
        except UserError:
            raise
        except Exception:
            self.values_passed()
            raise

    def change(
        self,
        service: Callable[Concatenate[Session, P], Changed[T]],
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        """Run a service in its own transaction, off the GUI thread (ui.background); committed
        when it returns, then `changed` with what it says it changed; the answer is returned.
        A refusal raises the `UserError` to show."""
        self.values_passed()
        try:
            done = self.background.call(service, True, *args, **kwargs)
        except ConflictError as conflict:
            self.changed.emit(conflict.changes)  # another station's change: show it
            raise
        self.changed.emit(done.changes)
        self.back_up_at_milestones()
        return done.value

    def change_later(
        self,
        service: Callable[..., Changed[T]],
        *args: object,
        on_done: Callable[[T], object] = lambda _result: None,
        on_failed: Callable[[UserError], object] = lambda _failure: None,
        **kwargs: object,
    ) -> None:
        """`change`, run off the GUI thread (ui.background) for a shared server event, whose
        answer may take long; `on_done(answer)` or `on_failed(refusal)` on the GUI thread. An
        event file on this computer answers at once and is changed right here."""
        if self.db.is_sqlite:
            try:
                result = self.change(service, *args, **kwargs)
            except UserError as refusal:
                on_failed(refusal)
                return
            on_done(result)
            return
        self.change_in_background(service, *args, on_done=on_done, on_failed=on_failed, **kwargs)

    def change_in_background(
        self,
        service: Callable[..., Changed[T]],
        *args: object,
        on_done: Callable[[T], object] = lambda _result: None,
        on_failed: Callable[[UserError], object] = lambda _failure: None,
        **kwargs: Any,
    ) -> None:
        """`change`, returning at once whatever the event: a long change (the CSV import)
        shows its progress meanwhile; the answer comes as `on_done(answer)` or
        `on_failed(refusal)` on the GUI thread."""
        try:
            self.values_passed()
        except UserError as refusal:
            on_failed(refusal)
            return

        def done(result: Changed[T]) -> None:
            self.changed.emit(result.changes)
            self.back_up_at_milestones()
            on_done(result.value)

        def failed(refusal: UserError) -> None:
            if isinstance(refusal, ConflictError):
                self.changed.emit(refusal.changes)  # another station's change: show it
            on_failed(refusal)

        self.background.run(service, *args, change=True, on_done=done, on_failed=failed, **kwargs)

    def clock_times(self, match_id: int, board: int) -> ClockTimes:
        """A board's remaining times from the match's open clock window, to store with the
        game being recorded; (None, None) when no clock window is open for the match."""
        window = self.clock_windows.get(match_id)
        return (None, None) if window is None else window.clock_times(board)

    def close(self) -> None:
        if self._background is not None:
            self._background.stop()
        if self._db is not None:
            self._db.close()
