"""Result slips from the players' phones: match tokens, slips, confirmation, the desk's decision.

Each team of a match has its own QR code, carrying a random token (`secrets.token_urlsafe`,
192 bits) that lets a phone send result slips for that match only, as that team, while its
round is the event's current round and not finished; the director can revoke a table's
tokens (new ones are issued). A slip is one finished game as the players saw it. The other
team confirms it with its own token (the side is the token's, never the phone's word); then
it waits at the desk as a **pending result** until the director accepts it (or at once, when
the event auto-accepts confirmed slips).

Every check a slip meets is the desk's own: on submit and confirm the game is checked with
`games.check_game`, what `record_game` checks before it writes (accepting it records it with
`record_game`), so a slip is refused with the same words as the same game typed at the desk.
A slip can only add the next game of its own match: never another match, a pairing or a
setting.
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass
from enum import StrEnum

from sqlalchemy import select
from sqlalchemy.orm import Session

from director.domain.changes import Area, Changed, Changes
from director.domain.errors import UserError
from director.domain.event import MatchInfo
from director.domain.records import _parse_game, game_json
from director.domain.rules import Side
from director.domain.scoring import Game
from director.services.games import check_game, record_game
from director.services.matches import get_match
from director.store import models
from director.store.engine import savepoint
from director.store.models import utcnow

TOKEN_BYTES = 24  # 192 bits: far beyond guessing at any rate a server answers
ID_PATTERN = re.compile(r"[0-9a-f]{32}")  # a phone's slip and device ids: 128 random bits, hex
AUTO_ACCEPT_KEY = "slips.auto_accept"
REASON_LIMIT = 200
NUMBER_LIMIT = 10_000  # beyond any pair, cube, checker or pip count of a game


class SlipStatus(StrEnum):
    UNCONFIRMED = "unconfirmed"  # waiting for the other team
    PENDING = "pending"  # confirmed: waiting for the director
    ACCEPTED = "accepted"  # recorded as a game of the match
    REFUSED = "refused"  # the director or the rules refused it
    DISPUTED = "disputed"  # the other team said it is wrong
    WITHDRAWN = "withdrawn"  # the team that entered it took it back

    @property
    def open(self) -> bool:
        return self in (SlipStatus.UNCONFIRMED, SlipStatus.PENDING)


class Refusal(StrEnum):
    """Why a slip request was refused: the web layer answers by code, never by the words."""

    TOKEN = "token"  # no such token, revoked, or its round is over
    INPUT = "input"  # malformed request (ids, side, fields)
    RULES = "rules"  # the game breaks the rule book, in the desk's words
    STATE = "state"  # the slip or the match is not in a state for this


class SlipRefused(UserError):
    def __init__(self, code: Refusal, message: str) -> None:
        super().__init__(message)
        self.code = code


BAD_TOKEN = (
    "this slip link is not valid: it was replaced, or its round is over; "
    "scan the QR code at your table again or ask the director"
)


@dataclass(frozen=True)
class SlipInfo:
    """A slip as the desk and the phones see it: its match and its game, as stored."""

    id: int
    uid: str
    match: MatchInfo
    game: Game  # its pair and board are the slip's
    entered_side: Side
    status: SlipStatus
    reason: str

    @property
    def match_id(self) -> int:
        return self.match.id

    @property
    def board(self) -> int:
        return self.game.board

    def describe(self) -> str:
        """One line for the desk: where, who won, how."""
        g = self.game
        winner = self.match.names[0] if g.winner is Side.A else self.match.names[1]
        how = [g.end.value]
        if g.level is not None:
            how.append(g.level.value)
        if g.agreed_level is not None:
            how.append(f"agreed {g.agreed_level.value}")
        how.append(f"cube {g.cube}")
        return (
            f"table {self.match.table}, {self.match.rules.event_format.where(g.pair, g.board)}: "
            f"{winner} ({g.winner.value}) wins, {', '.join(how)}"
        )

    def public(self) -> dict[str, object]:
        """What the phones are told about a slip of their match."""
        return {
            "uid": self.uid,
            "pair": self.game.pair,
            "board": self.board,
            "game": game_json(self.game),
            "entered_by": self.entered_side.value,
            "status": self.status.value,
            "reason": self.reason,
            "description": self.describe(),
        }


# --- tokens ------------------------------------------------------------------------------


def _live_token_row(session: Session, match_id: int, side: Side) -> models.SlipToken | None:
    """The team's newest token not revoked (a token of an older file names no team: dead)."""
    t = models.SlipToken
    return session.scalars(
        select(t)
        .where(t.match_id == match_id, t.side == side.value, t.revoked_at.is_(None))
        .order_by(t.id.desc())
    ).first()


