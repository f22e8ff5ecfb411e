"""A match's clock log in the event database: append, load, restore (RULES §7).

Every action of a match's clocks is one `clock_event` row, numbered by `seq` in the order the
clock logged it. The log is replayed in that order, never sorted by `t_ns`: after a reboot the
monotonic clock restarts from another origin, so a restored log's later times may be smaller
(the engine marks that point with a `restore` event).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.orm import Session

from director.domain.changes import Area, Changed, Changes
from director.domain.clock import (
    ClockError,
    EventKind,
    LogLine,
    MatchClock,
    Phase,
    TimeSource,
    format_remaining,
    log_lines,
    replay,
)
from director.domain.clock import ClockEvent as LoggedEvent
from director.domain.errors import UserError
from director.domain.rules import Side, TimeControl
from director.services import audit
from director.services.events import clocks_in_use
from director.services.matches import get_match
from director.store import models
from director.store.models import utcnow


def next_seq(session: Session, match_id: int) -> int:
    """The seq the match's next clock event takes (0 for an empty log)."""
    last = session.scalar(
        select(func.max(models.ClockEvent.seq)).where(models.ClockEvent.match_id == match_id)
    )
    return 0 if last is None else last + 1


def append_events(
    session: Session, match_id: int, first_seq: int, events: Sequence[LoggedEvent]
) -> None:
    """Write `events` as seq first_seq, first_seq + 1, ... (one INSERT; the caller commits).

    A seq already taken (a second window on the same match) fails the unique constraint: the
    whole batch is refused rather than interleaving two clocks' logs."""
    if not events:
        return
    now = utcnow()
    rows = [
        {**e.to_dict(), "match_id": match_id, "seq": first_seq + i, "wall_time": now}
        for i, e in enumerate(events)
    ]
    session.execute(insert(models.ClockEvent), rows)


def load_events(session: Session, match_id: int) -> list[LoggedEvent]:
    """The match's clock log in logged order; a row that cannot be an event is a UserError."""
    rows = session.execute(
        select(
            models.ClockEvent.kind,
            models.ClockEvent.t_ns,
            models.ClockEvent.board,
            models.ClockEvent.side,
            models.ClockEvent.value,
            models.ClockEvent.reason,
        )
        .where(models.ClockEvent.match_id == match_id)
        .order_by(models.ClockEvent.seq)
    )
    try:
        return [LoggedEvent.from_dict(row._asdict()) for row in rows]
    except ClockError as exc:
        raise UserError(f"the clock log of match {match_id} is damaged: {exc}") from None


def restore_clock(
    session: Session, match_id: int, tc: TimeControl, source: TimeSource
) -> MatchClock:
    """The match's clocks as they were: replayed from the log, every board that was running
    paused at its last logged instant (at most one checkpoint interval, 0.5 s, before a crash).
    The restore's own events are appended here; the caller commits."""
    boards = get_match(session, match_id).rules.event_format.boards  # a missing match: named
    events = load_events(session, match_id)
    try:
        clock = MatchClock.restore(events, tc, source, boards=boards)
    except ClockError as exc:
        raise UserError(f"the clock log of match {match_id} cannot be replayed: {exc}") from None
    append_events(session, match_id, len(events), clock.events_since(len(events)))
    return clock


ADJUST_ACTION = "clock-adjust"


def adjustment_target(match_id: int) -> str:
    return f"match {match_id} clock"


def record_adjustment(
    session: Session,
    match_id: int,
    board: int,
    side: Side,
    before_ns: int,
    after_ns: int,
    t_ns: int,
    reason: str,
) -> Changed[None]:
    """The audit's line for a director's time adjustment: the clock log holds the adjustment
    itself (its instant and new time); this keeps who, when on the wall clock and why. The
    clock log's read-out joins them by board, side, instant and time."""
    get_match(session, match_id)
    if not reason.strip():
        raise UserError("a time adjustment needs a reason for the audit log")
    audit.log(
        session,
        ADJUST_ACTION,
        adjustment_target(match_id),
        {"board": board, "side": side.value, "remaining_ns": before_ns},
        {"board": board, "side": side.value, "remaining_ns": after_ns, "t_ns": t_ns},
        reason.strip(),
    )
    return Changed(None, Changes.clock(match_id))


def adjustment_reasons(session: Session, match_id: int) -> dict[tuple[int, str, int, int], str]:
    """(board, side, t_ns, remaining_ns) → the reason the audit gives for that adjustment."""
    rows = session.execute(
        select(models.AuditEntry.after, models.AuditEntry.reason)
        .where(
            models.AuditEntry.action == ADJUST_ACTION,
            models.AuditEntry.target == adjustment_target(match_id),
        )
        .order_by(models.AuditEntry.id)
    )
    out: dict[tuple[int, str, int, int], str] = {}
    for after, reason in rows:
        try:
            data = json.loads(after)
            key = (int(data["board"]), str(data["side"]), int(data["t_ns"]))
            out[(*key, int(data["remaining_ns"]))] = reason
        except (ValueError, KeyError, TypeError):
            continue  # an audit line of another shape is not an adjustment's
    return out


