"""What the upgrade kill test and its benchmark share: an older event file and its contents."""

from __future__ import annotations

import contextlib
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

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
# what `older_event` holds: event, teams, matches, games, matches in a round
HELD = ("Old Cup", 12, 6, 6, 0)
HELD_IN_ROUND = ("Old Cup", 12, 6, 6, 6)


def older_event(path: Path, teams: int = 12, in_round: bool = False) -> Path:
    """An event with teams, matches and games, taken back to the first schema; `in_round`: the
    matches in a round 1 (whose table every later revision that rebuilds it must keep)."""
    db = create_database(str(path))
    with db.Session() as session, session.begin():
        create_event(session, "Old Cup", EventOptions(match=MatchRules(match_length=5)))
        ids = [add_team(session, f"Team {i}", (f"A{i}", f"B{i}")).value.id for i in range(teams)]
        round_id = None
        if in_round:
            row = models.Round(number=1, published=True)
            session.add(row)
            session.flush()
            round_id = row.id
    rng = random.Random(3)
    for table in range(teams // 2):
        with db.Session() as session, session.begin():
            match = create_match(
                session, ids[2 * table], ids[2 * table + 1], round_id, table=table + 1
            ).value
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


def state_after_open(path: Path | str) -> tuple[str, str, int, int, int, int]:
    """Open the file as the app does (upgrading it): its revision, event, teams, matches,
    games and matches in a round."""
    db = open_database(str(path))
    try:
        with db.Session() as session:
            counts = [
                session.scalar(select(func.count()).select_from(table)) or 0
                for table in (models.Team, models.Match, models.Game)
            ]
            in_rounds = select(func.count()).where(models.Match.round_id.is_not(None))
            counts.append(session.scalar(in_rounds) or 0)
            name = get_event(session).name
        revision = current_revision(db.engine)
        assert revision == head_revision()
        return (revision or "", name, *counts)
    finally:
        db.close()


@contextlib.contextmanager
def upgrade_killer(stderr: IO[bytes]) -> Iterator[Callable[[Path, int], str]]:
    """`kill(file, n)` upgrades the file in a child process that SIGKILLs itself at the upgrade's
    step `n` (upgrade_child.py); it returns "sig9" for a kill, else how the child ended
    ("exit0" once `n` is past the last step). The children are forked from one server that
    imported everything once."""
    server = subprocess.Popen(
        [sys.executable, str(CHILD), "--serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=stderr,
    )
    assert server.stdin is not None and server.stdout is not None
    stdin, stdout = server.stdin, server.stdout

    def kill(path: Path, n: int) -> str:
        stdin.write(f"{n} {path}\n".encode())
        stdin.flush()
        while True:
            line = stdout.readline().decode()
            assert line, "the upgrade server died: see its stderr"
            if line.startswith("X "):
                return line.split()[1]

    try:
        assert stdout.readline() == b"READY\n"
        yield kill
    finally:
        stdin.close()
        server.wait(timeout=30)
        stdout.close()
