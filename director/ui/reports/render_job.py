"""Rendering a report off the GUI thread, so the window stays responsive.

A 64-team event's full report or a 200-match round's scoresheets take about a second and a
half. `render_request` is the service the preview hands to the one door (`ui.background`,
on its second worker so the pages' own calls do not wait behind it): a session of its own
(SQLite in WAL mode lets it read while the window writes), the PDF bytes back, a refusal's
words or the bug itself to the GUI thread.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Iterator

from sqlalchemy.orm import Session

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


def render_request(session: Session, request: ReportRequest) -> bytes:
    """The request's PDF; one render at a time, with the GUI thread kept smooth meanwhile.
    Run as a change: a scoresheet's slip QR code issues its match's token."""
    from director.services.reports import render

    with _RENDER_LOCK, _responsive():
        return render(
            session, request.kind, request.round, request.match, request.paper,
            met_parameters=request.met, slip_address=request.slip_address or None,
        )  # fmt: skip
