"""Worked examples for the match clocks (RULES §7 clocks, §5 time forfeit)."""

from __future__ import annotations

import json

import pytest

from director.domain.clock import (
    ClockError,
    ClockEvent,
    EventKind,
    MatchClock,
    Phase,
    format_remaining,
    replay,
)
from director.domain.rules import ClockMode, Side, TimeControl

NS = 1_000_000_000
A, B = Side.A, Side.B
FISCHER = TimeControl(120, 12, ClockMode.FISCHER)
BRONSTEIN = TimeControl(120, 12, ClockMode.BRONSTEIN)
DELAY = TimeControl(120, 12, ClockMode.DELAY)


class FakeTime:
    """A monotonic source the test moves by hand: no sleeps, no real time."""

    def __init__(self, t: int = 1_000 * NS) -> None:
        self.t = t

    def __call__(self) -> int:
        return self.t

    def wait(self, seconds: float = 0, ns: int = 0) -> int:
        self.t += round(seconds * NS) + ns
        return self.t


def started(tc: TimeControl, first: tuple[Side, Side] = (A, B)) -> tuple[MatchClock, FakeTime]:
    now = FakeTime()
    clock = MatchClock(tc, now)
    clock.set_first_mover(1, first[0])
    clock.set_first_mover(2, first[1])
    clock.start()
    return clock, now


def secs(clock: MatchClock, board: int, side: Side) -> float:
    return clock.remaining_ns(board, side) / NS


def assert_replays(clock: MatchClock) -> None:
    assert replay(clock.events, clock.time_control) == clock.state


# -- Fischer -----------------------------------------------------------------------------------


def test_rules_7_fischer_no_increment_at_start() -> None:
    clock, _ = started(FISCHER)
    assert clock.remaining_ns(1, A) == 120 * NS
    assert clock.running_side(1) is A
    assert clock.running_side(2) is B


def test_rules_7_fischer_increment_after_press() -> None:
    clock, now = started(FISCHER)
    now.wait(5)
    assert clock.press(1, A)
    assert secs(clock, 1, A) == 127
    assert clock.running_side(1) is B
    now.wait(30)
    assert clock.press(1, B)
    assert secs(clock, 1, B) == 102
    assert secs(clock, 1, A) == 127  # A's own clock runs again from here
    assert clock.delay_remaining_ns(1) == 0
    assert_replays(clock)


def test_rules_7_time_is_charged_from_timestamps_not_ticks() -> None:
    clock, now = started(FISCHER)
    before = clock.state
    now.wait(ns=7_654_321_987)
    assert clock.remaining_ns(1, A) == 120 * NS - 7_654_321_987
    assert clock.state == before  # a read-out charges nothing and logs nothing
    assert clock.press(1, A)
    assert clock.remaining_ns(1, A) == 132 * NS - 7_654_321_987


# -- Bronstein ---------------------------------------------------------------------------------


def test_rules_7_bronstein_gives_back_time_used_up_to_delay() -> None:
    clock, now = started(BRONSTEIN)
    now.wait(5)
    assert secs(clock, 1, A) == 115  # the main time runs from the start of the move
    assert clock.delay_remaining_ns(1) == 7 * NS
    clock.press(1, A)
    assert secs(clock, 1, A) == 120  # 5 s used, 5 s back
    now.wait(20)
    clock.press(1, B)
    assert secs(clock, 1, B) == 112  # 20 s used, 12 s back
    assert clock.state.board(1).b.credited_ns == 12 * NS
    assert_replays(clock)


def test_rules_7_bronstein_with_zero_base_flags_first_mover_at_start() -> None:
    clock, now = started(TimeControl(0, 15, ClockMode.BRONSTEIN))
    start = now.t
    # No main time: the first mover is at zero the instant the clock starts, and a flagged side
    # gets nothing back, so the press refund never comes (a per-move clock is simple delay 0+d).
    assert [(e.kind, e.t_ns, e.board, e.side) for e in clock.events[-2:]] == [
        (EventKind.FLAG, start, 1, A),
        (EventKind.FLAG, start, 2, B),
    ]
    now.wait(3)
    assert not clock.press(1, A)
    assert clock.remaining_ns(1, A) == 0
    assert clock.remaining_ns(1, B) == 0  # never on move: still its zero base
    assert clock.flag_ns(1) == start
    assert_replays(clock)