def _current_round(session: Session) -> models.Round | None:
    return session.scalars(select(models.Round).order_by(models.Round.number.desc())).first()


def _round_open(session: Session, round_id: int | None) -> bool:
    """A token lives while its match's round is the current round and not finished (one
    statement: every slip request asks)."""
    if round_id is None:
        return False
    r, m = models.Round, models.Match
    current = select(r.id).order_by(r.number.desc()).limit(1).scalar_subquery()
    unfinished = select(m.id).where(
        m.round_id == round_id, m.round_id == current, m.result == "unfinished"
    )
    return bool(session.scalar(select(unfinished.exists())))


TeamTokens = dict[Side, str]  # a match's live token of each team


def token_for(session: Session, match_id: int, side: Side) -> str | None:
    """The team's live token for the match, issued now if it has none; None once its round
    is over or for a bye (nobody sends a slip for it)."""
    row = session.get(models.Match, match_id)
    if row is None:
        raise UserError(f"there is no match {match_id}")
    if row.team_b_id is None or not _round_open(session, row.round_id):
        return None
    live = _live_token_row(session, match_id, side)
    if live is None:
        token = secrets.token_urlsafe(TOKEN_BYTES)
        live = models.SlipToken(match_id=match_id, side=side.value, token=token)
        session.add(live)
        session.flush()
    return live.token


def team_tokens(session: Session, match_id: int) -> TeamTokens | None:
    """Both teams' live tokens, issued now where missing (None: the match takes no slips)."""
    tokens = {side: token_for(session, match_id, side) for side in Side}
    out = {side: t for side, t in tokens.items() if t is not None}
    return out if len(out) == len(tokens) else None


def live_tokens(session: Session, match_id: int) -> TeamTokens | None:
    """Both teams' tokens if issued and the round still takes slips; reads only (a report
    printed while the app holds the event prints the codes the app issued)."""
    row = session.get(models.Match, match_id)
    if row is None or row.team_b_id is None or not _round_open(session, row.round_id):
        return None
    rows = {side: _live_token_row(session, match_id, side) for side in Side}
    out = {side: r.token for side, r in rows.items() if r is not None}
    return out if len(out) == len(rows) else None


def round_tokens(session: Session) -> dict[int, TeamTokens]:
    """Match id -> both teams' live tokens, for every match of the current round that can take
    slips."""
    current = _current_round(session)
    if current is None:
        return {}
    ids = session.scalars(select(models.Match.id).where(models.Match.round_id == current.id))
    out = {}
    for match_id in ids:
        tokens = team_tokens(session, match_id)
        if tokens is not None:
            out[match_id] = tokens
    return out


def round_matches(session: Session) -> tuple[dict[int, TeamTokens], list[MatchInfo]]:
    """The current round's live tokens (issued now for new tables) and their matches."""
    tokens = round_tokens(session)
    return tokens, [get_match(session, m) for m in tokens]


def revoke_token(session: Session, match_id: int) -> Changed[TeamTokens | None]:
    """Lock out every phone holding the table's QR codes (both teams'); return the new tokens
    (None: the round is over)."""
    for side in Side:
        live = _live_token_row(session, match_id, side)
        if live is not None:
            live.revoked_at = utcnow()
    session.flush()
    return Changed(team_tokens(session, match_id), Changes.of(Area.SLIPS))


