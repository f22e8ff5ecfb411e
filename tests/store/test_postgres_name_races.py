"""Stations registering one name at once on PostgreSQL (#27 §3): the rules one team per
player and one team per name were checked by reading before writing, and every racer passed.
The unique indexes on the names' keys refuse the later writer, with the one-station message.

Station two writes and holds its commit; station one writes the look-alike meanwhile: with the
index it waits for two's commit and is refused; without it, it went through at once.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from director.domain.errors import UserError
from director.domain.rules import EventOptions
from director.services.events import create_event
from director.services.teams import add_team, edit_team, import_teams
from director.store import models
from director.store.engine import EventDatabase, create_database, open_database
from tests.pg import fresh_database

pytestmark = pytest.mark.postgres


@pytest.fixture
def stations() -> Iterator[tuple[EventDatabase, EventDatabase]]:
    with fresh_database() as url:
        one = create_database(url)
        with one.Session() as session, session.begin():
            create_event(session, "Club Open", EventOptions())
            add_team(session, "Anchors", ("Ann One", "Ann Two"))
            add_team(session, "Bears", ("Bea One", "Bea Two"))
        two = open_database(url)
        yield one, two
        one.close()
        two.close()


def at_once(
    one: EventDatabase,
    two: EventDatabase,
    first: Callable[[Session], object],
    second: Callable[[Session], object],
) -> BaseException | None:
    """Station two runs `second` and holds its commit while station one runs `first`."""
    outcome: list[BaseException | None] = []
    with two.Session() as s2:
        s2.begin()
        second(s2)
        s2.flush()

        def run() -> None:
            try:
                with one.Session() as s1, s1.begin():
                    first(s1)
                outcome.append(None)
            except BaseException as exc:
                outcome.append(exc)

        thread = threading.Thread(target=run)
        thread.start()
        time.sleep(0.5)  # one has read (no clash yet) and is writing, or is done without the index
        s2.commit()
        thread.join(20)
    assert not thread.is_alive()
    return outcome[0]


def names(db: EventDatabase) -> tuple[list[str], list[str]]:
    with db.Session() as session:
        teams = list(session.scalars(select(models.Team.name).order_by(models.Team.id)))
        players = list(session.scalars(select(models.Player.name).order_by(models.Player.id)))
    return teams, players


def test_two_stations_adding_one_player_in_two_teams(stations: tuple[EventDatabase, ...]) -> None:
    one, two = stations
    refused = at_once(
        one,
        two,
        lambda s: add_team(s, "Cubes", ("zed zulu", "Cy Two")),
        lambda s: add_team(s, "Doubles", ("Zed Zulu", "Di Two")),
    )
    assert isinstance(refused, UserError)
    assert str(refused) == "player 'zed zulu' already plays for team 'Doubles'"
    assert names(one)[0] == ["Anchors", "Bears", "Doubles"]


def test_two_stations_renaming_two_teams_to_one_name(stations: tuple[EventDatabase, ...]) -> None:
    one, two = stations
    refused = at_once(
        one,
        two,
        lambda s: edit_team(s, 1, name="clash"),
        lambda s: edit_team(s, 2, name="Clash"),
    )
    assert isinstance(refused, UserError)
    assert str(refused) == "a team named 'Clash' is already registered"
    assert names(one)[0] == ["Anchors", "Clash"]


def test_two_stations_editing_two_teams_to_one_player(stations: tuple[EventDatabase, ...]) -> None:
    one, two = stations
    refused = at_once(
        one,
        two,
        lambda s: edit_team(s, 1, players=("Ann One", "Zed Zulu")),
        lambda s: edit_team(s, 2, players=("Bea One", "ZED ZULU")),
    )
    assert isinstance(refused, UserError)
    assert "already plays for team 'Bears'" in str(refused)
    assert names(one)[1].count("ZED ZULU") == 1 and "Zed Zulu" not in names(one)[1]


def test_two_imports_sharing_one_player(stations: tuple[EventDatabase, ...]) -> None:
    one, two = stations
    refused = at_once(
        one,
        two,
        lambda s: import_teams(s, "team,player1,player2\nEagles,Eve One,Shared Player\n"),
        lambda s: import_teams(s, "team,player1,player2\nFalcons,Fay One,shared player\n"),
    )
    assert isinstance(refused, UserError)
    assert "shared player" in str(refused).lower() and "nothing imported" in str(refused)
    assert names(one)[0] == ["Anchors", "Bears", "Falcons"]


def test_a_team_swapping_its_boards_is_not_a_clash(stations: tuple[EventDatabase, ...]) -> None:
    one, _two = stations
    with one.Session() as session, session.begin():
        edit_team(session, 1, players=("Ann Two", "Ann One"))
    assert names(one)[1][:2] == ["Ann Two", "Ann One"]