def test_rules_7_bronstein_pause_keeps_the_time_used_in_the_move() -> None:
    clock, now = started(BRONSTEIN)
    now.wait(5)
    clock.pause(1)
    now.wait(100)
    clock.resume(1)
    now.wait(4)
    clock.press(1, A)
    assert secs(clock, 1, A) == 120  # 9 s used in the move, 9 s back


def test_rules_7_bronstein_flags_at_zero_even_inside_the_delay() -> None:
    clock, now = started(TimeControl(3, 12, ClockMode.BRONSTEIN))
    now.wait(3)
    assert clock.flagged_side(1) is A
    assert not clock.press(1, A)
    assert clock.remaining_ns(1, A) == 0


# -- simple delay ------------------------------------------------------------------------------


def test_rules_7_simple_delay_main_time_runs_only_after_the_delay() -> None:
    clock, now = started(DELAY)
    now.wait(5)
    assert secs(clock, 1, A) == 120
    assert clock.delay_remaining_ns(1) == 7 * NS
    now.wait(10)
    assert secs(clock, 1, A) == 117
    assert clock.delay_remaining_ns(1) == 0
    clock.press(1, A)
    assert secs(clock, 1, A) == 117  # no credit in simple delay
    assert clock.delay_remaining_ns(1) == 12 * NS  # B's move has its full delay
    b = clock.board_at(1)
    assert b.a.consumed_ns == 3 * NS and b.delay_absorbed_ns == 12 * NS
    assert_replays(clock)


def test_rules_7_pause_in_the_middle_of_a_delay_keeps_the_rest() -> None:
    clock, now = started(DELAY)
    now.wait(5)
    clock.pause()
    now.wait(600)
    assert clock.delay_remaining_ns(1) == 7 * NS
    clock.resume()
    now.wait(7)
    assert secs(clock, 1, A) == 120
    now.wait(1)
    assert secs(clock, 1, A) == 119
    assert_replays(clock)


def test_rules_7_simple_delay_with_zero_base_is_a_time_per_move() -> None:
    clock, now = started(TimeControl(0, 12, ClockMode.DELAY))
    now.wait(11.9)
    assert clock.press(1, A)
    assert clock.remaining_ns(1, A) == 0 and clock.flagged_side(1) is None
    press = now.t
    now.wait(12)
    assert clock.flagged_side(1) is B
    assert clock.flag_ns(1) == press + 12 * NS


# -- presses -----------------------------------------------------------------------------------


def test_rules_7_press_by_the_side_not_running_does_nothing() -> None:
    clock, now = started(FISCHER)
    now.wait(2)
    count = clock.event_count
    assert not clock.press(1, B)
    assert clock.event_count == count
    assert clock.running_side(1) is A


def test_rules_7_duplicate_press_by_the_same_side_is_ignored() -> None:
    clock, now = started(FISCHER)
    now.wait(2)
    assert clock.press(1, A)
    assert not clock.press(1, A)  # auto-repeat that got through: A is no longer running
    assert secs(clock, 1, A) == 130
    assert clock.running_side(1) is B


def test_rules_7_press_while_paused_or_before_start_does_nothing() -> None:
    now = FakeTime()
    clock = MatchClock(FISCHER, now)
    clock.set_first_mover(1, A)
    assert not clock.press(1, A)
    clock.set_first_mover(2, A)
    clock.start()
    clock.pause(1)
    assert not clock.press(1, A)
    assert clock.press(2, A)


# -- start -------------------------------------------------------------------------------------


def test_rules_7_both_clocks_start_at_the_same_instant() -> None:
    clock, now = started(FISCHER, (B, A))
    starts = [e for e in clock.events if e.kind is EventKind.START]
    assert [(e.board, e.side, e.t_ns) for e in starts] == [(1, B, now.t), (2, A, now.t)]