def _token_rows(session: Session, token: str) -> tuple[models.SlipToken, models.Match]:
    """The token's row and its match's, or `SlipRefused(TOKEN)`. A write keeps the match's
    row while it runs: the session holds a row only while something refers to it, and the
    match read again (with its games and pairs) at each step cost a slip write four
    statements more."""
    if not isinstance(token, str) or len(token) > 64:
        raise SlipRefused(Refusal.TOKEN, BAD_TOKEN)
    row = session.scalar(select(models.SlipToken).where(models.SlipToken.token == token))
    if row is None or row.revoked_at is not None or row.side is None:
        raise SlipRefused(Refusal.TOKEN, BAD_TOKEN)
    match = session.get(models.Match, row.match_id)
    if match is None or not _round_open(session, match.round_id):
        raise SlipRefused(Refusal.TOKEN, BAD_TOKEN)
    return row, match


def _token_row(session: Session, token: str) -> models.SlipToken:
    return _token_rows(session, token)[0]


def match_for_token(session: Session, token: str) -> MatchInfo:
    """The one match a token opens, or `SlipRefused(TOKEN)`."""
    return get_match(session, _token_row(session, token).match_id)


def finished_match_for_token(session: Session, token: str) -> MatchInfo:
    """The match a token opens, or, once its round is over, the match it opened if that match
    is finished (its phone clock then shows "match over": RULES §10); else `SlipRefused`.
    Slips never take this way: a finished round's tokens send nothing."""
    try:
        return match_for_token(session, token)
    except SlipRefused:
        if not isinstance(token, str) or len(token) > 64:
            raise
        row = session.scalar(select(models.SlipToken).where(models.SlipToken.token == token))
        if row is None or row.revoked_at is not None or row.side is None:
            raise
        match = get_match(session, row.match_id)
        if not match.outcome.finished:
            raise
        return match


def token_is_live(session: Session, token: str) -> bool:
    """Whether the token opens a match now (reads only)."""
    try:
        _token_row(session, token)
    except SlipRefused:
        return False
    return True


def token_match(session: Session, token: str) -> tuple[int, Side]:
    """The match a token opens and its team, or `SlipRefused(TOKEN)` (reads only)."""
    row = _token_row(session, token)
    return row.match_id, Side(str(row.side))


def side_of_token(session: Session, token: str) -> Side:
    """The team a token belongs to, or `SlipRefused(TOKEN)`."""
    return Side(str(_token_row(session, token).side))


# --- slips -------------------------------------------------------------------------------


def _check_id(value: object, what: str) -> str:
    if not isinstance(value, str) or not ID_PATTERN.fullmatch(value):
        raise SlipRefused(Refusal.INPUT, f"{what} must be 32 hexadecimal digits")
    return value


def _info(row: models.Slip, match: MatchInfo) -> SlipInfo:
    game = _game_of(json.loads(row.game))
    status = SlipStatus(row.status)
    return SlipInfo(row.id, row.uid, match, game, Side(row.entered_side), status, row.reason)


def _game_of(data: object) -> Game:
    """A match-record game (FORMATS.md) with the record's strict types and the same words."""
    problems: list[str] = []
    game = _parse_game(data, 1, problems)
    if problems or game is None:
        raise SlipRefused(Refusal.INPUT, "; ".join(problems) or "the game is incomplete")
    for key, value in game_json(game).items():
        if isinstance(value, int) and not 0 <= value < NUMBER_LIMIT:  # a pair of 2**70
            raise SlipRefused(Refusal.INPUT, f"{key} must be a whole number from 0 to 9999")
    return game


def _check(match: MatchInfo, game: Game) -> None:
    """The desk's checks of the game as the match's next (`games.check_game`, what
    `record_game` checks before it writes), in its words; nothing is written."""
    _check_current(match, game)
    try:
        check_game(match, game)
    except UserError as refusal:
        raise SlipRefused(Refusal.RULES, str(refusal)) from None


