"""`tandem-director clock FILE MATCH`: a real subprocess; refusals are one line and status 2."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from tests.ui.app_helpers import seed_match
from tests.ui.clock.clock_helpers import stored_log

EXE = str(Path(sys.executable).with_name("tandem-director"))


def run_clock(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run(
        [EXE, "clock", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
    )


def test_a_missing_match_is_one_line_and_status_2(event_path: Path) -> None:
    done = run_clock(str(event_path), "999")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == ["tandem-director: there is no match 999"]


def test_a_match_that_is_no_number_is_refused(event_path: Path) -> None:
    done = run_clock(str(event_path), "first")
    assert done.returncode == 2
    assert "'first' is not a whole number" in done.stderr


def test_a_missing_event_file_is_refused(tmp_path: Path) -> None:
    done = run_clock(str(tmp_path / "nowhere.tandem"), "1")
    assert done.returncode == 2
    assert "does not exist" in done.stderr


def test_the_clock_window_opens_and_keeps_the_event_open(event_path: Path) -> None:
    match_id = seed_match(event_path)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    with subprocess.Popen(
        [EXE, "clock", str(event_path), str(match_id)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    ) as process:
        time.sleep(4)
        running = process.poll() is None
        process.terminate()
        _, errors = process.communicate(timeout=30)
    assert running, errors
    assert stored_log(event_path, match_id) == []  # opened, nothing started: nothing logged
