"""What the players' pages show changed: a cheap fingerprint for the table service to poll.

Unlike `sync.changes_since` (the stations' view, where every clock press changes a match), this
one changes only with what the public pages show: the event, teams, rounds, each match's
version (every game and cube action bumps it) and the slips. The table service polls it a few
times a second so a result typed at any desk, on any station, reaches the phones within 1 s.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from director.domain.changes import Area, Changes
from director.store import models


def _digest(rows: object) -> str:
    return hashlib.sha256(repr(rows).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Fingerprint:
    areas: dict[Area, str] = field(default_factory=dict)  # the event, teams, rounds -> digest
    # match id -> its version and how often its phone clocks were started (the pairings say so)
    matches: dict[int, tuple[int, int]] = field(default_factory=dict)
    slips: dict[int, str] = field(default_factory=dict)  # match id -> digest of its slips


def fingerprint(session: Session) -> Fingerprint:
    team, rnd, slip = models.Team, models.Round, models.Slip
    areas = {
        Area.EVENT: _digest(session.execute(select(models.Event.version)).all()),
        Area.TEAMS: _digest(session.execute(select(team.id, team.version).order_by(team.id)).all()),
        Area.ROUNDS: _digest(
            session.execute(select(rnd.id, rnd.number, rnd.published).order_by(rnd.id)).all()
        ),
    }
    command = models.ClockCommand
    starts = dict(
        session.execute(
            select(command.match_id, func.count())
            .where(command.kind == "start")  # phone_clocks.START
            .group_by(command.match_id)
        ).all()
    )
    matches = {
        m: (v, starts.get(m, 0))
        for m, v in session.execute(select(models.Match.id, models.Match.version))
    }
    by_match: dict[int, list[tuple[int, str]]] = {}
    for match_id, slip_id, status in session.execute(
        select(slip.match_id, slip.id, slip.status).order_by(slip.id)
    ):
        by_match.setdefault(match_id, []).append((slip_id, status))
    return Fingerprint(areas, matches, {m: _digest(s) for m, s in by_match.items()})


def differences(old: Fingerprint | None, new: Fingerprint) -> Changes:
    """What changed: the public areas, the matches whose version moved (`Area.RESULTS`) and
    those whose slips changed (`Area.SLIPS`); everything when old is None."""
    if old is None:
        return _changes(new.areas, new.matches, new.slips)
    areas = [a for a in new.areas if old.areas.get(a) != new.areas[a]]
    matches = {m for m in set(old.matches) | set(new.matches)
               if old.matches.get(m) != new.matches.get(m)}  # fmt: skip
    slips = {m for m in set(old.slips) | set(new.slips)
             if old.slips.get(m) != new.slips.get(m)}  # fmt: skip
    return _changes(areas, matches, slips)


def _changes(areas: Iterable[Area], matches: Collection[int], slips: Collection[int]) -> Changes:
    named = list(areas)
    if matches:
        named.append(Area.RESULTS)
    if slips:
        named.append(Area.SLIPS)
    return Changes.of(*named, matches=matches, slips=slips)


def match_stamp(session: Session, match_id: int) -> tuple[object, ...] | None:
    """What a match's public answer is built from, read cheaply (two statements): its version
    (every game and cube action bumps it), the event's, its teams' and their players' names.
    The table service serves a built answer again while the stamp is the same; None: no such
    match."""
    m, e = models.Match, models.Event
    row = session.execute(
        select(
            m.version, m.team_a_id, m.team_b_id, m.round_id, select(e.version).scalar_subquery()
        ).where(m.id == match_id)
    ).first()
    if row is None:
        return None
    teams = [t for t in (row.team_a_id, row.team_b_id) if t is not None]
    t, p = models.Team, models.Player
    people = session.execute(
        select(t.id, t.version, t.name, p.board, p.name)
        .outerjoin(p, p.team_id == t.id)
        .where(t.id.in_(teams))
        .order_by(t.id, p.board)
    ).all()
    return (tuple(row), tuple(tuple(r) for r in people))


def slips_stamp(session: Session, match_id: int) -> tuple[object, ...]:
    """What a match's slips show, read in one statement (their status, reason and game)."""
    s = models.Slip
    rows = session.execute(
        select(s.id, s.status, s.reason, s.game).where(s.match_id == match_id).order_by(s.id)
    ).all()
    return tuple(tuple(r) for r in rows)
