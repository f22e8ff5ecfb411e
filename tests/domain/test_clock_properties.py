"""Properties of the match clocks over random sessions (RULES §7), on a fake time source only.

Two independent checks: the ledger identities against running time the test measures itself,
at nanosecond resolution; and the whole clock against a naive tick-counting model of the rule
book (the very thing the engine must never do, which makes it a good independent reference).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from hypothesis import example, given, settings
from hypothesis import strategies as st

from director.domain.clock import (
    BOARDS,
    ClockError,
    ClockEvent,
    MatchClock,
    Phase,
    replay,
)
from director.domain.rules import ClockMode, Side, TimeControl

NS = 1_000_000_000
T0 = 7 * NS  # the source does not start at zero
SIDES = (Side.A, Side.B)

boards = st.sampled_from(BOARDS)
board_or_all = st.sampled_from((None, *BOARDS))
sides = st.sampled_from(SIDES)
time_controls = st.builds(
    TimeControl,
    base_seconds=st.integers(0, 4),
    increment_seconds=st.integers(0, 3),
    mode=st.sampled_from(ClockMode),
).filter(lambda tc: not tc.problems())


def operations(gaps: st.SearchStrategy[int], amounts: st.SearchStrategy[int]) -> st.SearchStrategy:
    op = st.one_of(
        st.tuples(st.just("press"), boards, sides),
        st.tuples(st.just("press"), boards, sides),  # presses are the common case
        st.tuples(st.just("pause"), board_or_all),
        st.tuples(st.just("resume"), board_or_all),
        st.tuples(st.just("adjust"), boards, sides, amounts),
        st.tuples(st.just("checkpoint")),
        st.tuples(st.just("stop"), boards),
        st.tuples(st.just("next-pair"), boards, sides),
    )
    return st.lists(st.tuples(gaps, op), max_size=40)


def start(clock: MatchClock, first: tuple[Side, Side], now: int) -> None:
    clock.set_first_mover(1, first[0], now)
    clock.set_first_mover(2, first[1], now)
    clock.start(now)


def perform(clock: MatchClock, op: tuple[object, ...], now: int) -> bool:
    """Run one operation; True when the clock accepted it."""
    match op:
        case ("press", int(n), Side() as side):
            return clock.press(n, side, now)
        case ("pause", n):
            return clock.pause(n if isinstance(n, int) else None, now)
        case ("resume", n):
            return clock.resume(n if isinstance(n, int) else None, now)
        case ("adjust", int(n), Side() as side, int(ns)):
            try:
                clock.adjust(n, side, ns, now)
            except ClockError:
                return False
            return True
        case ("checkpoint",):
            return clock.checkpoint(now)
        case ("stop", int(n)):
            return clock.stop(n, now)
        case ("next-pair", int(n), Side() as side):
            clock.reset(n, now)
            clock.set_first_mover(n, side, now)
            clock.start(now)
            return True
    raise AssertionError(op)


# -- the ledger, at nanosecond resolution ------------------------------------------------------


@dataclass
class Stopwatch:
    """Running time of one board as the test sees it: its own timestamps and the flag instant."""

    phase: str = "running"
    since: int = T0
    total: int = 0

    def close(self, t: int, phase: str) -> None:
        if self.phase == "running":
            self.total += t - self.since
        self.phase = phase

    def open(self, t: int) -> None:
        self.phase, self.since = "running", t

    def at(self, t: int) -> int:
        return self.total + (t - self.since if self.phase == "running" else 0)


def notice_flags(clock: MatchClock, watches: dict[int, Stopwatch], t: int) -> None:
    for n, w in watches.items():
        flag_ns = clock.flag_ns(n, t)
        if w.phase == "running" and flag_ns is not None:
            w.close(flag_ns, "stopped")


@settings(max_examples=300, deadline=None)
@given(
    time_controls,
    sides,
    sides,
    operations(st.integers(0, 3 * NS) | st.sampled_from((0, 1)), st.integers(0, 3 * NS)),
)
@example(  # a board flagged at once, paused, then "resume all": its flag stands, it stays stopped
    TimeControl(0, 1, ClockMode.FISCHER),
    Side.B,
    Side.A,
    [(0, ("press", 1, Side.A)), (0, ("press", 1, Side.A)), (0, ("pause", 2)),
     (1, ("pause", 1)), (0, ("press", 1, Side.A)), (0, ("press", 1, Side.A)),
     (0, ("adjust", 1, Side.B, 1)), (0, ("resume", None))],
)  # fmt: skip
def test_rules_7_charged_time_equals_running_time_exactly(
    tc: TimeControl, first1: Side, first2: Side, steps: list[tuple[int, tuple[object, ...]]]
) -> None:
    clock = MatchClock(tc, lambda: T0)
    start(clock, (first1, first2), T0)
    watches = {n: Stopwatch() for n in BOARDS}
    flags: dict[int, tuple[Side, int]] = {}
    now = T0
    for gap, op in steps:
        now += gap
        notice_flags(clock, watches, now)
        was = {n: clock.board_at(n, now).phase for n in BOARDS}
        accepted = perform(clock, op, now)
        for n, w in watches.items():
            if op[1:2] not in ((n,), (None,)) or not accepted:
                continue
            if op[0] == "next-pair":
                watches[n] = Stopwatch(since=now)
                flags.pop(n, None)
            elif op[0] == "pause" and was[n] is Phase.RUNNING:
                w.close(now, "paused")
            elif op[0] == "stop":
                w.close(now, "stopped")
            elif op[0] == "resume" and was[n] is Phase.PAUSED and n not in flags:
                w.open(now)  # a board whose flag stands stays stopped (RULES §7)
            elif op[0] == "adjust" and n in flags and flags[n][0] is op[2] and op[3]:
                flags.pop(n)  # the arbiter restored the flagged side's time: the flag is lifted
        notice_flags(clock, watches, now)
        for n in BOARDS:
            b = clock.board_at(n, now)
            assert b.a.consumed_ns + b.b.consumed_ns + b.delay_absorbed_ns == b.running_ns
            assert b.running_ns == watches[n].at(now)
            for side in SIDES:
                s = b.side(side)
                assert s.remaining_ns >= 0
                base = tc.base_seconds * NS
                assert s.remaining_ns == base - s.consumed_ns + s.credited_ns + s.adjusted_ns
            if n in flags:  # a flagged side stays flagged and at exactly zero
                side, at = flags[n]
                assert (b.flagged, b.flag_ns, b.side(side).remaining_ns) == (side, at, 0)
            elif b.flagged is not None and b.flag_ns is not None:
                assert b.side(b.flagged).remaining_ns == 0
                flags[n] = (b.flagged, b.flag_ns)

    assert replay(clock.events, tc) == clock.state
    rows = json.loads(json.dumps([e.to_dict() for e in clock.events]))
    assert replay([ClockEvent.from_dict(r) for r in rows], tc) == clock.state

    # reopened from its log, each board as its own last event left it; the same when the two
    # boards' logs reached the desk one after the other (two phones), in either order
    restored = MatchClock.restore(clock.events, tc, lambda: 0)
    assert replay(restored.events, tc) == restored.state
    for n in BOARDS:
        assert restored.board_at(n).phase is not Phase.RUNNING
        for side in SIDES:
            assert restored.remaining_ns(n, side) == clock.state.board(n).side(side).remaining_ns
    for order in (BOARDS, BOARDS[::-1]):
        by_board = [e for n in order for e in clock.events if e.board == n]
        assert MatchClock.restore(by_board, tc, lambda: 0).state == restored.state


# -- the whole clock against a tick-counting model of the rule book ----------------------------

UNIT = NS // 10  # one tick of the model: gaps are whole tenths of a second


@dataclass
class TickBoard:
    remaining: dict[Side, int]
    phase: str = "ready"
    on_move: Side | None = None
    used: int = 0  # ticks used in the current move
    flagged: Side | None = None
    flag_t: int | None = None


@dataclass
class TickModel:
    """RULES §7 read literally, one tenth of a second at a time."""

    tc: TimeControl
    t: int = 0
    boards: dict[int, TickBoard] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.delay = self.tc.increment_seconds * 10
        for n in BOARDS:
            self.reset(n)

    def reset(self, n: int) -> None:
        base = self.tc.base_seconds * 10
        self.boards[n] = TickBoard({Side.A: base, Side.B: base})

    def in_delay(self, b: TickBoard) -> bool:
        return self.tc.mode is ClockMode.DELAY and b.used < self.delay

    def check_zero(self) -> None:
        for b in self.boards.values():
            at_zero = b.on_move is not None and b.remaining[b.on_move] == 0
            if b.phase == "running" and at_zero and not self.in_delay(b):
                b.phase, b.flagged, b.flag_t = "stopped", b.on_move, self.t

    def advance(self, ticks: int) -> None:
        for _ in range(ticks):
            self.t += 1
            for b in self.boards.values():
                if b.phase == "running" and b.on_move:
                    if not self.in_delay(b):
                        b.remaining[b.on_move] -= 1
                    b.used += 1
            self.check_zero()

    def start(self) -> None:
        for b in self.boards.values():
            if b.phase == "ready":
                b.phase, b.used = "running", 0
        self.check_zero()

    def perform(self, op: tuple[object, ...]) -> bool:
        kind, n = op[0], op[1] if len(op) > 1 else None
        targets = [self.boards[n]] if isinstance(n, int) else list(self.boards.values())
        b = targets[0]
        if kind == "press":
            mover = b.on_move
            if b.phase != "running" or mover is None or mover is not op[2]:
                return False
            gain = {ClockMode.FISCHER: self.delay, ClockMode.BRONSTEIN: min(b.used, self.delay)}
            b.remaining[mover] += gain.get(self.tc.mode, 0)
            b.on_move, b.used = mover.other, 0
        elif kind == "pause" and isinstance(n, int) and b.flagged is not None:
            if b.phase != "stopped":  # the arbiter pauses a flagged board by name
                return False
            b.phase = "paused"
        elif kind in ("pause", "resume"):
            old, new = ("running", "paused") if kind == "pause" else ("paused", "running")
            # a flag that still stands keeps its board from resuming
            hit = [x for x in targets if x.phase == old and not (kind == "resume" and x.flagged)]
            for x in hit:
                x.phase = new
            if not hit:
                return False
        elif kind == "adjust":
            if b.phase != "paused":
                return False
            b.remaining[op[2]] = op[3] // UNIT  # type: ignore[index, operator]
            if b.flagged is op[2] and b.remaining[op[2]] > 0:
                b.flagged, b.flag_t = None, None
        elif kind == "stop":
            if b.phase not in ("running", "paused"):
                return False
            b.phase = "stopped"
        elif kind == "next-pair":
            self.reset(op[1])  # type: ignore[arg-type]
            self.boards[op[1]].on_move = op[2]  # type: ignore[index, assignment]
            self.start()
        else:
            return kind == "checkpoint" and any(x.phase == "running" for x in targets)
        self.check_zero()
        return True


PHASES = {"ready": Phase.READY, "running": Phase.RUNNING, "paused": Phase.PAUSED}
PHASES["stopped"] = Phase.STOPPED


@settings(max_examples=300, deadline=None)
@given(
    time_controls,
    sides,
    sides,
    operations(st.integers(0, 25), st.integers(0, 30).map(lambda x: x * UNIT)),
)
def test_rules_7_clock_matches_a_tick_counting_model_of_the_rules(
    tc: TimeControl, first1: Side, first2: Side, steps: list[tuple[int, tuple[object, ...]]]
) -> None:
    clock = MatchClock(tc, lambda: T0)
    model = TickModel(tc)
    start(clock, (first1, first2), T0)
    model.boards[1].on_move, model.boards[2].on_move = first1, first2
    model.start()
    for gap, op in steps:
        model.advance(gap)
        now = T0 + model.t * UNIT
        assert perform(clock, op, now) == model.perform(op), op
        for n, m in model.boards.items():
            b = clock.board_at(n, now)
            assert b.phase is PHASES[m.phase]
            assert (b.a.remaining_ns, b.b.remaining_ns) == (
                m.remaining[Side.A] * UNIT,
                m.remaining[Side.B] * UNIT,
            )
            assert b.flagged is m.flagged
            assert b.flag_ns == (None if m.flag_t is None else T0 + m.flag_t * UNIT)
            if tc.mode is not ClockMode.FISCHER and m.phase != "stopped":
                assert clock.delay_remaining_ns(n, now) == max(0, model.delay - m.used) * UNIT
    assert replay(clock.events, tc) == clock.state
