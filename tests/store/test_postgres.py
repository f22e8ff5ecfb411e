"""Several director stations on one PostgreSQL event: schema, conflicts, polling, replay.

These run against the real server `scripts/postgres.sh` starts (CI always does); each test
gets its own database, created and dropped here. Without TANDEM_TEST_PG_URL they fail.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import select

from director.domain.errors import ConflictError, UserError
from director.domain.rules import End, EventOptions, Level, Side
from director.domain.scoring import Game
from director.services.events import create_event, get_event
from director.services.games import correct_game, record_game, undo_last_game
from director.services.matches import create_match, get_match
from director.services.sync import POLL_SECONDS, changes_since
from director.services.teams import add_team, edit_team, get_team
from director.store.engine import (
    EventDatabase,
    create_database,
    current_revision,
    head_revision,
    open_database,
    open_event,
)
from director.store.errors import CHANGED, known_database_error
from director.store.models import Base
from tests.pg import fresh_database, no_connections_to
from tests.reliability.stations import prepare, run_stations, serial_replay, snapshot

pytestmark = pytest.mark.postgres

G1 = Game(pair=1, board=1, winner=Side.A, end=End.BEAR_OFF, level=Level.SINGLE)
G2 = Game(pair=1, board=2, winner=Side.B, end=End.BEAR_OFF, level=Level.GAMMON)


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh, empty database on the test server for this test only."""
    with fresh_database() as url:
        yield url


def _event(url: str) -> tuple[EventDatabase, int]:
    db = create_database(url)
    with db.Session() as session, session.begin():
        create_event(session, "Club Open", EventOptions())
        a = add_team(session, "Anchors", ("Ann", "Al")).value
        b = add_team(session, "Bears", ("Bo", "Bea")).value
        match = create_match(session, a.id, b.id).value
    return db, match.id


def test_the_same_migrations_build_the_schema_on_an_empty_server_database(pg_url: str) -> None:
    with pytest.raises(UserError, match="not a Tandem Director event"):
        open_database(pg_url)
    db = create_database(pg_url)
    with db.Session() as session, session.begin():
        create_event(session, "Server Open", EventOptions())
    with db.engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
    assert current_revision(db.engine) == head_revision()
    db.close()
    station = open_event(pg_url)  # stations share it: no lock file, no local backups
    assert station.lock is None and station.report.backup is None
    with station.Session() as session:
        assert get_event(session).name == "Server Open"
    station.close()


def test_a_connection_given_back_after_the_event_closed_is_closed_not_left_open(
    pg_url: str,
) -> None:
    """A call still running when its event closes (closing does not wait for a hung server:
    ui/background.py) gives its connection back later. It is closed then, not kept open in
    the disposed pool until the garbage collector finds it: a server slot held meanwhile, and
    psycopg's "deleted while still open" failing whichever test runs at that collection."""
    db = create_database(pg_url)
    late = db.Session()
    late.execute(select(1))  # the call that has not answered yet holds a connection
    held = late.connection().connection.dbapi_connection
    assert isinstance(held, psycopg.Connection)
    db.close()
    late.close()  # its answer comes: the connection goes back
    assert held.closed
    assert no_connections_to(pg_url)
    with db.Session() as session:  # a late caller after the close still reads...
        assert session.execute(select(1)).scalar_one() == 1
    assert no_connections_to(pg_url)  # ...and its connection is closed as it goes back


def test_a_server_that_cannot_be_reached_gives_a_clear_message_without_the_password(
    tmp_path: Path,
) -> None:
    url = f"postgresql://director:s3cret@/tandem?host={tmp_path}"
    with pytest.raises(UserError) as caught:
        open_database(url)
    assert "s3cret" not in str(caught.value)
    assert "cannot be reached" in str(caught.value) or "cannot open" in str(caught.value)


def test_two_stations_recording_on_the_same_match_cannot_both_succeed(pg_url: str) -> None:
    one, match_id = _event(pg_url)
    two = open_database(pg_url)
    with one.Session() as s1, two.Session() as s2:
        s1.begin()
        s2.begin()
        assert get_match(s1, match_id).version == get_match(s2, match_id).version
        record_game(s1, match_id, G1)
        outcome: list[BaseException | None] = []

        def second() -> None:
            try:
                record_game(s2, match_id, G2)
                s2.commit()
                outcome.append(None)
            except BaseException as exc:
                s2.rollback()
                outcome.append(exc)

        thread = threading.Thread(target=second)
        thread.start()
        time.sleep(0.3)
        assert thread.is_alive()  # the second station waits on the first one's row lock
        s1.commit()
        thread.join(10)
    [refused] = outcome
    assert isinstance(refused, ConflictError)
    assert "changed on another station" in str(refused)
    with one.Session() as session:
        assert get_match(session, match_id).games == (G1,)  # nothing silently overwritten
    one.close()
    two.close()


