"""The two-sided game clocks of a match: exact, replayable and pure (RULES §7, §5).

Why it is built this way:

- Time is integer nanoseconds from an injected monotonic source. It is charged from timestamps
  at the moment of a press, pause or read-out, never by counting timer ticks: a stalled display
  may show late but never charges wrongly, and tests run a two-hour session in milliseconds.
- Every change is an immutable `ClockEvent`, applied by one pure function. The live clock and
  `replay` fold that same function over the same events, so a replayed log equals the live
  state exactly and a log read back from the database restores the match after a crash.
- A flag is logged at the exact instant the side reached zero, even when it is noticed later:
  every action first logs the flags that fell due before it, so the log stays in time order.
  Read-outs never log; the UI calls `check_flags` on its display timer to open the §5 entry.

Conventions (the help pages repeat them):

- Fischer: no increment at the start (DGT); after each accepted press the presser gains it.
- Bronstein: the main time runs from the start of the move; at the press the presser gets back
  min(time used in this move, delay). A side that reaches zero flags and gets nothing back, so a
  zero base flags the first mover at the start instant: a per-move clock is simple delay 0 + d.
- Simple delay: each move the delay runs first; main time runs only once it is used up. A pause
  keeps the rest of the delay (and, for Bronstein, the time already used in the move).
- A side flags at the instant its remaining time reaches 0; a press at that instant is too late.
- Accounting, exact per board: consumed(A) + consumed(B) + delay_absorbed == running time, where
  running time is the wall time the board was RUNNING (never paused, stopped or before its
  start), consumed is what was taken from a side's main time before increments and refunds are
  credited back, and delay_absorbed is simple-delay time that was taken from nobody. Per side:
  remaining == base − consumed + credited + adjusted.
- A flag stands until the arbiter corrects it (a clock fault, a wrong press): the flagged board
  may be paused alone (never by pause-all), the flagged side's time restored by an adjustment
  (which lifts the flag) and the board resumed with that side still on move. A paused board
  whose flag still stands cannot resume.
- Crash restore: the UI logs a checkpoint about every 0.5 s while a board runs. `restore` replays
  the log and pauses each running board at its own last logged instant, so a side is never
  charged for time after it (at most one checkpoint interval, well inside the 1 s the rules
  allow), whatever order two phones' logs of the two boards reached the desk in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TypeGuard

from director.domain.boards import ByBoard
from director.domain.rules import ALL_BOARDS, ClockMode, Format, Side, TimeControl
from director.domain.wording import quoted

NS_PER_SECOND = 1_000_000_000
TENTHS_BELOW_NS = 20 * NS_PER_SECOND  # RULES §7: below 20 s the display shows tenths
# the boards a match clock times unless told its match's (`EventFormat.boards`): a pair's two
# (RULES §7); an individual match's clock times its one board (RULES §10)
BOARDS = Format.TANDEM.record.boards

TimeSource = Callable[[], int]
"""A monotonic clock in integer nanoseconds: `time.monotonic_ns` in the app, a fake in tests."""


class ClockError(ValueError):
    """An action the clock refuses (a user's error), or an event log that does not add up."""


class Phase(StrEnum):
    READY = "ready"  # base time, awaiting the first mover and the start
    RUNNING = "running"
    PAUSED = "paused"
    STOPPED = "stopped"  # game recorded or a side flagged: frozen until reset


class EventKind(StrEnum):
    FIRST_MOVER = "first-mover"
    START = "start"
    PRESS = "press"
    PAUSE = "pause"
    RESUME = "resume"
    ADJUST = "adjust"
    FLAG = "flag"
    STOP = "stop"
    RESET = "reset"
    CHECKPOINT = "checkpoint"  # "still running at t": bounds what a crash can lose
    RESTORE = "restore"  # the match was reopened; later times may use a new monotonic base


_WITH_SIDE = frozenset(("first-mover", "start", "press", "adjust", "flag"))
_KINDS = frozenset(k.value for k in EventKind)
_FIELDS = ("kind", "t_ns", "board", "side", "value", "reason")


def _is_int(x: object) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool)


