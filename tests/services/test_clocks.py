"""The clock log in the event database (RULES §7): appended in order, read back by a fresh
connection, restored paused within 1 s, also after a reboot restarted the monotonic clock."""

from __future__ import annotations

import sqlite3
import time
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy.exc import IntegrityError

from director.domain.clock import ClockEvent, EventKind, MatchClock, replay
from director.domain.errors import UserError
from director.domain.rules import End, Level, Side, TimeControl
from director.domain.scoring import Game
from director.services import clocks, games
from director.store import models
from director.store.engine import EventDatabase, open_database
from director.ui.clock.writer import NOT_ANSWERING, ClockWriter

NS = 1_000_000_000
A, B = Side.A, Side.B
TC = TimeControl(120, 12)


class FakeTime:
    def __init__(self, t: int) -> None:
        self.t = t

    def __call__(self) -> int:
        return self.t

    def wait(self, seconds: float) -> None:
        self.t += round(seconds * NS)


def played(now: FakeTime) -> MatchClock:
    """Both boards started; a few presses; board 2 paused for a while; checkpoints."""
    clock = MatchClock(TC, now)
    clock.set_first_mover(1, A)
    clock.set_first_mover(2, B)
    clock.start()
    for board, side, think in [(1, A, 7), (2, B, 3), (1, B, 11), (2, A, 2.5), (1, A, 4)]:
        now.wait(think)
        clock.press(board, side)
        clock.checkpoint()
    clock.pause(2)
    now.wait(30)
    clock.resume(2)
    now.wait(0.4)
    clock.checkpoint()
    return clock


def write(db: EventDatabase, match_id: int, events: tuple[ClockEvent, ...], first: int) -> None:
    with db.Session() as s, s.begin():
        clocks.append_events(s, match_id, first, events)


def test_rules_7_every_event_is_stored_and_read_back_in_order(
    db: EventDatabase, event_path: Path, match_id: int
) -> None:
    clock = played(FakeTime(1_000 * NS))
    write(db, match_id, clock.events[:5], 0)
    write(db, match_id, clock.events[5:], 5)
    fresh = open_database(str(event_path))
    try:
        with fresh.Session() as s:
            loaded = clocks.load_events(s, match_id)
            assert clocks.next_seq(s, match_id) == clock.event_count
            wall = s.query(models.ClockEvent.wall_time).first()
    finally:
        fresh.close()
    assert tuple(loaded) == clock.events
    assert replay(loaded, TC) == clock.state
    assert wall is not None


def test_a_seq_taken_twice_is_refused_whole(db: EventDatabase, match_id: int) -> None:
    clock = played(FakeTime(1_000 * NS))
    write(db, match_id, clock.events[:3], 0)
    with pytest.raises(IntegrityError):
        write(db, match_id, clock.events[3:6], 2)  # a second window's overlapping log
    with db.Session() as s:
        assert len(clocks.load_events(s, match_id)) == 3


def test_rules_7_restore_pauses_both_boards_within_one_second(
    db: EventDatabase, event_path: Path, match_id: int
) -> None:
    now = FakeTime(1_000 * NS)
    clock = played(now)
    write(db, match_id, clock.events, 0)
    now.wait(0.45)  # the crash comes just before the next checkpoint
    truth = {(n, s): clock.remaining_ns(n, s) for n in (1, 2) for s in Side}
    now.wait(3600)  # the laptop stays off for an hour
    fresh = open_database(str(event_path))
    try:
        with fresh.Session() as s, s.begin():
            restored = clocks.restore_clock(s, match_id, TC, now)
        with fresh.Session() as s:
            stored = clocks.load_events(s, match_id)
    finally:
        fresh.close()
    for n in (1, 2):
        assert restored.is_paused(n)
        for side in Side:
            assert 0 <= restored.remaining_ns(n, side) - truth[n, side] <= 1 * NS
    assert tuple(stored) == restored.events  # the restore's own events are stored as well
    assert [e.kind for e in stored[-2:]] == [EventKind.RESTORE, EventKind.RESTORE]


def test_rules_7_the_laptop_clock_reopens_two_phones_log_out_of_time_order(
    db: EventDatabase, event_path: Path, match_id: int
) -> None:
    """Two phones time the boards; board 2's phone was offline and its log reached the desk
    after board 1's later events (phone_clocks stores each board's events as they come). The
    laptop's clock window reopens that log: each board paused at its own last event."""
    now = FakeTime(1_000 * NS)
    clock = played(now)
    board1 = tuple(e for e in clock.events if e.board == 1)
    quiet = next(e.t_ns for e in clock.events if e.kind is EventKind.PAUSE)  # board 2's phone
    board2 = tuple(e for e in clock.events if e.board == 2 and e.t_ns < quiet)
    write(db, match_id, board1, 0)
    write(db, match_id, board2, len(board1))
    now.wait(60)
    fresh = open_database(str(event_path))
    try:
        with fresh.Session() as s, s.begin():
            restored = clocks.restore_clock(s, match_id, TC, now)
    finally:
        fresh.close()
    at_quiet = replay(board2, TC).board(2)
    assert restored.is_paused(1) and restored.is_paused(2)
    for side in Side:
        assert restored.remaining_ns(1, side) == clock.state.board(1).side(side).remaining_ns
        assert restored.remaining_ns(2, side) == at_quiet.side(side).remaining_ns


