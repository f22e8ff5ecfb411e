"""The reliability tests (kills, full disks, fuzzing, the state machine) are the `slow` ones:
`pytest -m "not slow"` leaves them out for a quick run; CI runs them all the same."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.slow)
