"""`changes_since`: what another station changed, named the way pages refresh."""

from __future__ import annotations

from director.domain.changes import Area, Changes
from director.domain.rules import End, Level, Side
from director.domain.scoring import Game
from director.services.games import record_game, undo_last_game
from director.services.live_cube import cube_action
from director.services.matches import create_match
from director.services.sync import changes_since
from director.services.teams import add_team, edit_team
from director.store.engine import EventDatabase, open_database

WIN = Game(pair=1, board=1, winner=Side.A, end=End.BEAR_OFF, level=Level.SINGLE)


def test_each_kind_of_change_is_reported_by_name(db: EventDatabase) -> None:
    other = open_database(db.target)  # a second station: its own engine and connections
    with db.Session() as session, session.begin():
        a = add_team(session, "Anchors", ("Ann", "Al")).value
        b = add_team(session, "Bears", ("Bo", "Bea")).value
        first = create_match(session, a.id, b.id).value
        second = create_match(session, a.id, b.id, table=2).value
    with other.Session() as session:
        token, everything = changes_since(session, None)
    assert everything.touches(Area.TEAMS) and everything.touches(Area.RESULTS)
    assert {first.id, second.id} <= everything.matches

    def poll() -> Changes:
        nonlocal token
        with other.Session() as session:
            token, changed = changes_since(session, token)
        return changed

    assert poll() == Changes()
    with db.Session() as session, session.begin():
        record_game(session, first.id, WIN)
    assert poll() == Changes.match(first.id)
    with db.Session() as session, session.begin():
        cube_action(session, second.id, 2, "offer", Side.B)
    assert poll() == Changes.match(second.id)
    with db.Session() as session, session.begin():
        edit_team(session, a.id, players=("Ann", "Alberto"))
    assert poll().touches(Area.TEAMS)
    with db.Session() as session, session.begin():
        undo_last_game(session, first.id)
    undone = poll()
    assert undone.areas >= {Area.RESULTS, Area.AUDIT} and undone.matches == {first.id}
    assert poll() == Changes()
    other.close()


def test_pairings_changed_by_hand_on_another_station_touch_the_rounds(db: EventDatabase) -> None:
    """The rounds' fingerprint reads where each match is placed (its round, table, teams and
    bracket place), not only the rounds: a round paired again by hand changes no round row."""
    from director.domain.pairing.model import Pairing
    from director.services import rounds

    other = open_database(db.target)
    with db.Session() as session, session.begin():
        ids = [add_team(session, f"T{i}", (f"P{i}", f"Q{i}")).value.id for i in range(4)]
        rounds.pair_next_round(session)
    with other.Session() as session:
        token, _ = changes_since(session, None)
    with db.Session() as session, session.begin():
        again = (Pairing(1, ids[0], ids[3]), Pairing(2, ids[1], ids[2]))
        rounds.set_round_pairings(session, 1, again, "a swap the players asked for")
    with other.Session() as session:
        _, changed = changes_since(session, token)
    assert changed.touches(Area.ROUNDS)
    other.close()
