"""`tandem-director serve FILE`: the address on its first line, a clean stop, clear refusals."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.web.conftest import request

COMMAND = [sys.executable, "-m", "director.cli", "serve"]


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_serve_prints_its_address_first_and_stops_on_sigterm(event_path: Path, number: int) -> None:
    """SIGTERM (shutdown) and SIGHUP (its terminal closed) stop it cleanly, as Ctrl+C does."""
    proc = subprocess.Popen(
        [*COMMAND, str(event_path), "--host", "127.0.0.1", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    with proc:
        try:
            assert proc.stdout is not None
            first = proc.stdout.readline().strip()
            assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", first), first
            assert request(first + "api/event").json() == {
                "event": "Template Open",
                "venue": "",
                "date": "",
                "entrant": "team",
                "met": True,
            }
        finally:  # a failed check above must not leave the server running (the test would hang)
            proc.send_signal(number)
        status = proc.wait(15)
        errors = proc.stderr.read() if proc.stderr else ""
    assert status == 0, errors
    # the lock and the open mark are gone: the app could open the event now
    check = subprocess.run(
        [sys.executable, "-m", "director.cli", "check", str(event_path)],
        check=False,
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stdout


def test_a_port_in_use_is_one_clear_line(event_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = subprocess.run(
            [*COMMAND, str(event_path), "--host", "127.0.0.1", "--port", str(port)],
            check=False,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert proc.returncode == 2
    assert (
        proc.stderr.strip() == f"tandem-director: port {port} is in use: choose another with --port"
    )


def test_a_bad_port_is_refused_before_anything_opens(event_path: Path) -> None:
    proc = subprocess.run(
        [*COMMAND, str(event_path), "--port", "99999"], check=False, capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1
