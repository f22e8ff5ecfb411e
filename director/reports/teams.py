"""The team list and check-in sheet: every team, its players, paid and present boxes."""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.platypus import Flowable

from director.domain.event import TeamInfo
from director.domain.rules import ALL_BOARDS
from director.reports.styles import Layout, Section, grid, heads, name_text, text

TICKED, EMPTY = "☑", "☐"


def team_cell(team: TeamInfo) -> Flowable:
    after = ""
    if team.withdrawn:
        after = (
            f" <font color='#b00020'>(withdrawn after round {team.withdrawn_after_round})</font>"
        )
    elif team.joined_round > 1:
        after = f" <font color='#666666'>(joined in round {team.joined_round})</font>"
    return name_text(team.name, "cell", bold=True, after=after)


def story(teams: Sequence[TeamInfo], box: Layout, *, level: int = 0) -> list[Flowable]:
    out: list[Flowable] = [
        Section("Team list", level=level),
        text("Team list and check-in", "title"),
    ]
    if not teams:
        return [*out, text("No team is registered yet.", "body")]
    paid = sum(t.paid for t in teams)
    present = sum(t.present for t in teams)
    out.append(
        text(
            f"{len(teams)} teams · {paid} paid · {present} present (at the time of printing)",
            "note",
        )
    )
    labels = ["Seed", "Team", "Board 1", "Board 2", "Club", "Rating", "Paid", "Present"]
    data: list[list[object]] = [heads(*labels)]
    for team in sorted(teams, key=lambda t: (t.seed, t.name.casefold())):
        data.append(
            [
                str(team.seed),
                team_cell(team),
                *(text(team.by_board.get(board, ""), "cell") for board in ALL_BOARDS),
                text(team.club, "cell"),
                "" if team.rating is None else str(team.rating),
                TICKED if team.paid else EMPTY,
                TICKED if team.present else EMPTY,
            ]
        )
    weights = list(zip(labels, (5, 26, 20, 20, 13, 7, 6, 7), strict=True))
    style = [
        ("ALIGN", (0, 0), (0, -1), "CENTER"),
        ("ALIGN", (5, 0), (-1, -1), "CENTER"),
        ("FONTSIZE", (6, 1), (7, -1), 14),
        ("TOPPADDING", (0, 1), (-1, -1), 4),
        ("BOTTOMPADDING", (0, 1), (-1, -1), 4),
    ]
    out.append(grid(data, box.headed_columns(weights), size=9, zebra=True, extra=style))
    out.append(text("☑ done · ☐ to tick at the desk.", "small"))
    return out
