"""Match records in and out of an event (FORMATS.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import func, select

from director.domain.errors import UserError
from director.domain.records import parse_record
from director.domain.rules import EventOptions, MatchRules
from director.services import matches, records
from director.services.events import create_event
from director.services.teams import add_team
from director.store import models
from director.store.engine import EventDatabase, create_database

EXAMPLE = (
    Path(__file__).parent.parent / "fixtures" / "formats_example.tandem-match.json"
).read_text()


def register_and_pair(db: EventDatabase, *, reversed_sides: bool = False) -> int:
    """The example's two teams, registered and paired in round 1 at table 3."""
    with db.Session() as s, s.begin():
        blue = add_team(s, "Blue Bar", ("Ana", "Ben")).value.id
        gammonites = add_team(s, "Gammonites", ("Cleo", "Dev")).value.id
        rnd = models.Round(number=1)
        s.add(rnd)
        s.flush()
        a, b = (gammonites, blue) if reversed_sides else (blue, gammonites)
        return matches.create_match(s, a, b, round_id=rnd.id, table=3).value.id


def test_import_then_export_gives_the_same_record(db: EventDatabase) -> None:
    match_id = register_and_pair(db)
    with db.Session() as s, s.begin():
        match = records.import_match(s, EXAMPLE)
    assert match.id == match_id
    with db.Session() as s:
        exported = records.export_match(s, match.id)
    assert parse_record(exported) == parse_record(EXAMPLE)


def test_import_refuses_a_record_whose_players_differ(db: EventDatabase) -> None:
    with db.Session() as s, s.begin():
        add_team(s, "Blue Bar", ("Someone", "Else"))
        add_team(s, "Gammonites", ("Cleo", "Dev"))
    with db.Session() as s, s.begin(), pytest.raises(UserError, match="plays Someone and Else"):
        records.import_match(s, EXAMPLE)


def test_import_refuses_other_rules(db: EventDatabase) -> None:
    register_and_pair(db)
    other = EXAMPLE.replace('"match_length": 5', '"match_length": 7')
    with db.Session() as s, s.begin(), pytest.raises(UserError, match="rules differ") as info:
        records.import_match(s, other)
    assert "round 1, table 3" in str(info.value)
    assert "match_length: record 7, event 5" in str(info.value)


def test_formats_import_never_creates_teams(db: EventDatabase) -> None:
    """Defect 9: the record's teams must be registered in the event."""
    with db.Session() as s, s.begin():
        add_team(s, "Blue Bar", ("Ana", "Ben"))
    with db.Session() as s, pytest.raises(UserError, match="'Gammonites' is not registered"):
        records.import_match(s, EXAMPLE)
    with db.Session() as s:
        assert s.scalar(select(func.count()).select_from(models.Team)) == 1
        assert s.scalar(select(func.count()).select_from(models.Match)) == 0


def test_formats_import_fills_the_paired_match_and_names_round_and_table(
    db: EventDatabase,
) -> None:
    match_id = register_and_pair(db)
    with db.Session() as s, s.begin():
        match = records.import_match(s, EXAMPLE)
    assert (match.id, match.round, match.table) == (match_id, 1, 3)
    assert records.where(match) == "round 1, table 3"
    assert match.outcome.score.as_dict() == {"A": 4, "B": 3}


def test_formats_import_into_a_match_with_the_sides_the_other_way_round(
    db: EventDatabase,
) -> None:
    register_and_pair(db, reversed_sides=True)  # Gammonites are side A of the paired match
    with db.Session() as s, s.begin():
        match = records.import_match(s, EXAMPLE)
    assert match.team_a.name == "Gammonites"
    assert match.outcome.score.as_dict() == {"A": 3, "B": 4}


def test_formats_the_same_record_twice_is_refused(db: EventDatabase) -> None:
    """Defect 9: a record whose games are already in the event is refused."""
    register_and_pair(db)
    with db.Session() as s, s.begin():
        records.import_match(s, EXAMPLE)
    with (
        db.Session() as s,
        pytest.raises(UserError, match=r"already in the event \(round 1, table 3\)"),
    ):
        records.import_match(s, EXAMPLE)


def test_formats_a_record_with_no_paired_match_is_refused(db: EventDatabase) -> None:
    with db.Session() as s, s.begin():
        add_team(s, "Blue Bar", ("Ana", "Ben"))
        add_team(s, "Gammonites", ("Cleo", "Dev"))
    with (
        db.Session() as s,
        pytest.raises(UserError, match="no paired match of Blue Bar v Gammonites"),
    ):
        records.import_match(s, EXAMPLE)


def test_rules_5_prime_an_event_without_the_option_refuses_an_agreed_level(
    tmp_path: Path,
) -> None:
    """Defect 4: rule 5′ is the domain's rule, applied on import (the example uses it)."""
    db = create_database(str(tmp_path / "no-5-prime.tandem"))
    with db.Session() as s, s.begin():
        create_event(s, "Strict", EventOptions(match=MatchRules(agreed_lower_forfeit=False)))
    register_and_pair(db)
    with db.Session() as s, pytest.raises(UserError, match="does not apply rule 5′") as info:
        records.import_match(s, EXAMPLE)
    assert str(info.value).startswith("pair 2, board 2: ")
    db.close()