def test_rules_7_start_needs_the_first_mover_of_each_board() -> None:
    clock = MatchClock(FISCHER, FakeTime())
    clock.set_first_mover(1, A)
    with pytest.raises(ClockError, match="first mover of board 2"):
        clock.start()
    assert clock.board_at(1).phase is Phase.READY
    clock.set_first_mover(2, B)
    clock.start()
    with pytest.raises(ClockError):
        clock.start()
    with pytest.raises(ClockError):
        clock.set_first_mover(1, B)


# -- pause and adjust --------------------------------------------------------------------------


def test_rules_7_pause_all_then_resume_one_board() -> None:
    clock, now = started(FISCHER)
    now.wait(10)
    assert clock.pause()
    assert clock.is_paused(1) and clock.is_paused(2)
    now.wait(50)
    assert clock.resume(2)
    now.wait(10)
    assert secs(clock, 1, A) == 110
    assert secs(clock, 2, B) == 100
    assert not clock.resume(2)  # already running
    assert clock.running_side(1) is None


def test_rules_7_adjust_refused_while_running() -> None:
    clock, _ = started(FISCHER)
    with pytest.raises(ClockError, match="only while the clock is paused"):
        clock.adjust(1, A, 60 * NS)
    assert clock.remaining_ns(1, A) == 120 * NS


def test_rules_7_adjust_while_paused_and_negative_refused() -> None:
    clock, now = started(FISCHER)
    now.wait(10)
    clock.pause(1)
    with pytest.raises(ClockError, match="negative"):
        clock.adjust(1, B, -1)
    clock.adjust(1, B, 90 * NS)
    side = clock.state.board(1).b
    assert side.remaining_ns == 90 * NS and side.adjusted_ns == -30 * NS
    assert clock.events[-1] == ClockEvent(EventKind.ADJUST, now.t, 1, B, 90 * NS)
    with pytest.raises(ClockError):
        clock.adjust(2, B, 90 * NS)  # board 2 still runs
    assert_replays(clock)


def test_rules_7_adjusted_to_zero_flags_when_it_runs_again() -> None:
    clock, now = started(FISCHER)
    clock.pause(1)
    clock.adjust(1, A, 0)
    now.wait(5)
    clock.resume(1)
    assert clock.events[-1] == ClockEvent(EventKind.FLAG, now.t, 1, A)


# -- flags -------------------------------------------------------------------------------------


def test_rules_7_flag_exactly_at_zero() -> None:
    clock, now = started(FISCHER)
    start = now.t
    now.wait(ns=120 * NS - 1)
    assert clock.remaining_ns(1, A) == 1
    assert clock.flagged_side(1) is None
    now.wait(ns=1)
    assert clock.remaining_ns(1, A) == 0
    assert not clock.press(1, A)  # at zero the side has flagged: the press is too late
    assert clock.flagged_side(1) is A
    assert clock.flag_ns(1) == start + 120 * NS
    assert clock.board_at(1).phase is Phase.STOPPED


def test_rules_5_flag_instant_is_exact_when_noticed_later() -> None:
    clock, now = started(FISCHER)
    start = now.t
    now.wait(10)
    clock.press(2, B)  # board 2: B used 10 s, has 122 s
    now.wait(500)
    flags = clock.check_flags()
    assert flags == (
        ClockEvent(EventKind.FLAG, start + 120 * NS, 1, A),
        ClockEvent(EventKind.FLAG, start + 10 * NS + 120 * NS, 2, A),
    )
    assert clock.check_flags() == ()
    assert_replays(clock)


def test_rules_7_flagged_side_stays_at_zero_and_other_board_runs() -> None:
    clock, now = started(FISCHER)
    now.wait(1)
    clock.press(2, B)
    now.wait(119)
    assert clock.flagged_side(1) is A
    assert clock.running_side(2) is A  # the other board keeps running
    assert clock.press(2, A)
    now.wait(60)
    assert clock.remaining_ns(1, A) == 0
    assert not clock.resume(1)
    assert not clock.stop(1)  # a flag already stopped the board
    with pytest.raises(ClockError):
        clock.adjust(1, A, 60 * NS)  # nothing is added after a flag
    b = clock.state.board(1)
    assert b.flagged is A and b.a.credited_ns == 0
    assert_replays(clock)


