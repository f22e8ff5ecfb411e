"""The live clocks of one match in the GUI: every action logged, queued for the writer, and the
match's recorded games applied to the boards (RULES §7).

The window turns keys and clicks into calls here; the display timer calls `tick`. Nothing here
charges time: the engine charges from the injected source at each action, so a late tick or a
stalled event loop only delays what is shown.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from director.domain.clock import (
    NS_PER_SECOND,
    ClockError,
    ClockEvent,
    EventKind,
    MatchClock,
    Phase,
    TimeSource,
)
from director.domain.event import MatchInfo
from director.domain.rules import Side
from director.ui.clock.writer import ClockWriter

CHECKPOINT_NS = NS_PER_SECOND // 2  # what a crash can lose at most, well inside RULES §7's 1 s
LATE_TICK_NS = NS_PER_SECOND // 10  # a tick this late follows a stall (frames are 16 ms)

ClockTimes = tuple[int | None, int | None]


class ClockController(QObject):
    """One match's `MatchClock`, its writer, and the match's pair it is timing."""

    changed = Signal()  # an action changed the clocks: repaint now, not at the next tick
    flagged = Signal(int, str)  # board, side ("A"/"B") whose flag fell: open the §5 entry

    def __init__(
        self,
        clock: MatchClock,
        writer: ClockWriter | None,
        source: TimeSource,
        pair: int = 1,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.clock = clock
        self.writer = writer
        self.source = source
        self.pair = pair  # the pair of games these clocks are timing
        self.recorded: set[int] = set()  # boards whose game of this pair is recorded
        self._sent = clock.event_count  # events before this are in the database already
        self._last_logged = clock.events[-1].t_ns if clock.events else None
        self._last_tick: int | None = None
        # the boards the last pause-all paused: the only ones a resume-all resumes (a restore
        # after a crash pauses every running board as if by pause-all)
        self.paused_together = {n for n in clock.boards if clock.is_paused(n)}
        # RULES §10: boards a recorded game paused whose next game has not started: a player's
        # key starts it (`MatchClock.start_game`), as a tap does on a phone
        self.between_games: set[int] = set()

    # -- actions (each logs, then hands the new events to the writer) --------------------
    # `at` is the instant the key went down or the face was touched (None: now); an instant
    # before the last logged action is charged at that action (the log stays in time order).

    def instant(self, at: int | None = None) -> int:
        now = self.source()
        t = now if at is None else min(at, now)
        floor = self.clock.floor_ns
        return t if floor is None else max(t, floor)

    def press(self, board: int, side: Side, at: int | None = None) -> bool:
        """A key-down or a tap on a face: before the start it names the first mover;
        afterwards it ends that side's move if that side is running (else nothing)."""
        if self.clock.state.board(board).phase is Phase.READY:
            return self.choose_first_mover(board, side)
        if board in self.between_games and self.phase(board) is Phase.PAUSED:
            accepted = self.clock.start_game(board, side, self.instant(at))
            if accepted:
                self.between_games.discard(board)
                self.paused_together.discard(board)
            self._after_action()
            return accepted
        accepted = self.clock.press(board, side, self.instant(at))
        self._after_action()
        return accepted

    def choose_first_mover(self, board: int, side: Side) -> bool:
        if self.clock.state.board(board).phase is not Phase.READY:
            return False
        if self.clock.state.board(board).on_move is side:
            return False
        self.clock.set_first_mover(board, side, self.instant())
        self._after_action()
        return True

    def can_start(self) -> bool:
        boards = [self.clock.state.board(n) for n in self.clock.boards]
        ready = [b for b in boards if b.phase is Phase.READY]
        return bool(ready) and all(b.on_move is not None for b in ready)

    def start(self, at: int | None = None) -> bool:
        """Start every READY board at the same instant (each needs its first mover)."""
        if not self.can_start():
            return False
        self.clock.start(self.instant(at))
        self._after_action()
        return True

    def any_running(self) -> bool:
        return any(self.clock.state.board(n).phase is Phase.RUNNING for n in self.clock.boards)

    def phase(self, board: int) -> Phase:
        return self.clock.state.board(board).phase

    def toggle_pause_all(self, at: int | None = None) -> bool:
        """Space: pause every running board; when none runs, resume exactly the boards the
        last pause-all paused (a board paused alone stays paused)."""
        t = self.instant(at)
        if self.any_running():
            boards = {n for n in self.clock.boards if self.phase(n) is Phase.RUNNING}
            done = self.clock.pause(now=t)
            self.paused_together = {n for n in boards if self.phase(n) is Phase.PAUSED}
        else:
            boards = {n for n in self.paused_together if self.phase(n) is Phase.PAUSED}
            done = any([self.clock.resume(n, t) for n in sorted(boards)])
            self.paused_together = set()
            self.between_games -= boards  # Space starts the next game too
        self._after_action()
        return done

    def paused_alone(self) -> list[int]:
        """Paused boards that a pause-all would not resume."""
        return [
            n
            for n in self.clock.boards
            if self.phase(n) is Phase.PAUSED and n not in self.paused_together
        ]

    def toggle_pause(self, board: int, at: int | None = None) -> bool:
        """One board alone (a game just ended, a die off the table, a flag to correct)."""
        phase = self.phase(board)
        self.paused_together.discard(board)
        if phase is Phase.RUNNING or (phase is Phase.STOPPED and self.can_correct(board)):
            done = self.clock.pause(board, self.instant(at))
        elif phase is Phase.PAUSED:
            done = self.clock.resume(board, self.instant(at))
            self.between_games.discard(board)
        else:
            return False
        self._after_action()
        return done

    def can_correct(self, board: int) -> bool:
        """A flagged board whose game is not recorded yet: the arbiter may pause and fix it."""
        b = self.clock.state.board(board)
        return b.flagged is not None and board not in self.recorded

    def adjust(
        self, board: int, side: Side, remaining_ns: int, reason: str = ""
    ) -> ClockEvent | None:
        """The director's correction, logged with its reason; the engine refuses it
        (ClockError) unless paused. An unchanged time is not logged (None)."""
        if self.clock.remaining_ns(board, side) == remaining_ns:
            return None
        event = self.clock.adjust(board, side, remaining_ns, self.instant(), reason)
        self._after_action()
        return event

    def tick(self) -> None:
        """The display timer: log flags that fell due (and say so) and a checkpoint about every
        0.5 s while a board runs, so a crash costs no side more than that."""
        now = self.source()
        late = self._last_tick is not None and now - self._last_tick > LATE_TICK_NS
        self._last_tick = now
        if late:  # the loop was stalled: handle the input queued meanwhile first, at its times
            return
        self.clock.check_flags(now)
        if self.any_running() and (
            self._last_logged is None or now - self._last_logged >= CHECKPOINT_NS
        ):
            self.clock.checkpoint(now)
        self._persist()

    # -- the match's games ------------------------------------------------------------------

    def follow(self, match: MatchInfo) -> None:
        """Apply the match as recorded: a board whose game is recorded stops; when the pair is
        complete the clocks reset for the next one; a finished match stops every board."""
        outcome = match.outcome
        if not match.pair_state.match_live:
            for n in self.clock.boards:
                self._stop(n)
        elif outcome.current_pair != self.pair and match.rules.event_format.match_clock:
            # RULES §10: one reserve for the whole match, paused between games, never reset
            t = self.instant()
            for n in self.clock.boards:
                if self.phase(n) is Phase.RUNNING:
                    self.clock.pause(n, t)
            self.pair = outcome.current_pair
            self.recorded = set()
            self.paused_together = {n for n in self.clock.boards if self.clock.is_paused(n)}
            self.between_games = set(self.paused_together)
        elif outcome.current_pair != self.pair:
            for n in self.clock.boards:  # the log shows when the pair's last game ended
                self._stop(n)
            self.pair = outcome.current_pair
            self.clock.reset()
            self.recorded = set()
            self.paused_together = set()
        else:
            self.recorded = set(outcome.boards_done)
            for n in outcome.boards_done:
                self._stop(n)
        self._after_action()

    def reset_for_pair(self, pair: int) -> None:
        """The log was of an earlier pair (the window was closed when it ended)."""
        self.pair = pair
        self.recorded = set()
        self.paused_together = set()
        self.clock.reset()
        self._after_action()

    def _stop(self, board: int) -> None:
        if self.clock.state.board(board).phase in (Phase.RUNNING, Phase.PAUSED):
            self.clock.stop(board)

    # -- read-outs --------------------------------------------------------------------------

    def clock_times(self, board: int) -> ClockTimes:
        """Each side's remaining time on a board now: stored with the game when it ends."""
        if self.clock.state.board(board).phase is Phase.READY:
            return (None, None)  # the game was never timed
        now = self.source()
        try:
            b = self.clock.board_at(board, now)
        except ClockError:
            return (None, None)
        return (b.a.remaining_ns, b.b.remaining_ns)

    # -- persistence ------------------------------------------------------------------------

    def _after_action(self) -> None:
        self._persist()
        self.changed.emit()

    def _persist(self) -> None:
        new = self.clock.events_since(self._sent)
        if not new:
            return
        self._sent += len(new)
        self._last_logged = new[-1].t_ns
        if self.writer is not None:
            self.writer.put(new)
        # a flag is logged by whichever call first sees it due: a tick, or any action
        for e in new:
            if e.kind is EventKind.FLAG and e.side is not None:
                self.flagged.emit(e.board, e.side.value)
