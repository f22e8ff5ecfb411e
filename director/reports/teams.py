"""The team list and check-in sheet: every team, its players, paid and present boxes."""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.platypus import Flowable

from director.domain.event import TeamInfo
from director.domain.wording import counted
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


def story(
    teams: Sequence[TeamInfo], box: Layout, *, level: int = 0, entrant: str = "team"
) -> list[Flowable]:
    """The team list, or in an individual event the player list (`entrant`, RULES §10): a
    player is the entrant, with no board columns."""
    who = entrant.capitalize()
    out: list[Flowable] = [
        Section(f"{who} list", level=level),
        text(f"{who} list and check-in", "title"),
    ]
    if not teams:
        return [*out, text(f"No {entrant} is registered yet.", "body")]
    paid = sum(t.paid for t in teams)
    present = sum(t.present for t in teams)
    out.append(
        text(
            f"{counted(len(teams), entrant)} · {paid} paid · {present} present "
            "(at the time of printing)",
            "note",
        )
    )
    # a team's players board by board; a player, the entrant itself, has no board columns
    alone = all(t.players == (t.name,) for t in teams)
    boards = [] if alone else sorted({b for t in teams for b in t.by_board})
    labels = ["Seed", who, *(f"Board {b}" for b in boards), "Club", "Rating", "Paid", "Present"]
    data: list[list[object]] = [heads(*labels)]
    for team in sorted(teams, key=lambda t: (t.seed, t.name.casefold())):
        data.append(
            [
                str(team.seed),
                team_cell(team),
                *(text(team.by_board.get(board, ""), "cell") for board in boards),
                text(team.club, "cell"),
                "" if team.rating is None else str(team.rating),
                TICKED if team.paid else EMPTY,
                TICKED if team.present else EMPTY,
            ]
        )
    weights = list(zip(labels, (5, 26 + 20 * (2 - len(boards)), *(20,) * len(boards),
                                13, 7, 6, 7), strict=True))  # fmt: skip
    rating = 3 + len(boards)
    style = [
        ("ALIGN", (0, 0), (0, -1), "CENTER"),
        ("ALIGN", (rating, 0), (-1, -1), "CENTER"),
        ("FONTSIZE", (rating + 1, 1), (rating + 2, -1), 14),
        ("TOPPADDING", (0, 1), (-1, -1), 4),
        ("BOTTOMPADDING", (0, 1), (-1, -1), 4),
    ]
    out.append(grid(data, box.headed_columns(weights), size=9, zebra=True, extra=style))
    out.append(text("☑ done · ☐ to tick at the desk.", "small"))
    return out
