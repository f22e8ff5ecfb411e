"""The desk's commands to the phone clocks (start both boards, pause, resume, restore a time
with a reason) are kept in the event file: a restart of the table service loses none, a phone
that comes back gets them, and a restore's reason reaches the audit once (RULES §7). Real
servers over one real event file; the phone's side is its HTTP requests."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from director.domain.clock import NS_PER_SECOND, ClockEvent, EventKind
from director.domain.rules import Side
from director.services import phone_clocks, slips
from director.store import models
from director.store.engine import EventDatabase, open_event
from director.web.server import TableService
from tests.web.conftest import pair_round, request

NS = NS_PER_SECOND


@pytest.fixture
def event(event_path: Path) -> Iterator[tuple[EventDatabase, list[int], list[str]]]:
    db = open_event(str(event_path), make_backup=False)
    try:
        ids = pair_round(db, 4)
        with db.Session() as s, s.begin():
            tokens = [slips.token_for(s, m, Side.A) or "" for m in ids]
        yield db, ids, tokens
    finally:
        db.close()


def send(url: str, token: str, board: int, first: int, events: list[ClockEvent]) -> object:
    body = {"first": first, "events": [phone_clocks.wire(e) for e in events]}
    answer = request(f"{url}api/clock/{token}/{board}/log", body)
    assert answer.status == 200, answer.body
    return answer.json()


def audit_reasons(db: EventDatabase) -> list[str]:
    with db.Session() as s:
        rows = s.query(models.AuditEntry).filter_by(action=phone_clocks.ADJUST_ACTION)
        return [a.reason for a in rows]


def test_rules_7_the_desks_commands_survive_a_restart_of_the_table_service(
    event: tuple[EventDatabase, list[int], list[str]],
) -> None:
    db, ids, tokens = event
    first = TableService(db, "127.0.0.1", 0)
    url = first.start()[0]
    try:
        t0 = int(request(f"{url}api/clock-time").json()["server_ns"])  # type: ignore[index]
        # each board's phone names its first mover; the desk starts both boards
        send(url, tokens[0], 1, 0, [ClockEvent(EventKind.FIRST_MOVER, t0, 1, Side.A)])
        send(url, tokens[0], 2, 0, [ClockEvent(EventKind.FIRST_MOVER, t0, 2, Side.B)])
        room = first.web.clocks
        start = first.web.session_run(room.schedule_start, ids[0]).value
        # board 1's phone starts at the common instant and is paused there after 5 s
        at = int(start["at_ns"])
        board1 = [
            ClockEvent(EventKind.START, at, 1, Side.A),
            ClockEvent(EventKind.PAUSE, at + 5 * NS, 1),
        ]
        send(url, tokens[0], 1, 1, board1)
        # the desk restores A1's time with a reason and resumes board 1
        adjust = first.web.session_run(
            room.command, ids[0], 1, EventKind.ADJUST, Side.A, 90 * NS, "clock fault"
        ).value
        resume = first.web.session_run(room.command, ids[0], 1, EventKind.RESUME).value
    finally:
        first.stop()  # the laptop's service goes down before any phone carried them out

    second = TableService(db, "127.0.0.1", 0)
    url = second.start()[0]
    try:
        view = request(f"{url}api/clock/{tokens[0]}/1").json()
        assert isinstance(view, dict)
        assert [c["id"] for c in view["commands"]] == [adjust["id"], resume["id"]]
        assert view["commands"][0] == adjust  # the same command: the phone does it once
        # board 2's phone, which missed the start, still gets it (the same one, once)
        assert request(f"{url}api/clock/{tokens[0]}/2").json()["start"] == start  # type: ignore[index]
        # board 1's phone carries the restore out; its log reaches the new server (twice: a retry)
        t = int(adjust["issued_ns"]) + NS
        done = [ClockEvent(EventKind.ADJUST, t, 1, Side.A, 90 * NS)]
        for _ in range(2):
            assert send(url, tokens[0], 1, 3, done) == {"stored": 4, "other_phone": False}
        assert audit_reasons(db) == ["clock fault"]
    finally:
        second.stop()


def test_a_command_older_than_its_life_is_not_handed_out(
    event: tuple[EventDatabase, list[int], list[str]],
) -> None:
    """A phone carries out a command only soon after it was given; the desk hands out no
    older one, judged by the wall clock (a reboot restarts the monotonic clock)."""
    db, ids, _ = event
    with db.Session() as s, s.begin():
        given = phone_clocks.give_command(s, ids[0], EventKind.PAUSE, 1, issued_ns=5)
        row = s.query(models.ClockCommand).filter_by(ident=given["id"]).one()
        soon, late = row.created_at + timedelta(seconds=59), row.created_at + timedelta(seconds=61)
        assert phone_clocks.clock_channel(s, ids[0], soon)["commands"] == [given]
        assert phone_clocks.clock_channel(s, ids[0], late)["commands"] == []
