"""The reserve of an individual match's clock (RULES §10, the US backgammon clock rules).

Each player has one reserve for the whole match, M per match point, with a simple delay of D
seconds a move; the clock is paused between games and never reset inside the match. A clock
started in a match already under way gets M per match point less M/2 per point already scored
by either player. A player whose reserve runs out loses the match (`score_match`'s
`lost_on_time`).
"""

from __future__ import annotations

from director.domain.clock import NS_PER_SECOND
from director.domain.errors import UserError
from director.domain.match import MatchOutcome
from director.domain.rules import ClockMode, MatchRules, TimeControl
from director.domain.score import Score

RESERVE_PER_POINT_S = 120  # M: 2 minutes per match point, a 7-point match gives 14 minutes
DELAY_S = 12  # D: the simple delay of each move


def reserve_ns(per_point_s: int, match_length: int, score: Score | None = None) -> int:
    """Each player's reserve in nanoseconds (exact: M/2 of an odd M is a half second) for a
    match to `match_length` whose clock starts at `score` (0–0: the full reserve)."""
    score = score or Score()
    if per_point_s < 1:
        raise UserError("the reserve per match point must be at least 1 second")
    if match_length < 1:
        raise UserError("the match length must be at least 1 point")
    if max(score.a, score.b) >= match_length or min(score.a, score.b) < 0:
        raise UserError(f"at {score} a match to {match_length} is not under way: no clock starts")
    per_point = per_point_s * NS_PER_SECOND
    return per_point * match_length - per_point * (score.a + score.b) // 2


def match_time_control(
    per_point_s: int = RESERVE_PER_POINT_S,
    delay_s: int = DELAY_S,
    match_length: int = 7,
    score: Score | None = None,
    mode: ClockMode = ClockMode.DELAY,
) -> TimeControl:
    """The clock of one individual match as the board's clock takes it: the reserve as its
    base (whole seconds, rounded down: a half second is lost only with an odd M in seconds)
    and the delay, simple unless the event asks for Fischer or Bronstein."""
    if delay_s < 0:
        raise UserError("the delay cannot be negative")
    base = reserve_ns(per_point_s, match_length, score) // NS_PER_SECOND
    return TimeControl(base_seconds=base, increment_seconds=delay_s, mode=mode)


def match_clock(rules: MatchRules, event_clock: TimeControl) -> TimeControl:
    """The clock a match is paired with: the event's per game (RULES §7), or, where the format
    has one reserve per match, the event's base per match point (RULES §10)."""
    if not rules.event_format.match_clock:
        return event_clock
    per_point, delay = event_clock.base_seconds, event_clock.increment_seconds
    return match_time_control(per_point, delay, rules.match_length, mode=event_clock.mode)


def clock_start_score(outcome: MatchOutcome, games_before: int) -> Score:
    """The score a match's clock started at: that after the `games_before` games recorded
    before the clock's first event (the store's `Game.clock_seq` says which; all of them while
    the log is empty, since the clock starts now).

    The games are chosen by when they were recorded, their points by what they say now: a
    correction of a game played before the clock started re-derives the reserve (as it
    re-derives the Crawford game), and every replay of the log follows it; games recorded
    after the clock's first event never change it."""
    return outcome.lines[games_before - 1].score if games_before > 0 else Score()


def started_clock(rules: MatchRules, paired: TimeControl, start: Score) -> TimeControl:
    """The time control a match's clock replays with, from the match's stored rules: as paired
    (RULES §7's per game, or §10's full reserve), less M/2 per point already scored when an
    individual match's clock started under way (RULES §10).

    No floor is needed: a match under way has each player at most N − 1, so the reserve
    N·M − (M/2)(a + b) ≥ N·M − M(N − 1) = M > 0 (6–6 to 7 at M = 2 min gives 2 min). A match
    already over before its clock's first event has no clock to start: it keeps the paired one.
    """
    if not rules.event_format.match_clock or start.a + start.b == 0:
        return paired
    if max(start.a, start.b) >= rules.match_length:
        return paired
    per_point = paired.base_seconds // rules.match_length  # paired as per point × length
    length = rules.match_length
    return match_time_control(per_point, paired.increment_seconds, length, start, paired.mode)


def _duration(seconds_: int) -> str:
    minutes, seconds = divmod(seconds_, 60)
    return f"{minutes} min" + (f" {seconds} s" if seconds else "")


def clock_text(tc: TimeControl, rules: MatchRules | None = None) -> str:
    """The event's clock in words: a game's (RULES §7), or where the format has one reserve
    per match (RULES §10) the reserve per match point and what it gives this match."""
    if rules is not None and rules.event_format.match_clock:
        whole = match_clock(rules, tc).base_seconds
        return (
            f"{_duration(tc.base_seconds)} per match point ({_duration(whole)} for this match) "
            f"+ {tc.increment_seconds} s {tc.mode.label} per player per match"
        )
    base = _duration(tc.base_seconds)
    return f"{base} + {tc.increment_seconds} s {tc.mode.label} per player per game"
