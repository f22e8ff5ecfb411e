"""Rendering a report in a worker thread, so the window stays responsive.

A 64-team event's full report or a 200-match round's scoresheets take about a second and a
half. The job opens its own session (SQLite in WAL mode lets it read while the window writes)
and hands back the PDF bytes, or the refusal's words, or the bug itself to be reported in the
GUI thread.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Iterator

from PySide6.QtCore import QCoreApplication, QThread, Signal

from director.domain.errors import UserError
from director.store.engine import EventDatabase
from director.ui.reports.request import ReportRequest

# reportlab registers fonts and caches glyph widths in module globals: one render at a time
_RENDER_LOCK = threading.Lock()
# While the job runs, the GUI thread paints item views whose data comes from Python: every cell
# takes the GIL back from this busy thread, waiting out the switch interval each time (5 ms by
# default: a page of table froze the window for a second and a half). 0.5 ms keeps the window
# smooth and costs the render nothing measurable.
RESPONSIVE_SWITCH_INTERVAL = 0.0005


@contextlib.contextmanager
def _responsive() -> Iterator[None]:
    """The short switch interval for the length of one render (renders never overlap)."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(min(before, RESPONSIVE_SWITCH_INTERVAL))
    try:
        yield
    finally:
        sys.setswitchinterval(before)


class RenderJob(QThread):
    """Render one request; exactly one of `rendered`, `refused`, `crashed` is emitted."""

    # each signal carries the request first: a preview ignores a result it no longer wants
    rendered = Signal(object, object)  # bytes: the PDF
    refused = Signal(object, str)  # a UserError's or a known database error's words
    crashed = Signal(object, object)  # a bug: the exception, re-raised in the GUI thread

    def __init__(self, db: EventDatabase, request: ReportRequest) -> None:
        # owned by the application, not the dialog: closing the preview mid-render must not
        # destroy a running thread; the job deletes itself when it ends
        super().__init__(QCoreApplication.instance())
        self.db = db
        self.request = request
        self.finished.connect(self.deleteLater)

    def run(self) -> None:
        from director.services.reports import render
        from director.store.errors import known_database_error

        request = self.request
        try:
            # committed: a scoresheet's slip QR code issues its match's token
            with _RENDER_LOCK, _responsive(), self.db.Session() as session, session.begin():
                data = render(
                    session, request.kind, request.round, request.match, request.paper,
                    met_parameters=request.met, slip_address=request.slip_address or None,
                )  # fmt: skip
        except UserError as refusal:
            self.refused.emit(request, str(refusal))
        except Exception as exc:  # a bug or a database failure: the GUI thread tells which
            known = known_database_error(exc)
            if known is not None:
                self.refused.emit(request, known)
            else:
                self.crashed.emit(request, exc)
        else:
            self.rendered.emit(request, data)