def test_a_stale_version_is_refused_for_every_kind_of_result_change(pg_url: str) -> None:
    one, match_id = _event(pg_url)
    two = open_database(pg_url)
    with one.Session() as session, session.begin():
        record_game(session, match_id, G1)
    with two.Session() as session:
        seen = get_match(session, match_id)  # station two shows this version
    with one.Session() as session, session.begin():
        record_game(session, match_id, G2)
    for change in (
        lambda s: record_game(s, match_id, G1, version=seen.version).value,
        lambda s: undo_last_game(s, match_id, version=seen.version).value,
        lambda s: correct_game(s, seen.game_ids[0], G2, "typo", version=seen.version).value,
    ):
        with pytest.raises(ConflictError), two.Session() as session, session.begin():
            change(session)
    with two.Session() as session:
        again = get_match(session, match_id)
    assert again.games == (G1, G2)
    with one.Session() as session, session.begin():
        undo_last_game(session, match_id)  # station one takes back the game two shows
    with pytest.raises(ConflictError), two.Session() as session, session.begin():
        correct_game(session, again.game_ids[-1], G1, "typo", version=again.version)
    one.close()
    two.close()


def test_two_stations_editing_one_team_interleaved(pg_url: str) -> None:
    one, _ = _event(pg_url)
    two = open_database(pg_url)
    with two.Session() as session:
        seen = get_team(session, 1)  # what station two shows
    outcome: list[BaseException | None] = []
    with one.Session() as s1:
        s1.begin()
        edit_team(s1, 1, paid=True)  # station one's change, not committed yet

        def second() -> None:
            with two.Session() as s2:
                try:
                    with s2.begin():
                        edit_team(s2, 1, club="Late Club")
                    outcome.append(None)
                except BaseException as exc:
                    outcome.append(exc)

        thread = threading.Thread(target=second)
        thread.start()
        time.sleep(0.3)
        assert thread.is_alive()  # station two's write waits for station one's
        s1.commit()
        thread.join(10)
    [refused] = outcome
    assert refused is not None and known_database_error(refused) == CHANGED
    with (
        pytest.raises(UserError, match="changed on another station"),
        two.Session() as session,
        session.begin(),
    ):
        edit_team(session, 1, version=seen.version, club="Late Club")
    with one.Session() as session:
        after = get_team(session, 1)
    assert (after.paid, after.club) == (True, "")  # station one's change, and only it
    one.close()
    two.close()


def test_another_station_sees_a_new_result_within_seconds(pg_url: str) -> None:
    one, match_id = _event(pg_url)
    two = open_database(pg_url)
    with two.Session() as session:
        token, _ = changes_since(session, None)
    seen = threading.Event()

    def poll() -> None:
        nonlocal token
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with two.Session() as session:
                token, changed = changes_since(session, token)
            if match_id in changed.matches:
                seen.set()
                return
            time.sleep(POLL_SECONDS / 10)

    watcher = threading.Thread(target=poll)
    watcher.start()
    with one.Session() as session, session.begin():
        record_game(session, match_id, G1)
    assert seen.wait(POLL_SECONDS + 1)  # from the commit: one poll and a second to spare
    watcher.join()
    one.close()
    two.close()


def test_four_stations_editing_at_once_equal_a_serial_replay(pg_url: str, tmp_path: Path) -> None:
    prepare(pg_url, teams=6, matches=4).close()  # few rows: the stations collide often
    logs = run_stations(pg_url, stations=4, edits=30, seed=5)
    assert sum(len(log.edits) for log in logs) == 120
    assert sum(log.conflicts for log in logs) > 0  # they really did get in each other's way
    shared = open_database(pg_url)
    replay = prepare(str(tmp_path / "replay.tandem"), teams=6, matches=4)
    serial_replay(replay, logs)
    assert snapshot(shared) == snapshot(replay)
    shared.close()
    replay.close()
