"""The crosstable: every team in standings order, its result in each round, against whom.

Rounds that do not fit one page's width go to further tables of the same teams, each with
the rank and team columns again (a 40-team round robin has 39 rounds).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, Flowable, Spacer

from director.domain.event import TeamInfo
from director.domain.standings import CrossCell, StandingRow, result_legend
from director.domain.wording import entrant_words
from director.reports.styles import (
    FONT_BOLD,
    GREY,
    Layout,
    Section,
    heads,
    kept_with_tail,
    num,
    text,
)

PORTRAIT_ROUNDS = 7  # more rounds than this are printed on landscape pages
ROUND_WIDTH = 15 * mm  # a round's cell: "W 11–9", "gp 10–9", "v 12"
FIXED_WIDTH = 10 * mm + 42 * mm + 10 * mm  # rank, team, match points


def legend(entrant: str = "team", draws: bool = True) -> str:
    """What a cell says, in the words of the event's entrants and with its results' letters
    (no draw in an individual event, RULES §10)."""
    return entrant_words(
        "Each cell: the result and the game points (for–against), then “v” and the opponent's "
        f"rank in these standings. {result_legend(draws)}, + won by forfeit, − lost by forfeit "
        "(0–0 game points), bye: a win with 0–0 game points (RULES §8), ? not finished yet. "
        "“late”: the team had not joined the event yet in that round; “w/d”: it had withdrawn "
        "(its earlier results stand). A round left blank had no pairing for the team.",
        entrant,
    )


ADJUSTED_LEGEND = (
    "Pip squeeze: the result and the first score are the adjusted totals (game points plus "
    "the extra game points from pip points, RULES §6.3); “gp” gives the game points."
)

GamePoints = Mapping[int, Mapping[int, tuple[int, int]]]


def needs_landscape(rounds: int) -> bool:
    return rounds > PORTRAIT_ROUNDS


def crosstable_title(through_round: int, heading: str = "") -> str:
    """`heading` says what the numbers are ("during round 3 (4 of 8 matches decided)"), as
    the standings' title does; without it they are taken after `through_round`."""
    if not through_round:
        return "Crosstable"
    return f"Crosstable {heading or f'after round {through_round}'}"


def rounds_per_table(box: Layout) -> int:
    return max(1, int((box.width - FIXED_WIDTH) // ROUND_WIDTH))


def cell_text(
    cell: CrossCell | None, rank_of: Mapping[int, int], game: tuple[int, int] | None = None
) -> str:
    if cell is None:
        return ""
    if cell.opponent is None:
        return "bye"
    against = f"v {rank_of.get(cell.opponent, '?')}"
    if cell.result in ("+", "-"):
        return f"{'+' if cell.result == '+' else '−'}\n{against}"
    if cell.result == "?":
        return f"?\n{against}"
    score = f"{cell.result} {cell.points_for}–{cell.points_against}"
    if game is not None:
        score += f"\ngp {game[0]}–{game[1]}"
    return f"{score}\n{against}"


def absent_text(team: TeamInfo, round_number: int) -> str:
    if round_number < team.joined_round:
        return "late"
    if team.withdrawn_after_round is not None and round_number > team.withdrawn_after_round:
        return "w/d"
    return ""


def _table(
    rows: Sequence[StandingRow],
    cells: Mapping[int, Mapping[int, CrossCell]],
    teams: Mapping[int, TeamInfo],
    rounds: Sequence[int],
    box: Layout,
    game_points: GamePoints | None,
    notes: Sequence[Flowable] = (),
    entrant: str = "team",
) -> list[Flowable]:
    rank_of = {r.team_id: r.rank for r in rows}
    labels = ["Rank", entrant.capitalize(), *(f"R{n}" for n in rounds), "MP"]
    data: list[list[object]] = [heads(*labels)]
    greyed: list[tuple[object, ...]] = []
    for i, row in enumerate(rows, start=1):
        team = teams[row.team_id]
        team_cells = cells.get(row.team_id, {})
        games = (game_points or {}).get(row.team_id, {})
        line: list[object] = [str(row.rank), text(team.name, "cell")]
        for j, n in enumerate(rounds, start=2):
            cell = team_cells.get(n)
            if cell is None:
                line.append(absent_text(team, n))
                greyed.append(("TEXTCOLOR", (j, i), (j, i), GREY))
            else:
                line.append(cell_text(cell, rank_of, games.get(n) if game_points else None))
        line.append(num(row.match_points))
        data.append(line)
    size = 9 if len(rounds) <= 5 else 8 if len(rounds) <= 10 else 7
    widths = [10 * mm, box.width - FIXED_WIDTH - ROUND_WIDTH * len(rounds) + 42 * mm]
    widths += [ROUND_WIDTH] * len(rounds) + [10 * mm]
    style = [
        ("ALIGN", (0, 0), (0, -1), "CENTER"),
        ("ALIGN", (2, 0), (-1, -1), "CENTER"),
        ("FONTNAME", (-1, 1), (-1, -1), FONT_BOLD),
        *greyed,
    ]
    return kept_with_tail(data, widths, notes, size=size, zebra=True, padding=2, extra=style)


def story(
    rows: Sequence[StandingRow],
    cells: Mapping[int, Mapping[int, CrossCell]],
    teams: Mapping[int, TeamInfo],
    rounds: Sequence[int],
    box: Layout,
    *,
    level: int = 0,
    game_points: GamePoints | None = None,
    heading: str = "",
    entrant: str = "team",
    draws: bool = True,
) -> list[Flowable]:
    """The crosstable of teams, or of players in an individual event (`entrant`, RULES §10);
    `draws`: whether the format's matches may end level."""
    title = crosstable_title(max(rounds, default=0), heading)
    out: list[Flowable] = [Section(title, level=level), text(title, "title")]
    if not rows or not rounds:
        return [*out, text("No round has been played yet.", "body")]
    per = rounds_per_table(box)
    chunks = [list(rounds[i : i + per]) for i in range(0, len(rounds), per)]
    for k, chunk in enumerate(chunks):
        if len(chunks) > 1:
            if k:
                out += [Spacer(0, 4 * mm), CondPageBreak(60 * mm)]
            out.append(text(f"Rounds {chunk[0]}–{chunk[-1]}", "h2"))
        legend_notes: list[Flowable] = []
        if k == len(chunks) - 1:
            legend_notes.append(text(legend(entrant, draws), "small"))
            if game_points is not None:
                legend_notes.append(text(ADJUSTED_LEGEND, "small"))
        out += _table(rows, cells, teams, chunk, box, game_points, legend_notes, entrant)
    return out
