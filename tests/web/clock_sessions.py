"""Random clock sessions for the equality tests, and the Python side that runs them.

A session is plain JSON (integers as decimal strings, as on the wire): a time control, the
source's first instant, the first movers and a list of (gap, operation) steps. `run_python`
runs it through the domain's engine and answers in exactly the shape that
tests/web/clock_harness.js answers for the page's engine, so the two can be compared with ==.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st

from director.domain.clock import (
    BOARDS,
    BoardClock,
    ClockError,
    ClockEvent,
    MatchClock,
    MatchClockState,
    format_remaining,
    replay,
)
from director.domain.match_reserve import match_clock, match_time_control, started_clock
from director.domain.rules import ClockMode, Format, MatchRules, Side, TimeControl
from director.domain.score import Score
from director.services.phone_clocks import wire

NS = 1_000_000_000
SIDES = ("A", "B")

boards = st.sampled_from(BOARDS)
board_or_all = st.sampled_from((None, *BOARDS))
sides = st.sampled_from(SIDES)
time_controls = st.builds(
    TimeControl,
    base_seconds=st.integers(0, 5),
    increment_seconds=st.integers(0, 3),
    mode=st.sampled_from(ClockMode),
).filter(lambda tc: not tc.problems())
# gaps at nanosecond resolution, with exact ties (0) and the edges of a second common
gaps = st.integers(0, 3 * NS) | st.sampled_from((0, 1, NS - 1, NS, 2 * NS))
amounts = st.integers(0, 4 * NS) | st.sampled_from((0, 1))
# the page's source starts anywhere, far beyond 2**53 ns too (a float would lose nanoseconds)
origins = st.integers(0, 2**62) | st.sampled_from((0, 2**53 - 3, 7 * NS))


def _op() -> st.SearchStrategy[tuple[Any, ...]]:
    return st.one_of(
        st.tuples(st.just("press"), boards, sides),
        st.tuples(st.just("press"), boards, sides),  # presses are the common case
        st.tuples(st.just("press"), boards, sides),
        st.tuples(st.just("pause"), board_or_all),
        st.tuples(st.just("resume"), board_or_all),
        st.tuples(st.just("resume"), board_or_all),
        st.tuples(st.just("adjust"), boards, sides, amounts.map(str)),
        st.tuples(st.just("checkpoint")),
        st.tuples(st.just("flags")),
        st.tuples(st.just("stop"), boards),
        st.tuples(st.just("next-pair"), boards, sides),
        st.tuples(st.just("game-starts"), boards, sides),  # a first mover while paused
        # the page reopened (a new monotonic base), from its log as logged or as it reached the
        # desk from two phones, one board's log after the other's
        st.tuples(st.just("reload"), st.sampled_from(("as logged", "by board"))),
    )


def _individual_op() -> st.SearchStrategy[tuple[Any, ...]]:
    """An individual match's one board (RULES §10): no reset, no stop; a recorded game
    pauses the match clock and a tap starts the next game."""
    return st.one_of(
        st.tuples(st.just("press"), st.just(1), sides),
        st.tuples(st.just("press"), st.just(1), sides),
        st.tuples(st.just("press"), st.just(1), sides),
        st.tuples(st.just("pause"), st.just(1)),
        st.tuples(st.just("resume"), st.just(1)),
        st.tuples(st.just("adjust"), st.just(1), sides, amounts.map(str)),
        st.tuples(st.just("checkpoint")),
        st.tuples(st.just("flags")),
        st.tuples(st.just("next-game"), st.just(1)),
        st.tuples(st.just("game-starts"), st.just(1), sides),
        st.tuples(st.just("game-starts"), st.just(1), sides),
        st.tuples(st.just("reload"), st.just("as logged")),
    )


@st.composite
def individual_sessions(draw: st.DrawFn) -> dict[str, Any]:
    """A phone's clock of an individual match: board 1 alone, the match reserve (a few
    seconds per match point here, so flags fall) with a simple delay, or Fischer or Bronstein
    on request (RULES §10)."""
    per_point, delay, length = (
        draw(st.integers(1, 3)),
        draw(st.integers(0, 3)),
        draw(st.integers(1, 3)),
    )
    score = Score(draw(st.integers(0, length - 1)), draw(st.integers(0, length - 1)))
    mode = draw(st.sampled_from((ClockMode.DELAY, ClockMode.DELAY, *ClockMode)))
    # the match's stored rules and the score its clock started at, as every replay takes them
    rules = MatchRules(match_length=length, format=Format.INDIVIDUAL)
    tc = started_clock(rules, match_clock(rules, TimeControl(per_point, delay, mode)), score)
    assert tc == match_time_control(per_point, delay, length, score, mode)
    steps = []
    for op in draw(st.lists(_individual_op(), max_size=30)):
        gap = draw(st.integers(-(10**12), 3 * NS) if op[0] == "reload" else gaps)
        steps.append([str(gap), list(op)])
    return {
        "tc": {
            "base_seconds": tc.base_seconds,
            "increment_seconds": tc.increment_seconds,
            "mode": tc.mode.value,
        },
        "t0": str(draw(origins)),
        "first": [draw(sides), draw(sides)],
        "steps": steps,
        "seed": draw(st.integers(0, 2**32)),
        "board": 1,
        "individual": True,
    }


@st.composite
def sessions(draw: st.DrawFn) -> dict[str, Any]:
    tc = draw(time_controls)
    steps = []
    for op in draw(st.lists(_op(), max_size=30)):
        # after a reload the source may restart lower (a new origin): negative gaps only there
        gap = draw(st.integers(-(10**12), 3 * NS) if op[0] == "reload" else gaps)
        steps.append([str(gap), list(op)])
    return {
        "tc": {
            "base_seconds": tc.base_seconds,
            "increment_seconds": tc.increment_seconds,
            "mode": tc.mode.value,
        },
        "t0": str(draw(origins)),
        "first": [draw(sides), draw(sides)],
        "steps": steps,
        "seed": draw(st.integers(0, 2**32)),
    }


def _plain(x: Any) -> Any:
    if isinstance(x, bool) or x is None:
        return x
    if isinstance(x, int):
        return str(x)
    if isinstance(x, str):  # StrEnum values too
        return str(x)
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    raise AssertionError(x)


def board_out(b: BoardClock) -> dict[str, Any]:
    return {
        f.name: _plain(
            dataclasses.asdict(getattr(b, f.name)) if f.name in ("a", "b") else getattr(b, f.name)
        )
        for f in dataclasses.fields(b)
    }


def state_out(s: MatchClockState) -> dict[str, Any]:
    return {f"board{n}": board_out(b) for n, b in s.boards.items()}


def unwire(d: dict[str, Any]) -> ClockEvent:
    return ClockEvent.from_dict(
        {**d, "t_ns": int(d["t_ns"]), "value": None if d["value"] is None else int(d["value"])}
    )


def _perform(clock: MatchClock, op: list[Any], now: int) -> bool | int:
    match op:
        case ["press", int(n), str(side)]:
            return clock.press(n, Side(side), now)
        case ["pause", n]:
            return clock.pause(n, now)
        case ["resume", n]:
            return clock.resume(n, now)
        case ["adjust", int(n), str(side), str(ns)]:
            try:
                clock.adjust(n, Side(side), int(ns), now)
            except ClockError:
                return False
            return True
        case ["checkpoint"]:
            return clock.checkpoint(now)
        case ["flags"]:
            return len(clock.check_flags(now))
        case ["stop", int(n)]:
            return clock.stop(n, now)
        case ["next-game", int(n)]:  # RULES §10: the recorded game pauses the match clock
            return clock.pause(n, now)
        case ["game-starts", int(n), str(side)]:  # a tap starts the opponent's clock
            return clock.start_game(n, Side(side), now)
        case ["next-pair", int(n), str(side)]:
            clock.reset(n, now)
            clock.set_first_mover(n, Side(side), now)
            clock.start(now)
            return True
    raise AssertionError(op)


def _replayed(log: list[dict[str, Any]], tc: TimeControl) -> Any:
    try:
        return state_out(replay([unwire(d) for d in log], tc))
    except ClockError as exc:
        return f"error: {exc}"


def tamper(log: list[dict[str, Any]], seed: int) -> list[dict[str, Any]]:
    """The log with one event dropped, moved in time or given to the other side: a damaged or
    edited log, which both engines must refuse (or accept) alike."""
    rng = random.Random(seed)
    out = [dict(d) for d in log]
    if not out:
        return out
    i = rng.randrange(len(out))
    how = rng.choice(("drop", "shift", "side"))
    if how == "drop":
        del out[i]
    elif how == "shift":
        out[i]["t_ns"] = str(int(out[i]["t_ns"]) + rng.choice((-1, 1, -NS, NS)))
    elif out[i]["side"] is not None:
        out[i]["side"] = "B" if out[i]["side"] == "A" else "A"
    return out


def _read(clock: MatchClock, n: int, now: int) -> Any:
    try:
        return {
            "board": board_out(clock.board_at(n, now)),
            "delay": str(clock.delay_remaining_ns(n, now)),
            "shown": {
                side: format_remaining(clock.remaining_ns(n, Side(side), now)) for side in SIDES
            },
        }
    except ClockError as exc:
        return f"error: {exc}"


def one_board(s: dict[str, Any], board: int) -> dict[str, Any]:
    """The session as a phone of `board` sees it: operations on every board become that
    board's, those on the other board are dropped."""
    steps = []
    for gap, given_op in s["steps"]:
        everywhere = given_op[0] in ("pause", "resume") and given_op[1] is None
        op = [given_op[0], board] if everywhere else given_op
        if len(op) > 1 and isinstance(op[1], int) and op[1] != board:
            continue
        steps.append([gap, op])
    return {**s, "steps": steps, "board": board}


