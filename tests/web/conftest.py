"""The table service under test: a real server on a loopback port, over a real event file."""

from __future__ import annotations

import json
import secrets
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest

from director.domain.rules import End, Level, Side
from director.domain.score import Score
from director.domain.scoring import Game
from director.services import games, matches, rounds
from director.services.teams import add_team
from director.store.engine import EventDatabase, open_event
from director.web.server import TableService

HOSTILE = '<img src=x onerror="window.pwned=1">R&D</b>'


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> object:
        return json.loads(self.body)


def request(
    url: str, data: object = None, *, origin: str | None = "same", method: str | None = None
) -> Answer:
    headers = {"Content-Type": "application/json"}
    if data is not None and origin == "same":
        headers["Origin"] = (
            url.split("/api/", maxsplit=1)[0].split("/events", maxsplit=1)[0].rstrip("/")
        )
    elif origin not in (None, "same"):
        headers["Origin"] = origin
    body = data if isinstance(data, bytes) else None if data is None else json.dumps(data).encode()
    req = urllib.request.Request(url, body, headers, method=method)
    try:
        with urllib.request.urlopen(req, timeout=10) as response:
            return Answer(response.status, dict(response.headers), response.read())
    except urllib.error.HTTPError as error:
        return Answer(error.code, dict(error.headers), error.read())


def hexid() -> str:
    return secrets.token_hex(16)


def pair_round(db: EventDatabase, teams: int = 4, hostile: bool = False) -> list[int]:
    with db.Session() as s, s.begin():
        for i in range(1, teams + 1):
            name = HOSTILE if hostile and i == 1 else f"Team {i}"
            add_team(s, name, (f"P{i}a", f"P{i}b" if not (hostile and i == 1) else "<script>x"))
        info = rounds.pair_next_round(s).value
    return [m.id for m in info.matches if m.team_b is not None]


def win_games(
    db: EventDatabase,
    match_id: int,
    count: int | None = None,
    after_each: Callable[[], object] = lambda: None,
) -> Score:
    """Team B wins the match's next games (all of them, unless `count`) by a backgammon, one
    transaction each, as a desk enters them (`after_each` runs after each commit); returns
    the score after the last."""
    entered = 0
    while count is None or entered < count:
        with db.Session() as s, s.begin():
            outcome = matches.get_match(s, match_id).outcome
            if outcome.finished:
                break
            board = 1 if 1 not in outcome.boards_done else 2
            game = Game(outcome.current_pair, board, Side.B, End.BEAR_OFF, 1, Level.BACKGAMMON)
            games.record_game(s, match_id, game)
        after_each()
        entered += 1
    with db.Session() as s:
        outcome = matches.get_match(s, match_id).outcome
    return outcome.final if outcome.finished else outcome.score


@pytest.fixture
def served(event_path: object) -> Iterator[tuple[TableService, str]]:
    db = open_event(str(event_path), make_backup=False)
    service = TableService(db, "127.0.0.1", 0)
    urls = service.start()
    try:
        yield service, urls[0]
    finally:
        service.stop()
        db.close()