@dataclass(frozen=True, slots=True)
class ClockEvent:
    """One logged action on one board. `side` is set for first-mover, start, press, adjust and
    flag; `value` only for adjust (the new remaining ns), and `reason` too (why the director
    set it: it goes with the event, so the log shows it whatever the audit's instant). A flag's
    `t_ns` is the instant the side reached zero, not when it was noticed."""

    kind: EventKind
    t_ns: int
    board: int
    side: Side | None = None
    value: int | None = None
    reason: str = ""

    def __post_init__(self) -> None:
        if self.kind not in _KINDS or self.side not in (None, "A", "B"):
            raise ClockError(f"malformed clock event {quoted(self)}")
        object.__setattr__(self, "kind", EventKind(self.kind))  # plain strings from a row do
        if self.side is not None:
            object.__setattr__(self, "side", Side(self.side))
        if self.board not in ALL_BOARDS:
            raise ClockError(f"there is no board {self.board}")
        if not _is_int(self.t_ns):
            raise ClockError(f"a clock time must be integer nanoseconds, not {quoted(self.t_ns)}")
        if (self.side is None) == (self.kind in _WITH_SIDE):
            raise ClockError(
                f"a {self.kind} event {'needs' if self.side is None else 'has no'} side"
            )
        if (self.value is None) == (self.kind is EventKind.ADJUST) or not (
            self.value is None or _is_int(self.value)
        ):
            raise ClockError(f"a {self.kind} event has the wrong value {quoted(self.value)}")
        if self.reason and self.kind is not EventKind.ADJUST:
            raise ClockError(f"a {self.kind} event has no reason")

    @property
    def who(self) -> Side:
        if self.side is None:
            raise ClockError(f"a {self.kind} event has no side")
        return self.side

    def to_dict(self) -> dict[str, str | int | None]:
        """Plain JSON-able values, one per column of the store's event table."""
        side = None if self.side is None else self.side.value
        values: tuple[str | int | None, ...] = (self.kind.value, self.t_ns, self.board, side)
        return dict(zip(_FIELDS, (*values, self.value, self.reason or None), strict=True))

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> ClockEvent:
        """The inverse of `to_dict`; a malformed row raises ClockError."""
        kind, t_ns, board, side, value, reason = (data.get(k) for k in _FIELDS)
        if not (kind in _KINDS and side in (None, "A", "B") and _is_int(t_ns) and _is_int(board)):
            raise ClockError(f"malformed clock event {quoted(dict(data))}")
        if not (value is None or _is_int(value)):
            raise ClockError(f"malformed clock event value {quoted(value)}")
        if not (reason is None or isinstance(reason, str)):
            raise ClockError(f"malformed clock event reason {quoted(reason)}")
        # the store keeps them in 64-bit integers: 2**63 ended import-match in an OverflowError
        for name, number in (("t_ns", t_ns), ("board", board), ("value", value)):
            if number is not None and not -CLOCK_NUMBER_LIMIT < int(number) < CLOCK_NUMBER_LIMIT:
                raise ClockError(f"clock event {name} is out of range (at most 2**63 - 1)")
        who = None if side is None else Side(side)
        return cls(EventKind(str(kind)), t_ns, board, who, value, reason or "")


CLOCK_NUMBER_LIMIT = 2**63  # a clock number is below it in size: the store's BIGINT


@dataclass(frozen=True, slots=True)
class SideClock:
    """One side's main time and its ledger: remaining == base − consumed + credited + adjusted."""

    remaining_ns: int
    consumed_ns: int = 0  # taken from main time by running
    credited_ns: int = 0  # Fischer increments and Bronstein refunds
    adjusted_ns: int = 0  # net director adjustments, signed


