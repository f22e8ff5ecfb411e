"""Match records in and out of an event (FORMATS.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from director.domain.errors import UserError
from director.domain.records import parse_record
from director.services import records
from director.services.teams import add_team
from director.store.engine import EventDatabase

EXAMPLE = (
    Path(__file__).parent.parent / "fixtures" / "formats_example.tandem-match.json"
).read_text()


def test_import_then_export_gives_the_same_record(db: EventDatabase) -> None:
    with db.Session() as s, s.begin():
        match = records.import_match(s, EXAMPLE)
    with db.Session() as s:
        exported = records.export_match(s, match.id)
    assert parse_record(exported) == parse_record(EXAMPLE)


def test_import_refuses_a_record_whose_players_differ(db: EventDatabase) -> None:
    with db.Session() as s, s.begin():
        add_team(s, "Blue Bar", ("Someone", "Else"))
    with db.Session() as s, s.begin(), pytest.raises(UserError, match="plays Someone and Else"):
        records.import_match(s, EXAMPLE)


def test_import_refuses_other_rules(db: EventDatabase) -> None:
    other = EXAMPLE.replace('"match_length": 5', '"match_length": 7')
    with db.Session() as s, s.begin(), pytest.raises(UserError, match="rules differ"):
        records.import_match(s, other)