def test_rules_7_both_boards_flag() -> None:
    clock, now = started(FISCHER, (A, B))
    start = now.t
    now.wait(60)
    clock.press(2, B)
    now.wait(300)
    clock.checkpoint()
    assert clock.flagged_side(1) is A
    assert clock.flagged_side(2) is A
    assert clock.flag_ns(1) == start + 120 * NS
    assert clock.flag_ns(2) == start + 180 * NS
    assert [e.board for e in clock.events if e.kind is EventKind.FLAG] == [1, 2]
    assert not any(e.kind is EventKind.CHECKPOINT for e in clock.events)  # nothing runs
    assert_replays(clock)


# -- stop and reset ----------------------------------------------------------------------------


def test_rules_7_recorded_game_stops_its_board() -> None:
    clock, now = started(FISCHER)
    now.wait(30)
    assert clock.stop(1)
    now.wait(30)
    assert secs(clock, 1, A) == 90
    assert not clock.press(1, A)
    assert not clock.resume(1)
    assert secs(clock, 2, B) == 60


def test_rules_7_reset_for_the_next_pair() -> None:
    clock, now = started(FISCHER)
    now.wait(130)
    clock.stop(2)
    clock.reset()
    for board in (1, 2):
        b = clock.state.board(board)
        assert b.phase is Phase.READY and b.on_move is None and b.flagged is None
        assert b.a.remaining_ns == b.b.remaining_ns == 120 * NS
    clock.set_first_mover(1, B)
    clock.set_first_mover(2, B)
    clock.start()
    now.wait(1)
    assert secs(clock, 1, B) == 119
    assert_replays(clock)


def test_rules_7_reset_one_board_and_start_it_alone() -> None:
    clock, now = started(FISCHER)
    now.wait(10)
    clock.stop(1)
    clock.reset(1)
    clock.set_first_mover(1, B)
    clock.start()  # starts only the board that waits
    now.wait(5)
    assert secs(clock, 1, B) == 115
    assert secs(clock, 2, B) == 105


# -- the log -----------------------------------------------------------------------------------


def test_rules_7_events_round_trip_through_json() -> None:
    clock, now = started(DELAY)
    now.wait(3)
    clock.press(1, A)
    clock.pause()
    clock.adjust(2, A, 500 * NS, reason="Clock fault: display froze")
    clock.resume()
    now.wait(30)
    clock.checkpoint()
    rows = json.loads(json.dumps([e.to_dict() for e in clock.events]))
    assert rows[-1] == {
        "kind": "checkpoint",
        "t_ns": now.t,
        "board": 2,
        "side": None,
        "value": None,
        "reason": None,
    }
    adjusted = next(r for r in rows if r["kind"] == "adjust")
    assert adjusted["reason"] == "Clock fault: display froze"
    events = [ClockEvent.from_dict(r) for r in rows]
    assert tuple(events) == clock.events
    assert replay(events, DELAY) == clock.state


@pytest.mark.parametrize(
    "row",
    [
        {"kind": "tick", "t_ns": 0, "board": 1, "side": None, "value": None},
        {"kind": "press", "t_ns": 0.5, "board": 1, "side": "A", "value": None},
        {"kind": "press", "t_ns": 0, "board": 3, "side": "A", "value": None},
        {"kind": "press", "t_ns": 0, "board": 1, "side": None, "value": None},
        {"kind": "press", "t_ns": 0, "board": 1, "side": "C", "value": None},
        {"kind": "adjust", "t_ns": 0, "board": 1, "side": "A", "value": None},
        {"kind": "pause", "t_ns": True, "board": 1, "side": None, "value": None},
    ],
)
def test_malformed_event_rows_are_refused(row: dict[str, object]) -> None:
    with pytest.raises(ClockError):
        ClockEvent.from_dict(row)