def _check_current(match: MatchInfo, game: Game) -> None:
    """A slip is the next game of its board: the pair being played, a board not yet done."""
    current = match.outcome.current_pair
    if match.outcome.finished:
        raise SlipRefused(Refusal.STATE, f"the match is over ({match.outcome.result})")
    if game.pair > current:
        raise SlipRefused(
            Refusal.STATE,
            f"pair {game.pair} is not being played yet: the match is at pair {current}",
        )
    if game.pair != current or game.board in match.outcome.boards_done:
        raise SlipRefused(
            Refusal.STATE,
            f"board {game.board}'s game of pair {game.pair} is already recorded at the desk "
            f"(the match is at pair {current})",
        )


def _slip_row(session: Session, uid: str) -> models.Slip | None:
    return session.scalar(select(models.Slip).where(models.Slip.uid == uid))


def submit_slip(
    session: Session, token: str, uid: object, device: object, game: object
) -> Changed[SlipInfo]:
    """A team enters one finished game (its token says which team); the same `uid` again
    returns the stored slip."""
    token_row, held = _token_rows(session, token)
    uid = _check_id(uid, "the slip id")
    device = _check_id(device, "the device id")
    entered = Side(str(token_row.side))
    match = get_match(session, held.id)
    existing = _slip_row(session, uid)
    if existing is not None:
        if existing.match_id != match.id:
            raise SlipRefused(Refusal.INPUT, "this slip id belongs to another match")
        return Changed(_info(existing, match), Changes())  # a retry: idempotent by slip id
    value = _game_of(game)
    _check_current(match, value)
    _refuse_if_open(session, match, value)
    _check(match, value)
    row = models.Slip(
        uid=uid,
        match_id=match.id,
        token_id=token_row.id,
        pair_number=value.pair,
        board=value.board,
        game=json.dumps(game_json(value)),
        entered_side=entered.value,
        entered_device=device,
        status=SlipStatus.UNCONFIRMED.value,
        reason="",
    )
    session.add(row)
    session.flush()
    return Changed(_info(row, match), Changes.of(Area.SLIPS))


def _refuse_if_open(session: Session, match: MatchInfo, game: Game) -> None:
    waiting = session.scalar(
        select(models.Slip).where(
            models.Slip.match_id == match.id,
            models.Slip.pair_number == game.pair,
            models.Slip.board == game.board,
            models.Slip.status.in_([s.value for s in SlipStatus if s.open]),
        )
    )
    if waiting is not None:
        raise SlipRefused(
            Refusal.STATE,
            f"a slip for board {game.board} of pair {game.pair} is already "
            f"{SlipStatus(waiting.status).value}: confirm or dispute that one first",
        )


def answer_slip(
    session: Session,
    token: str,
    uid: object,
    device: object,
    agree: bool,
    reason: object = "",
) -> Changed[SlipInfo]:
    """The other team confirms (agree) or disputes a slip, with its own token; the team that
    entered it may withdraw it."""
    token_row, held = _token_rows(session, token)
    uid = _check_id(uid, "the slip id")
    device = _check_id(device, "the device id")
    answering = Side(str(token_row.side))
    row = _slip_row(session, uid)
    if row is None or row.match_id != held.id:
        raise SlipRefused(Refusal.STATE, "there is no such slip for this match")
    match = get_match(session, held.id)
    status = SlipStatus(row.status)
    own_team = answering.value == row.entered_side
    confirmed = status in (SlipStatus.PENDING, SlipStatus.ACCEPTED)
    if agree and confirmed and row.confirmed_device == device:
        # a retry of the same confirmation (its answer was lost), also once auto-accepted
        return Changed(_info(row, match), Changes())
    if status is not SlipStatus.UNCONFIRMED:
        raise SlipRefused(Refusal.STATE, f"this slip is already {status.value}")
    if agree:
        if own_team or device == row.entered_device:
            raise SlipRefused(
                Refusal.STATE,
                "the other team confirms a slip, on their own phone with their own QR code",
            )
        game = _game_of(json.loads(row.game))
        accept_now = auto_accept(session)
        if accept_now:  # accepting records it with the same checks: no rehearsal first
            _check_current(match, game)
        else:
            _check(match, game)
        row.status = SlipStatus.PENDING.value
        row.confirmed_device = device
        session.flush()
        if accept_now:
            match = _auto_accept(session, row, match) or match
    else:
        text = str(reason).strip()[:REASON_LIMIT] if isinstance(reason, str) else ""
        row.status = (SlipStatus.WITHDRAWN if own_team else SlipStatus.DISPUTED).value
        row.reason = text
        row.decided_at = utcnow()
        session.flush()
    changes = Changes.of(Area.SLIPS)
    if row.status == SlipStatus.ACCEPTED.value:  # auto-accepted: the result is in
        changes |= Changes.match(row.match_id)
    return Changed(_info(row, match), changes)


