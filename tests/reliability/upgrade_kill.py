"""What the upgrade kill test and its benchmark share: an older event file and its contents."""

from __future__ import annotations

import random
from pathlib import Path

from alembic import command
from sqlalchemy import create_engine, func, select

from director.domain.rules import End, EventOptions, MatchRules, Side
from director.domain.scoring import Game
from director.services.events import create_event, get_event
from director.services.games import record_game
from director.services.matches import create_match
from director.services.teams import add_team
from director.store import models
from director.store.engine import (
    alembic_config,
    create_database,
    current_revision,
    head_revision,
    open_database,
)

CHILD = Path(__file__).with_name("upgrade_child.py")
OLDEST = "0001"
HELD = ("Old Cup", 12, 6, 6)  # what `older_event` holds: event, teams, matches, games


def older_event(path: Path, teams: int = 12) -> Path:
    """An event with teams, matches and games, taken back to the first schema."""
    db = create_database(str(path))
    with db.Session() as session, session.begin():
        create_event(session, "Old Cup", EventOptions(match=MatchRules(match_length=5)))
        ids = [add_team(session, f"Team {i}", (f"A{i}", f"B{i}")).id for i in range(teams)]
    rng = random.Random(3)
    for table in range(teams // 2):
        with db.Session() as session, session.begin():
            match = create_match(session, ids[2 * table], ids[2 * table + 1], table=table + 1)
        with db.Session() as session, session.begin():
            record_game(session, match.id, Game(1, 1, rng.choice(list(Side)), End.PASS))
    db.close()
    # foreign keys off, as for any schema change: batch mode drops and re-creates tables
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as connection:
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
        command.downgrade(alembic_config(connection), OLDEST)
    engine.dispose()
    return path


def state_after_open(path: Path | str) -> tuple[str, str, int, int, int]:
    """Open the file as the app does (upgrading it): its revision, event, teams, matches, games."""
    db = open_database(str(path))
    try:
        with db.Session() as session:
            counts = [
                session.scalar(select(func.count()).select_from(table)) or 0
                for table in (models.Team, models.Match, models.Game)
            ]
            name = get_event(session).name
        revision = current_revision(db.engine)
        assert revision == head_revision()
        return (revision or "", name, *counts)
    finally:
        db.close()