CLEAR_ACTION = "clocks reset"


def reset_unfinished_clocks(session: Session, reason: str) -> Changed[int]:
    """Clear the clock log of every unfinished match (so the event's time control can change):
    each log is kept in the audit, as `clock-log` prints it, with the director's reason.
    Returns how many matches' clocks were reset. The caller closes their clock windows first."""
    if not reason.strip():
        raise UserError("resetting the clocks needs a reason for the audit log")
    in_use = clocks_in_use(session)
    for match_id, _where in in_use:
        try:
            lines = [log_line_text(line) for line in match_clock_log(session, match_id)]
        except UserError:  # a log that cannot be replayed is kept as it is stored
            lines = [str(e.to_dict()) for e in load_events(session, match_id)]
        audit.log(session, CLEAR_ACTION, adjustment_target(match_id), lines, [], reason.strip())
        session.execute(delete(models.ClockEvent).where(models.ClockEvent.match_id == match_id))
        if get_match(session, match_id).rules.event_format.match_clock:
            # every game now precedes the next clock's first event: a clock started again
            # under way gets the reserve of the score it starts at (RULES §10)
            of_match = models.Game.match_id == match_id
            session.execute(update(models.Game).where(of_match).values(clock_seq=0))
    changes = Changes.of(Area.CLOCKS, Area.EVENT, matches=tuple(m for m, _ in in_use))
    return Changed(len(in_use), changes)


def clocks_left_running(session: Session) -> list[str]:
    """The unfinished matches whose clocks were running when the log ends, as "table 3 (Blue
    Bar v Gammonites)": after a crash, the clocks nobody stopped (each restores paused at its
    last logged instant, and waits for the director to resume it). A log that cannot be
    replayed is left to the clock window, which names its fault."""
    out = []
    for match_id, where in clocks_in_use(session):
        match = get_match(session, match_id)
        try:
            state = replay(load_events(session, match_id), match.clock,
                           match.rules.event_format.boards)  # fmt: skip
        except (UserError, ClockError):
            continue
        if any(state.board(n).phase is Phase.RUNNING for n in state.boards.boards):
            out.append(where)
    return out


def clock_is_behind(session: Session, match_id: int) -> bool:
    """True when the log belongs to an earlier pair: both games of that pair were recorded
    after the clocks were last reset (the clock window was closed at the time), so the clocks
    must be reset for the pair now being played. "After" is the log's own order: a game keeps
    the seq the log had reached when it was recorded (`Game.clock_seq`)."""
    outcome = get_match(session, match_id).outcome
    if outcome.current_pair < 2 or outcome.boards_done:
        return False
    pair_done = session.scalar(
        select(func.max(models.Game.clock_seq)).where(
            models.Game.match_id == match_id,
            models.Game.pair_number == outcome.current_pair - 1,
        )
    )
    of_match = models.ClockEvent.match_id == match_id
    first = session.scalar(select(func.min(models.ClockEvent.seq)).where(of_match))
    if pair_done is None or first is None:
        return False
    last_reset = session.scalar(
        select(func.max(models.ClockEvent.seq)).where(
            of_match, models.ClockEvent.kind == EventKind.RESET.value
        )
    )
    return (first if last_reset is None else last_reset) < pair_done


def match_clock_log(session: Session, match_id: int) -> list[LogLine]:
    """The match's clock log for a dispute: every action replayed through the engine, with
    both sides' times after it and each adjustment's reason from the audit."""
    match = get_match(session, match_id)
    tc, boards = match.clock, match.rules.event_format.boards
    events = load_events(session, match_id)
    try:
        return log_lines(events, tc, adjustment_reasons(session, match_id), boards=boards)
    except ClockError as exc:
        raise UserError(f"the clock log of match {match_id} cannot be replayed: {exc}") from None


def log_line_data(line: LogLine) -> dict[str, object]:
    """One line of `clock-log --json`."""
    e = line.event
    return {
        "kind": e.kind.value,
        "board": e.board,
        "side": None if e.side is None else e.side.value,
        "t_ns": e.t_ns,
        "seconds": round(line.seconds, 9),
        "value_ns": e.value,
        "remaining_a_ns": line.remaining_a_ns,
        "remaining_b_ns": line.remaining_b_ns,
        "reason": line.reason,
    }


def log_line_text(line: LogLine) -> str:
    """One line of `clock-log`: '   12.345 s  board 1  press   A1    A1 1:47.6  B1 2:00'."""
    e = line.event
    seat = "" if e.side is None else f"{e.side.value}{e.board}"
    what = e.kind.value
    if e.kind is EventKind.ADJUST and e.value is not None:
        what = f"adjust to {format_remaining(e.value)}"
    times = (
        f"A{e.board} {format_remaining(line.remaining_a_ns):>8}  "
        f"B{e.board} {format_remaining(line.remaining_b_ns):>8}"
    )
    reason = f"  ({line.reason})" if line.reason else ""
    return f"{line.seconds:>10.3f} s  board {e.board}  {what:<18} {seat:<3}  {times}{reason}"
