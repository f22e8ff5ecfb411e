"""The MET handout: RULES §9's Tandem match equity table, with its model and parameters."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from director.domain.met import MetParameters
from director.reports.styles import FONT_BOLD, SHADE, Layout, Section, esc, grid, rich, text

BLOCK = 16  # columns per table; a bigger table continues in another block below

READING = (
    "Row: the points your team still needs. Column: the points the other team needs. "
    "Entry: your team's chance to win the match, a draw counted as half a win (rule 4)."
)


def _size(n: int) -> float:
    return 16 if n <= 6 else 12 if n <= 9 else 9 if n <= 13 else 7.5


def equity_table(table: Sequence[Sequence[float]], first: int, last: int, box: Layout) -> Flowable:
    """Columns `first`..`last` (needs of the other team, 1-based) of every row."""
    n = len(table)
    size = _size(max(n, last - first + 1))
    data: list[list[object]] = [["need", *(str(j) for j in range(first, last + 1))]]
    for i, row in enumerate(table, start=1):
        data.append([str(i), *(f"{row[j - 1] * 100:.1f}%" for j in range(first, last + 1))])
    style: list[tuple[object, ...]] = [
        ("ALIGN", (0, 0), (-1, -1), "CENTER"),
        ("FONTNAME", (0, 0), (0, -1), FONT_BOLD),
        ("BACKGROUND", (0, 1), (0, -1), SHADE),
        ("TOPPADDING", (0, 0), (-1, -1), size * 0.35),
        ("BOTTOMPADDING", (0, 0), (-1, -1), size * 0.35),
    ]
    style += [
        ("FONTNAME", (j - first + 1, j), (j - first + 1, j), FONT_BOLD)
        for j in range(first, last + 1)
        if j <= n  # equal needs: 50% exactly, a landmark for the eye
    ]
    widths = box.columns(1.1, *([1.0] * (last - first + 1)))
    return grid(data, widths, size=size, padding=2, extra=style)


def story(
    params: MetParameters,
    table: Sequence[Sequence[float]],
    on: date,
    box: Layout,
    *,
    level: int = 0,
) -> list[Flowable]:
    title = "Tandem match equity table"
    out: list[Flowable] = [Section("Match equity table", level=level), text(title, "title")]
    out.append(
        rich(
            f"<b>Gammon rate g = {params.gammon_rate:g}</b> · "
            f"<b>backgammon rate b = {params.backgammon_rate:g}</b> · "
            f"table size {params.size} × {params.size} · RULES §9",
            "body",
        )
    )
    out += [text(READING, "body"), Spacer(0, 2 * mm)]
    for first in range(1, params.size + 1, BLOCK):
        last = min(params.size, first + BLOCK - 1)
        if first > 1:
            out.append(Spacer(0, 4 * mm))
        out.append(equity_table(table, first, last, box))
    out += [Spacer(0, 3 * mm), rich(esc(params.model_text(on)), "note")]
    return out
