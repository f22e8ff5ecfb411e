"""The standings, with every tie-break in the event's order and a footnote defining each."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from director.domain.event import TeamInfo
from director.domain.rules import MatchPointScheme, TieBreak
from director.domain.standings import TIE_BREAK_DEFINITIONS, StandingRow, match_points_definition
from director.domain.wording import entrant_words, isolated
from director.reports.styles import (
    FONT_BOLD,
    Layout,
    Section,
    esc,
    heads,
    kept_with_tail,
    name_text,
    num,
    rich,
    signed,
    text,
)

TIE_BREAK_HEADINGS: dict[TieBreak, str] = {
    TieBreak.BUCHHOLZ: "Buchholz",
    TieBreak.POINTS_DIFFERENCE: "Diff",
    TieBreak.POINTS_FOR: "Pts for",
    TieBreak.HEAD_TO_HEAD: "H2H",
    TieBreak.SEED: "Seed",
}


# pip-squeeze events rank on adjusted totals (the stored result, RULES §6.3): the tie-breaks
# say so, and the game points print beside them
ADJUSTED_HEADINGS: dict[TieBreak, str] = {
    TieBreak.POINTS_DIFFERENCE: "Adj diff",
    TieBreak.POINTS_FOR: "Adj for",
}
ADJUSTED_DEFINITIONS: dict[TieBreak, str] = {
    TieBreak.POINTS_DIFFERENCE: (
        "Points difference on adjusted totals: in all matches, the adjusted totals won minus "
        "those lost (game points plus the extra game points from pip points, RULES §6.3); a "
        "bye or a forfeit counts 0-0."
    ),
    TieBreak.POINTS_FOR: (
        "Points for on adjusted totals: the adjusted totals won in all matches (game points "
        "plus the extra game points from pip points, RULES §6.3); a bye or a forfeit counts 0."
    ),
}
GAME_POINT_COLUMNS = (
    ("GP diff", "Game points difference: game points won minus game points lost in all "
     "finished matches, before the pip-squeeze adjustment; shown, not a tie-break."),
    ("GP for", "Game points for: game points won in all finished matches, before the "
     "pip-squeeze adjustment; shown, not a tie-break."),
)  # fmt: skip

GamePoints = Mapping[int, Mapping[int, tuple[int, int]]]  # team → round → (for, against)


def standings_title(through_round: int, final: bool = False, heading: str = "") -> str:
    """`heading` says what the numbers are ("during round 3 (4 of 8 matches decided)");
    without it they are taken after `through_round`."""
    if final:
        return "Final standings"
    if not through_round:
        return "Standings"
    return f"Standings {heading or f'after round {through_round}'}"


def heading(tie_break: TieBreak, adjusted: bool) -> str:
    if adjusted and tie_break in ADJUSTED_HEADINGS:
        return ADJUSTED_HEADINGS[tie_break]
    return TIE_BREAK_HEADINGS[tie_break]


def tie_break_text(tie_break: TieBreak, value: float | None) -> str:
    if value is None:
        return "–"  # head-to-head: not needed to separate this team
    if tie_break is TieBreak.POINTS_DIFFERENCE:
        return signed(value)
    return num(value)


def team_cell(team: TeamInfo, note: str) -> list[Flowable]:
    """The entrant's name, and a team's players under it (an individual event's player is
    the entrant: its one name is not printed twice)."""
    after = f" <b><font color='#b00020'>({note})</font></b>" if note else ""
    cell = [name_text(team.name, "cell", bold=True, after=after)]
    if team.players != (team.name,):
        cell.append(text(" · ".join(isolated(p) for p in team.players), "cell-small"))
    return cell


def standings_table(
    rows: Sequence[StandingRow],
    teams: Mapping[int, TeamInfo],
    tie_breaks: Sequence[TieBreak],
    box: Layout,
    game_points: GamePoints | None = None,
    notes: Sequence[Flowable] = (),
    entrant: str = "team",
    draws: bool = True,
) -> list[Flowable]:
    """The table, its last rows kept on a page with the `notes` below it; `draws`: whether the
    format's matches may end level (no D column in an individual event, RULES §10)."""
    byes = any(r.byes for r in rows)
    adjusted = game_points is not None
    labels = (
        ["Rank", entrant.capitalize(), "Played", "W", *(["D"] if draws else []), "L"]
        + (["Byes"] if byes else [])
        + ["MP"]
    )
    labels += [heading(t, adjusted) for t in tie_breaks]
    if adjusted:
        labels += [label for label, _ in GAME_POINT_COLUMNS]
    data: list[list[object]] = [heads(*labels)]
    for row in rows:
        cells: list[object] = [
            row.place,
            team_cell(teams[row.team_id], row.note),
            str(row.played),
            str(row.wins),
            *([str(row.draws)] if draws else []),
            str(row.losses),
        ]
        if byes:
            cells.append(str(row.byes))
        cells.append(num(row.match_points))
        cells += [tie_break_text(t, row.tie_breaks.get(t)) for t in tie_breaks]
        if game_points is not None:
            played = game_points.get(row.team_id, {}).values()
            won, lost = sum(p[0] for p in played), sum(p[1] for p in played)
            cells += [signed(won - lost), str(won)]
        data.append(cells)
    weights: list[tuple[str, float]] = [(labels[0], 6), (labels[1], 44)]
    weights += [(label, 7) for label in labels[2:]]
    mp = labels.index("MP")
    style = [
        ("ALIGN", (0, 0), (0, -1), "CENTER"),
        ("ALIGN", (2, 0), (-1, -1), "CENTER"),
        ("FONTNAME", (mp, 1), (mp, -1), FONT_BOLD),
    ]
    return kept_with_tail(
        data, box.headed_columns(weights), notes, size=9.5, zebra=True, extra=style
    )