def test_events_accept_plain_strings_from_a_row() -> None:
    event = ClockEvent("press", 5, 1, "B")  # type: ignore[arg-type]
    assert event == ClockEvent(EventKind.PRESS, 5, 1, B)
    assert event.kind is EventKind.PRESS and event.side is B


def test_replay_refuses_a_log_that_cannot_have_happened() -> None:
    clock, now = started(FISCHER)
    now.wait(200)
    clock.check_flags()
    events = list(clock.events)
    flagless = [e for e in events if e.kind is not EventKind.FLAG]
    with pytest.raises(ClockError, match="misses the flag"):
        replay([*flagless, ClockEvent(EventKind.PAUSE, now.t, 1)], FISCHER)
    with pytest.raises(ClockError, match="not on move"):
        replay([*events[:4], ClockEvent(EventKind.PRESS, events[3].t_ns, 1, B)], FISCHER)
    with pytest.raises(ClockError, match="no flag"):
        replay([*flagless, ClockEvent(EventKind.FLAG, now.t, 1, A)], FISCHER)


def test_time_going_backwards_is_refused() -> None:
    clock, now = started(FISCHER)
    with pytest.raises(ClockError, match="backwards"):
        clock.press(1, A, now=now.t - 1)
    with pytest.raises(ClockError, match="backwards"):
        clock.remaining_ns(1, A, now=now.t - 1)


def test_bad_boards_and_time_controls_are_refused() -> None:
    with pytest.raises(ClockError, match="both 0"):
        MatchClock(TimeControl(0, 0), FakeTime())
    clock, _ = started(FISCHER)
    with pytest.raises(ClockError, match="no board 3"):
        clock.press(3, A)
    with pytest.raises(ClockError, match="no board 0"):
        clock.remaining_ns(0, A)


# -- crash restore -----------------------------------------------------------------------------


def test_rules_7_remaining_times_survive_a_crash_within_one_second() -> None:
    clock, now = started(DELAY)
    for _ in range(50):  # the UI's display timer: a checkpoint every 0.5 s
        now.wait(0.5)
        clock.checkpoint()
        if now.t % (3 * NS) == 0:
            clock.press(1, clock.running_side(1) or A)
    now.wait(0.4)
    at_crash = {(n, s): clock.remaining_ns(n, s) for n in (1, 2) for s in (A, B)}
    logged = clock.events  # what the store had written when the app died

    rebooted = FakeTime(5 * NS)  # a new boot: the monotonic source starts again, lower
    restored = MatchClock.restore(logged, DELAY, rebooted)
    assert restored.is_paused(1) and restored.is_paused(2)
    for (n, s), ns in at_crash.items():
        assert 0 <= restored.remaining_ns(n, s) - ns <= NS // 2
    assert restored.events_since(len(logged))[-2:] == (
        ClockEvent(EventKind.RESTORE, rebooted.t, 1),
        ClockEvent(EventKind.RESTORE, rebooted.t, 2),
    )
    assert replay(restored.events, DELAY) == restored.state
    rebooted.wait(1)
    restored.resume()
    rebooted.wait(2)
    assert restored.press(1, restored.running_side(1) or A)
    assert replay(restored.events, DELAY) == restored.state


def test_restore_logs_a_flag_that_fell_due_before_the_crash() -> None:
    clock, now = started(FISCHER)
    start = now.t
    now.wait(119)
    clock.checkpoint()
    clock.press(2, B)
    now.wait(2)
    clock.checkpoint()  # logs board 1's flag at its instant, then checkpoints board 2
    restored = MatchClock.restore(clock.events, FISCHER, FakeTime(now.t + 60 * NS))
    assert restored.flagged_side(1) is A and restored.flag_ns(1) == start + 120 * NS
    assert restored.is_paused(2)
    assert restored.remaining_ns(2, A) == 118 * NS


