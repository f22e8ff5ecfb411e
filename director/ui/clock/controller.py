"""The live clocks of one match in the GUI: every action logged, queued for the writer, and the
match's recorded games applied to the boards (RULES §7).

The window turns keys and clicks into calls here; the display timer calls `tick`. Nothing here
charges time: the engine charges from the injected source at each action, so a late tick or a
stalled event loop only delays what is shown.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from director.domain.clock import (
    BOARDS,
    NS_PER_SECOND,
    ClockError,
    EventKind,
    MatchClock,
    Phase,
    TimeSource,
)
from director.domain.event import MatchInfo
from director.domain.rules import Side
from director.ui.clock.writer import ClockWriter

CHECKPOINT_NS = NS_PER_SECOND // 2  # what a crash can lose at most, well inside RULES §7's 1 s

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

    # -- actions (each logs, then hands the new events to the writer) --------------------

    def press(self, board: int, side: Side) -> bool:
        """A key-down or a tap on a face: before the start it names the first mover;
        afterwards it ends that side's move if that side is running (else nothing)."""
        if self.clock.state.board(board).phase is Phase.READY:
            return self.choose_first_mover(board, side)
        accepted = self.clock.press(board, side)
        self._after_action()
        return accepted

    def choose_first_mover(self, board: int, side: Side) -> bool:
        if self.clock.state.board(board).phase is not Phase.READY:
            return False
        if self.clock.state.board(board).on_move is side:
            return False
        self.clock.set_first_mover(board, side)
        self._after_action()
        return True

    def can_start(self) -> bool:
        boards = [self.clock.state.board(n) for n in BOARDS]
        ready = [b for b in boards if b.phase is Phase.READY]
        return bool(ready) and all(b.on_move is not None for b in ready)

    def start(self) -> bool:
        """Start every READY board at the same instant (each needs its first mover)."""
        if not self.can_start():
            return False
        self.clock.start()
        self._after_action()
        return True

    def any_running(self) -> bool:
        return any(self.clock.state.board(n).phase is Phase.RUNNING for n in BOARDS)

    def toggle_pause_all(self) -> bool:
        """Space: pause every running board; when none runs, resume every paused one."""
        done = self.clock.pause() if self.any_running() else self.clock.resume()
        self._after_action()
        return done

    def toggle_pause(self, board: int) -> bool:
        """One board alone (a game just ended, a die off the table)."""
        phase = self.clock.state.board(board).phase
        if phase is Phase.RUNNING:
            done = self.clock.pause(board)
        elif phase is Phase.PAUSED:
            done = self.clock.resume(board)
        else:
            return False
        self._after_action()
        return done

    def adjust(self, board: int, side: Side, remaining_ns: int) -> None:
        """The director's correction; the engine refuses it (ClockError) unless paused."""
        self.clock.adjust(board, side, remaining_ns)
        self._after_action()

    def tick(self) -> None:
        """The display timer: log flags that fell due (and say so) and a checkpoint about every
        0.5 s while a board runs, so a crash costs no side more than that."""
        now = self.source()
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
        if outcome.finished:
            for n in BOARDS:
                self._stop(n)
        elif outcome.current_pair != self.pair:
            for n in BOARDS:  # the log shows when the pair's last game ended
                self._stop(n)
            self.pair = outcome.current_pair
            self.clock.reset()
            self.recorded = set()
        else:
            self.recorded = set(outcome.boards_done)
            for n in outcome.boards_done:
                self._stop(n)
        self._after_action()

    def reset_for_pair(self, pair: int) -> None:
        """The log was of an earlier pair (the window was closed when it ended)."""
        self.pair = pair
        self.recorded = set()
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