def defined(heading: str, definition: str) -> str:
    """ "Diff = Points difference: ..." or, when the heading is the name, "Buchholz: ..." """
    name, _, rest = definition.partition(": ")
    if name == heading or not rest:
        return f"<b>{esc(heading)}</b>: {esc(rest or definition)}"
    return f"<b>{esc(heading)}</b> = {esc(name)}: {esc(rest)}"


def footnotes(
    scheme: MatchPointScheme,
    tie_breaks: Sequence[TieBreak],
    adjusted: bool = False,
    entrant: str = "team",
    draws: bool = True,
) -> list[Flowable]:
    out: list[Flowable] = [
        Spacer(0, 3 * mm),
        rich(defined("MP", match_points_definition(scheme, draws)), "note"),
    ]
    order = ", ".join(heading(t, adjusted) for t in tie_breaks)
    out.append(
        text(
            f"{entrant.capitalize()}s equal on match points are ranked by the tie-breaks in "
            f"this order: {order}.",
            "note",
        )
    )
    for tie_break in tie_breaks:
        definition = TIE_BREAK_DEFINITIONS[tie_break]
        if adjusted:
            definition = ADJUSTED_DEFINITIONS.get(tie_break, definition)
        definition = entrant_words(definition, entrant)  # a player's, in an individual event
        out.append(rich(defined(heading(tie_break, adjusted), definition), "note"))
    if adjusted:
        out += [rich(defined(label, text_), "note") for label, text_ in GAME_POINT_COLUMNS]
    out.append(
        text(
            "Played counts matches played or forfeited; "
            f"{'W, D and L' if draws else 'W and L'} include forfeits, not byes. "
            "A rank followed by “=” is equal to the one above on every criterion.",
            "small",
        )
    )
    return out


def story(
    rows: Sequence[StandingRow],
    teams: Mapping[int, TeamInfo],
    scheme: MatchPointScheme,
    tie_breaks: Sequence[TieBreak],
    through_round: int,
    box: Layout,
    *,
    level: int = 0,
    game_points: GamePoints | None = None,
    final: bool = False,
    heading: str = "",
    entrant: str = "team",
    draws: bool = True,
) -> list[Flowable]:
    """The standings of teams, or of players in an individual event (`entrant`, RULES §10);
    `draws`: whether the format's matches may end level."""
    title = standings_title(through_round, final, heading)
    out: list[Flowable] = [Section(title, level=level), text(title, "title")]
    if not rows:
        return [*out, text(f"No {entrant} is registered yet.", "body")]
    notes = footnotes(scheme, tie_breaks, game_points is not None, entrant, draws)
    if final:  # the director signs the final standings
        line = "Director: ____________________   Signature: ________________   Date: __________"
        notes = [*notes, Spacer(0, 8 * mm), text(line, "body")]
    return out + standings_table(rows, teams, tie_breaks, box, game_points, notes, entrant, draws)
