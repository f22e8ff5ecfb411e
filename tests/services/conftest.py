"""Fixtures the service tests share, over the test's own event file (`db`)."""

from __future__ import annotations

import pytest

from director.services import matches
from director.services.teams import add_team
from director.store.engine import EventDatabase


@pytest.fixture
def match_id(db: EventDatabase) -> int:
    """Blue Bar (Ana, Ben) against Gammonites (Cleo, Dev) at table 1, nothing played yet."""
    with db.Session() as s, s.begin():
        a = add_team(s, "Blue Bar", ("Ana", "Ben")).value.id
        b = add_team(s, "Gammonites", ("Cleo", "Dev")).value.id
        return matches.create_match(s, a, b, table=1).value.id
