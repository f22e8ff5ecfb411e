"""`publish`: what the players' pages show changed, told as the same typed `Changes` as the
stations' (areas, match ids, and the matches whose slips changed), never as channel words."""

from __future__ import annotations

from director.domain.changes import Area, Changes
from director.domain.rules import End, Level, Side
from director.domain.scoring import Game
from director.services import games, slips
from director.services.publish import Fingerprint, differences, fingerprint
from director.services.teams import add_team
from director.store.engine import EventDatabase
from tests.services.test_slips import game, hexid, paired, token_of


def look(db: EventDatabase) -> Fingerprint:
    with db.Session() as s:
        return fingerprint(s)


def test_a_game_names_its_match_a_slip_its_slips_and_a_team_the_teams(
    db: EventDatabase,
) -> None:
    first, second = paired(db)
    before = look(db)
    everything = differences(None, before)
    assert everything.matches == {first, second} and everything.structure()
    assert not differences(before, look(db))  # nothing changed
    with db.Session() as s, s.begin():
        games.record_game(s, first, Game(1, 1, Side.A, End.BEAR_OFF, level=Level.SINGLE))
    after_game = look(db)
    assert differences(before, after_game) == Changes.match(first)
    with db.Session() as s, s.begin():
        slips.submit_slip(s, token_of(db, second), hexid(), hexid(), game())
    after_slip = look(db)
    assert differences(after_game, after_slip) == Changes.of(Area.SLIPS, slips=(second,))
    with db.Session() as s, s.begin():
        add_team(s, "Late Team", ("Lia", "Leo"))
    assert differences(after_slip, look(db)) == Changes.of(Area.TEAMS)
