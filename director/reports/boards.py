"""Board statistics: each player's games on their board, one ranking per board."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from reportlab.platypus import Flowable

from director.domain.event import TeamInfo
from director.domain.rules import ALL_BOARDS
from director.domain.standings import BoardTotals
from director.reports.styles import Layout, Section, grid, heads, signed, text

NOTE = (
    "Games counted: every game that scored. Games abandoned under rule 4′, forfeited matches "
    "and byes are not games; a time forfeit is a game lost by the flagged player. "
    "Ranked on games won, then points difference, then points for."
)


def ranked(totals: Sequence[BoardTotals], board: int) -> list[BoardTotals]:
    rows = [t for t in totals if t.board == board]
    return sorted(
        rows,
        key=lambda t: (-t.won, -(t.points_for - t.points_against), -t.points_for, t.team_id),
    )


def board_table(
    rows: Sequence[BoardTotals], teams: Mapping[int, TeamInfo], board: int, box: Layout
) -> Flowable:
    labels = ["Rank", "Player", "Team", "Games", "Won", "Lost", "Won %", "Pts for", "Pts against",
              "Diff"]  # fmt: skip
    data: list[list[object]] = [heads(*labels)]
    for rank, t in enumerate(rows, start=1):
        team = teams[t.team_id]
        share = f"{100 * t.won / t.games:.0f}" if t.games else "–"
        data.append(
            [
                str(rank),
                text(team.player(board), "cell"),
                text(team.name, "cell"),
                str(t.games),
                str(t.won),
                str(t.lost),
                share,
                str(t.points_for),
                str(t.points_against),
                signed(t.points_for - t.points_against),
            ]
        )
    weights = list(zip(labels, (5, 26, 26, 6, 6, 6, 6, 6, 7, 6), strict=True))
    style = [("ALIGN", (0, 0), (0, -1), "CENTER"), ("ALIGN", (3, 0), (-1, -1), "CENTER")]
    return grid(data, box.headed_columns(weights), size=9, zebra=True, extra=style)


def story(
    totals: Sequence[BoardTotals], teams: Mapping[int, TeamInfo], box: Layout, *, level: int = 0
) -> list[Flowable]:
    out: list[Flowable] = [
        Section("Board statistics", level=level),
        text("Board statistics", "title"),
        text(NOTE, "small"),
    ]
    if not totals:
        return [*out, text("No game has been recorded yet.", "body")]
    for board in ALL_BOARDS:
        out += [text(f"Board {board}", "h2"), board_table(ranked(totals, board), teams, board, box)]
    return out