@dataclass(frozen=True, slots=True)
class BoardClock:
    """One board's clock. While RUNNING, the figures are as of `since_ns`; `MatchClock.board_at`
    projects them to any later instant without changing anything."""

    phase: Phase
    a: SideClock
    b: SideClock
    on_move: Side | None = None  # the first mover before the start; then whose move it is
    since_ns: int = 0  # start of the current running stretch
    move_ns: int = 0  # running time of the current move before since_ns (pauses split moves)
    running_ns: int = 0
    delay_absorbed_ns: int = 0
    flagged: Side | None = None
    flag_ns: int | None = None

    def side(self, side: Side) -> SideClock:
        return self.a if side is Side.A else self.b

    def with_side(self, side: Side, clock: SideClock) -> BoardClock:
        return replace(self, a=clock) if side is Side.A else replace(self, b=clock)


@dataclass(frozen=True, slots=True)
class MatchClockState:
    """Every board of a match, by board (its format's boards); equal states mean equal clocks,
    to the nanosecond."""

    boards: ByBoard[BoardClock]

    def board(self, board: int) -> BoardClock:
        try:
            return self.boards[board]
        except KeyError:
            raise ClockError(f"there is no board {board}") from None

    def with_board(self, board: int, clock: BoardClock) -> MatchClockState:
        try:
            return MatchClockState(self.boards.replaced(board, clock))
        except KeyError:
            raise ClockError(f"there is no board {board}") from None


def fresh_board(time_control: TimeControl) -> BoardClock:
    base = SideClock(time_control.base_seconds * NS_PER_SECOND)
    return BoardClock(Phase.READY, base, base)


def initial_state(time_control: TimeControl, boards: Iterable[int] = BOARDS) -> MatchClockState:
    return MatchClockState(ByBoard.each(boards, lambda _: fresh_board(time_control)))


def _delay_left(b: BoardClock, tc: TimeControl) -> int:
    """Simple delay still to run in this move before main time is touched (0 in other modes)."""
    if tc.mode is not ClockMode.DELAY:
        return 0
    return max(0, tc.increment_seconds * NS_PER_SECOND - b.move_ns)


def _flag_at(b: BoardClock, tc: TimeControl) -> int | None:
    """The instant the running side reaches zero if nothing happens first; None if not running."""
    if b.phase is not Phase.RUNNING or b.on_move is None:
        return None
    return b.since_ns + _delay_left(b, tc) + b.side(b.on_move).remaining_ns


def _settle(b: BoardClock, t: int, tc: TimeControl) -> BoardClock:
    """Charge the running stretch up to `t`, or up to the flag if that comes first. Splitting a
    stretch anywhere charges exactly the same: that is what makes checkpoints and reads free."""
    flag_at = _flag_at(b, tc)
    if flag_at is None or b.on_move is None:
        return b
    if t < b.since_ns:
        raise ClockError(f"time went backwards: {t} ns is before {b.since_ns} ns")
    end = min(t, flag_at)
    elapsed = end - b.since_ns
    absorbed = min(elapsed, _delay_left(b, tc))
    m, charged = b.side(b.on_move), elapsed - absorbed
    m = SideClock(m.remaining_ns - charged, m.consumed_ns + charged, m.credited_ns, m.adjusted_ns)
    b = b.with_side(b.on_move, m)
    b = replace(
        b,
        since_ns=end,
        move_ns=b.move_ns + elapsed,
        running_ns=b.running_ns + elapsed,
        delay_absorbed_ns=b.delay_absorbed_ns + absorbed,
    )
    if t >= flag_at:
        b = replace(b, phase=Phase.STOPPED, flagged=b.on_move, flag_ns=flag_at)
    return b


_ALLOWED: dict[EventKind, tuple[tuple[Phase, ...], str]] = {
    # READY: the opening roll; PAUSED: the next game of a match clock (RULES §10, `start_game`)
    EventKind.FIRST_MOVER: (
        (Phase.READY, Phase.PAUSED),
        "the clock has already started; reset it first",
    ),
    EventKind.START: ((Phase.READY,), "the clock has already started; reset it first"),
    EventKind.PRESS: ((Phase.RUNNING,), "the clock is not running"),
    EventKind.PAUSE: ((Phase.RUNNING,), "the clock is not running"),
    EventKind.CHECKPOINT: ((Phase.RUNNING,), "the clock is not running"),
    EventKind.RESUME: ((Phase.PAUSED,), "the clock is not paused"),
    EventKind.ADJUST: ((Phase.PAUSED,), "a time may be adjusted only while the clock is paused"),
    EventKind.STOP: ((Phase.RUNNING, Phase.PAUSED), "the clock is not running or paused"),
    EventKind.RESET: (tuple(Phase), ""),
    EventKind.RESTORE: ((Phase.READY, Phase.PAUSED, Phase.STOPPED), "the clock is running"),
}


