"""A board's clock on a phone: its log lands in the match's clock log (RULES §7).

The phone charges time itself (director/web/static engine, equal to the domain's) and sends
its board's log in order, each event numbered by its place in that board's log. This module
stores it exactly as the laptop clock's log is stored (`services.clocks.append_events`, one
`clock_event` row per event, read back by the clock-log command): an event already stored is
acknowledged again and not stored twice, a gap is refused with the count the desk has (the
phone resends from there), and a log that the domain's engine cannot replay is refused.

The match's token (the slip's, `services.slips`) opens its clocks; another match's token
opens that match only.
"""

from __future__ import annotations

import re
import secrets
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from director.domain.clock import (
    BoardClock,
    ClockError,
    ClockEvent,
    EventKind,
    MatchClockState,
    Phase,
    apply_event,
    replay,
)
from director.domain.event import MatchInfo
from director.domain.rules import Side, TimeControl
from director.services import audit
from director.services.clocks import append_events, next_seq
from director.services.matches import get_match
from director.services.slips import (
    Refusal,
    SlipRefused,
    finished_match_for_token,
    match_for_token,
)
from director.store import models
from director.store.models import utcnow

WIRE_INT = re.compile(r"-?[0-9]{1,19}")
INT64 = 2**63  # what the database stores: a number past it is refused, not a 500
MAX_BATCH = 500  # events in one request: a phone back after a long outage sends in parts
# a board's log, per game of the board: a checkpoint every 0.5 s while running (clock.js) for
# four hours of one game's running time, and its presses, pauses and the desk's commands
BOARD_EVENTS_PER_GAME = 30_000
ADJUST_ACTION = "clock-adjust"  # the audit's action for a director's time adjustment
KEEP_COMMANDS = 20  # the latest commands of a match handed to its phones
# a phone carries out a command only this soon after it was given: one that comes back after a
# long outage does not pause or restore a game that has moved on (the desk gives it again).
# The desk hands out none older by the wall clock too: a reboot restarts the monotonic clock.
COMMAND_LIFE = timedelta(seconds=60)
COMMAND_KINDS = (EventKind.PAUSE, EventKind.RESUME, EventKind.ADJUST)
# what a phone does by itself (a checkpoint and a restore only mark its log); a time is
# adjusted only as the desk's restore asked, and a game stopped or reset only once the desk
# has it (`_phone_may_log`)
PHONE_KINDS = frozenset(
    (
        EventKind.FIRST_MOVER,
        EventKind.START,
        EventKind.PRESS,
        EventKind.PAUSE,
        EventKind.RESUME,
        EventKind.FLAG,
        EventKind.CHECKPOINT,
        EventKind.RESTORE,
    )
)
NOT_A_PHONES = "a phone clock cannot {what}: the director does that at the desk"
START = "start"


class ClockRefused(SlipRefused):
    """A clock request refused; `stored` tells the phone how much of its log the desk has."""

    def __init__(self, code: Refusal, message: str, stored: int | None = None) -> None:
        super().__init__(code, message)
        self.stored = stored


def wire(e: ClockEvent) -> dict[str, Any]:
    """An event as the phone sends it: `to_dict`, integers as decimal strings (a browser's
    JSON numbers lose nanoseconds past 2**53)."""
    d = e.to_dict()
    del d["reason"]  # the director's words on an adjustment stay at the desk
    for key in ("t_ns", "value"):
        if d[key] is not None:
            d[key] = str(d[key])
    return d


def _int(value: object, what: str) -> int:
    if not isinstance(value, str) or not WIRE_INT.fullmatch(value) or abs(int(value)) >= INT64:
        raise ClockRefused(Refusal.INPUT, f"{what} must be whole nanoseconds as text")
    return int(value)


def unwire(data: object, board: int) -> ClockEvent:
    """One event from the phone; anything malformed or of another board is refused."""
    if not isinstance(data, Mapping):
        raise ClockRefused(Refusal.INPUT, "a clock event must be an object")
    value = data.get("value")
    try:
        e = ClockEvent.from_dict(
            {
                "kind": data.get("kind"),
                "t_ns": _int(data.get("t_ns"), "t_ns"),
                "board": data.get("board"),
                "side": data.get("side"),
                "value": None if value is None else _int(value, "value"),
            }
        )
    except ClockError as exc:
        raise ClockRefused(Refusal.INPUT, str(exc)) from None
    if e.board != board:
        raise ClockRefused(Refusal.INPUT, f"this clock times board {board}, not {e.board}")
    return e


