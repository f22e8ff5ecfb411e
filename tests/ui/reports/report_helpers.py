"""Helpers for the Reports tests: wait for a preview's report, read PDFs back."""

from __future__ import annotations

import io
from pathlib import Path

from pypdf import PdfReader
from pytestqt.qtbot import QtBot

from director.ui.reports.preview import ReportPreview

RENDER_TIMEOUT_MS = 20_000


def shown(qtbot: QtBot, preview: ReportPreview | None) -> ReportPreview:
    """The preview once its report is rendered (in the worker thread) and loaded."""
    assert preview is not None
    if preview.pdf is None:
        with qtbot.waitSignal(preview.shown, timeout=RENDER_TIMEOUT_MS):
            pass
    assert preview.pdf is not None
    return preview


def refused(qtbot: QtBot, preview: ReportPreview) -> str:
    with qtbot.waitSignal(preview.failed, timeout=RENDER_TIMEOUT_MS) as blocker:
        pass
    return str(blocker.args[0]) if blocker.args else ""


def pages_of(data: bytes | Path) -> int:
    raw = data.read_bytes() if isinstance(data, Path) else data
    return len(PdfReader(io.BytesIO(raw)).pages)