def arrived(events: Sequence[ClockEvent], how: str) -> list[ClockEvent]:
    """A log as the desk stored it: as logged, or board 1's events then board 2's (each board's
    own order kept), as when one phone's backlog arrives after the other board's events."""
    if how == "by board":
        return sorted(events, key=lambda e: e.board)  # stable: each board keeps its order
    return list(events)


def run_python(s: dict[str, Any]) -> dict[str, Any]:
    """The session through the domain's engine; also fills in the logs the page replays.
    With `s["board"]` set, the other board is paused at the start and left alone, and the
    answer is that board's part: what a phone's one-board clock must log."""
    tcd = s["tc"]
    tc = TimeControl(tcd["base_seconds"], tcd["increment_seconds"], ClockMode(tcd["mode"]))
    clock_now = [int(s["t0"])]

    def source() -> int:
        return clock_now[0]

    timed = (1,) if s.get("individual") else BOARDS
    clock = MatchClock(tc, source, timed)
    steps: list[Any] = []
    try:
        for n in timed:
            clock.set_first_mover(n, Side(s["first"][n - 1]), clock_now[0])
        clock.start(clock_now[0])
        if s.get("board") and not s.get("individual"):
            clock.pause(3 - s["board"], clock_now[0])
        steps.append(True)
    except ClockError as exc:
        steps.append(f"error: {exc}")
    for gap, op in s["steps"]:
        clock_now[0] += int(gap)
        now = clock_now[0]
        accepted: Any
        try:
            if op[0] == "reload":
                log = arrived(clock.events, op[1])
                s["reloads out of time order"] = s.get("reloads out of time order", 0) + (
                    [e.t_ns for e in log] != sorted(e.t_ns for e in log)
                )
                clock = MatchClock.restore(log, tc, source, now, timed)
                accepted = True
            else:
                accepted = _perform(clock, op, now)
        except ClockError as exc:
            accepted = f"error: {exc}"
        shown = (s["board"],) if s.get("board") else BOARDS
        steps.append([accepted, [_read(clock, n, now) for n in shown]])
    events = [wire(e) for e in clock.events]
    if s.get("board"):
        mine = [e for e in events if e["board"] == s["board"]]
        return {"steps": steps, "events": mine, "state": board_out(clock.state.board(s["board"]))}
    s["python_log"] = events
    s["tampered_log"] = tamper(events, s["seed"])
    return {
        "steps": steps,
        "events": events,
        "state": state_out(clock.state),
        "replayed": _replayed(events, tc),
        "replayed_python": _replayed(events, tc),
        "replayed_tampered": _replayed(s["tampered_log"], tc),
    }
