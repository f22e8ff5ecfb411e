"""The crosstable: every team in standings order, its result in each round, against whom."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from reportlab.platypus import Flowable

from director.domain.event import TeamInfo
from director.domain.standings import CrossCell, StandingRow
from director.reports.styles import FONT_BOLD, Layout, Section, grid, heads, num, text

PORTRAIT_ROUNDS = 7  # more rounds than this are printed on landscape pages

LEGEND = (
    "Each cell: the result and the game points (for–against), then “v” and the opponent's rank "
    "in these standings. W win, D draw, L loss, + won by forfeit, − lost by forfeit "
    "(0–0 game points), bye: a win with 0–0 game points (RULES §8), ? not finished yet."
)


def needs_landscape(rounds: int) -> bool:
    return rounds > PORTRAIT_ROUNDS


def cell_text(cell: CrossCell | None, rank_of: Mapping[int, int]) -> str:
    if cell is None:
        return ""
    if cell.opponent is None:
        return "bye"
    against = f"v {rank_of.get(cell.opponent, '?')}"
    if cell.result in ("+", "-"):
        return f"{'+' if cell.result == '+' else '−'}\n{against}"
    if cell.result == "?":
        return f"?\n{against}"
    return f"{cell.result} {cell.points_for}–{cell.points_against}\n{against}"


def story(
    rows: Sequence[StandingRow],
    cells: Mapping[int, Mapping[int, CrossCell]],
    teams: Mapping[int, TeamInfo],
    rounds: Sequence[int],
    box: Layout,
    *,
    level: int = 0,
) -> list[Flowable]:
    out: list[Flowable] = [Section("Crosstable", level=level), text("Crosstable", "title")]
    if not rows or not rounds:
        return [*out, text("No round has been played yet.", "body")]
    rank_of = {r.team_id: r.rank for r in rows}
    labels = ["Rank", "Team", *(f"R{n}" for n in rounds), "MP"]
    data: list[list[object]] = [heads(*labels)]
    for row in rows:
        team_cells = cells.get(row.team_id, {})
        data.append(
            [
                str(row.rank),
                text(teams[row.team_id].name, "cell"),
                *(cell_text(team_cells.get(n), rank_of) for n in rounds),
                num(row.match_points),
            ]
        )
    size = 9 if len(rounds) <= 5 else 8 if len(rounds) <= 10 else 7
    weights = [("Rank", 5.0), ("Team", 30.0), *((f"R{n}", 9.0) for n in rounds), ("MP", 6.0)]
    style = [
        ("ALIGN", (0, 0), (0, -1), "CENTER"),
        ("ALIGN", (2, 0), (-1, -1), "CENTER"),
        ("FONTNAME", (-1, 1), (-1, -1), FONT_BOLD),
    ]
    table = grid(data, box.headed_columns(weights), size=size, zebra=True, padding=2, extra=style)
    return [*out, table, text(LEGEND, "small")]
