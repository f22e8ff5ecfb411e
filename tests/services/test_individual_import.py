"""import-match of the individual match record (FORMATS "Individual match record", #28)."""

from __future__ import annotations

import json

import pytest

from director.domain.errors import UserError
from director.domain.records import parse_record
from director.domain.rules import ClockMode, EventOptions, Format, MatchRules, Side, TimeControl
from director.domain.score import Score
from director.services import matches, records
from director.services.events import update_event
from director.services.games import record_lost_on_time, undo_last_game
from director.services.teams import add_player
from director.store import models
from director.store.engine import EventDatabase

A, B = Side.A, Side.B
RECORD: dict[str, object] = {
    "format": "backgammon-match",
    "version": 1,
    "match_length": 5,
    "scoring": "standard",
    "players": {"A": {"name": "Ana"}, "B": {"name": "Ben"}},
    "games": [
        {"winner": "A", "end": "bear-off", "level": "single", "cube": 2},
        {"winner": "A", "end": "pass", "cube": 2},
        {"winner": "B", "end": "bear-off", "level": "gammon", "cube": 1},
    ],
}


def text(**changes: object) -> str:
    return json.dumps({**RECORD, **changes})


def individual_pair(db: EventDatabase, *, reversed_sides: bool = False) -> int:
    """An individual event to 5 with Ana and Ben paired in round 1 at table 2."""
    options = EventOptions(
        match=MatchRules(match_length=5, format=Format.INDIVIDUAL),
        time_control=TimeControl(120, 12, ClockMode.DELAY),
    )
    with db.Session() as s, s.begin():
        update_event(s, options=options)
        ana = add_player(s, "Ana").value.id
        ben = add_player(s, "Ben").value.id
        rnd = models.Round(number=1)
        s.add(rnd)
        s.flush()
        a, b = (ben, ana) if reversed_sides else (ana, ben)
        return matches.create_match(s, a, b, round_id=rnd.id, table=2).value.id


def test_an_individual_record_fills_the_paired_match_and_exports_the_same(
    db: EventDatabase,
) -> None:
    match_id = individual_pair(db)
    with db.Session() as s, s.begin():
        match = records.import_match(s, text())
    assert (match.id, match.round, match.table) == (match_id, 1, 2)
    assert match.outcome.score == Score(4, 2)
    with db.Session() as s:
        exported = records.export_match(s, match_id)
    assert parse_record(exported) == parse_record(text())
    assert json.loads(exported)["format"] == "backgammon-match"


def test_an_individual_record_with_the_sides_the_other_way_round(db: EventDatabase) -> None:
    individual_pair(db, reversed_sides=True)
    with db.Session() as s, s.begin():
        match = records.import_match(s, text())
    assert (match.team_a.name, match.outcome.score) == ("Ben", Score(2, 4))


def test_a_match_lost_on_time_is_imported_and_exported_so(db: EventDatabase) -> None:
    """RULES §10: Ben's reserve ran out at 4–2: Ana wins 5–2; the record keeps who flagged."""
    match_id = individual_pair(db, reversed_sides=True)
    with db.Session() as s, s.begin():
        match = records.import_match(s, text(lost_on_time="B"))
    assert (match.outcome.score, match.outcome.lost_on_time) == (Score(2, 5), A)
    assert match.outcome.result.value == "B"  # side B of the event's match is Ana
    with db.Session() as s:
        exported = json.loads(records.export_match(s, match_id))
    assert (exported["players"]["A"], exported["lost_on_time"]) == ({"name": "Ben"}, "A")


def test_a_match_lost_on_time_at_the_desk_and_undone(db: EventDatabase) -> None:
    match_id = individual_pair(db)
    with db.Session() as s, s.begin():
        lost = record_lost_on_time(s, match_id, A).value
    assert (lost.outcome.score, lost.outcome.result.value) == (Score(0, 5), "B")
    with db.Session() as s, s.begin(), pytest.raises(UserError, match="the match is over"):
        record_lost_on_time(s, match_id, B)
    with db.Session() as s, s.begin():
        undone = undo_last_game(s, match_id).value
    assert (undone.outcome.score, undone.outcome.finished) == (Score(0, 0), False)


def test_a_tandem_match_is_not_lost_on_time(db: EventDatabase, match_id: int) -> None:
    with db.Session() as s, s.begin(), pytest.raises(UserError, match="loses a game"):
        record_lost_on_time(s, match_id, A)


def test_a_tandem_record_is_refused_by_an_individual_event(db: EventDatabase) -> None:
    individual_pair(db)
    tandem = {
        "format": "tandem-match",
        "version": 1,
        "match_length": 5,
        "scoring": "standard",
        "winner_required": False,
        "one_cube_threshold": 2,
        "no_cube_at_one_away": False,
        "teams": {
            "A": {"name": "Ana", "players": ["Ana", "Ann"]},
            "B": {"name": "Ben", "players": ["Ben", "Bea"]},
        },
        "games": [],
    }
    with (
        db.Session() as s,
        pytest.raises(
            UserError, match="the record's format is Tandem and this event's is Individual"
        ),
    ):
        records.import_match(s, json.dumps(tandem))


def test_an_individual_record_is_refused_by_a_tandem_event(
    db: EventDatabase, match_id: int
) -> None:
    with (
        db.Session() as s,
        pytest.raises(
            UserError, match="the record's format is Individual and this event's is Tandem"
        ),
    ):
        records.import_match(s, text())


def test_an_individual_record_of_another_length_is_refused(db: EventDatabase) -> None:
    individual_pair(db)
    with db.Session() as s, pytest.raises(UserError, match="match_length: record 7, event 5"):
        records.import_match(s, text(match_length=7))


def test_an_individual_record_of_an_unregistered_player_is_refused(db: EventDatabase) -> None:
    individual_pair(db)
    stranger = {"A": {"name": "Ana"}, "B": {"name": "Cleo"}}
    with db.Session() as s, pytest.raises(UserError, match="'Cleo' is not registered"):
        records.import_match(s, text(players=stranger))
