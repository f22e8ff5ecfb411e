"""SIGTERM (logout, shutdown) closes the app cleanly: no "not closed properly" next time."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from director.store.engine import open_event
from director.store.lock import lock_path, read_holder

EXE = str(Path(sys.executable).with_name("tandem-director"))


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_terminated_app_closes_its_event_cleanly(
    event_path: Path, tmp_path: Path, number: int
) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "HOME": str(tmp_path),
           "XDG_CONFIG_HOME": str(tmp_path / "config")}  # fmt: skip
    app = subprocess.Popen([EXE, str(event_path)], env=env, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(600):  # the app is up once it holds the event's lock
            holder = read_holder(event_path)
            if holder is not None and holder.pid == app.pid:
                break
            assert app.poll() is None, app.stderr.read() if app.stderr else ""
            time.sleep(0.1)
        else:
            pytest.fail("the app did not open the event")
        time.sleep(1)  # let it finish opening (pages, backup)
        app.send_signal(number)
        assert app.wait(timeout=60) == 0
    finally:
        if app.poll() is None:
            app.kill()
            app.wait()
        if app.stderr:
            app.stderr.close()
    assert not lock_path(event_path).exists()
    db = open_event(str(event_path), make_backup=False)
    try:
        assert not db.report.unclean
    finally:
        db.close()
