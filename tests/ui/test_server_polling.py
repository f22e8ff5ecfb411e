"""Several stations on one PostgreSQL event: each window shows the others' results within a few
seconds, and a change that lost the race is refused with the view refreshed.

These run against the real server `scripts/postgres.sh` starts; each test gets its own
database. Without TANDEM_TEST_PG_URL they fail (see tests/store/test_postgres.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot
from sqlalchemy import create_engine, make_url, text

from director.domain.changes import Area, Changes
from director.domain.errors import ConflictError, UserError
from director.domain.rules import End, EventOptions, Level, Side
from director.domain.scoring import Game
from director.services.events import create_event
from director.services.games import record_game
from director.services.matches import create_match
from director.services.sync import POLL_SECONDS
from director.services.teams import add_team, edit_team
from director.store.engine import create_database, open_event
from director.ui.context import EventContext
from director.ui.desk.match_desk import MatchDeskPage
from director.ui.main_window import MainWindow
from director.ui.pages import DESK
from director.ui.teams_page import TeamsPage
from tests.pg import fresh_database, server_url
from tests.ui.app_helpers import OFFSCREEN_NOISE, throwaway_settings

pytestmark = [pytest.mark.postgres, pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)]

G1 = Game(pair=1, board=1, winner=Side.A, end=End.BEAR_OFF, level=Level.SINGLE)
G2 = Game(pair=1, board=2, winner=Side.B, end=End.BEAR_OFF, level=Level.GAMMON)
PASSWORD = "hush-hush"  # the test server trusts its socket: a password is sent, never checked


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh, empty database on the test server for this test only."""
    with fresh_database(PASSWORD) as url:
        yield url


@pytest.fixture
def match_id(pg_url: str) -> int:
    db = create_database(pg_url)
    with db.Session() as session, session.begin():
        create_event(session, "Club Open", EventOptions())
        a = add_team(session, "Blue Bar", ("Ana", "Ben")).value.id
        b = add_team(session, "Gammonites", ("Cleo", "Dev")).value.id
        match = create_match(session, a, b, table=1).value.id
    db.close()
    return match


@pytest.fixture
def station(qtbot: QtBot, tmp_path: Path) -> Iterator[MainWindow]:
    settings: QSettings = throwaway_settings(tmp_path)
    window = MainWindow(settings)
    qtbot.addWidget(window)
    window.show()
    yield window
    window.close_event()


@pytest.fixture
def other_station(pg_url: str, match_id: int) -> Iterator[EventContext]:
    """A second station on the same event (created by `match_id`)."""
    ctx = EventContext(open_event(pg_url))
    yield ctx
    ctx.close()


def desk_on(window: MainWindow, match_id: int) -> MatchDeskPage:
    assert window.ctx is not None and window.view is not None
    window.ctx.match_requested.emit(match_id)
    desk = window.view.page(DESK)
    assert isinstance(desk, MatchDeskPage) and desk.match_id == match_id
    return desk


def test_another_stations_result_appears_within_a_few_seconds(
    qtbot: QtBot, station: MainWindow, other_station: EventContext, pg_url: str, match_id: int
) -> None:
    assert station.open_target(pg_url)
    assert station.watch is not None and station.watch.timer.isActive()
    assert station.watch.timer.interval() == POLL_SECONDS * 1000
    desk = desk_on(station, match_id)
    assert desk.games.rowCount() == 0
    assert station.ctx is not None
    other_station.change(record_game, match_id, G1)
    # from the moment the other station has committed: two polls and a second to spare
    with qtbot.waitSignal(
        station.ctx.changed,
        timeout=int((2 * POLL_SECONDS + 1) * 1000),
        check_params_cb=lambda changes: match_id in changes.matches,
    ):
        pass
    assert desk.games.rowCount() == 1  # the page refreshed itself
    assert desk.match is not None and [g.board for g in desk.match.games] == [1]
    assert desk.scoreline.score.text() == "1 – 0"