def board_events(session: Session, match_id: int, board: int) -> list[ClockEvent]:
    """The board's part of the match's clock log, in logged order."""
    c = models.ClockEvent
    rows = session.execute(
        select(c.kind, c.t_ns, c.board, c.side, c.value)
        .where(c.match_id == match_id, c.board == board)
        .order_by(c.seq)
    )
    return [ClockEvent.from_dict(row._asdict()) for row in rows]


def board_state(events: Sequence[ClockEvent], tc: TimeControl, board: int) -> BoardClock:
    """The board as its log leaves it (the domain's replay)."""
    return replay(events, tc).board(board)


def _check_board(board: object, match: MatchInfo) -> int:
    """The board of the match's format (RULES §10: an individual match has board 1 alone)."""
    boards = match.rules.event_format.boards
    if board not in boards or not isinstance(board, int):
        if len(boards) == 1:
            raise ClockRefused(Refusal.INPUT, f"this match has board {boards[0]} alone")
        raise ClockRefused(Refusal.INPUT, "a match has boards 1 and 2")
    return board


# what starts a game on a match clock, or resumes one: after the last recorded game, the next
# game is under way (RULES §10)
_UNDER_WAY = (EventKind.START.value, EventKind.RESUME.value, EventKind.FIRST_MOVER.value)


def between_games(session: Session, match: MatchInfo, board: int, phase: Phase) -> bool:
    """RULES §10: the board's match clock is paused (or about to be) by a recorded game and
    the next game has not started: no start, resume or first mover logged since that game
    (`Game.clock_seq` says where the log stood when it was recorded). Known to the desk, so
    every phone, and the desk's view, say it alike."""
    if not match.rules.event_format.match_clock or match.outcome.finished:
        return False
    if phase not in (Phase.PAUSED, Phase.RUNNING):
        return False
    g, c = models.Game, models.ClockEvent
    last = session.scalar(
        select(func.max(g.clock_seq)).where(g.match_id == match.id, g.board == board)
    )
    if last is None:
        return False
    since = session.scalar(
        select(func.count())
        .select_from(c)
        .where(c.match_id == match.id, c.board == board, c.seq >= last, c.kind.in_(_UNDER_WAY))
    )
    return not since


def _players(match: MatchInfo, board: int) -> dict[str, str]:
    b = match.team_b.player(board) if match.team_b else ""
    return {"A": match.team_a.player(board), "B": b}


def clock_view(session: Session, token: str, board: int) -> dict[str, Any]:
    """What a board's phone needs: the match and its players, the time control, the pair
    being played, whether this board's game of it is recorded, the board's stored log, and the
    start and the desk's commands (as on the push channel)."""
    match = finished_match_for_token(session, token)  # a finished match shows "match over"
    board = _check_board(board, match)
    if match.is_bye or match.forfeit_by is not None:
        raise ClockRefused(Refusal.STATE, "a bye or a forfeited match has no games to time")
    tc = match.clock
    events = board_events(session, match.id, board)
    outcome = match.outcome
    return {
        "match_id": match.id,
        "table": match.table,
        "round": match.round,
        "board": board,
        "teams": {"A": match.team_a.name, "B": match.team_b.name if match.team_b else ""},
        "players": _players(match, board),
        "time_control": {
            "base_seconds": tc.base_seconds,
            "increment_seconds": tc.increment_seconds,
            "mode": tc.mode.value,
            "label": tc.words(),
        },
        # RULES §10: one reserve for the whole match, paused between games, never reset; a
        # flag loses the match (the desk records it with `games.record_lost_on_time`)
        "match_clock": match.rules.event_format.match_clock,
        "pair": outcome.current_pair,
        "recorded": board in outcome.boards_done,
        "finished": outcome.finished,
        "score": {"A": outcome.final.a, "B": outcome.final.b},
        "between_games": between_games(session, match, board, board_state(events, tc, board).phase),
        "log": [wire(e) for e in events],
        **clock_channel(session, match.id),  # the start and the desk's commands
    }


def boards_between_games(session: Session, match_id: int, phases: Mapping[int, Phase]) -> set[int]:
    """The boards (of `phases`, as a clock restored them) between two games (RULES §10)."""
    match = get_match(session, match_id)
    return {n for n, phase in phases.items() if between_games(session, match, n, phase)}


@dataclass(frozen=True)
class Appended:
    """What a log request did: how many of the board's events the desk now has, the new ones
    and the board as the whole log leaves it."""

    match_id: int
    board: int
    stored: int
    new: tuple[ClockEvent, ...]
    state: BoardClock
    time_control: TimeControl
    between_games: bool = False  # RULES §10: paused by a recorded game, the next not started