def test_rules_7_restore_pauses_each_board_at_its_own_last_event_whatever_order_they_came() -> None:
    """Two phones time a match's boards. Board 2's phone went quiet (its last event at 15 s) and
    its log reached the desk after board 1's later events, so the log is out of time order
    across boards. Each board is paused at the last instant its own log knows of: board 2 is
    never charged for board 1's time, and the order the logs arrived in changes nothing."""
    clock, now = started(FISCHER)
    now.wait(10)
    clock.press(1, A)
    clock.press(2, B)
    now.wait(5)
    clock.checkpoint()
    board2_last = now.t
    now.wait(30)
    clock.press(1, B)
    now.wait(4)
    clock.checkpoint()
    board1_last = now.t
    board1 = [e for e in clock.events if e.board == 1]
    board2 = [e for e in clock.events if e.board == 2 and e.t_ns <= board2_last]
    in_time_order = sorted(board1 + board2, key=lambda e: e.t_ns)
    late_board2 = board1 + board2
    assert [e.t_ns for e in late_board2] != sorted(e.t_ns for e in late_board2)

    for log in (in_time_order, late_board2):
        restored = MatchClock.restore(log, FISCHER, FakeTime(now.t + 60 * NS))
        assert restored.is_paused(1) and restored.is_paused(2)
        assert (secs(restored, 1, A), secs(restored, 1, B)) == (118, 97)
        assert (secs(restored, 2, A), secs(restored, 2, B)) == (115, 122)
        pauses = [e for e in restored.events_since(len(log)) if e.kind is EventKind.PAUSE]
        assert {(e.board, e.t_ns) for e in pauses} == {(1, board1_last), (2, board2_last)}
        assert replay(restored.events, FISCHER) == restored.state


def test_restore_of_an_empty_log_is_a_fresh_clock() -> None:
    restored = MatchClock.restore([], FISCHER, FakeTime())
    assert restored.events == () and restored.board_at(1).phase is Phase.READY


# -- the display -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ns", "shown"),
    [
        (0, "0:00.0"),
        (-5, "0:00.0"),
        (1, "0:00.0"),
        (99_999_999, "0:00.0"),
        (100_000_000, "0:00.1"),
        (9_999_999_999, "0:09.9"),
        (20 * NS - 1, "0:19.9"),
        (20 * NS, "0:20"),
        (60 * NS - 1, "0:59"),
        (120 * NS, "2:00"),
        (127 * NS + 999_999_999, "2:07"),
        (3600 * NS, "1:00:00"),
        (3723 * NS, "1:02:03"),
    ],
)
def test_rules_7_display_floors_and_shows_tenths_below_20_s(ns: int, shown: str) -> None:
    assert format_remaining(ns) == shown


# -- the arbiter corrects a flag (a clock fault, a wrong press) -----------------------------------


def test_arbiter_pauses_a_flagged_board_restores_a_time_and_continues() -> None:
    clock, now = started(FISCHER)
    start = now.t
    now.wait(30)
    clock.press(2, B)  # board 2 plays on
    now.wait(91)
    assert clock.check_flags() == (ClockEvent(EventKind.FLAG, start + 120 * NS, 1, A),)
    assert clock.pause()  # pause-all pauses board 2 and leaves the flagged board alone...
    assert clock.board_at(1).phase is Phase.STOPPED
    assert clock.resume(2)
    assert clock.pause(1)  # ...the arbiter pauses it by name
    assert clock.is_paused(1) and clock.flagged_side(1) is A
    assert not clock.resume(1)  # the flag stands until a time is restored
    clock.adjust(1, A, 30 * NS)
    assert clock.flagged_side(1) is None and clock.flag_ns(1) is None
    assert clock.resume(1)
    assert clock.running_side(1) is A  # the flagged side is still on move
    now.wait(10)
    assert clock.remaining_ns(1, A) == 20 * NS
    assert clock.press(1, A)
    assert clock.remaining_ns(1, A) == 32 * NS
    assert_replays(clock)