def _refusal(b: BoardClock, e: ClockEvent) -> str | None:
    """Why `e` cannot happen to board `b` now, or None when it can (flags are checked apart)."""
    phases, why = _ALLOWED.get(e.kind, ((), "a flag is not an action"))
    if e.kind is EventKind.PAUSE and b.flagged is not None:
        return None if b.phase is Phase.STOPPED else "the clock is not running"
    if b.phase not in phases:
        return why
    if e.kind in (EventKind.RESUME, EventKind.FIRST_MOVER) and b.flagged is not None:
        return f"the flag of {b.flagged}{e.board} stands: restore a time first"
    if e.kind in (EventKind.START, EventKind.PRESS) and b.on_move is not e.side:
        return f"side {e.side} is not on move"
    if e.value is not None and e.value < 0:
        return "a remaining time cannot be negative"
    return None


def _press(b: BoardClock, t: int, tc: TimeControl) -> BoardClock:
    presser = b.on_move
    if presser is None:
        raise ClockError("nobody is on move")
    delay, mode = tc.increment_seconds * NS_PER_SECOND, tc.mode
    credit = min(b.move_ns, delay) if mode is ClockMode.BRONSTEIN else 0
    credit = delay if mode is ClockMode.FISCHER else credit
    o = b.side(presser)
    own = SideClock(o.remaining_ns + credit, o.consumed_ns, o.credited_ns + credit, o.adjusted_ns)
    return replace(b.with_side(presser, own), on_move=presser.other, since_ns=t, move_ns=0)


def apply_event(state: MatchClockState, e: ClockEvent, tc: TimeControl) -> MatchClockState:
    """The one transition function. Raises ClockError for an event that cannot have happened
    (a corrupt or edited log): the live clock never logs one."""
    before = state.board(e.board)
    b = _settle(before, e.t_ns, tc)
    flagged_now = b.flagged is not None and before.flagged is None
    if e.kind is EventKind.FLAG:
        if not flagged_now or b.flag_ns != e.t_ns or b.flagged is not e.side:
            raise ClockError(f"board {e.board}: no flag of {e.side} falls at {e.t_ns} ns")
        return state.with_board(e.board, b)
    if flagged_now:
        raise ClockError(f"board {e.board}: the log misses the flag at {b.flag_ns} ns")
    problem = _refusal(b, e)
    if problem is not None:
        raise ClockError(f"board {e.board}: {problem}")
    match e.kind:
        case EventKind.FIRST_MOVER:  # a new game's first move: no delay used, nothing credited
            b = replace(b, on_move=e.side, move_ns=0)
        case EventKind.START | EventKind.RESUME:
            b = replace(b, phase=Phase.RUNNING, since_ns=e.t_ns)
        case EventKind.PRESS:
            b = _press(b, e.t_ns, tc)
        case EventKind.PAUSE:
            b = replace(b, phase=Phase.PAUSED)
        case EventKind.STOP:
            b = replace(b, phase=Phase.STOPPED)
        case EventKind.ADJUST:
            o, new = b.side(e.who), e.value or 0
            adjusted = o.adjusted_ns + new - o.remaining_ns
            b = b.with_side(e.who, SideClock(new, o.consumed_ns, o.credited_ns, adjusted))
            if b.flagged is e.who and new > 0:  # the arbiter restored time: the flag is lifted
                b = replace(b, flagged=None, flag_ns=None)
        case EventKind.RESET:
            b = fresh_board(tc)
        case _:  # checkpoint and restore only mark the log
            pass
    return state.with_board(e.board, b)


