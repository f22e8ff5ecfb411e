"""Benchmark the match clock: a simulated 2-hour session of 10,000 presses (RULES §7).

Run: `python tests/benchmarks/bench_clock.py`. Time is the injected fake source, so two hours
take a moment. For each clock mode it prints whether the time charged is exact to the
nanosecond, checked against an independent computation from the session's own timeline, and
the median and p99 latency of `press()` measured with `time.perf_counter_ns`.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from director.domain.clock import NS_PER_SECOND, MatchClock, replay
from director.domain.rules import ClockMode, Side, TimeControl

SESSION_NS = 2 * 3600 * NS_PER_SECOND
PRESSES = 10_000
PAUSES = 40  # "pause all" breaks, up to 30 s each
T0 = 123_456_789_012  # the monotonic source does not start at zero


def session(seed: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Press instants (t, board) spread over two hours, and the pauses that do not hold one."""
    rng = random.Random(seed)
    instants = sorted(rng.sample(range(1, SESSION_NS), PRESSES + 2 * PAUSES))
    pause_at = set(rng.sample(range(len(instants) - 1), PAUSES))
    presses, pauses = [], []
    for i, t in enumerate(instants):
        if i in pause_at:
            pauses.append((t, rng.randrange(1, 30 * NS_PER_SECOND)))
        else:
            presses.append((t, rng.choice((1, 2))))
    return presses[:PRESSES], pauses


def run(tc: TimeControl, seed: int) -> bool:
    presses, pauses = session(seed)
    base, delay = tc.base_seconds * NS_PER_SECOND, tc.increment_seconds * NS_PER_SECOND
    clock = MatchClock(tc, lambda: T0)
    clock.set_first_mover(1, Side.A, T0)
    clock.set_first_mover(2, Side.B, T0)
    clock.start(T0)

    # The independent books: the wall time shifted by the pauses taken so far, and for each
    # board and side the expected remaining time, from the rule book's end-of-move formulas.
    shift = 0  # paused ns so far: the wall clock runs on while the match clocks are held
    pause_starts = [t for t, _ in pauses]
    expected = {(n, s): base for n in (1, 2) for s in Side}
    on_move = {1: Side.A, 2: Side.B}
    move_start = {1: 0, 2: 0}  # in running time
    latencies: list[int] = []
    done = 0
    for t, board in presses:
        while done < len(pauses) and pause_starts[done] < t:
            at, length = pauses[done]
            clock.pause(now=T0 + at + shift)
            shift += length
            clock.resume(now=T0 + at + shift)
            done += 1
        side = on_move[board]
        used = t - move_start[board]  # session instants are running time: pauses are shifts
        credit = {
            ClockMode.FISCHER: delay,
            ClockMode.BRONSTEIN: min(used, delay),
            ClockMode.DELAY: 0,
        }[tc.mode]
        charged = used if tc.mode is not ClockMode.DELAY else max(0, used - delay)
        expected[board, side] += credit - charged
        on_move[board], move_start[board] = side.other, t

        now = T0 + t + shift
        before = time.perf_counter_ns()
        accepted = clock.press(board, side, now)
        latencies.append(time.perf_counter_ns() - before)
        if not accepted:
            print(f"  press refused at {t} ns on board {board}: a flag? the session is too slow")
            return False

    end_wall = T0 + SESSION_NS + shift
    ok = True
    for n in (1, 2):
        b = clock.board_at(n, end_wall)
        moving = on_move[n]
        tail = SESSION_NS - move_start[n]
        tail_charged = tail if tc.mode is not ClockMode.DELAY else max(0, tail - delay)
        want = dict(expected)
        want[n, moving] -= tail_charged
        charged = b.a.consumed_ns + b.b.consumed_ns + b.delay_absorbed_ns
        exact = charged == SESSION_NS and all(b.side(s).remaining_ns == want[n, s] for s in Side)
        ok &= exact
        print(
            f"  board {n}: charged A + B + delay absorbed = {charged:,} ns;"
            f" running time = {SESSION_NS:,} ns (wall {end_wall - T0:,} less {shift:,} paused);"
            f" difference {charged - SESSION_NS} ns"
        )
        print(
            f"  board {n}: remaining A {b.a.remaining_ns:,} ns, B {b.b.remaining_ns:,} ns:"
            f" {'equal to' if exact else 'DIFFERENT from'} the independent books"
        )
    print(f"  charged time exact to the nanosecond: {'yes' if ok else 'NO'}")

    latencies.sort()
    p99 = statistics.quantiles(latencies, n=100, method="inclusive")[98]
    print(
        f"  press() latency over {len(latencies):,} presses: median"
        f" {statistics.median(latencies) / 1000:.1f} us, p99 {p99 / 1000:.1f} us,"
        f" max {latencies[-1] / 1000:.1f} us"
    )
    before = time.perf_counter_ns()
    replayed = replay(clock.events, tc)
    took = (time.perf_counter_ns() - before) / 1e6
    same = replayed == clock.state
    print(f"  replay of {clock.event_count:,} events: {took:.1f} ms, equal to live: {same}")
    return ok and same


def main() -> int:
    print(f"Clock benchmark: 2 h of simulated running time, {PRESSES:,} presses over 2 boards,")
    print(f"{PAUSES} pauses of both boards, on the injected fake monotonic source (no sleeps).")
    ok = True
    for tc in (
        TimeControl(120, 12, ClockMode.FISCHER),
        TimeControl(120, 12, ClockMode.BRONSTEIN),
        TimeControl(120, 12, ClockMode.DELAY),
    ):
        print(f"{tc}:")
        ok &= run(tc, seed=20240601)
    print("all exact" if ok else "NOT EXACT")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