def test_a_flag_adjusted_to_zero_still_stands() -> None:
    clock, now = started(FISCHER)
    now.wait(30)
    clock.press(2, B)
    now.wait(91)
    clock.check_flags()
    clock.pause(1)
    clock.adjust(1, A, 0)
    assert clock.flagged_side(1) is A
    assert not clock.resume(1)
    clock.adjust(1, B, 50 * NS)  # the other side's time may be corrected too
    assert clock.remaining_ns(1, B) == 50 * NS
    assert_replays(clock)


def test_pause_all_leaves_a_stopped_board_and_pauses_the_running_one() -> None:
    clock, now = started(FISCHER)
    now.wait(30)
    clock.press(2, B)
    now.wait(91)
    assert clock.pause()
    assert clock.board_at(1).phase is Phase.STOPPED and clock.is_paused(2)
    assert clock.floor_ns == now.t


def test_a_one_board_match_clock_times_its_board_alone() -> None:
    """#28: the clocks are keyed by the match's boards; an individual match's has board 1
    alone, and start, pause-all, checkpoints and a restore act on it without a board 2."""
    time = FakeTime()
    clock = MatchClock(DELAY, time, boards=(1,))
    assert clock.boards == (1,) and clock.state.boards.boards == (1,)
    clock.set_first_mover(1, A)
    clock.start()
    time.wait(20)
    assert clock.pause() and clock.state.board(1).phase is Phase.PAUSED
    assert {e.board for e in clock.events} == {1}
    with pytest.raises(ClockError, match="there is no board 2"):
        clock.state.board(2)
    with pytest.raises(ClockError, match="there is no board 2"):
        clock.set_first_mover(2, A)
    again = MatchClock.restore(clock.events, DELAY, time, boards=(1,))
    assert again.state.board(1) == clock.state.board(1)
    assert replay(clock.events, DELAY, boards=(1,)) == clock.state
    assert [e.board for e in again.events_since(clock.event_count)] == [1]


@pytest.mark.parametrize("tapper", [A, B])
@pytest.mark.parametrize("tc", [FISCHER, BRONSTEIN, DELAY], ids=lambda tc: tc.mode.value)
def test_rules_10_the_next_game_starts_without_a_move_played(tc: TimeControl, tapper: Side) -> None:
    """#28: between two games of an individual match the clock is paused; a tap starts the
    next game with the tapper's opponent on move. It used to be logged as a resume and the
    tapper's press, so under Fischer the tapper gained an increment for a move never played
    (and under Bronstein a refund of the delay left from the last game). Now the next game
    begins as the first one did: nobody is credited, the first mover's delay starts afresh."""
    time = FakeTime()
    clock = MatchClock(tc, time, boards=(1,))
    clock.set_first_mover(1, A)
    clock.start()
    time.wait(5)
    clock.press(1, A)
    time.wait(3)
    assert clock.pause(1)  # the game was recorded, B on move with 3 s of the move used
    before = {side: clock.remaining_ns(1, side) for side in (A, B)}
    credited = {side: clock.state.board(1).side(side).credited_ns for side in (A, B)}
    time.wait(60)  # the players set up the next game
    assert clock.start_game(1, tapper)
    board = clock.state.board(1)
    assert board.phase is Phase.RUNNING and board.on_move is tapper.other
    assert board.move_ns == 0  # a new move: a simple delay starts in full
    assert {side: clock.remaining_ns(1, side) for side in (A, B)} == before
    assert {side: board.side(side).credited_ns for side in (A, B)} == credited
    assert [e.kind for e in clock.events[-2:]] == [EventKind.FIRST_MOVER, EventKind.RESUME]
    assert replay(clock.events, tc, boards=(1,)) == clock.state
    assert not clock.start_game(1, tapper)  # only a paused clock starts a game


def test_rules_10_a_flag_that_stands_starts_no_next_game() -> None:
    time = FakeTime()
    clock = MatchClock(TimeControl(1, 0, ClockMode.FISCHER), time, boards=(1,))
    clock.set_first_mover(1, A)
    clock.start()
    time.wait(2)
    clock.check_flags()
    assert clock.pause(1)  # the arbiter pauses the flagged board
    assert not clock.start_game(1, B)
    assert clock.state.board(1).flagged is A
