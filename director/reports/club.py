"""The club's documents (RULES §12): the rating list, a season's standings, a person's card.

Built from domain values (`Standing`, `SeasonRow`, `RatingChange`, `Record`, `Rivals`) and the
persons' names; every name is plain text (`text`/`name_text` escape it). The person's rating
chart is reportlab's own `LinePlot`: the same library draws every PDF, and the chart needs
nothing it lacks (one line, dated ticks).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing, String
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from director.domain.rating import (
    RatingChange,
    Standing,
    chart_range,
    history_points,
    provisional_split,
    shown,
)
from director.domain.rivals import Record, Rivals
from director.domain.season import Season, SeasonRow
from director.domain.wording import counted
from director.reports.styles import FONT, GREY, INK, Layout, grid, heads, name_text, text


def rating_list(
    standings: Sequence[Standing], names: Mapping[int, str], box: Layout
) -> list[Flowable]:
    """Everyone rated, best first: place, person, id, rating, experience, rated matches."""
    out: list[Flowable] = [text("Rating list", "title")]
    if not standings:
        return [*out, text("Nobody has played a rated match yet.", "body")]
    provisional = sum(s.provisional for s in standings)
    out.append(text(f"{counted(len(standings), 'person')} rated · {provisional} provisional "
                    "(experience under 100)", "note"))  # fmt: skip
    labels = ["Place", "Person", "Id", "Rating", "Experience", "Matches", ""]
    data: list[list[object]] = [heads(*labels)]
    for place, s in enumerate(standings, 1):
        data.append([str(place), name_text(names[s.person]), f"#{s.person}", shown(s.rating),
                     str(s.experience), str(s.matches),
                     "provisional" if s.provisional else ""])  # fmt: skip
    weights = list(zip(labels, (6, 34, 8, 10, 11, 9, 12), strict=True))
    style = [("ALIGN", (0, 0), (0, -1), "CENTER"), ("ALIGN", (2, 1), (5, -1), "RIGHT")]
    out.append(grid(data, box.headed_columns(weights), zebra=True, extra=style))
    return out


def season_standings(
    season: Season, rows: Sequence[SeasonRow], names: Mapping[int, str], box: Layout
) -> list[Flowable]:
    out: list[Flowable] = [
        text(f"Season standings: {season.name}", "title"),
        text(f"{season.first.isoformat()} to {season.last.isoformat()} (both included); "
             "places tied on points and rating are shared (1=).", "note"),
    ]  # fmt: skip
    if not rows:
        return [*out, text("Nobody has played a rated match in this season yet.", "body")]
    labels = ["Place", "Person", "Points", "Rating"]
    data: list[list[object]] = [heads(*labels)]
    for r in rows:
        place = f"{r.place}=" if r.shared else str(r.place)
        data.append([place, name_text(names[r.person]), f"{r.points:g}", shown(r.rating)])
    weights = list(zip(labels, (8, 50, 12, 12), strict=True))
    style = [("ALIGN", (0, 0), (0, -1), "CENTER"), ("ALIGN", (2, 1), (3, -1), "RIGHT")]
    out.append(grid(data, box.headed_columns(weights), zebra=True, extra=style))
    return out


@dataclass(frozen=True)
class Card:
    """What a person's card shows (gathered by `services/club_reports.py`)."""

    id: int
    name: str
    club: str
    country: str
    aliases: tuple[str, ...]
    standing: Standing | None
    history: tuple[RatingChange, ...]
    events: tuple[tuple[str, str, int], ...]  # (date, event name, matches)
    records: tuple[Record, ...]
    rivals: Rivals | None
    names: Mapping[int, str]


def person_card(card: Card, box: Layout) -> list[Flowable]:
    names = card.names
    out: list[Flowable] = [name_text(card.name, "title"), text(_facts(card), "note")]
    if card.standing is None:
        out.append(text("No rated match yet.", "body"))
    else:
        s = card.standing
        out.append(text(f"Rating {shown(s.rating)} · experience {s.experience} · "
                        f"{counted(s.matches, 'rated match', 'rated matches')}"
                        + (" · provisional" if s.provisional else ""), "body"))  # fmt: skip
    if card.history:
        out += [text("Rating history", "h2"), rating_chart(card.history, box.width)]
    if card.events:
        out.append(text("Events played", "h2"))
        data: list[list[object]] = [heads("Date", "Event", "Matches")]
        data += [[day, name_text(name), str(n)] for day, name, n in card.events]
        out.append(grid(data, box.columns(14, 60, 12), zebra=True,
                        extra=[("ALIGN", (2, 1), (2, -1), "RIGHT")]))  # fmt: skip
    if card.records:
        out.append(text("Head to head", "h2"))
        rows: list[list[object]] = [heads("Against", "Won", "Lost", "Drawn")]
        rows += [[name_text(names[r.opponent]), str(r.wins), str(r.losses), str(r.draws)]
                 for r in card.records]  # fmt: skip
        out.append(grid(rows, box.columns(50, 10, 10, 10), zebra=True,
                        extra=[("ALIGN", (1, 1), (3, -1), "RIGHT")]))  # fmt: skip
    if card.rivals is not None:
        out.append(Spacer(1, 2 * mm))
        if (n := card.rivals.nemesis) is not None:
            out.append(text(f"Nemesis: {names[n.opponent]} ({n.wins}-{n.losses})", "body"))
        if (b := card.rivals.beaten_most) is not None:
            out.append(text(f"Beaten most: {names[b.opponent]} ({b.wins}-{b.losses})", "body"))
    return out


def _facts(card: Card) -> str:
    parts = [f"#{card.id}", card.club, card.country]
    if card.aliases:
        parts.append("also known as " + ", ".join(card.aliases))
    return " · ".join(p for p in parts if p)


def rating_chart(history: Sequence[RatingChange], width: float) -> Drawing:
    """The rating after each rated match, in the order rated, from the start at 1500: the
    points the Club page's chart draws (`history_points`), provisional part dashed."""
    height = 60 * mm
    drawing = Drawing(width, height)
    plot = LinePlot()
    plot.x, plot.y = 14 * mm, 10 * mm
    plot.width, plot.height = width - 18 * mm, height - 16 * mm
    points = history_points(history)
    parts = [part for part in provisional_split(points) if part]  # the provisional one first
    plot.data = [[(float(p.match), p.rating) for p in part] for part in parts]
    for i, part in enumerate(parts):
        plot.lines[i].strokeColor = INK
        plot.lines[i].strokeWidth = 1.2
        if part[0].provisional:
            plot.lines[i].strokeDashArray = (3, 2)
    plot.yValueAxis.valueMin, plot.yValueAxis.valueMax = chart_range(points)
    plot.xValueAxis.valueMin, plot.xValueAxis.valueMax = 0, len(history)
    for axis in (plot.xValueAxis, plot.yValueAxis):
        axis.labels.fontName, axis.labels.fontSize = FONT, 7
        axis.strokeColor = GREY
    plot.xValueAxis.valueStep = max(1, len(history) // 10)
    plot.xValueAxis.labelTextFormat = "%d"
    plot.yValueAxis.labelTextFormat = "%.0f"
    drawing.add(plot)
    drawing.add(String(plot.x + plot.width, 1 * mm, "rated matches", fontName=FONT,
                       fontSize=7, fillColor=GREY, textAnchor="end"))  # fmt: skip
    if points[0].provisional:
        drawing.add(String(plot.x, 1 * mm, "dashed: provisional (experience under 100)",
                           fontName=FONT, fontSize=7, fillColor=GREY))  # fmt: skip
    return drawing