@dataclass
class Replays:
    """The state each board's stored log leaves, kept between requests by the table service:
    an append then replays only its new events. Replaying the whole log every time cost
    2.7–7.7 s an append once a token holder had grown a board's log to 27,930 events, with
    every other match's phones waiting behind it. Keyed by the log's length and last event, so
    a log another station wrote, or a write rolled back, is replayed in full once."""

    _lock: threading.Lock = field(default_factory=threading.Lock)
    _states: dict[tuple[int, int], tuple[int, ClockEvent | None, TimeControl, MatchClockState]] = (
        field(default_factory=dict)
    )

    def get(
        self, match_id: int, board: int, count: int, last: ClockEvent | None, tc: TimeControl
    ) -> MatchClockState | None:
        with self._lock:
            kept = self._states.get((match_id, board))
        if kept is None or kept[:3] != (count, last, tc):
            return None
        return kept[3]

    def put(
        self,
        match_id: int,
        board: int,
        count: int,
        last: ClockEvent | None,
        tc: TimeControl,
        state: MatchClockState,
    ) -> None:
        with self._lock:
            self._states[(match_id, board)] = (count, last, tc, state)


def _board_rows(
    session: Session, match_id: int, board: int
) -> Select[str, int, int | None, str | None, int | None]:
    c = models.ClockEvent
    return select(c.kind, c.t_ns, c.board, c.side, c.value).where(
        c.match_id == match_id, c.board == board
    )


def _board_slice(
    session: Session, match_id: int, board: int, first: int, count: int
) -> list[ClockEvent]:
    """The board's events `first` .. `first + count - 1` in logged order."""
    c = models.ClockEvent
    rows = session.execute(
        _board_rows(session, match_id, board).order_by(c.seq).offset(first).limit(count)
    )
    return [ClockEvent.from_dict(row._asdict()) for row in rows]


def _kind_counts(session: Session, match_id: int, board: int) -> dict[str, int]:
    c = models.ClockEvent
    rows = session.execute(
        select(c.kind, func.count())
        .where(c.match_id == match_id, c.board == board)
        .group_by(c.kind)
    )
    return {kind: count for kind, count in rows}


def _last_event(session: Session, match_id: int, board: int, count: int) -> ClockEvent | None:
    return _board_slice(session, match_id, board, count - 1, 1)[0] if count else None


def replay_board(session: Session, token: str, board: object, replays: Replays) -> None:
    """Replay the board's stored log into `replays` unless they have it already (reads only).

    The table service calls it before it queues the phone's append: a long log's replay then
    runs beside the other matches' writes instead of ahead of them, and the append finds the
    state ready. A token, board or log the append would refuse is left for it to refuse."""
    try:
        match = finished_match_for_token(session, token)
        board = _check_board(board, match)
    except SlipRefused:
        return
    count = sum(_kind_counts(session, match.id, board).values())
    last, tc = _last_event(session, match.id, board, count), match.clock
    if replays.get(match.id, board, count, last, tc) is not None:
        return
    try:
        state = replay(board_events(session, match.id, board), tc)
    except ClockError:
        return
    replays.put(match.id, board, count, last, tc, state)


def append_board_log(
    session: Session,
    token: str,
    board: object,
    first: object,
    events: object,
    replays: Replays | None = None,
) -> Appended:
    """Store the board's events `first`, `first` + 1, ... (those not stored yet); idempotent
    by that number. A gap or a different past is refused with the count the desk has, and so
    is a log longer than the board's games can hold (`BOARD_EVENTS_PER_GAME`)."""
    # a finished match's phone still sends the stop that ended its clock (`_phone_may_log`)
    match = finished_match_for_token(session, token)
    board = _check_board(board, match)
    if not isinstance(first, int) or isinstance(first, bool) or first < 0:
        raise ClockRefused(Refusal.INPUT, "first must be the number of the first event sent")
    if not isinstance(events, list) or len(events) > MAX_BATCH:
        raise ClockRefused(Refusal.INPUT, f"events must be a list of at most {MAX_BATCH}")
    sent = [unwire(d, board) for d in events]
    kinds = _kind_counts(session, match.id, board)
    count = sum(kinds.values())
    if first > count:
        raise ClockRefused(Refusal.STATE, f"the desk has {count} events of this board", count)
    overlap = _board_slice(session, match.id, board, first, len(sent))
    if sent[: len(overlap)] != overlap:
        raise ClockRefused(
            Refusal.STATE, "this log differs from the one the desk has stored", count
        )
    new = sent[len(overlap) :]
    games = sum(1 for g in match.games if g.board == board)
    if count + len(new) > BOARD_EVENTS_PER_GAME * (games + 1):
        raise ClockRefused(
            Refusal.RULES,
            f"a board's clock log holds at most {BOARD_EVENTS_PER_GAME} events a game: "
            "the director can time this board at the desk",
            count,
        )
    _phone_may_log(session, match, board, kinds, new)
    tc = match.clock
    last = _last_event(session, match.id, board, count)
    state = replays.get(match.id, board, count, last, tc) if replays is not None else None
    adjusted = []  # each new adjustment and the time before it, for the audit
    try:
        if state is None:
            state = replay(board_events(session, match.id, board), tc)
        for e in new:
            if e.kind is EventKind.ADJUST:
                adjusted.append((e, state.board(board).side(e.who).remaining_ns))
            state = apply_event(state, e, tc)
    except ClockError as exc:
        raise ClockRefused(Refusal.RULES, f"the clock log does not add up: {exc}") from None
    append_events(session, match.id, next_seq(session, match.id), new)
    for e, before in adjusted:
        _audit_restore(session, match.id, e, before)
    if replays is not None:
        replays.put(match.id, board, count + len(new), new[-1] if new else last, tc, state)
    session.flush()  # the new events count for `between_games`
    return Appended(
        match.id,
        board,
        count + len(new),
        tuple(new),
        state.board(board),
        tc,
        between_games(session, match, board, state.board(board).phase),
    )


