"""The audit log, printed: every correction, override, forfeit and adjustment with its reason."""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.platypus import Flowable

from director.domain.wording import counted
from director.reports.styles import Layout, Section, esc, grid, heads, rich, text

LABELS = ("When", "Station", "What happened", "Reason")
WEIGHTS = (11, 9, 55, 25)


def story(rows: Sequence[Sequence[str]], box: Layout, subject: str = "") -> list[Flowable]:
    """`rows` hold the four columns of `LABELS` in words, oldest first; `subject` is the filter
    ('' for the whole log), printed in the title."""
    title = "Audit log" + (f": {subject}" if subject else "")
    out: list[Flowable] = [Section("Audit log"), text(title, "title")]
    count = f"{counted(len(rows), 'entry', 'entries')}, oldest first"
    out.append(text(count, "note"))
    if not rows:
        return [*out, text("Nothing has been corrected, overridden or adjusted.", "body")]
    data: list[list[object]] = [heads(*LABELS)]
    for cells in rows:
        data.append([rich(esc(cell), "cell") for cell in cells])  # wraps, never markup
    widths = box.headed_columns(list(zip(LABELS, WEIGHTS, strict=True)))
    out.append(grid(data, widths, size=8, zebra=True, extra=[("VALIGN", (0, 0), (-1, -1), "TOP")]))
    return out
