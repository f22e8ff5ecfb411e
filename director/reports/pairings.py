"""The pairings sheet of a round, to pin on a wall: large type, one row per table.

Each row gives the table number, both teams and who plays board 1 and board 2. Byes follow
the tables. A big round adds an alphabetical "find your table" list.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, PageBreak, Spacer

from director.domain.event import MatchInfo, TeamInfo
from director.reports.styles import (
    FONT_BOLD,
    Layout,
    Section,
    esc,
    kept_with_tail,
    num,
    rich,
    text,
)

INDEX_FROM = 6  # tables: from this many on, players look their team up alphabetically


def _team_cell(team: TeamInfo, points: float | None) -> list[Flowable]:
    facts = f"seed {team.seed}" if team.seed else ""
    if points is not None:
        facts += f"{' · ' if facts else ''}{num(points)} MP going in"
    return [
        text(team.name, "wall-team"),
        *([text(facts, "cell-small")] if facts else []),
        *(
            rich(f"<font color='#666666'>{board}</font>&nbsp;&nbsp;{esc(name)}", "wall-player")
            for board, name in team.by_board.items()
            if team.players != (team.name,)  # a player, the entrant itself: not twice
        ),
    ]


def entrant_of(matches: Sequence[MatchInfo]) -> str:
    """Who the matches are between: "team", or "player" in an individual event (RULES §10)."""
    return matches[0].rules.event_format.entrant if matches else "team"


def pairing_table(
    matches: Sequence[MatchInfo], box: Layout, points: Mapping[int, float] | None = None
) -> list[Flowable]:
    who = entrant_of(matches).capitalize()
    rows: list[list[object]] = [
        [text(h, "wall-head") for h in ("Table", f"{who} A", "", f"{who} B")]
    ]
    for match in matches:
        assert match.team_b is not None
        rows.append(
            [
                text(match.table, "wall-table"),
                _team_cell(
                    match.team_a, None if points is None else points.get(match.team_a.id, 0)
                ),
                text("v", "wall-v"),
                _team_cell(
                    match.team_b, None if points is None else points.get(match.team_b.id, 0)
                ),
            ]
        )
    padding = [("TOPPADDING", (0, 1), (-1, -1), 4), ("BOTTOMPADDING", (0, 1), (-1, -1), 5)]
    return kept_with_tail(rows, box.columns(13, 43, 5, 43), zebra=True, extra=padding, keep=2)


def find_your_table(matches: Sequence[MatchInfo], box: Layout) -> list[Flowable]:
    """Every team (or player), A to Z, with its table: two lists side by side."""
    entries: list[tuple[str, str]] = []
    for match in matches:
        for team in (match.team_a, match.team_b):
            if team is not None:
                entries.append((team.name, "bye" if match.is_bye else str(match.table)))
    entries.sort(key=lambda e: e[0].casefold())
    half = (len(entries) + 1) // 2
    left, right = entries[:half], entries[half:]
    who = entrant_of(matches).capitalize()
    rows: list[list[object]] = [[text(h, "wall-head") for h in (who, "Table") * 2]]
    for i in range(half):
        row: list[object] = [text(left[i][0], "index"), left[i][1]]
        row += [text(right[i][0], "index"), right[i][1]] if i < len(right) else ["", ""]
        rows.append(row)
    style = [
        ("ALIGN", (1, 0), (1, -1), "CENTER"),
        ("ALIGN", (3, 0), (3, -1), "CENTER"),
        ("FONTNAME", (1, 1), (1, -1), FONT_BOLD),
        ("FONTNAME", (3, 1), (3, -1), FONT_BOLD),
    ]
    return kept_with_tail(rows, box.columns(38, 12, 38, 12), size=12, zebra=True, extra=style)


def story(
    round_number: int,
    matches: Sequence[MatchInfo],
    box: Layout,
    *,
    level: int = 0,
    points: Mapping[int, float] | None = None,
    conditions: str = "",
) -> list[Flowable]:
    """`points`: each team's match points going into the round; `conditions`: match length
    and time control, under the title."""
    played = sorted((m for m in matches if not m.is_bye), key=lambda m: m.table)
    byes = [m for m in matches if m.is_bye]
    out: list[Flowable] = [
        Section(f"Pairings – round {round_number}", level=level),
        text(f"Round {round_number}", "wall-title"),
    ]
    if conditions:
        out.append(text(conditions, "h2"))
    if played:
        out += pairing_table(played, box, points)
    for match in byes:
        out += [
            Spacer(0, 4 * mm),
            rich(
                f"<b>Bye:</b> {esc(match.team_a.name)} "
                + (
                    f"({', '.join(esc(player) for player in match.team_a.players)}) "
                    if match.team_a.players != (match.team_a.name,)
                    else ""
                )
                + "scores a win with 0–0 game points (RULES §8).",
                "wall-player",
            ),
        ]
    if not matches:
        out.append(text("No pairings in this round yet.", "wall-player"))
    if len(played) >= INDEX_FROM:  # on a page of its own, to pin up beside the tables
        out += [
            PageBreak(),
            text(f"Round {round_number}: find your table", "wall-title"),
            *find_your_table(matches, box),
        ]
    return out
