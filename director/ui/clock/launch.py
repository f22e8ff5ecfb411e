"""Open the clock window of a match: one per match, restored from the match's clock log.

`open_clock_window(ctx, match_id)` is the one call the match desk (and the `clock` command)
makes. Reopening after a crash, a kill or a power cut restores both boards paused, each side
within one checkpoint (0.5 s) of where it was (RULES §7).
"""

from __future__ import annotations

import time

from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QWidget
from sqlalchemy.orm import Session

from director.domain.clock import MatchClock, Phase, TimeSource
from director.domain.errors import UserError
from director.domain.event import MatchInfo
from director.domain.rules import Side, TimeControl
from director.services import clocks, matches, phone_clocks
from director.ui.clock.controller import ClockController
from director.ui.clock.window import ClockWindow
from director.ui.clock.writer import ClockWriter
from director.ui.context import EventContext


def app_settings() -> QSettings:
    return QSettings("Tandem Director", "Tandem Director")


def _restore(
    session: Session, match_id: int, tc: TimeControl, source: TimeSource
) -> tuple[MatchClock, bool, int]:
    """The match's clock from its log (written: paused, restored), whether the log is behind
    the match's results, and the seq of the next event."""
    clock = clocks.restore_clock(session, match_id, tc, source)
    return clock, clocks.clock_is_behind(session, match_id), clocks.next_seq(session, match_id)


def timed_match(session: Session, match_id: int) -> MatchInfo:
    """The match whose clocks can be shown; UserError when it does not exist, is a bye or a
    forfeit (`clock FILE MATCH` asks before it writes anything)."""
    match = matches.get_match(session, match_id)
    if match.is_bye or match.forfeit_by is not None:
        raise UserError("a bye or a forfeited match has no games to time")
    return match


def open_clock_window(
    ctx: EventContext,
    match_id: int,
    *,
    source: TimeSource = time.monotonic_ns,
    settings: QSettings | None = None,
    parent: QWidget | None = None,
) -> ClockWindow:
    """Show the match's clock window (raised if it is open already). UserError when the match
    does not exist, is a bye or a forfeit, or its clock log cannot be replayed."""
    open_window = ctx.clock_windows.get(match_id)
    if isinstance(open_window, ClockWindow):
        open_window.showNormal() if open_window.isMinimized() else open_window.show()
        open_window.raise_()
        open_window.activateWindow()
        return open_window
    match = ctx.read(timed_match, match_id)
    tc = match.clock
    # the restore's own events (pause, restore) are written before the writer starts; no page
    # shows the clock log, so the change tells none of them
    clock, behind, next_seq = ctx.background.call(_restore, True, match_id, tc, source)
    restored = clock.event_count > 0
    writer = ClockWriter(ctx.db, match_id, next_seq)
    controller = ClockController(clock, writer, source, match.outcome.current_pair)
    if behind and not match.rules.event_format.match_clock:  # a match clock is never reset
        controller.reset_for_pair(match.outcome.current_pair)
    controller.follow(match)
    if match.rules.event_format.match_clock:  # reopened between two games (RULES §10)
        phases = {n: clock.state.board(n).phase for n in clock.boards}
        controller.between_games |= ctx.read(phone_clocks.boards_between_games, match_id, phases)
    window = ClockWindow(ctx, match, controller, source, settings or app_settings(), parent)
    controller.setParent(window)
    ctx.clock_windows[match_id] = window
    if restored and any(clock.is_paused(n) for n in clock.boards):
        paused = "paused" if len(clock.boards) == 1 else "both boards paused"
        window.show_status(f"Clocks restored from the log: {paused}. Space resumes.")
    for n in clock.boards:  # a flag that fell before a crash, not yet recorded
        b = clock.state.board(n)
        if b.phase is Phase.STOPPED and b.flagged is not None:
            flagged: Side = b.flagged
            QTimer.singleShot(0, lambda n=n, s=flagged: window.open_forfeit(n, s))
    # a clock wants the whole screen: maximized, the window manager fits it with its frame
    # (resized to the screen's free area alone, the title bar pushed the key hints off the
    # screen); the size is for a screen without a window manager, which maximizes nothing
    screen = window.screen().availableGeometry()
    window.setGeometry(screen)
    window.showMaximized()
    return window
