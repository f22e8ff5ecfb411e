"""Killed while publishing, the club holds the event as it was before or after, never half."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from director.domain.rating import Outcome
from director.services import club
from director.store.club import create_club, open_club
from director.store.integrity import integrity_problems
from tests.reliability import club_publish_child as child

pytestmark = pytest.mark.slow


def test_a_publish_killed_at_any_moment_leaves_the_club_before_or_after(tmp_path: Path) -> None:
    path = tmp_path / "kill.club"
    create_club(str(path)).close()
    rng = random.Random(30)
    acknowledged = 0
    for _ in range(6):
        proc = subprocess.Popen(
            [sys.executable, "-m", "tests.reliability.club_publish_child", str(path)],
            stdout=subprocess.PIPE, text=True, cwd=Path(__file__).parents[2],
        )  # fmt: skip
        assert proc.stdout is not None
        proc.stdout.readline()  # one publication committed: kill during a later one
        time.sleep(rng.uniform(0.0, 1.5))
        proc.send_signal(signal.SIGKILL)
        said = [int(line) for line in proc.stdout.read().split()]
        proc.stdout.close()
        proc.wait()
        db = open_club(str(path), make_backup=False)  # the stale lock is recognised
        try:
            assert integrity_problems(db) == []
            with db.Session() as s:
                results = club.club_results(s)
                names = [r.name for r in club.rating_list(s, results)]
        finally:
            db.close()
        assert len(results) == child.MATCHES, "half an event in the club"
        flipped = [r.outcome for r in sorted(results, key=lambda r: r.order)]
        whole = [m.outcome for m in child.results(False).matches]
        other = [m.outcome for m in child.results(True).matches]
        assert flipped in (whole, other)
        assert Outcome.A_WON in flipped and len(names) == 97 + 89
        acknowledged += len(said)
    assert acknowledged > 0