def test_a_change_that_lost_the_race_is_refused_and_the_view_refreshed_at_once(
    qtbot: QtBot, station: MainWindow, other_station: EventContext, pg_url: str, match_id: int
) -> None:
    assert station.open_target(pg_url)
    assert station.watch is not None
    station.watch.timer.stop()  # the refresh must come from the refusal, not from polling
    desk = desk_on(station, match_id)
    seen = desk.match
    assert seen is not None and seen.games == ()
    other_station.change(record_game, match_id, G1)
    assert station.ctx is not None
    with (
        qtbot.waitSignal(station.ctx.changed) as signal,
        pytest.raises(ConflictError, match="changed on another station"),
    ):
        station.ctx.change(record_game, match_id, G2, version=seen.version)
    assert signal.args == [Changes.match(match_id)]
    assert desk.games.rowCount() == 1  # the other station's game, not ours
    assert desk.match is not None and [g.board for g in desk.match.games] == [1]


def test_a_team_edit_that_lost_the_race_shows_the_other_stations_name(
    qtbot: QtBot, station: MainWindow, other_station: EventContext, pg_url: str, match_id: int
) -> None:
    assert station.open_target(pg_url)
    assert station.watch is not None and station.view is not None and station.ctx is not None
    station.watch.timer.stop()  # the refresh must come from the refusal, not from polling
    page = station.view.page(0)
    assert isinstance(page, TeamsPage)
    seen = next(t for t in page.model.teams() if t.name == "Blue Bar")
    other_station.change(edit_team, seen.id, version=seen.version, name="Blue Bar Club")
    assert "Blue Bar" in [t.name for t in page.model.teams()]  # not seen yet
    with (
        qtbot.waitSignal(station.ctx.changed) as signal,
        pytest.raises(UserError, match="changed on another station"),
    ):
        station.ctx.change(edit_team, seen.id, version=seen.version, name="Blue Bars")
    assert signal.args == [Changes.of(Area.TEAMS)]
    assert sorted(t.name for t in page.model.teams()) == ["Blue Bar Club", "Gammonites"]


def test_a_server_event_shows_its_address_without_the_password_and_offers_no_file_restore(
    station: MainWindow, pg_url: str, match_id: int
) -> None:
    assert station.open_target(pg_url)
    assert station.view is not None
    assert PASSWORD not in station.windowTitle()
    assert station.windowTitle().startswith("Club Open – postgresql")
    assert "***" in station.windowTitle()
    assert PASSWORD not in station.view.where.text() + station.view.where.toolTip()
    assert not station.restore_action.isEnabled()
    assert station.restore_from_backup() is None
    assert station.recent.entries() == []  # a server address is not kept in the settings
    station.close_event()
    assert station.watch is None


def test_a_station_that_loses_the_server_says_so_and_recovers(
    qtbot: QtBot, station: MainWindow, pg_url: str, match_id: int
) -> None:
    assert station.open_target(pg_url)
    name = make_url(pg_url).database
    admin = create_engine(server_url(), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:  # the server turns every station away
            connection.execute(text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false'))
            connection.execute(
                text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :n"),
                {"n": name},
            )
        qtbot.waitUntil(lambda: station.messages.kind == "error", timeout=8000)
        assert station.messages.text.startswith("The database server cannot be reached")
        assert station.ctx is not None and station.view is not None  # still open, still shown
        with admin.connect() as connection:
            connection.execute(text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true'))
        qtbot.waitUntil(lambda: station.messages.kind == "info", timeout=8000)
        assert station.messages.text == "The database server can be reached again."
    finally:
        admin.dispose()


def test_one_answer_of_the_server_is_one_signal_naming_all_it_changed(
    qtbot: QtBot, station: MainWindow, other_station: EventContext, pg_url: str, match_id: int
) -> None:
    """Each page reads again at most once per poll, however much the other station did."""
    assert station.open_target(pg_url)
    assert station.watch is not None and station.ctx is not None
    station.watch.timer.stop()
    team = other_station.change(add_team, "Late Owls", ("Eve", "Finn"))
    other_station.change(record_game, match_id, G1)
    seen: list[Changes] = []
    station.ctx.changed.connect(seen.append)
    station.watch.poll()
    qtbot.waitUntil(lambda: bool(seen), timeout=5000)
    qtbot.wait(50)  # nothing more follows
    assert len(seen) == 1
    (changes,) = seen
    assert changes.touches(Area.TEAMS, Area.RESULTS) and changes.matches == {match_id}
    assert team.id not in changes.matches
