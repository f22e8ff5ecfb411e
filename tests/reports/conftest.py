"""Fixtures for the report tests: built events on real files, reportlab's invariant mode."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from reportlab import rl_config

from director.services.reports import render
from director.store.engine import EventDatabase
from tests.reports.eventdata import Built, build_event

Render = Callable[..., bytes]


@pytest.fixture
def invariant() -> Iterator[None]:
    """reportlab's invariant mode: fixed dates and ids, so one event gives one PDF."""
    before = rl_config.invariant
    rl_config.invariant = 1
    yield
    rl_config.invariant = before


@pytest.fixture
def built(db: EventDatabase) -> Built:
    """Six teams, three rounds: a forfeit in round 2, an unfinished match in round 3."""
    with db.Session() as session, session.begin():
        return build_event(session)


@pytest.fixture
def pdf(db: EventDatabase) -> Render:
    """render(kind, **options) on the test's event, in a fresh read-only-use session."""

    def run(kind: str, **options: Any) -> bytes:
        with db.Session() as session:
            return render(session, kind, **options)

    return run
