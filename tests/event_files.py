"""Helpers over real event files on disk: read one back through a connection of its own (not
the page's or the desk's under test), and seed numbered teams the way another station would."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from sqlalchemy.orm import Session

from director.domain.event import MatchInfo
from director.services import matches, rounds
from director.services.teams import add_team
from director.store.engine import open_database

T = TypeVar("T")


def read_back(path: Path, read: Callable[[Session], T]) -> T:
    """What `read` finds in the event file at `path`, through a fresh connection."""
    db = open_database(str(path))
    try:
        with db.Session() as session:
            return read(session)
    finally:
        db.close()


def stored_match(path: Path, match_id: int) -> MatchInfo:
    """The match as a fresh connection reads it from disk."""
    return read_back(path, lambda session: matches.get_match(session, match_id))


def seed_teams(path: Path, count: int, *, clubs: bool = False, pair: bool = False) -> list[int]:
    """Write `count` teams, "Team 1" (Ann 0 and Bob 0) onwards, to the event file at `path`;
    with `clubs` every second one plays for "Club". With `pair`, round 1 is paired as well and
    the ids of its matches are returned (none otherwise)."""
    db = open_database(str(path))
    try:
        with db.Session() as session, session.begin():
            for i in range(count):
                club = "Club" if clubs and i % 2 else ""
                add_team(session, f"Team {i + 1}", (f"Ann {i}", f"Bob {i}"), club=club)
            return [m.id for m in rounds.pair_next_round(session).value.matches] if pair else []
    finally:
        db.close()