def replay(
    events: Iterable[ClockEvent], time_control: TimeControl, boards: Iterable[int] = BOARDS
) -> MatchClockState:
    """Rebuild the clocks of `boards` from a log: equal to the live state that wrote it."""
    state = initial_state(time_control, boards)
    for e in events:
        state = apply_event(state, e, time_control)
    return state


class MatchClock:
    """The live clocks of one match: each of its boards (a pair's two unless told), the event
    log and the time source.

    Every `now` argument is optional: None reads the injected source. Actions log their events
    (read them with `events_since` to persist); read-outs are projections and log nothing.
    """

    def __init__(
        self, time_control: TimeControl, source: TimeSource, boards: Iterable[int] = BOARDS
    ) -> None:
        problems = time_control.problems()
        if problems:
            raise ClockError("; ".join(problems))
        self.time_control = time_control
        self._source = source
        self._state = initial_state(time_control, boards)
        self.boards: tuple[int, ...] = self._state.boards.boards
        self._events: list[ClockEvent] = []
        self._floor: int | None = None  # the latest action time: time must not go back

    @classmethod
    def restore(
        cls,
        events: Iterable[ClockEvent],
        time_control: TimeControl,
        source: TimeSource,
        now: int | None = None,
        boards: Iterable[int] = BOARDS,
    ) -> MatchClock:
        """Reopen a match from its log (in logged order, not sorted by time): replay it, pause
        each running board at its own last logged instant (READY and STOPPED boards stay so),
        then log `restore` at `now`, which may be earlier than the log after a reboot restarted
        the monotonic source. Persist `events_since(len(events))`.

        Each board at its own instant: two phones time a match's boards, and a phone that was
        offline sends its backlog late, so the log need not be in time order across boards. A
        board is charged up to the last instant its own log knows it ran, never for the other
        board's later time (and no flag can be due there: its last event would have logged it).
        """
        clock = cls(time_control, source, boards)
        for e in events:
            clock._record(e)
        if clock._events:
            for n in clock.boards:
                b = clock._state.board(n)
                if b.phase is Phase.RUNNING:
                    clock._record(ClockEvent(EventKind.PAUSE, b.since_ns, n))
            t = clock._time(now)
            for n in clock.boards:
                clock._record(ClockEvent(EventKind.RESTORE, t, n))
            clock._floor = t
        return clock

    @property
    def state(self) -> MatchClockState:
        return self._state

    @property
    def events(self) -> tuple[ClockEvent, ...]:
        return tuple(self._events)

    @property
    def floor_ns(self) -> int | None:
        """The latest instant an action was logged at: no later action may be earlier."""
        return self._floor

    @property
    def event_count(self) -> int:
        return len(self._events)

    def events_since(self, index: int) -> tuple[ClockEvent, ...]:
        return tuple(self._events[index:])

    def set_first_mover(self, board: int, side: Side, now: int | None = None) -> None:
        """Who moves first on this board (from the opening roll); the board must be READY."""
        self._try(ClockEvent(EventKind.FIRST_MOVER, self._begin(now), board, side), strict=True)

    def start_game(self, board: int, side: Side, now: int | None = None) -> bool:
        """RULES §10, between two games of an individual match: the match clock was paused
        when the game was recorded (both reserves kept, never reset); `side` taps to start the
        next game with its opponent on move. Logged as that first mover and a resume, so the
        next game begins as a first game does: nobody is credited an increment (Fischer) or a
        refund (Bronstein) for a move that was not played, and the delay starts afresh.
        False (nothing logged) unless the board is paused with no flag standing."""
        t = self._begin(now)
        accepted = self._try(ClockEvent(EventKind.FIRST_MOVER, t, board, side.other))
        if accepted:
            self._try(ClockEvent(EventKind.RESUME, t, board), strict=True)
        self._log_flags(t)
        return accepted

    def start(self, now: int | None = None) -> None:
        """Start every READY board at the same instant; each needs its first mover."""
        t = self._begin(now)
        ready = [n for n in self.boards if self._state.board(n).phase is Phase.READY]
        if not ready:
            raise ClockError("no clock is waiting to start")
        for n in (n for n in ready if self._state.board(n).on_move is None):
            raise ClockError(f"set the first mover of board {n} before starting")
        for n in ready:
            self._try(ClockEvent(EventKind.START, t, n, self._state.board(n).on_move), strict=True)
        self._log_flags(t)  # a side with no time at all flags at once

    def press(self, board: int, side: Side, now: int | None = None) -> bool:
        """A press by `side`: True when it counted. Ignored (False) unless that side is running,
        so a duplicate press, a press while paused, stopped or flagged does nothing."""
        t = self._begin(now)
        accepted = self._try(ClockEvent(EventKind.PRESS, t, board, side))
        self._log_flags(t)  # the side now running may have no time at all
        return accepted

    def pause(self, board: int | None = None, now: int | None = None) -> bool:
        """Pause one board, or every running board; True when a clock was running. A flagged
        board is paused only by name: that is the arbiter correcting it."""
        if board is None:
            t = self._begin(now)
            running = [n for n in self.boards if self._state.board(n).phase is Phase.RUNNING]
            done = [self._try(ClockEvent(EventKind.PAUSE, t, n)) for n in running]
            self._log_flags(t)
            return any(done)
        return self._each(EventKind.PAUSE, board, now)

    def resume(self, board: int | None = None, now: int | None = None) -> bool:
        return self._each(EventKind.RESUME, board, now)

    def stop(self, board: int, now: int | None = None) -> bool:
        """The board's game was recorded: its clock stops with the times frozen."""
        return self._each(EventKind.STOP, board, now)

    def reset(self, board: int | None = None, now: int | None = None) -> None:
        """Back to base time, stopped, awaiting the first mover (for the next pair)."""
        self._each(EventKind.RESET, board, now)

    def checkpoint(self, now: int | None = None) -> bool:
        """Log that the running boards are still running (call about every 0.5 s)."""
        return self._each(EventKind.CHECKPOINT, None, now)

    def adjust(
        self, board: int, side: Side, remaining_ns: int, now: int | None = None, reason: str = ""
    ) -> ClockEvent:
        """Set a side's remaining time, logged with the director's reason; refused (ClockError)
        unless the board is paused. Returns the logged event."""
        t = self._begin(now)
        event = ClockEvent(EventKind.ADJUST, t, board, side, remaining_ns, reason.strip())
        self._try(event, strict=True)
        return event

    def check_flags(self, now: int | None = None) -> tuple[ClockEvent, ...]:
        """Log the flags due by `now` and return them (the display timer calls this)."""
        count = len(self._events)
        self._begin(now)
        return self.events_since(count)

    def board_at(self, board: int, now: int | None = None) -> BoardClock:
        """The board as it is at `now`, running stretch charged; the clock is not changed."""
        return _settle(self._state.board(board), self._time(now), self.time_control)

    def remaining_ns(self, board: int, side: Side, now: int | None = None) -> int:
        return self.board_at(board, now).side(side).remaining_ns

    def running_side(self, board: int, now: int | None = None) -> Side | None:
        b = self.board_at(board, now)
        return b.on_move if b.phase is Phase.RUNNING else None

    def is_paused(self, board: int) -> bool:
        return self._state.board(board).phase is Phase.PAUSED

    def flagged_side(self, board: int, now: int | None = None) -> Side | None:
        return self.board_at(board, now).flagged

    def flag_ns(self, board: int, now: int | None = None) -> int | None:
        """The instant the flagged side reached zero, whenever it is asked."""
        return self.board_at(board, now).flag_ns

    def delay_remaining_ns(self, board: int, now: int | None = None) -> int:
        """Delay left in the current move (simple delay: before main time runs; Bronstein: time
        that will still come back). 0 for Fischer and for a stopped board."""
        b = self.board_at(board, now)
        if self.time_control.mode is ClockMode.FISCHER or b.phase is Phase.STOPPED:
            return 0
        return max(0, self.time_control.increment_seconds * NS_PER_SECOND - b.move_ns)

    def _time(self, now: int | None) -> int:
        t = self._source() if now is None else now
        if not _is_int(t):
            raise ClockError(f"a clock time must be integer nanoseconds, not {quoted(t)}")
        return t

    def _begin(self, now: int | None) -> int:
        t = self._time(now)
        if self._floor is not None and t < self._floor:
            raise ClockError(f"time went backwards: {t} ns is before {self._floor} ns")
        self._floor = t
        self._log_flags(t)
        return t

    def _log_flags(self, t: int) -> None:
        due = []
        for n in self.boards:
            b = self._state.board(n)
            flag_at = _flag_at(b, self.time_control)
            if flag_at is not None and flag_at <= t and b.on_move is not None:
                due.append((flag_at, n, b.on_move))
        for flag_at, n, side in sorted(due):
            self._record(ClockEvent(EventKind.FLAG, flag_at, n, side))

    def _record(self, e: ClockEvent) -> None:
        self._state = apply_event(self._state, e, self.time_control)
        self._events.append(e)

    def _try(self, e: ClockEvent, strict: bool = False) -> bool:
        """Log `e` if the board allows it; otherwise False, or ClockError when `strict`."""
        problem = _refusal(self._state.board(e.board), e)
        if problem is not None and strict:
            raise ClockError(f"board {e.board}: {problem}")
        if problem is None:
            self._record(e)
        return problem is None

    def _each(self, kind: EventKind, board: int | None, now: int | None) -> bool:
        t = self._begin(now)
        boards = self.boards if board is None else (board,)
        accepted = [self._try(ClockEvent(kind, t, n)) for n in boards].count(True) > 0
        self._log_flags(t)
        return accepted


