"""A hung PostgreSQL server (every process SIGSTOPped) never freezes the station: within 5 s
it says "not answering", and once the server runs again the result is stored (issue 14, 5).
Every database call of the GUI goes through `ui.background`, so these cover them all."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QElapsedTimer, QEvent, QTimer
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot
from sqlalchemy import create_engine, text

from director.domain.rules import End, EventOptions, Level, Side
from director.domain.scoring import Game
from director.services.events import create_event, get_event
from director.services.games import record_game
from director.services.matches import create_match, get_match
from director.services.rounds import list_rounds, pair_next_round, undo_last_round
from director.services.teams import add_team
from director.store.engine import create_database, open_database
from director.ui.background import NOT_ANSWERING
from director.ui.context import EventContext
from director.ui.server_watch import ServerWatch
from tests.pg import fresh_database, no_connections_to, server_url

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


def resume(pids: list[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):  # a backend that has ended meanwhile
            os.kill(pid, signal.SIGCONT)


@contextlib.contextmanager
def stopped_server() -> Iterator[list[int]]:
    pids = server_processes()
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGSTOP)
    try:
        yield pids
    finally:
        resume(pids)


def test_a_hung_server_is_reported_and_the_result_is_stored_once_it_runs(qtbot: QtBot) -> None:
    with fresh_database() as url:
        db = create_database(url)
        with db.Session() as session, session.begin():
            create_event(session, "Club Open", EventOptions())
            a = add_team(session, "Anchors", ("Ann", "Al")).value.id
            b = add_team(session, "Bears", ("Bo", "Bea")).value.id
            match = create_match(session, a, b).value.id
        db.close()
        ctx = EventContext(open_database(url))
        notices: list[str] = []
        reports: list[tuple[str, bool]] = []
        ctx.notified.connect(notices.append)
        watch = ServerWatch(ctx, lambda message, problem: reports.append((message, problem)))
        watch.start()
        done: list[object] = []
        try:
            with stopped_server():
                ctx.change_later(record_game, match, G1, on_done=done.append)
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


def test_a_station_closed_on_a_hung_server_leaves_no_connection_open_once_it_answers(
    qtbot: QtBot,
) -> None:
    """Closing does not wait for a call the hung server holds (`Background.stop`); when the
    server runs again that call ends and its connection is closed, not left in the closed
    event's pool: a server slot held until the garbage collector found it, and psycopg's
    "deleted while still open" then failed whichever test was running (the server watch's
    poll, answering just after the first test here closed its event, did it)."""
    with fresh_database() as url:
        db = create_database(url)
        with db.Session() as session, session.begin():
            create_event(session, "Club Open", EventOptions())
        db.close()
        ctx = EventContext(open_database(url))
        notices: list[str] = []
        ctx.notified.connect(notices.append)
        workers = ctx.background.pool
        kept = [ctx.db.engine.pool]  # the closed event's pool, as long as no collection runs
        try:
            with stopped_server():
                ctx.background.run(get_event)
                qtbot.waitUntil(lambda: NOT_ANSWERING in notices, timeout=5000)
                ctx.close()  # the director closes the event meanwhile
        finally:
            if not ctx.background.stopped:
                ctx.close()
        workers.shutdown(wait=True)  # the call the server held has ended
        assert no_connections_to(url)
        kept.clear()


def settle() -> None:
    """Run now what earlier tests left (widgets closed for deferred deletion, their timers):
    a test calls from outside any event loop, so the call's waiting loop would run them."""
    QCoreApplication.sendPostedEvents(None, int(QEvent.Type.DeferredDelete.value))
    QCoreApplication.processEvents()


def _record(ctx: EventContext, match: int) -> object:
    return ctx.change(record_game, match, G1)


def _undo(ctx: EventContext, _match: int) -> object:
    return ctx.change(undo_last_round)


def _read(ctx: EventContext, match: int) -> object:
    return ctx.read(get_match, match)


@pytest.mark.parametrize("call", [_record, _undo, _read], ids=["record", "undo", "page read"])
def test_a_call_waiting_on_a_hung_server_keeps_the_window_running_and_says_so(
    qtbot: QtBot, call: Callable[[EventContext, int], object]
) -> None:
    """The record dialog, the rounds page's undo and every page's refresh go through
    `ctx.change`/`ctx.read`: while the server is stopped the GUI thread keeps running its
    timers (it paints), "not answering" comes before the server runs again, and the call
    answers once it does."""
    with fresh_database() as url:
        db = create_database(url)
        with db.Session() as session, session.begin():
            create_event(session, "Club Open", EventOptions())
            add_team(session, "Anchors", ("Ann", "Al"))
            add_team(session, "Bears", ("Bo", "Bea"))
            match = pair_next_round(session).value.matches[0].id
        db.close()
        settle()
        ctx = EventContext(open_database(url))
        window = QLabel("station")
        qtbot.addWidget(window)
        window.show()
        running = [True]  # is the server running
        notices: list[tuple[str, bool]] = []
        ctx.notified.connect(lambda text: notices.append((text, running[0])))
        ticks: list[bool] = []  # the GUI thread's timer while the call waits
        try:
            with stopped_server() as pids:
                running[0] = False
                waited = QElapsedTimer()
                waited.start()

                def tick() -> None:
                    ticks.append(running[0])
                    window.repaint()
                    said = any(NOT_ANSWERING in text for text, _ in notices)
                    if running[0] or not (said or waited.elapsed() > 6000):
                        return
                    resume(pids)
                    running[0] = True

                ticker = QTimer(window)
                ticker.setInterval(100)
                ticker.timeout.connect(tick)
                ticker.start()
                # a backstop off the GUI thread: a blocked GUI thread would never resume it
                backstop = threading.Timer(12, resume, (pids,))
                backstop.start()
                answer = call(ctx, match)
                backstop.cancel()
                ticker.stop()
            assert (NOT_ANSWERING, False) in notices  # said while the server was stopped
            assert ticks.count(False) >= 10  # the window ran on while the call waited
            assert ("The database server answers again.", True) in notices
        finally:
            ctx.close()
        check = open_database(url)
        with check.Session() as session:
            if call is _record:
                assert get_match(session, match).games == (G1,)
            elif call is _undo:
                assert answer == 1
                assert list_rounds(session) == []
            else:
                assert answer == get_match(session, match)
        check.close()
