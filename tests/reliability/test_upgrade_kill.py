"""An older event file survives a kill at every step of its upgrade (issue 14, item 1).

A child process (forked from one server, upgrade_child.py) opens a file written by an older
version and SIGKILLs itself after the N-th SQL statement or rename of the upgrade, for every N;
after each kill the file must open (the upgrade running again if it had not finished), at the
current schema, with every row it held.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.reliability.upgrade_kill import (
    HELD_IN_ROUND,
    older_event,
    state_after_open,
    upgrade_killer,
)


def test_a_kill_at_every_step_of_an_upgrade_leaves_a_file_that_opens(tmp_path: Path) -> None:
    # the matches in a round: a revision that rebuilds the round table (0013) must keep them
    original = older_event(tmp_path / "old.tandem", in_round=True)
    expected = state_after_open(shutil.copy(original, tmp_path / "reference.tandem"))
    assert expected[1:] == HELD_IN_ROUND
    bricked: list[str] = []
    n = 1
    errors = tmp_path / "upgrade-stderr.txt"
    with errors.open("wb") as stderr, upgrade_killer(stderr) as kill:
        while True:
            victim = tmp_path / f"kill-{n}.tandem"
            shutil.copy(original, victim)
            ended = kill(victim, n)
            finished = ended == "exit0"
            assert finished or ended == "sig9", errors.read_text()
            try:
                found = state_after_open(victim)
            except Exception as exc:
                bricked.append(f"killed at step {n}: {exc}")
            else:
                if found != expected:
                    bricked.append(f"killed at step {n}: {found} != {expected}")
            if finished:
                break
            n += 1
    assert n > 5  # the upgrade really was cut at many points
    assert bricked == []
