"""Export a match as a match record, import one back (FORMATS.md)."""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy.orm import Session

from director.domain.errors import UserError
from director.domain.event import MatchInfo
from director.domain.records import MatchRecord, RecordTeam, parse_record, record_json
from director.domain.rules import Side
from director.services import audit, clocks
from director.services.events import get_event
from director.services.results import create_match, get_match, record_games
from director.services.teams import add_team, team_named
from director.store import models


def match_record(match: MatchInfo) -> MatchRecord:
    if match.team_b is None:
        raise UserError("a bye has no match record")
    teams = {
        Side.A: RecordTeam(match.team_a.name, match.team_a.players),
        Side.B: RecordTeam(match.team_b.name, match.team_b.players),
    }
    return MatchRecord(match.rules, teams, match.games)


def export_match(session: Session, match_id: int) -> str:
    record = match_record(get_match(session, match_id))
    return record_json(replace(record, clock=tuple(clocks.load_events(session, match_id))))


def _team_id(session: Session, team: RecordTeam) -> int:
    team_id = team_named(session, team.name)
    row = session.get(models.Team, team_id) if team_id is not None else None
    if row is None:
        return add_team(session, team.name, team.players).id
    names = tuple(p.name for p in row.players)
    if names != team.players:
        raise UserError(
            f"team {team.name!r} plays {names[0]} and {names[1]} in this event, "
            f"but the record names {team.players[0]} and {team.players[1]}"
        )
    return row.id


def import_match(session: Session, text: str) -> MatchInfo:
    """Add the record's match to the event (as a match outside the rounds)."""
    record = parse_record(text)
    event = get_event(session).options.match
    ours = replace(record.rules, agreed_lower_forfeit=event.agreed_lower_forfeit)
    theirs = replace(event, winner_required=record.rules.winner_required)
    if ours != theirs:
        raise UserError(
            "the record's rules differ from this event's "
            f"(record: {record.rules.match_length} points, {record.rules.scoring}, "
            f"one-cube threshold {record.rules.one_cube_threshold}; event: {event.match_length} "
            f"points, {event.scoring}, one-cube threshold {event.one_cube_threshold})"
        )
    a = _team_id(session, record.teams[Side.A])
    b = _team_id(session, record.teams[Side.B])
    match = create_match(session, a, b)
    row = session.get(models.Match, match.id)
    assert row is not None
    row.winner_required = record.rules.winner_required
    session.flush()
    record_games(session, match.id, record.games)
    clocks.append_events(session, match.id, 0, record.clock)  # kept for disputes as it came
    audit.log(session, "import match", f"match {match.id}")
    return get_match(session, match.id)
