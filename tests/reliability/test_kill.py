"""SIGKILL a writer at random moments: no acknowledged result is ever lost or half-written.

A writer process records, corrects and undoes results through the services at full speed and
reports each one only after its commit returned; it is killed at random moments (while it
opens the file, makes its backup, writes, commits). After every kill the file is reopened as
the app does, which must notice the unclean shutdown and run the full checks.
"""

from __future__ import annotations

import os
from pathlib import Path

from tests.reliability.kill_harness import prepare_event, run_kills

KILLS = int(os.environ.get("TANDEM_KILLS", "100"))


def test_no_acknowledged_result_is_lost_when_the_writer_is_killed(tmp_path: Path) -> None:
    event = tmp_path / "killed.tandem"
    prepare_event(event)
    with (tmp_path / "writer-stderr.txt").open("wb") as stderr:
        tally = run_kills(event, KILLS, seed=20260301, stderr=stderr)
    print(tally.summary())
    errors = (tmp_path / "writer-stderr.txt").read_text()
    assert tally.writer_errors == [], (tally.writer_errors, errors)
    assert tally.failures == []
    assert tally.kills == KILLS >= 100
    assert tally.lost == 0
    assert tally.integrity_failures == 0
    # the test must really have killed writers mid-work, many times, after real commits:
    # some between a commit and its report (the window a power cut hits), some mid-transaction
    assert tally.acknowledged >= KILLS
    assert tally.in_flight_committed > 0
    assert tally.in_flight_committed + tally.in_flight_absent >= KILLS // 4
    # every writer that got the file open died holding it: each reopen must have noticed
    assert tally.unclean_detected >= tally.opened