def _auto_accept(session: Session, row: models.Slip, match: MatchInfo) -> MatchInfo | None:
    """Record a confirmed slip now (`match` as just read, in this transaction), and return the
    match with it; one the rules refuse stays pending with the reason (None)."""
    nested = savepoint(session)
    try:
        recorded = _accept(session, row, match)
    except UserError as refusal:
        nested.rollback()
        row.reason = str(refusal)
        session.flush()
        return None
    nested.commit()
    return recorded


def slips_of_match(session: Session, token: str) -> tuple[MatchInfo, list[SlipInfo]]:
    """What a phone at the table sees: the match and its slips, newest first."""
    match = match_for_token(session, token)
    rows = session.scalars(
        select(models.Slip).where(models.Slip.match_id == match.id).order_by(models.Slip.id.desc())
    )
    return match, [_info(r, match) for r in rows]


def pending_slips(session: Session) -> list[SlipInfo]:
    """Confirmed slips waiting for the director, oldest first (the order they are accepted)."""
    rows = session.scalars(
        select(models.Slip)
        .where(models.Slip.status == SlipStatus.PENDING.value)
        .order_by(models.Slip.id)
    ).all()
    matches: dict[int, MatchInfo] = {}
    out = []
    for row in rows:
        if row.match_id not in matches:
            matches[row.match_id] = get_match(session, row.match_id)
        out.append(_info(row, matches[row.match_id]))
    return out


def _pending_row(session: Session, slip_id: int) -> models.Slip:
    row = session.get(models.Slip, slip_id)
    if row is None:
        raise SlipRefused(Refusal.STATE, f"there is no slip {slip_id}")
    if row.status != SlipStatus.PENDING.value:
        raise SlipRefused(Refusal.STATE, f"this slip is already {row.status}")
    return row


def accept_slip(session: Session, slip_id: int) -> Changed[MatchInfo]:
    """The director accepts a pending result: it is recorded exactly as typed at the desk."""
    row = _pending_row(session, slip_id)
    recorded = _accept(session, row, get_match(session, row.match_id))
    return Changed(recorded, Changes.of(Area.SLIPS) | Changes.match(row.match_id))


def _accept(session: Session, row: models.Slip, match: MatchInfo) -> MatchInfo:
    game = _game_of(json.loads(row.game))
    try:
        _check_current(match, game)
    except SlipRefused as refusal:
        raise UserError(str(refusal)) from None
    recorded = record_game(session, row.match_id, game, read=match).value
    row.status = SlipStatus.ACCEPTED.value
    row.game_id = recorded.game_ids[-1]
    row.reason = ""
    row.decided_at = utcnow()
    session.flush()
    return recorded


def refuse_slip(session: Session, slip_id: int, reason: str) -> Changed[None]:
    """The director refuses a pending result; the phones show the reason."""
    row = _pending_row(session, slip_id)
    row.status = SlipStatus.REFUSED.value
    row.reason = reason.strip()[:REASON_LIMIT] or "refused at the desk"
    row.decided_at = utcnow()
    session.flush()
    return Changed(None, Changes.of(Area.SLIPS))


def auto_accept(session: Session) -> bool:
    """The event option: confirmed slips are recorded without waiting for the director."""
    row = session.get(models.Meta, AUTO_ACCEPT_KEY)
    return row is not None and row.value == "1"


def set_auto_accept(session: Session, on: bool) -> Changed[None]:
    session.merge(models.Meta(key=AUTO_ACCEPT_KEY, value="1" if on else "0"))
    session.flush()
    return Changed(None, Changes.of(Area.SLIPS))