def test_rules_7_restore_after_a_reboot_with_the_monotonic_clock_from_zero(
    db: EventDatabase, event_path: Path, match_id: int
) -> None:
    before = FakeTime(9_876_543 * NS)  # weeks of uptime before the power cut
    clock = played(before)
    write(db, match_id, clock.events, 0)
    remaining = clock.remaining_ns(1, B)
    after = FakeTime(0)  # the new boot's monotonic clock starts again at zero
    with db.Session() as s, s.begin():
        restored = clocks.restore_clock(s, match_id, TC, after)
    stored = restored.event_count
    assert restored.remaining_ns(1, B) == remaining  # nothing charged across the reboot
    after.wait(5)
    restored.resume()
    after.wait(2)
    assert restored.remaining_ns(1, B) == remaining - 2 * NS
    restored.press(1, B)
    with db.Session() as s, s.begin():
        clocks.append_events(s, match_id, stored, restored.events_since(stored))
    with db.Session() as s:  # the whole log, across both boots, still replays
        again = clocks.restore_clock(s, match_id, TC, FakeTime(after.t + NS))
    assert again.remaining_ns(1, B) == remaining - 2 * NS + 12 * NS


def test_a_log_that_cannot_be_replayed_is_named(db: EventDatabase, match_id: int) -> None:
    bad = (ClockEvent(EventKind.PRESS, 10, 1, A),)  # a press before any start
    write(db, match_id, bad, 0)
    with db.Session() as s, pytest.raises(UserError, match="cannot be replayed"):
        clocks.restore_clock(s, match_id, TC, FakeTime(20))
    with db.Session() as s, pytest.raises(UserError, match="no match 999"):
        clocks.restore_clock(s, 999, TC, FakeTime(20))


def test_the_clock_is_behind_when_a_pair_ended_while_its_window_was_closed(
    db: EventDatabase, match_id: int
) -> None:
    now = FakeTime(1_000 * NS)
    clock = played(now)
    write(db, match_id, clock.events, 0)
    with db.Session() as s:
        assert not clocks.clock_is_behind(s, match_id)
    for board in (1, 2):
        with db.Session() as s, s.begin():
            game = Game(0, board, A, End.BEAR_OFF, level=Level.SINGLE)
            games.record_game(s, match_id, game)
        with db.Session() as s:
            assert clocks.clock_is_behind(s, match_id) is (board == 2)
    clock.reset()
    write(db, match_id, clock.events_since(clock.event_count - 2), clock.event_count - 2)
    with db.Session() as s:
        assert not clocks.clock_is_behind(s, match_id)


@pytest.mark.parametrize("skew_minutes", [-10, 10])
def test_the_clock_log_and_the_games_are_ordered_by_the_log_not_by_wall_clocks(
    db: EventDatabase, match_id: int, monkeypatch: pytest.MonkeyPatch, skew_minutes: int
) -> None:
    """The clock window's laptop may be another station than the one recording results, its
    wall clock minutes off: what came first is the log's order, whatever the wall clocks say."""
    skewed = models.utcnow() + timedelta(minutes=skew_minutes)
    monkeypatch.setattr(clocks, "utcnow", lambda: skewed)  # the clock station's wall clock
    clock = played(FakeTime(1_000 * NS))
    write(db, match_id, clock.events, 0)
    for board in (1, 2):
        with db.Session() as s, s.begin():
            games.record_game(s, match_id, Game(0, board, A, End.BEAR_OFF, level=Level.SINGLE))
    with db.Session() as s:
        assert clocks.clock_is_behind(s, match_id)  # the reset came before the pair's end
    clock.reset()
    write(db, match_id, clock.events_since(clock.event_count - 2), clock.event_count - 2)
    with db.Session() as s:
        assert not clocks.clock_is_behind(s, match_id)  # the reset came after it


def test_the_writer_commits_each_batch_at_once_on_its_own_thread(
    db: EventDatabase, event_path: Path, match_id: int
) -> None:
    clock = played(FakeTime(1_000 * NS))
    writer = ClockWriter(db, match_id, 0)
    events = clock.events
    writer.put(events[:4])
    writer.put(events[4:])
    assert writer.flush(10)
    fresh = open_database(str(event_path))  # another connection sees them committed
    try:
        with fresh.Session() as s:
            assert tuple(clocks.load_events(s, match_id)) == events
    finally:
        fresh.close()
    assert writer.stats.rows == len(events) and writer.failure is None
    assert writer.close()
    writer.put(events[:1])  # after close: dropped, logged, never a hang
    assert writer.pending == 0


def test_the_writer_reports_a_refused_write_and_gives_up_at_close(
    db: EventDatabase, match_id: int
) -> None:
    clock = played(FakeTime(1_000 * NS))
    write(db, match_id, clock.events[:2], 0)
    writer = ClockWriter(db, match_id, 0)  # a second writer on the same seqs
    writer.put(clock.events[:2])
    deadline = time.monotonic() + 5
    while writer.failure is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert writer.failure is not None and "could not be saved" in writer.failure
    assert not writer.close(timeout=0.5)


def test_the_writer_says_not_answering_while_a_write_waits_and_saves_it_after(
    db: EventDatabase, event_path: Path, match_id: int
) -> None:
    """Another program holds the event file's write lock: the write waits (busy timeout), the
    window is told "not answering" meanwhile, and the presses are saved once it lets go."""
    clock = played(FakeTime(1_000 * NS))
    holder = sqlite3.connect(event_path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    writer = ClockWriter(db, match_id, 0, slow_s=0.3)
    try:
        writer.put(clock.events[:3])
        deadline = time.monotonic() + 4
        while writer.problem != NOT_ANSWERING and time.monotonic() < deadline:
            time.sleep(0.02)
        assert writer.problem == NOT_ANSWERING
        assert writer.pending == 3
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert writer.flush(30)
    assert writer.problem is None
    with db.Session() as s:
        assert tuple(clocks.load_events(s, match_id)) == clock.events[:3]
    assert writer.close()
