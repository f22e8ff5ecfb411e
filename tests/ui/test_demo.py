"""The demo event: built through the services, a living tournament, rebuilt fresh each time."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from director.services.matches import list_matches
from director.services.rounds import list_rounds
from director.services.teams import list_teams
from director.store.engine import open_database
from director.ui.demo import build_demo_event, demo_folder


def test_the_demo_is_an_event_under_way(tmp_path: Path) -> None:
    path = build_demo_event(tmp_path)
    db = open_database(str(path))
    try:
        with db.Session() as session:
            teams = list_teams(session)
            rounds = list_rounds(session)
            matches = list_matches(session)
    finally:
        db.close()
    assert len(teams) >= 8
    assert rounds
    assert any(m.outcome.finished for m in matches)
    assert any(not m.outcome.finished for m in matches)  # something left to enter


def test_opening_the_demo_again_builds_a_new_one_and_clears_old_ones(tmp_path: Path) -> None:
    first = build_demo_event(tmp_path)
    stale = tmp_path / "Demo club night 2020-01-01 10.00.00.000000.tandem"
    stale.write_bytes(b"last year's demo")
    os.utime(stale, (0, 0))
    second = build_demo_event(tmp_path)
    assert second != first
    assert first.is_file()  # it may still be open in another window: left alone
    assert not stale.exists()
    open_database(str(second)).close()  # a real event


def test_the_demo_lives_in_the_user_data_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert demo_folder() == tmp_path / "tandem-director" / "demo"