def _phone_may_log(
    session: Session,
    match: MatchInfo,
    board: int,
    kinds: Mapping[str, int],
    new: Sequence[ClockEvent],
) -> None:
    """Refuse what only the desk may do (RULES §7): an adjustment no restore of the desk asked
    for (each restore carried out once), a stop before the desk has the board's game, a reset
    before the board's game of a pair is over. A stop follows each game of the board the desk
    recorded (and the end of the match); a reset each game recorded before the next pair."""
    games = sum(1 for g in match.games if g.board == board)
    stops = kinds.get(EventKind.STOP.value, 0)
    resets = kinds.get(EventKind.RESET.value, 0)
    asked = _restores_asked(session, match.id, board)
    for e in new:
        if e.kind in PHONE_KINDS:
            continue
        if e.kind is EventKind.ADJUST:
            key = (e.who.value, e.value or 0)
            if asked.get(key, 0) < 1:
                raise ClockRefused(Refusal.RULES, NOT_A_PHONES.format(what="set a time"))
            asked[key] -= 1
        elif e.kind is EventKind.STOP:
            stops += 1
            if stops > games + (1 if match.outcome.finished else 0):
                raise ClockRefused(Refusal.RULES, NOT_A_PHONES.format(what="stop a game in play"))
        elif e.kind is EventKind.RESET:
            resets += 1
            if resets > games:
                raise ClockRefused(Refusal.RULES, NOT_A_PHONES.format(what="reset a game in play"))
        else:
            raise ClockRefused(Refusal.RULES, NOT_A_PHONES.format(what=f"log a {e.kind.value}"))


def _restores_asked(session: Session, match_id: int, board: int) -> dict[tuple[str, int], int]:
    """The desk's time restores for the board not yet carried out: (side, time) → how many."""
    c = models.ClockCommand
    rows = session.execute(
        select(c.side, c.value).where(
            c.match_id == match_id,
            c.kind == EventKind.ADJUST.value,
            c.board == board,
            c.audited.is_(False),
        )
    )
    asked: dict[tuple[str, int], int] = {}
    for side, value in rows:
        if side is not None and value is not None:
            asked[(side, value)] = asked.get((side, value), 0) + 1
    return asked


def _audit_restore(session: Session, match_id: int, e: ClockEvent, before_ns: int) -> None:
    """The audit's line for the director's time restore that this adjustment carried out (once,
    in the transaction that stores it): the clock log holds the adjustment, this keeps who,
    when and why (`_phone_may_log` refuses an adjustment no command asked for)."""
    c = models.ClockCommand
    command = session.scalars(
        select(c)
        .where(
            c.match_id == match_id,
            c.kind == EventKind.ADJUST.value,
            c.board == e.board,
            c.side == e.who.value,
            c.value == e.value,
            c.audited.is_(False),
        )
        .order_by(c.id)
        .limit(1)
    ).first()
    if command is None:
        return
    command.audited = True
    audit.log(
        session,
        ADJUST_ACTION,
        f"match {match_id} clock",
        {"board": e.board, "side": e.who.value, "remaining_ns": before_ns},
        {"board": e.board, "side": e.who.value, "remaining_ns": e.value, "t_ns": e.t_ns},
        command.reason,
    )


