"""What other stations changed: a cheap fingerprint of the event to poll every two seconds.

Several director stations share one event on a PostgreSQL server. Each polls
`changes_since(session, token)` in a fresh session; it returns a new token and what changed
since the old one as the `Changes` that `EventContext.changed` carries (areas and match ids),
so a page refreshes exactly as it would after a change made at this station. It works the same
on a single SQLite file.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from director.domain.changes import Area, Changes
from director.store import convert, models

POLL_SECONDS = 2.0
# the areas a fingerprint covers (the slips are the table service's: services/publish.py)
AREAS = (Area.EVENT, Area.TEAMS, Area.ROUNDS, Area.RESULTS, Area.CLOCKS, Area.AUDIT)


def _digest(rows: Iterable[Any]) -> str:
    sha = hashlib.sha256()
    for row in rows:
        sha.update(repr(tuple(row)).encode())
    return sha.hexdigest()[:16]


@dataclass(frozen=True)
class ChangeToken:
    """The event's fingerprint: one digest per area and one per match."""

    areas: Mapping[Area, str] = field(default_factory=dict)
    matches: Mapping[int, str] = field(default_factory=dict)


def _match_signatures(session: Session) -> dict[int, str]:
    """Per match: its version (bumped by every game change), live cubes and clock events."""
    parts: dict[int, list[Any]] = defaultdict(list)
    for match_id, version in session.execute(select(models.Match.id, models.Match.version)):
        parts[match_id].append(("v", version))
    pair = models.Pair
    cubes = select(pair.match_id, pair.number, *convert.live_cube_columns()).order_by(
        pair.match_id, pair.number
    )
    for row in session.execute(cubes):
        parts[row[0]].append(tuple(row[1:]))
    clock = models.ClockEvent
    ticks = select(clock.match_id, func.count(), func.max(clock.id)).group_by(clock.match_id)
    for match_id, count, last in session.execute(ticks):
        parts[match_id].append(("clock", count, last))
    return {match_id: _digest(rows) for match_id, rows in parts.items()}


def current_token(session: Session) -> ChangeToken:
    team, player, rnd, clock, match = (
        models.Team, models.Player, models.Round, models.ClockEvent, models.Match,
    )  # fmt: skip
    matches = _match_signatures(session)
    areas = {
        Area.EVENT: _digest(session.execute(select(models.Event.id, models.Event.version))),
        Area.TEAMS: _digest(
            [
                *session.execute(select(team.id, team.version).order_by(team.id)),
                *session.execute(
                    select(player.id, player.team_id, player.board, player.name).order_by(player.id)
                ),
            ]
        ),
        # the rounds and where each match is placed: its round, table, teams and its place in
        # a knockout's brackets (a pairing changed by hand or a withdrawal's bye changes no round)
        Area.ROUNDS: _digest(
            [
                *session.execute(select(rnd.id, rnd.number, rnd.published).order_by(rnd.id)),
                *session.execute(
                    select(
                        match.id,
                        match.round_id,
                        match.table_no,
                        match.team_a_id,
                        match.team_b_id,
                        match.bracket,
                        match.bracket_round,
                        match.slot,
                    ).order_by(match.id)
                ),  # fmt: skip
            ]
        ),
        Area.RESULTS: _digest(sorted(matches.items())),
        Area.CLOCKS: _digest(session.execute(select(func.count(), func.max(clock.id)))),
        Area.AUDIT: _digest(session.execute(select(func.max(models.AuditEntry.id)))),
    }
    return ChangeToken(areas, matches)


def changes_since(session: Session, token: ChangeToken | None) -> tuple[ChangeToken, Changes]:
    """The new token and what changed since `token` (everything when it is None)."""
    new = current_token(session)
    if token is None:
        return new, Changes.of(*AREAS, matches=new.matches)
    areas = (area for area in AREAS if token.areas.get(area) != new.areas.get(area))
    matches = (
        match_id
        for match_id in set(token.matches) | set(new.matches)
        if token.matches.get(match_id) != new.matches.get(match_id)
    )
    return new, Changes.of(*areas, matches=matches)
