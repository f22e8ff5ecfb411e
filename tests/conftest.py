"""Shared test set-up: Qt renders offscreen, and event files are real SQLite files on disk."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from director.domain.rules import EventOptions
from director.services.events import create_event
from director.store.engine import EventDatabase, create_database, open_database


@pytest.fixture(scope="session")
def template_event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty event file built once through the real migrations; tests copy it."""
    path = tmp_path_factory.mktemp("template") / "template.tandem"
    db = create_database(str(path))
    with db.Session() as session, session.begin():
        create_event(session, "Template Open", EventOptions())
    db.close()
    return path


@pytest.fixture
def event_path(template_event: Path, tmp_path: Path) -> Path:
    path = tmp_path / "event.tandem"
    shutil.copy(template_event, path)
    return path


@pytest.fixture
def db(event_path: Path) -> Iterator[EventDatabase]:
    database = open_database(str(event_path))
    yield database
    database.close()
