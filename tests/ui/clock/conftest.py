"""The clock window over a real event file, with a time source the test moves by hand."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from director.domain.clock import TimeSource
from director.domain.rules import EventOptions
from director.store.engine import open_database
from director.ui.clock.launch import open_clock_window
from director.ui.clock.window import ClockWindow
from director.ui.context import EventContext
from tests.ui.app_helpers import seed_match
from tests.ui.clock.clock_helpers import FakeTime

OpenClock = Callable[..., ClockWindow]


@pytest.fixture
def fake_time() -> FakeTime:
    return FakeTime()


@pytest.fixture
def open_clock(
    qtbot: QtBot, event_path: Path, fake_time: FakeTime, settings: QSettings
) -> Iterator[OpenClock]:
    """open_clock(options=None, source=fake_time, match_id=None) -> a shown clock window."""
    contexts: list[EventContext] = []
    windows: list[ClockWindow] = []

    def make(
        options: EventOptions | None = None,
        source: TimeSource | None = None,
        match_id: int | None = None,
    ) -> ClockWindow:
        if match_id is None:
            match_id = seed_match(event_path, options)
        ctx = EventContext(open_database(str(event_path)))
        contexts.append(ctx)
        window = open_clock_window(ctx, match_id, source=source or fake_time, settings=settings)
        qtbot.addWidget(window)
        windows.append(window)
        return window

    yield make
    for window in windows:
        window.close()
    for ctx in contexts:
        ctx.close()
