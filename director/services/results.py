"""Matches and their games: create, record, correct, undo, the live cube, re-score.

Every game goes through the domain's `score_match` before it is written: a game the rule
book forbids is refused with the reason, and nothing is written.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, replace
from typing import Any

from sqlalchemy import Row, func, select
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import flag_modified
from sqlalchemy.orm.exc import StaleDataError

from director.domain.cube import Cube, board_may_double
from director.domain.errors import ConflictError, UserError
from director.domain.event import MatchInfo
from director.domain.match import MatchOutcome, score_match
from director.domain.rules import End, PairingSystem, Side
from director.domain.scoring import Game
from director.services import audit
from director.services.events import event_row
from director.services.teams import team_map
from director.store import convert, models


def _match_row(session: Session, match_id: int) -> models.Match:
    row = session.get(models.Match, match_id)
    if row is None:
        raise UserError(f"there is no match {match_id}")
    return row


def _round_number(session: Session, row: models.Match) -> int | None:
    if row.round_id is None:
        return None
    rnd = session.get(models.Round, row.round_id)
    return rnd.number if rnd else None


def get_match(session: Session, match_id: int) -> MatchInfo:
    row = _match_row(session, match_id)
    teams = team_map(session, [t for t in (row.team_a_id, row.team_b_id) if t is not None])
    return convert.match_info(event_row(session), row, teams, _round_number(session, row))


def list_matches(session: Session, round_number: int | None = None) -> list[MatchInfo]:
    event = event_row(session)
    teams = team_map(session)
    query = select(models.Match, models.Round.number).outerjoin(models.Round)
    if round_number is not None:
        query = query.where(models.Round.number == round_number)
    query = query.order_by(models.Round.number, models.Match.table_no, models.Match.id)
    # games and pairs as plain rows: an ORM object per game costs more than the scoring
    games: dict[int, list[Row[Any]]] = defaultdict(list)
    pairs: dict[int, list[Row[Any]]] = defaultdict(list)
    for table, into, order in (
        (models.Game.__table__, games, models.Game.seq),
        (models.Pair.__table__, pairs, models.Pair.number),
    ):
        rows = select(table).join(models.Match).outerjoin(models.Round)
        if round_number is not None:
            rows = rows.where(models.Round.number == round_number)
        for item in session.execute(rows.order_by(order)):
            into[item.match_id].append(item)
    base = convert.event_options(event).match
    return [
        convert.match_info(
            event,
            row,
            teams,
            number,
            game_rows=games[row.id],
            pair_rows=pairs[row.id],
            base_rules=base,
        )  # fmt: skip
        for row, number in session.execute(query)
    ]


def new_match_row(
    session: Session,
    team_a_id: int,
    team_b_id: int | None,
    round_id: int | None = None,
    table: int = 0,
    *,
    knockout: bool | None = None,
) -> models.Match:
    """Insert a match row (no checks on the teams: the caller has them)."""
    event = event_row(session)
    if knockout is None:
        knockout = event.pairing_system == PairingSystem.KNOCKOUT.value
    row = models.Match(
        round_id=round_id,
        table_no=table,
        team_a_id=team_a_id,
        team_b_id=team_b_id,
        winner_required=event.winner_required or knockout,  # rule 4′ is forced in knockout
        result="bye" if team_b_id is None else "unfinished",
    )
    session.add(row)
    return row


def create_match(
    session: Session,
    team_a_id: int,
    team_b_id: int | None,
    round_id: int | None = None,
    table: int = 0,
) -> MatchInfo:
    teams = team_map(session)
    for team_id in (team_a_id, team_b_id):
        if team_id is not None and team_id not in teams:
            raise UserError(f"there is no team with id {team_id}")
    if team_a_id == team_b_id:
        raise UserError("a team cannot play itself")
    row = new_match_row(session, team_a_id, team_b_id, round_id, table)
    session.flush()
    return get_match(session, row.id)


CHANGED_ELSEWHERE = (
    "this match was changed on another station since you opened it: "
    "the view is refreshed, check it and enter the change again"
)


def _check_version(row: models.Match, version: int | None) -> None:
    if version is not None and row.version != version:
        raise ConflictError(CHANGED_ELSEWHERE)


def _claim(session: Session, row: models.Match) -> None:
    """Bump the match's version now, before its games change.

    The UPDATE ... WHERE version = (as read) makes every change to a match's games a change
    of the match row: of two stations that read the same version, the second one's UPDATE
    waits for the first to commit, then matches no row, and it is refused instead of adding
    a game to a match it has not seen (PostgreSQL's row lock; SQLite has one writer anyway).
    """
    flag_modified(row, "result")
    try:
        session.flush()
    except StaleDataError:
        raise ConflictError(CHANGED_ELSEWHERE) from None


def _scoreline(
    outcome: MatchOutcome, bye: bool, forfeit_by: Side | None
) -> tuple[int, int, int, int, str]:
    """What a match row stores: game points, final (adjusted) points and the result."""
    if bye:
        result = "bye"
    elif forfeit_by is not None:
        result = forfeit_by.other.value
    else:
        result = outcome.result.value
    return (outcome.score.a, outcome.score.b, outcome.final.a, outcome.final.b, result)


def _store_outcome(row: models.Match, outcome: MatchOutcome) -> None:
    forfeit = Side(row.forfeit_by) if row.forfeit_by else None
    line = _scoreline(outcome, row.team_b_id is None, forfeit)
    row.score_a, row.score_b, row.final_a, row.final_b, row.result = line
    row.pip_a, row.pip_b = outcome.pip_points.a, outcome.pip_points.b


def _pair_row(session: Session, row: models.Match, number: int) -> models.Pair:
    for pair in row.pairs:
        if pair.number == number:
            return pair
    pair = models.Pair(number=number)
    row.pairs.append(pair)
    session.flush()
    return pair


def _check_outcome(info: MatchInfo, games: tuple[Game, ...]) -> MatchOutcome:
    outcome = score_match(info.rules, games, info.names)
    if outcome.problems:
        raise UserError("; ".join(str(p) for p in outcome.problems))
    return outcome


def record_game(
    session: Session,
    match_id: int,
    game: Game,
    *,
    version: int | None = None,
    clock_ns: tuple[int | None, int | None] = (None, None),
) -> MatchInfo:
    """Record the next finished game of a match. `game.pair` is taken from the match."""
    row = _match_row(session, match_id)
    _check_version(row, version)
    _claim(session, row)  # before reading the games: they cannot change under us after it
    info = get_match(session, match_id)
    if info.is_bye or info.forfeit_by is not None:
        raise UserError("this match is a bye or a forfeit: it has no games")
    if info.outcome.finished:
        raise UserError(f"the match is over ({info.outcome.result}): no more games")
    game = replace(game, pair=info.outcome.current_pair)
    if game.used_cube:
        # RULES §4 live: an offer on the other board made it the pair's cube board
        allowed, reason = board_may_double(
            info.outcome.cube_rule, game.board, info.cubes.cube_board
        )
        if not allowed:
            raise UserError(f"board {game.board} cannot have used the cube: {reason}")
    outcome = _check_outcome(info, (*info.games, game))
    pair = _pair_row(session, row, game.pair)
    seq = (
        session.scalar(select(func.max(models.Game.seq)).where(models.Game.match_id == row.id)) or 0
    ) + 1
    game_row = models.Game(pair_id=pair.id, seq=seq)
    convert.write_game(game_row, game)
    game_row.clock_a_ns, game_row.clock_b_ns = clock_ns
    row.games.append(game_row)
    if game.used_cube and pair.cube_board is None and info.rules.scoring.has_cube:
        pair.cube_board = game.board
    convert.write_cube(pair, game.board, Cube())
    _store_outcome(row, outcome)
    session.flush()
    return get_match(session, match_id)


def _game_row(session: Session, game_id: int) -> models.Game:
    row = session.get(models.Game, game_id)
    if row is None:
        raise UserError(f"there is no game {game_id}")
    return row


def correct_game(
    session: Session, game_id: int, corrected: Game, reason: str, *, version: int | None = None
) -> MatchInfo:
    """Replace a recorded game; the whole match is re-checked and the change audited."""
    if not reason.strip():
        raise UserError("a correction needs a reason for the audit log")
    found = session.get(models.Game, game_id)
    if found is None and version is not None:
        raise ConflictError(CHANGED_ELSEWHERE)  # it was on screen: another station undid it
    row = _match_row(session, _game_row(session, game_id).match_id)
    _check_version(row, version)
    _claim(session, row)
    # read the game again now that the match is ours: another station may have changed it
    game_row = session.get(models.Game, game_id, populate_existing=True)
    if game_row is None:
        raise ConflictError(CHANGED_ELSEWHERE)
    info = get_match(session, row.id)
    before = convert.game_value(game_row)
    corrected = replace(corrected, pair=before.pair, board=before.board)
    games = tuple(
        corrected if gid == game_id else g for gid, g in zip(info.game_ids, info.games, strict=True)
    )
    outcome = _check_outcome(info, games)
    convert.write_game(game_row, corrected)
    _store_outcome(row, outcome)
    audit.log(
        session,
        "correct game",
        f"match {row.id} game {game_id}",
        asdict(before),
        asdict(corrected),
        reason.strip(),
    )
    session.flush()
    return get_match(session, row.id)


def undo_last_game(
    session: Session, match_id: int, reason: str = "undo", *, version: int | None = None
) -> MatchInfo:
    row = _match_row(session, match_id)
    _check_version(row, version)
    if not row.games:
        raise UserError("this match has no game to undo")
    _claim(session, row)
    last = row.games[-1]
    before = convert.game_value(last)
    row.games.remove(last)
    session.flush()
    info = get_match(session, match_id)
    pair = next((p for p in row.pairs if p.number == before.pair), None)
    if pair is not None and not any(g.pair == before.pair for g in info.games):
        row.pairs.remove(pair)
    elif pair is not None and pair.cube_board == before.board:
        pair.cube_board = None
    _store_outcome(row, info.outcome)
    audit.log(session, "undo game", f"match {match_id}", asdict(before), None, reason)
    session.flush()
    return get_match(session, match_id)


def cube_action(
    session: Session,
    match_id: int,
    board: int,
    action: str,
    side: Side | None = None,
    *,
    version: int | None = None,
) -> MatchInfo:
    """The live cube at the desk: `offer` (by side), `take`, `withdraw`.

    A pass ends the game: the desk records it with `pass_game`.
    """
    row = _match_row(session, match_id)
    _check_version(row, version)
    _claim(session, row)  # two desks on one cube: the second is told, not silently overruled
    info = get_match(session, match_id)
    cube = info.cubes.of(board)
    if action == "offer":
        if side is None:
            raise UserError("an offer needs the doubling side")
        allowed, reason = info.may_double(board)
        if not allowed:
            raise UserError(reason)
        cube = cube.offer(side)
    elif action == "take":
        cube = cube.take()
    elif action == "withdraw":
        cube = cube.withdraw()
    else:
        raise UserError(f"unknown cube action {action!r}")
    pair = _pair_row(session, row, info.outcome.current_pair)
    convert.write_cube(pair, board, cube)
    if action == "offer" and pair.cube_board is None:
        pair.cube_board = board  # RULES §4: the first board on which a double is offered
    session.flush()
    return get_match(session, match_id)


def pass_game(match: MatchInfo, board: int) -> Game:
    """The game a pass ends: the doubler wins the cube value before the offer (RULES §2)."""
    winner, value = match.cubes.of(board).passed()
    return Game(
        pair=match.outcome.current_pair, board=board, winner=winner, end=End.PASS, cube=value
    )


def set_forfeit(session: Session, match_id: int, absent: Side | None, reason: str) -> MatchInfo:
    """A team that did not show loses 0-0 (None clears it)."""
    row = _match_row(session, match_id)
    if row.games and absent is not None:
        raise UserError("games are recorded in this match: it cannot be a forfeit")
    row.forfeit_by = absent.value if absent else None
    info = get_match(session, match_id)
    _store_outcome(row, info.outcome)
    audit.log(session, "forfeit", f"match {match_id}", None, row.forfeit_by, reason)
    session.flush()
    return get_match(session, match_id)


def _stored(row: models.Match) -> tuple[int, int, int, int, str]:
    return (row.score_a, row.score_b, row.final_a, row.final_b, row.result)


def rescore_match(session: Session, match_id: int) -> tuple[MatchInfo, list[str]]:
    """Re-derive the stored scoreline from the games; return the differences it fixed."""
    row = _match_row(session, match_id)
    info = get_match(session, match_id)
    stored = _stored(row)
    _store_outcome(row, info.outcome)
    session.flush()
    fresh = _stored(row)
    diffs = (
        [f"match {match_id}: stored {stored} but the games give {fresh}"] if stored != fresh else []
    )
    return get_match(session, match_id), diffs


def stored_differences(session: Session) -> list[str]:
    """Every match whose stored scoreline differs from its games, or whose games break a rule."""
    out = []
    for info in list_matches(session):
        stored = _stored(_match_row(session, info.id))
        expected = _scoreline(info.outcome, info.is_bye, info.forfeit_by)
        if stored != expected:
            names = f"{info.names[0]} v {info.names[1]}"
            out.append(f"match {info.id} ({names}): stored {stored}, the games give {expected}")
        out.extend(f"match {info.id}: {p}" for p in info.outcome.problems)
    return out


def record_games(session: Session, match_id: int, games: Sequence[Game]) -> MatchInfo:
    """Record several finished games at once (an import, a simulation), validated as a whole.

    The games keep their own pair numbers and follow the match's recorded games; a game
    abandoned under rule 4′ is kept (it scores nothing), so a match record round-trips.
    """
    row = _match_row(session, match_id)
    _claim(session, row)
    info = get_match(session, match_id)
    if info.is_bye or info.forfeit_by is not None:
        raise UserError("this match is a bye or a forfeit: it has no games")
    outcome = _check_outcome(info, (*info.games, *games))
    seq = max((g.seq for g in row.games), default=0)
    for game in games:
        pair = _pair_row(session, row, game.pair)
        seq += 1
        game_row = models.Game(pair_id=pair.id, seq=seq)
        convert.write_game(game_row, game)
        row.games.append(game_row)
        if game.used_cube and pair.cube_board is None and info.rules.scoring.has_cube:
            pair.cube_board = game.board
    _store_outcome(row, outcome)
    session.flush()
    return get_match(session, match_id)
