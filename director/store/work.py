"""One unit of database work: a session of its own, and its failure sorted (STYLE habits 3, 6).

Every caller that runs a service outside a command's own `with Session() as s:` goes through
here: the GUI's background helper (`ui.background`, which adds the worker thread and the "not
answering" notice) and the clock writer (a plain thread, no Qt). So a session is opened, a
change committed and a failure told apart from a bug in exactly one way.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from director.domain.errors import ConflictError, UserError
from director.store.engine import EventDatabase, savepoint
from director.store.errors import UNREACHABLE, classify

P = ParamSpec("P")
T = TypeVar("T")


def in_session(
    db: EventDatabase,
    service: Callable[Concatenate[Session, P], T],
    change: bool,
    *args: P.args,
    **kwargs: P.kwargs,
) -> T:
    """`service(session, *args, **kwargs)` in a session of its own; a change runs in one
    transaction, committed when the service returns (rolled back when it raises)."""
    with db.Session() as session:
        if not change:
            return service(session, *args, **kwargs)
        with session.begin():
            return service(session, *args, **kwargs)


def in_write_session(
    db: EventDatabase,
    service: Callable[Concatenate[Session, P], T],
    *args: P.args,
    **kwargs: P.kwargs,
) -> T:
    """A change that takes the database's write lock before it reads (SQLite's
    `BEGIN IMMEDIATE`): a transaction that read first and then found another writer ahead is
    refused at once ("database is locked", busy timeout or not); one that asks first waits in
    the busy timeout for the other to commit. PostgreSQL's row locks need no such step."""
    with db.Session() as session, session.begin():
        if db.is_sqlite:
            session.execute(text("BEGIN IMMEDIATE"))
        return service(session, *args, **kwargs)


Outcome = tuple[bool, Any]  # (True, the service's answer) or (False, the exception it raised)


def in_write_group(
    db: EventDatabase, calls: Sequence[Callable[[Session], Any]], seconds: float = 1.0
) -> list[Outcome]:
    """Several changes in one transaction, one after another, each in a savepoint of its own:
    one that raises is rolled back alone and its exception returned in its place. One commit
    for all: on a disk where each commit's flush takes a tenth of a second, sixteen phones
    confirming at once wait for one flush, not sixteen. The write lock is held about
    `seconds` at most: the calls not begun by then are left out (the answer is shorter), so
    another writer (the desk) waits well inside its busy timeout. A failure of the transaction
    itself (the commit, the write lock) raises, for the caller to try the whole group again."""

    def each(session: Session) -> list[Outcome]:
        out: list[Outcome] = []
        until = time.monotonic() + seconds
        for call in calls:
            if out and time.monotonic() > until:
                break
            nested = savepoint(session)
            try:
                value = call(session)
            except Exception as exc:  # the call's own failure: returned to its caller
                nested.rollback()
                out.append((False, exc))
            else:
                nested.commit()
                out.append((True, value))
        return out

    return in_write_session(db, each)


def failure_of(exc: BaseException, db: EventDatabase) -> UserError | None:
    """The refusal a person can act on (a `ConflictError` when another station got there
    first), or None for a bug, which keeps its traceback."""
    if isinstance(exc, UserError):
        return exc
    known = classify(exc)
    if known is not None:
        error = ConflictError(known.message) if known.conflict else UserError(known.message)
        error.__cause__ = exc
        return error
    if isinstance(exc, DBAPIError) and not db.is_sqlite:
        # a dropped connection the driver words its own way (a file's errors all have codes)
        error = UserError(UNREACHABLE.message)
        error.__cause__ = exc
        return error
    return None
