"""A hung PostgreSQL server (every process SIGSTOPped) never freezes the station: within 5 s
it says "not answering", and once the server runs again the result is stored (issue 14, 5)."""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot
from sqlalchemy import create_engine, text

from director.domain.changes import Changes
from director.domain.rules import End, EventOptions, Level, Side
from director.domain.scoring import Game
from director.services.events import create_event
from director.services.results import create_match, get_match, record_game
from director.services.teams import add_team
from director.store.engine import create_database, open_database
from director.ui.background import NOT_ANSWERING
from director.ui.context import EventContext
from director.ui.server_watch import ServerWatch
from tests.pg import fresh_database, server_url

pytestmark = pytest.mark.postgres
G1 = Game(pair=1, board=1, winner=Side.A, end=End.BEAR_OFF, level=Level.SINGLE)


def server_processes() -> list[int]:
    """The test server's postmaster and every process it started."""
    engine = create_engine(server_url())
    with engine.connect() as connection:
        folder = Path(connection.execute(text("SHOW data_directory")).scalar_one())
    engine.dispose()
    postmaster = int((folder / "postmaster.pid").read_text().split()[0])
    children = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == postmaster:
                    children.append(int(entry.name))
    return [postmaster, *children]


@contextlib.contextmanager
def stopped_server() -> Iterator[list[int]]:
    pids = server_processes()
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    try:
        yield pids
    finally:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)


def test_a_hung_server_is_reported_and_the_result_is_stored_once_it_runs(qtbot: QtBot) -> None:
    with fresh_database() as url:
        db = create_database(url)
        with db.Session() as session, session.begin():
            create_event(session, "Club Open", EventOptions())
            a = add_team(session, "Anchors", ("Ann", "Al")).id
            b = add_team(session, "Bears", ("Bo", "Bea")).id
            match = create_match(session, a, b).id
        db.close()
        ctx = EventContext(open_database(url))
        notices: list[str] = []
        reports: list[tuple[str, bool]] = []
        ctx.notice.connect(notices.append)
        watch = ServerWatch(ctx, lambda message, problem: reports.append((message, problem)))
        watch.start()
        done: list[object] = []
        try:
            with stopped_server():
                ctx.change_later(Changes.match(match), record_game, match, G1, on_done=done.append)
                qtbot.waitUntil(lambda: NOT_ANSWERING in notices, timeout=5000)
                qtbot.waitUntil(lambda: any(NOT_ANSWERING in m for m, _ in reports), timeout=7000)
                assert done == []  # not shown as saved while the server has not accepted it
            qtbot.waitUntil(lambda: bool(done), timeout=30000)
            assert "The database server answers again." in notices
        finally:
            watch.stop()
            ctx.close()
        check = open_database(url)
        with check.Session() as session:
            assert get_match(session, match).games == (G1,)
        check.close()
