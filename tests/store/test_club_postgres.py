"""The club's register on a PostgreSQL server: a database of its own, its own revisions."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from director.domain.errors import UserError
from director.services import club
from director.store.club import create_club, open_club
from director.store.engine import create_database, open_database
from tests.club_files import club_night
from tests.pg import fresh_database

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg_url() -> Iterator[str]:
    with fresh_database() as url:
        yield url


def test_a_club_on_the_server_publishes_and_rates(pg_url: str, tmp_path: Path) -> None:
    create_club(pg_url).close()
    with pytest.raises(UserError, match="is a club, not an event"):  # not "no event"
        open_database(pg_url)
    event = club_night(tmp_path / "night.tandem", winners="AB")
    db = open_database(str(event), read_only=True)
    with db.Session() as s:
        results = club.event_results(s)
    db.close()
    db = open_club(pg_url)
    try:
        with db.Session() as s, s.begin():
            club.publish(s, results, club.match_event(s, results))
        with db.Session() as s:
            rows = club.rating_list(s)
    finally:
        db.close()
    assert len(rows) == 8 and rows[0].rating > 1500


def test_a_club_is_never_made_in_an_event_database(pg_url: str) -> None:
    create_database(pg_url).close()
    with pytest.raises(UserError, match="already holds tables"):
        create_club(pg_url)
    with pytest.raises(UserError, match="is an event, not a club"):  # not "no club"
        open_club(pg_url)
