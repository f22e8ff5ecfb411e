"""Fixtures for the report tests: built events on real files, reportlab's invariant mode."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from reportlab import rl_config

from director.services.reports import render
from director.store.engine import EventDatabase
from tests.reports.eventdata import Built

Render = Callable[..., bytes]


@pytest.fixture
def invariant() -> Iterator[None]:
    """reportlab's invariant mode: fixed dates and ids, so one event gives one PDF."""
    before = rl_config.invariant
    rl_config.invariant = 1
    yield
    rl_config.invariant = before


@pytest.fixture
def built(db: EventDatabase, built_template: tuple[Path, Built]) -> Built:
    """Six teams, three rounds: a forfeit in round 2, an unfinished match in round 3. The
    test's file becomes a copy of the one built once (`built_template`)."""
    template, built = built_template
    db.engine.dispose()  # no connection is open on the file while it is replaced
    assert not Path(f"{db.path}-wal").exists()
    shutil.copy(template, db.path)
    return built


@pytest.fixture
def pdf(db: EventDatabase) -> Render:
    """render(kind, **options) on the test's event, in a fresh read-only-use session."""

    def run(kind: str, **options: Any) -> bytes:
        with db.Session() as session:
            return render(session, kind, **options)

    return run
