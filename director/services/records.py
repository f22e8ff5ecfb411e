"""Export a match as a match record, import one back into its paired match (FORMATS.md)."""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy import select
from sqlalchemy.orm import Session

from director.domain.errors import UserError
from director.domain.event import MatchInfo
from director.domain.records import MatchRecord, RecordTeam, parse_record, record_json
from director.domain.rules import MatchRules, Side
from director.domain.scoring import Game
from director.domain.wording import cut, quoted
from director.services import audit, clocks
from director.services.events import get_event
from director.services.games import record_games, record_lost_on_time
from director.services.matches import get_match
from director.services.teams import team_named
from director.store import models

RECORD_RULES = (
    "match_length",
    "scoring",
    "winner_required",
    "one_cube_threshold",
    "no_cube_at_one_away",
)
# what an individual match record carries of its rules (FORMATS, "Individual match record"):
# the Crawford rule has no options, and a one-board match no rule 4′
INDIVIDUAL_RECORD_RULES = ("match_length", "scoring")


def match_record(match: MatchInfo) -> MatchRecord:
    if match.team_b is None:
        raise UserError("a bye has no match record")
    teams = {
        Side.A: RecordTeam(match.team_a.name, match.team_a.players),
        Side.B: RecordTeam(match.team_b.name, match.team_b.players),
    }
    return MatchRecord(match.rules, teams, match.games, lost_on_time=match.outcome.lost_on_time)


def export_match(session: Session, match_id: int) -> str:
    record = match_record(get_match(session, match_id))
    return record_json(replace(record, clock=tuple(clocks.load_events(session, match_id))))


def _registered_team(session: Session, team: RecordTeam) -> int:
    """The event's team of this name and line-up: import never creates teams."""
    team_id = team_named(session, team.name)
    row = session.get(models.Team, team_id) if team_id is not None else None
    if row is None:
        raise UserError(
            f"team {quoted(team.name)} is not registered in this event: "
            "import never creates teams, register it first"
        )
    names = tuple(p.name for p in sorted(row.players, key=lambda p: p.board))
    if names != team.players:
        raise UserError(
            f"team {quoted(team.name)} plays {' and '.join(names)} in this event, "
            f"but the record names {' and '.join(map(cut, team.players))}"
        )
    return row.id


def where(match: MatchInfo) -> str:
    return f"round {match.round}, table {match.table}" if match.round else f"match {match.id}"


def _rule_differences(record: MatchRules, match: MatchRules) -> list[str]:
    carried = INDIVIDUAL_RECORD_RULES if record.event_format.one_board else RECORD_RULES
    return [
        f"{name}: record {cut(str(getattr(record, name)))}, event {getattr(match, name)}"
        for name in carried
        if getattr(record, name) != getattr(match, name)
    ]


def _check_format(session: Session, record: MatchRecord) -> None:
    """A record is imported into an event of its format only: a Tandem record into a Tandem
    event, an individual one into an individual event (RULES §10)."""
    event = get_event(session).options.match.event_format
    if record.rules.event_format != event:
        raise UserError(
            f"the record's format is {record.rules.event_format.label} and this event's is "
            f"{event.label} (RULES §10): import it into an event of its format"
        )


def _flipped(game: Game) -> Game:
    return replace(game, winner=game.winner.other)


def _paired_matches(session: Session, a: int, b: int) -> list[MatchInfo]:
    rows = session.scalars(
        select(models.Match.id).where(
            ((models.Match.team_a_id == a) & (models.Match.team_b_id == b))
            | ((models.Match.team_a_id == b) & (models.Match.team_b_id == a))
        )
    )
    found = [get_match(session, match_id) for match_id in rows]
    return sorted(found, key=lambda m: (m.round is None, m.round or 0, m.table, m.id))


def import_match(session: Session, text: str) -> MatchInfo:
    """Fill the paired match of the record's two teams that has no games yet (FORMATS.md)."""
    record = parse_record(text)
    _check_format(session, record)
    a = _registered_team(session, record.teams[Side.A])
    b = _registered_team(session, record.teams[Side.B])
    names = f"{record.teams[Side.A].name} v {record.teams[Side.B].name}"
    paired = _paired_matches(session, a, b)
    for match in paired:
        games = match.games if match.team_a.id == a else tuple(map(_flipped, match.games))
        if games and games == record.games:
            raise UserError(f"this record's games are already in the event ({where(match)})")
    empty = [m for m in paired if not m.games and m.forfeit_by is None]
    if not empty:
        raise UserError(
            f"no paired match of {names} without games in this event: pair the two teams "
            "in a round first (import fills a paired match, it never creates one)"
        )
    match = empty[0]
    differences = _rule_differences(record.rules, match.rules)
    if differences:
        raise UserError(
            f"the record's rules differ from those of {where(match)}: " + "; ".join(differences)
        )
    games = record.games if match.team_a.id == a else tuple(map(_flipped, record.games))
    info = record_games(session, match.id, games).value
    if record.lost_on_time is not None:
        loser = record.lost_on_time if match.team_a.id == a else record.lost_on_time.other
        info = record_lost_on_time(session, match.id, loser).value
    clocks.append_events(session, match.id, 0, record.clock)  # kept for disputes as it came
    audit.log(session, "import match", f"match {match.id} ({where(match)})")
    return info
