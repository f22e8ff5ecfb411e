"""Matches as values: read one or a round's, create one, keep its stored scoreline true.

The stored scoreline (points, adjusted totals, result) is a cache of what `score_match` gives
for the match's games; `stored_differences` and `rescore_match` check and repair it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from typing import Any

from sqlalchemy import Row, select
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import flag_modified
from sqlalchemy.orm.exc import StaleDataError

from director.domain.changes import Area, Changed, Changes
from director.domain.errors import ConflictError, UserError
from director.domain.event import MatchInfo
from director.domain.match import MatchOutcome
from director.domain.match_reserve import match_clock
from director.domain.rules import PairingSystem, Side, rules_for_match
from director.services.events import event_row
from director.services.teams import team_map
from director.store import convert, models
from director.store.values import StoredResult

CHANGED_ELSEWHERE = (
    "this match was changed on another station since you opened it: "
    "the view is refreshed, check it and enter the change again"
)


def match_row(session: Session, match_id: int) -> models.Match:
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
    row = match_row(session, match_id)
    teams = team_map(session, [t for t in (row.team_a_id, row.team_b_id) if t is not None])
    return convert.match_info(row, teams, _round_number(session, row))


def list_matches(session: Session, round_number: int | None = None) -> list[MatchInfo]:
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
    return [
        convert.match_info(
            row,
            teams,
            number,
            game_rows=games[row.id],
            pair_rows=pairs[row.id],
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
    place: tuple[str, int, int] | None = None,
    length: int | None = None,
) -> models.Match:
    """Insert a match row (no checks on the teams: the caller has them); a knockout match
    with its `place` (bracket, round in it, slot) and its bracket round's `length`."""
    event = event_row(session)
    if knockout is None:
        knockout = event.pairing_system == PairingSystem.KNOCKOUT.value
    options = convert.event_options(event)
    row = models.Match(
        round_id=round_id,
        table_no=table,
        team_a_id=team_a_id,
        team_b_id=team_b_id,
        result=StoredResult.BYE.value if team_b_id is None else StoredResult.UNFINISHED.value,
    )
    if place is not None:
        row.bracket, row.bracket_round, row.slot = place
    rules = rules_for_match(options, knockout=knockout)
    if length is not None:
        rules = replace(rules, match_length=length)
    convert.write_match_rules(row, rules, match_clock(rules, options.time_control))
    session.add(row)
    return row


def create_match(
    session: Session,
    team_a_id: int,
    team_b_id: int | None,
    round_id: int | None = None,
    table: int = 0,
) -> Changed[MatchInfo]:
    teams = team_map(session)
    for team_id in (team_a_id, team_b_id):
        if team_id is not None and team_id not in teams:
            raise UserError(f"there is no team with id {team_id}")
    if team_a_id == team_b_id:
        raise UserError("a team cannot play itself")
    row = new_match_row(session, team_a_id, team_b_id, round_id, table)
    session.flush()
    return Changed(get_match(session, row.id), Changes.of(Area.ROUNDS))


def check_version(row: models.Match, version: int | None) -> None:
    if version is not None and row.version != version:
        raise ConflictError(CHANGED_ELSEWHERE, Changes.match(row.id))


def claim(session: Session, row: models.Match) -> None:
    """Bump the match's version now, before its games change.

    The UPDATE ... WHERE version = (as read) makes every change to a match's games a change
    of the match row: of two stations that read the same version, the second one's UPDATE
    waits for the first to commit, then matches no row, and it is refused instead of adding
    a game to a match it has not seen (PostgreSQL's row lock; SQLite has one writer anyway).
    """
    match_id = row.id
    flag_modified(row, "result")
    try:
        session.flush()
    except StaleDataError:
        raise ConflictError(CHANGED_ELSEWHERE, Changes.match(match_id)) from None


def _scoreline(
    outcome: MatchOutcome, bye: bool, forfeit_by: Side | None
) -> tuple[int, int, int, int, str]:
    """What a match row stores: game points, final (adjusted) points and the result."""
    if bye:
        result = StoredResult.BYE.value
    elif forfeit_by is not None:
        result = forfeit_by.other.value
    else:
        result = outcome.result.value
    return (outcome.score.a, outcome.score.b, outcome.final.a, outcome.final.b, result)


def store_outcome(row: models.Match, outcome: MatchOutcome) -> None:
    forfeit = Side(row.forfeit_by) if row.forfeit_by else None
    line = _scoreline(outcome, row.team_b_id is None, forfeit)
    row.score_a, row.score_b, row.final_a, row.final_b, row.result = line
    row.pip_a, row.pip_b = outcome.pip_points.a, outcome.pip_points.b


def result_taken_back(row: models.Match) -> None:
    """What decided a match was taken back (its last game, a loss on time, a forfeit): with
    no game left, its stored result must go too, or it would read as a result typed from
    paper (`convert.paper_score`)."""
    if not row.games:
        row.result = StoredResult.UNFINISHED.value


def pair_row(session: Session, row: models.Match, number: int) -> models.Pair:
    for pair in row.pairs:
        if pair.number == number:
            return pair
    pair = models.Pair(number=number)
    row.pairs.append(pair)
    session.flush()
    return pair


def _stored(row: models.Match) -> tuple[int, int, int, int, str]:
    return (row.score_a, row.score_b, row.final_a, row.final_b, row.result)


def rescore_match(session: Session, match_id: int) -> tuple[MatchInfo, list[str]]:
    """Re-derive the stored scoreline from the games; return the differences it fixed."""
    row = match_row(session, match_id)
    info = get_match(session, match_id)
    stored = _stored(row)
    store_outcome(row, info.outcome)
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
        stored = _stored(match_row(session, info.id))
        expected = _scoreline(info.outcome, info.is_bye, info.forfeit_by)
        if stored != expected:
            names = f"{info.names[0]} v {info.names[1]}"
            out.append(f"match {info.id} ({names}): stored {stored}, the games give {expected}")
        out.extend(f"match {info.id}: {p}" for p in info.outcome.problems)
    return out
