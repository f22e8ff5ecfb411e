"""Draw sheets (RULES §11): every bracket of the plan as people pin it on the wall, one column
per round of the bracket (its name and match length), each match a box with its two names,
their scores once played (the winner in bold, "+" for a forfeit win), "bye" where nobody comes
and "…" where the player is not known yet (both in grey, told apart from a player called so),
and the table of a match being played; each bracket's places below it.

A bracket of up to 16 first-round matches (32 players) is one landscape page, on A3 one of up
to 32 (64 players); a bigger one takes a page per 16 (A3: 32) first-round matches and the
rounds they lead to, then a page for the rounds after them. The services gather what is shown
(`Box`, `Standing`) from the event's draw (`services/bracket_pairing.py`), with the `Draw` that
gives the shape.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, PageBreak, Spacer, Table

from director.domain.brackets.draw import Draw, MatchKey, Vacant
from director.domain.rules import Paper
from director.domain.wording import isolated
from director.reports.styles import GREY, INK, Layout, Section, esc, grid, rich, text

PAGE_SLOTS = 16  # first-round matches on one page: 32 players
A3_SLOTS = 32  # on A3: 64 players


def page_slots(paper: Paper) -> int:
    """First-round matches one page of `paper` takes."""
    return A3_SLOTS if paper is Paper.A3 else PAGE_SLOTS


@dataclass(frozen=True, slots=True)
class Entry:
    name: str | Vacant  # the entrant's, or why there is none
    score: str = ""  # the final score, "+" a forfeit win, "" unplayed
    won: bool = False


@dataclass(frozen=True, slots=True)
class Box:
    entries: tuple[Entry, Entry]
    note: str = ""  # "table 3" while played


@dataclass(frozen=True, slots=True)
class Standing:
    bracket: str
    lines: tuple[tuple[str, str], ...]  # (place, names) once known


def _box(shown: Box | None, style: str = "cell") -> Flowable:
    if shown is None:
        return text("", style)
    lines = []
    for e in shown.entries:
        if isinstance(e.name, Vacant):
            name = f"<font color='#{GREY.hexval()[2:]}'>{esc(e.name.words)}</font>"
        else:
            name = esc(isolated(e.name))
        score = f" <b>{esc(e.score)}</b>" if e.won and e.score else f" {esc(e.score)}"
        lines.append(f"<b>{name}</b>{score}" if e.won else f"{name}{score if e.score else ''}")
    if shown.note:  # beside the first name: a box keeps two lines
        lines[0] += f"  <font size=6>{esc(shown.note)}</font>"
    return rich("<br/>".join(lines), style)


def _page(columns: Sequence[tuple[str, list[tuple[int, int, Box | None]]]], rows: int,
          box: Layout) -> Table:  # fmt: skip
    """A grid of `rows` half-match rows; each column's boxes at (first row, rows spanned)."""
    dense = rows > 2 * PAGE_SLOTS  # an A3 page of 64: smaller type, the rows unpadded
    style_name = "cell-dense" if dense else "cell"
    data: list[list[object]] = [[rich(f"<b>{esc(t)}</b>", "cell") for t, _ in columns]]
    data += [["" for _ in columns] for _ in range(rows)]
    style: list[tuple[object, ...]] = [
        ("GRID", (0, 0), (-1, -1), 0, "white"),
        ("BOX", (0, 0), (-1, -1), 0, "white"),
        ("LINEBELOW", (0, 0), (-1, 0), 0.9, INK),
    ]
    if dense:
        style += [("TOPPADDING", (0, 1), (-1, -1), 0), ("BOTTOMPADDING", (0, 1), (-1, -1), 0)]
    for col, (_, boxes) in enumerate(columns):
        for start, span, shown in boxes:
            row = 1 + start
            data[row][col] = _box(shown, style_name)
            if span > 1:
                style.append(("SPAN", (col, row), (col, row + span - 1)))
            if shown is not None:
                middle = row + span // 2 - 1 if span > 1 else row
                style += (
                    [
                        (
                            "BOX",
                            (col, row + max(0, span // 2 - 1)),
                            (col, row + min(span - 1, span // 2)),
                            0.6,
                            INK,
                        ),
                    ]
                    if span <= 2
                    else [("LINEBELOW", (col, middle), (col, middle), 0.6, INK)]
                )
    # room above for the heading and below for the line of places, on the same page
    height = max(6.0, min(13.0, (box.height - 26 * mm) / max(rows, 1)))
    return grid(data, box.columns(*([1.0] * len(columns))), extra=style, size=7, padding=2,
                row_heights=[None, *([height] * rows)])  # type: ignore[list-item]  # fmt: skip


def bracket_pages(draw: Draw, name: str, boxes: Mapping[MatchKey, Box], box: Layout,
                  first: bool, slots: int = PAGE_SLOTS) -> list[Flowable]:  # fmt: skip
    rounds = draw.rounds.get(name, 0)
    counts = [len(draw.round_nodes(name, r)) for r in range(1, rounds + 1)]
    lengths = [draw.nodes[draw.round_nodes(name, r)[0]].length for r in range(1, rounds + 1)]
    # each round's matches as (first row, rows): a halving round doubles the rows per match
    spans = [2]
    for r in range(1, rounds):
        spans.append(spans[-1] * (2 if counts[r] < counts[r - 1] else 1))
    titles = [f"{draw.round_title(name, r)} · to {lengths[r - 1]}" for r in range(1, rounds + 1)]
    # the pages: (rounds on it, its first half-match row, rows, rows of the sheet per row)
    total = 2 * counts[0]
    per_page = 2 * slots
    pages: list[tuple[list[int], int, int, int]] = []
    if total <= per_page:
        pages.append((list(range(1, rounds + 1)), 0, total, 1))
    else:
        early = [r for r in range(1, rounds + 1) if spans[r - 1] <= per_page]
        pages += [(early, top, per_page, 1) for top in range(0, total, per_page)]
        late = [r for r in range(1, rounds + 1) if spans[r - 1] > per_page]
        if late:
            scale = spans[late[0] - 1] // 2
            pages.append((late, 0, total, scale))
    label = name[:1].upper() + name[1:].replace("-", " ")
    out: list[Flowable] = []
    for k, (shown_rounds, top, rows, scale) in enumerate(pages):
        if not first or k:
            out.append(PageBreak())
        columns = []
        for r in shown_rounds:
            placed: list[tuple[int, int, Box | None]] = []
            for j in range(counts[r - 1]):
                start, span = j * spans[r - 1], spans[r - 1]
                if top <= start < top + rows:
                    key = MatchKey(name, r, j + 1)
                    placed.append(((start - top) // scale, max(1, span // scale), boxes.get(key)))
            columns.append((titles[r - 1], placed))
        part = f" ({k + 1} of {len(pages)})" if len(pages) > 1 else ""
        out += [Section(f"{label} bracket"), text(f"{label} bracket{part}", "h2"),
                _page(columns, rows // scale, box)]  # fmt: skip
        playoff = draw.index.get(MatchKey(name, rounds, 2))
        if playoff is not None and k == len(pages) - 1:
            shown = boxes.get(MatchKey(name, rounds, 2))
            out += [Spacer(0, 2 * mm), text(f"Play-off for third · to {lengths[-1]}", "cell"),
                    _page([("Play-off", [(0, 2, shown)])], 2, box)]  # fmt: skip
    return out


def story(draw: Draw | None, boxes: Mapping[MatchKey, Box], standings: Sequence[Standing],
          box: Layout, slots: int = PAGE_SLOTS) -> list[Flowable]:  # fmt: skip
    out: list[Flowable] = []
    if draw is None:
        return [Section("Draw sheets"), text("Draw sheets", "title"),
                text("No knockout match is paired yet.", "body")]  # fmt: skip
    first = True
    for bracket in draw.plan.brackets:
        if bracket.name not in draw.rounds:
            continue  # too few entrants for it (RULES §11)
        out += bracket_pages(draw, bracket.name, boxes, box, first, slots)
        first = False
        mine = next((s for s in standings if s.bracket == bracket.name), None)
        if mine is not None and mine.lines:  # one line, so the bracket keeps its page
            cells = [text(f"{place} {names}", "cell") for place, names in mine.lines]
            widths = box.columns(*([1.0] * len(cells)), *([1.0] * max(0, 4 - len(cells))))
            places = grid([[*cells, *([""] * max(0, 4 - len(cells)))]], widths, header_rows=0)
            out += [Spacer(0, 1.5 * mm), places]
    return out