def _command_out(row: models.ClockCommand) -> dict[str, Any]:
    """A command as the phones get it on the push channel (integers as decimal strings)."""
    if row.kind == START:
        return {"id": row.ident, "pair": row.pair_number, "at_ns": str(row.at_ns)}
    return {
        "id": row.ident,
        "issued_ns": str(row.at_ns),
        "board": row.board,
        "kind": row.kind,
        "side": row.side,
        "value": None if row.value is None else str(row.value),
    }


def give_command(
    session: Session,
    match_id: int,
    kind: EventKind,
    board: int,
    side: Side | None = None,
    remaining_ns: int | None = None,
    reason: str = "",
    *,
    issued_ns: int,
) -> dict[str, Any]:
    """The director's pause, resume or time restore for one board's phone clock, stored until
    the phone's log shows it (RULES §7); `issued_ns` is the serving computer's monotonic now."""
    board = _check_board(board, get_match(session, match_id))
    if kind not in COMMAND_KINDS:
        raise ValueError(f"a phone clock takes no {kind} command")
    if (kind is EventKind.ADJUST) != (side is not None and remaining_ns is not None):
        raise ValueError("a time restore names a side and the new time, nothing else does")
    if kind is EventKind.ADJUST and not reason.strip():
        raise ClockRefused(Refusal.INPUT, "a time restore needs a reason for the audit log")
    row = models.ClockCommand(
        ident=secrets.token_hex(8),
        match_id=match_id,
        kind=kind.value,
        board=board,
        side=None if side is None else side.value,
        value=remaining_ns,
        at_ns=issued_ns,
        reason=reason.strip(),
        audited=False,
    )
    session.add(row)
    session.flush()
    return _command_out(row)


def schedule_start(session: Session, match_id: int, at_ns: int) -> dict[str, Any]:
    """Both boards of the match start at `at_ns` (each needs its first mover: `start_check`
    says why not, as a refusal)."""
    match_id, pair, why = start_check(session, match_id)
    if why is not None:
        raise ClockRefused(Refusal.STATE, why)
    row = models.ClockCommand(
        ident=secrets.token_hex(8),
        match_id=match_id,
        kind=START,
        pair_number=pair,
        at_ns=at_ns,
        reason="",
        audited=False,
    )
    session.add(row)
    session.flush()
    return _command_out(row)


def clock_channel(session: Session, match_id: int, now: datetime | None = None) -> dict[str, Any]:
    """What the match's phones are told (push channel `clock:MATCH`): the latest start and the
    latest commands, those given within `COMMAND_LIFE` of `now` (the wall clock)."""
    since = (now or utcnow()) - COMMAND_LIFE
    c = models.ClockCommand
    rows = session.scalars(
        select(c).where(c.match_id == match_id, c.created_at >= since).order_by(c.id.desc())
    ).all()
    start = next((r for r in rows if r.kind == START), None)
    commands = [r for r in rows if r.kind != START][:KEEP_COMMANDS]
    return {
        "start": None if start is None else _command_out(start),
        "commands": [_command_out(r) for r in reversed(commands)],
    }


def started_pairs(session: Session, match_ids: Sequence[int]) -> dict[int, int]:
    """Match id -> the pair its phone clocks were last started for (the desk's start)."""
    c = models.ClockCommand
    rows = session.execute(
        select(c.match_id, func.max(c.pair_number))
        .where(c.match_id.in_(match_ids), c.kind == START)
        .group_by(c.match_id)
    )
    return {match_id: pair for match_id, pair in rows if pair is not None}


def ready_to_start(session: Session, match_id: int) -> dict[int, Side | None]:
    """Each board's first mover if that board is waiting to start (READY), else None; the
    start is possible when both boards have one."""
    match = get_match(session, match_id)
    tc = match.clock
    out: dict[int, Side | None] = {}
    for n in match.rules.event_format.boards:  # an individual match has board 1 alone
        b = board_state(board_events(session, match_id, n), tc, n)
        out[n] = b.on_move if b.phase is Phase.READY else None
    return out


def start_check(session: Session, match_id: int) -> tuple[int, int, str | None]:
    """(match id, pair, why its boards cannot start now, or None)."""
    match = get_match(session, match_id)
    ready = ready_to_start(session, match.id)
    missing = [n for n, side in ready.items() if side is None]
    why = None
    if match.outcome.finished:
        why = "the match is over"
    elif missing:
        why = (
            f"board {missing[0]}'s clock is not waiting to start with its first mover set: "
            "tap the face of the player who moves first on that phone"
        )
    return match.id, match.outcome.current_pair, why


def match_of_token(session: Session, token: str) -> int:
    """The id of the token's match (a phone's Start)."""
    return match_for_token(session, token).id
