"""Two stations on one PostgreSQL event: no check-then-act race loses a result or an edit
(issue 14, items 3 and 4).

Station two holds a change open (its transaction not yet committed) while station one runs
an operation that checks first and then acts; whatever the interleaving, an acknowledged result
is never deleted and an edit made against an old view is refused with a clear message.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from director.domain.errors import ConflictError, UserError
from director.domain.rules import End, EventOptions, Level, Side
from director.domain.scoring import Game
from director.services import manual_pairing, rounds
from director.services.events import create_event, event_version, get_event, update_event
from director.services.games import record_game
from director.services.manual_pairing import Edit
from director.services.teams import add_team, edit_team, get_team
from director.store import models
from director.store.engine import EventDatabase, create_database, open_database
from tests.pg import fresh_database

pytestmark = pytest.mark.postgres

G1 = Game(pair=1, board=1, winner=Side.A, end=End.BEAR_OFF, level=Level.SINGLE)


@pytest.fixture
def stations() -> Iterator[tuple[EventDatabase, EventDatabase]]:
    with fresh_database() as url:
        one = create_database(url)
        with one.Session() as session, session.begin():
            create_event(session, "Club Open", EventOptions())
            for name in ("Anchors", "Bears", "Cubes", "Doubles"):
                add_team(session, name, (f"{name} 1", f"{name} 2"))
            rounds.pair_next_round(session)
        two = open_database(url)
        yield one, two
        one.close()
        two.close()


def _first_match(db: EventDatabase) -> int:
    with db.Session() as session:
        return rounds.get_round(session, 1).matches[0].id


def _while_a_result_is_being_recorded(
    one: EventDatabase, two: EventDatabase, action: Callable[[Session], object]
) -> BaseException | None:
    """Station two records a game and holds its commit; station one runs `action` meanwhile."""
    match_id = _first_match(two)
    outcome: list[BaseException | None] = []
    with two.Session() as s2:
        s2.begin()
        record_game(s2, match_id, G1)
        s2.flush()

        def first() -> None:
            try:
                with one.Session() as s1, s1.begin():
                    action(s1)
                outcome.append(None)
            except BaseException as exc:
                outcome.append(exc)

        thread = threading.Thread(target=first)
        thread.start()
        time.sleep(0.5)
        s2.commit()  # acknowledged to station two's director
        thread.join(20)
    assert not thread.is_alive()
    return outcome[0]


def _games(db: EventDatabase) -> int:
    with db.Session() as session:
        return session.scalar(select(func.count()).select_from(models.Game)) or 0


RACES: dict[str, Callable[[Session], object]] = {
    "undo last round": rounds.undo_last_round,
    "pair again": lambda s: rounds.repair_round(s, 1, reason="again").value,
    "swap": lambda s: manual_pairing.edit_round(s, 1, Edit.SWAP, 1, 3, "swap two teams").value,
    "pair two teams": lambda s: manual_pairing.edit_round(s, 1, Edit.PAIR, 1, 2, "by hand").value,
    "give the bye": lambda s: (
        manual_pairing.edit_round(s, 1, Edit.BYE, 1, None, "leaves early").value
    ),
}


@pytest.mark.parametrize("action", list(RACES.values()), ids=list(RACES))
def test_a_round_operation_never_deletes_a_result_another_station_recorded(
    stations: tuple[EventDatabase, EventDatabase], action: Callable[[Session], object]
) -> None:
    one, two = stations
    refused = _while_a_result_is_being_recorded(one, two, action)
    assert isinstance(refused, UserError), refused
    assert "has results" in str(refused)
    assert _games(one) == 1


def test_a_player_name_edit_is_a_change_of_the_team(
    stations: tuple[EventDatabase, EventDatabase],
) -> None:
    one, two = stations
    with two.Session() as session:
        seen = get_team(session, 1)
    with one.Session() as session, session.begin():
        edit_team(session, 1, version=seen.version, players=("New One", "Anchors 2"))
    with pytest.raises(ConflictError), two.Session() as session, session.begin():
        edit_team(session, 1, version=seen.version, players=("Other", "Anchors 2"))
    with one.Session() as session:
        assert get_team(session, 1).players == ("New One", "Anchors 2")


def test_event_options_saved_against_an_old_view_are_refused(
    stations: tuple[EventDatabase, EventDatabase],
) -> None:
    one, two = stations
    with two.Session() as session:
        seen = event_version(session)
    with one.Session() as session, session.begin():
        update_event(session, name="Club Open (final)", version=event_version(session))
    with pytest.raises(ConflictError), two.Session() as session, session.begin():
        update_event(session, name="Club Open 2026", version=seen)
    with one.Session() as session:
        assert get_event(session).name == "Club Open (final)"
