"""Kill the desktop app (SIGKILL) while phones' result slips wait at the desk: no confirmed
slip is lost, none is stored twice when the phones resend, and the director accepts them after
the restart (issue 18, nothing lost).

The child (app_slips_child.py) is the real app: main window, Phones at the tables turned on.
The phones are HTTP clients sending what the slip page sends (its uid, side and device id).
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from director.domain.rules import Side
from director.services import matches, slips
from director.services.slips import SlipStatus
from director.store.engine import open_event
from tests.web.conftest import hexid, pair_round, request

CHILD = Path(__file__).with_name("app_slips_child.py")
pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def app(event: Path, port: int) -> Iterator[tuple[subprocess.Popen[str], str]]:
    child = subprocess.Popen(
        [sys.executable, str(CHILD), str(event), str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        url = child.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:"), child.communicate(timeout=30)
        yield child, url
    finally:
        if child.poll() is None:
            child.kill()
        child.communicate(timeout=30)


def game(board: int) -> dict[str, object]:
    return {"pair": 1, "board": board, "winner": "A", "end": "bear-off", "level": "single",
            "cube": 1}  # fmt: skip


def enter(url: str, token: str, uid: str, device: str, board: int) -> int:
    slip = {"uid": uid, "device": device, "game": game(board)}
    return request(f"{url}api/slip/{token}", slip).status


def confirm(url: str, token: str, uid: str, device: str) -> int:
    answer = {"uid": uid, "device": device, "agree": True, "reason": ""}
    return request(f"{url}api/slip/{token}/answer", answer).status


def test_killing_the_app_with_slips_pending_loses_no_confirmed_slip(event_path: Path) -> None:
    event = event_path
    db = open_event(str(event), make_backup=False)
    try:
        first, second = pair_round(db, 4)
        with db.Session() as s, s.begin():
            tokens = {m: slips.token_for(s, m, Side.A) or "" for m in (first, second)}
            others = {m: slips.token_for(s, m, Side.B) or "" for m in (first, second)}
    finally:
        db.close()
    a, b = hexid(), hexid()  # the two teams' phones
    confirmed, entered = hexid(), hexid()
    port = free_port()

    with app(event, port) as (child, url):
        assert enter(url, tokens[first], confirmed, a, 1) == 200
        assert confirm(url, others[first], confirmed, b) == 200  # now pending at the desk
        assert enter(url, tokens[second], entered, a, 2) == 200  # the other team not yet
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        assert child.returncode == -signal.SIGKILL

    db = open_event(str(event), make_backup=False)  # as the app reopens it after a crash
    try:
        with db.Session() as s:
            pending = slips.pending_slips(s)
            _, waiting = slips.slips_of_match(s, tokens[second])
    finally:
        db.close()
    assert [(p.match_id, p.board) for p in pending] == [(first, 1)]
    assert [(w.board, w.status) for w in waiting] == [(2, SlipStatus.UNCONFIRMED)]

    # the app again: the phones resend what they had not heard back about (the same uids),
    # the other team confirms, and the director accepts both at the desk
    with app(event, port) as (child, url):
        assert enter(url, tokens[second], entered, a, 2) == 200
        assert confirm(url, others[second], entered, b) == 200
        assert confirm(url, others[first], confirmed, b) in (200, 409)  # already confirmed
        child.send_signal(signal.SIGKILL)

    db = open_event(str(event), make_backup=False)
    try:
        with db.Session() as s, s.begin():
            pending = slips.pending_slips(s)
            assert sorted((p.match_id, p.board) for p in pending) == [(first, 1), (second, 2)]
            for p in pending:
                slips.accept_slip(s, p.id)
        with db.Session() as s:
            for match_id, board in ((first, 1), (second, 2)):
                match = matches.get_match(s, match_id)
                assert [(g.board, g.winner) for g in match.games] == [(board, Side.A)]
    finally:
        db.close()