def format_remaining(ns: int) -> str:
    """m:ss (h:mm:ss from an hour), tenths below 20 s ("0:19.9"), always rounded down so the
    face never shows time the player does not have; "0:00.0" at zero."""
    ns = max(ns, 0)
    if ns < TENTHS_BELOW_NS:
        tenths = ns // (NS_PER_SECOND // 10)
        return f"0:{tenths // 10:02d}.{tenths % 10}"
    hours, rest = divmod(ns // NS_PER_SECOND, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


@dataclass(frozen=True, slots=True)
class LogLine:
    """One logged action as a dispute reads it: what happened, on which board, by whom, when
    (ns of the log's monotonic clock, and seconds since the log began), and both sides' times
    on that board right after it, as the engine replays them."""

    event: ClockEvent
    seconds: float
    remaining_a_ns: int
    remaining_b_ns: int
    reason: str = ""


def log_lines(
    events: Iterable[ClockEvent],
    time_control: TimeControl,
    reasons: Mapping[tuple[int, str, int, int], str] | None = None,
    with_checkpoints: bool = False,
    boards: Iterable[int] = BOARDS,
) -> list[LogLine]:
    """Replay a log through the engine and say what each action left (checkpoints are left
    out unless asked for; they only mark "still running"). `reasons` gives an adjustment's
    reason by (board, side, t_ns, new remaining ns). Raises ClockError for a log that cannot
    have happened."""
    state = initial_state(time_control, boards)
    out: list[LogLine] = []
    origin: int | None = None
    for e in events:
        state = apply_event(state, e, time_control)
        origin = e.t_ns if origin is None else origin
        if e.kind is EventKind.CHECKPOINT and not with_checkpoints:
            continue
        b = state.board(e.board)
        reason = e.reason  # a log written before the reason went with the event: the audit's
        if not reason and e.kind is EventKind.ADJUST and reasons and e.side is not None:
            reason = reasons.get((e.board, e.side.value, e.t_ns, e.value or 0), "")
        seconds = (e.t_ns - origin) / NS_PER_SECOND
        out.append(LogLine(e, seconds, b.a.remaining_ns, b.b.remaining_ns, reason))
    return out
