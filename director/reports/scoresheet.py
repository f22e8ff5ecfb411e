"""The blank match scoresheet, filled in by hand at the table, one page per match.

The header says everything the players need to score without asking the director: the
teams and who plays which board, the match length, the scoring, when a pair is a one-cube
pair, how a match ends, the time control and the time-forfeit rule. The grid has one row per
game in the order the games finish (that order decides rule 4′), two rows per pair.
"""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, PageBreak, Spacer, Table

from director.domain.event import EventInfo, MatchInfo
from director.domain.rules import MatchRules, Scoring, TimeControl
from director.reports.styles import (
    FONT_BOLD,
    HINT,
    INK,
    SHADE,
    Layout,
    Section,
    esc,
    grid,
    heads,
    rich,
    text,
)

BOX = "☐"  # a box to tick by hand


def match_title(match: MatchInfo) -> str:
    if match.round is None:
        return f"Match {match.id}"
    return f"Round {match.round}, table {match.table}"


def clock_text(tc: TimeControl) -> str:
    minutes, seconds = divmod(tc.base_seconds, 60)
    base = f"{minutes} min" + (f" {seconds} s" if seconds else "")
    return f"{base} + {tc.increment_seconds} s {tc.mode.label} per player per game"


def rules_lines(rules: MatchRules, clock: TimeControl) -> list[str]:
    """The rule book as it applies to this match, in a few lines (RULES §3, §4, §5, §6)."""
    n = rules.match_length
    out = [f"<b>Match to {n} point{'s' if n != 1 else ''}</b> · {esc(rules.scoring.label)} scoring"]
    if not rules.scoring.has_cube:
        out.append("No doubling cube.")
    elif n == 1:
        out.append("A match to 1 point has no doubling.")
    else:
        away = "1-away" if rules.one_cube_threshold == 1 else "2-away or 1-away"
        cube = (
            f"One-cube pair when a team is {away} as the pair starts: the first board to double "
            "takes the cube, the other board's cube stays dead at 1 (RULES §4)."
        )
        if rules.no_cube_at_one_away:
            cube += " No doubling on either board in a pair that starts with a team 1-away."
        out.append(cube)
    if rules.winner_required:
        out.append(
            f"Winner required (rule 4′): the match ends the moment a game brings a team to {n}; "
            "the other game of that pair is abandoned and scores nothing. No draws."
        )
    else:
        out.append(
            f"Rule 4: when both games of a pair are over, a team on {n} or more wins; "
            "both teams there: a draw. The other game of a pair is always played out."
        )
    out.append(f"Time control: {esc(clock_text(clock))}. {forfeit_text(rules)}")
    return out


def forfeit_text(rules: MatchRules) -> str:
    if rules.scoring is Scoring.PIN_GAME:
        return "Time forfeit: the flagged player's pip count × 3 (RULES §6.4)."
    if rules.scoring is Scoring.CHASING_THE_GIRLS:
        return "Time forfeit: 1 point (RULES §6.5)."
    text_ = (
        "Time forfeit (rule 5): 3 × cube when the flagged player has borne off no checker, "
        "otherwise 1 × cube"
    )
    return text_ + (
        "; rule 5′ (agreed lower forfeit) allowed." if rules.agreed_lower_forfeit else "."
    )


def match_header(
    event: EventInfo, match: MatchInfo, box: Layout, heading: str, *, rules: bool = True
) -> list[Flowable]:
    """Title, the two teams with their boards, and (unless printed elsewhere) the rules."""
    team_b = match.team_b
    b_name = team_b.name if team_b else "bye"
    b_players = team_b.players if team_b else ("", "")
    rows = [
        ["", "Team A", "Team B"],
        ["Team", text(match.team_a.name, "name-team"), text(b_name, "name-team")],
        ["Board 1", text(match.team_a.players[0], "name"), text(b_players[0], "name")],
        ["Board 2", text(match.team_a.players[1], "name"), text(b_players[1], "name")],
    ]
    teams = grid(rows, box.columns(16, 42, 42), size=10)
    out: list[Flowable] = [
        rich(f"{esc(heading)} — {esc(match_title(match))}", "title"),
        teams,
        Spacer(0, 2 * mm),
    ]
    if rules:
        out += [rich(line, "note") for line in rules_lines(match.rules, event.options.time_control)]
    return out


def _columns(scoring: Scoring) -> list[tuple[str, float, str]]:
    """(heading, width weight, the choices pre-printed in grey) of the game grid."""
    cols: list[tuple[str, float, str]] = [
        ("#", 4, ""),
        ("Pair", 5, ""),
        ("Board", 7, "1   2"),
        ("Winner", 8, "A   B"),
    ]
    if scoring.has_cube:
        cols.append(("End", 12, "O  P  R  T"))
    else:
        cols.append(("End", 10, "O  R  T"))
    if scoring is not Scoring.CHASING_THE_GIRLS:
        cols.append(("Level", 10, "S  G  BG"))
    if scoring.has_cube:
        cols.append(("Cube", 6, ""))
    if scoring is Scoring.SIMPLE_PIP_SQUEEZE:
        cols.append(("Left W / L", 10, "   /   "))
    if scoring is Scoring.KILLER_PIP_SQUEEZE:
        cols.append(("H · O · B  or  W / L", 16, ""))
    if scoring is Scoring.PIN_GAME:
        cols.append(("Pip count", 9, ""))
    cols.append(("Points", 7, "1" if scoring is Scoring.CHASING_THE_GIRLS else ""))
    if scoring.is_pip_squeeze:
        cols.append(("Pip pts", 7, ""))
    cols += [("Team A", 8, ""), ("Team B", 8, "")]
    if scoring.is_pip_squeeze:
        cols += [("Pips A", 7, ""), ("Pips B", 7, "")]
    return cols


def legend(scoring: Scoring) -> str:
    parts = ["Write the games in the order they finish. Winner: team A or B."]
    ends = (
        "O bear-off, P pass, R resign, T time"
        if scoring.has_cube
        else "O bear-off, R resign, T time"
    )
    parts.append(f"End: {ends}.")
    if scoring is not Scoring.CHASING_THE_GIRLS:
        parts.append("Level: S single, G gammon, BG backgammon.")
    if scoring.has_cube:
        parts.append("Points = cube × level; a pass scores the cube before the offer.")
    if scoring is Scoring.SIMPLE_PIP_SQUEEZE:
        parts.append("Pip pts = loser's checkers left − winner's checkers left (RULES §6.1).")
    if scoring is Scoring.KILLER_PIP_SQUEEZE:
        parts.append(
            "Pip pts (RULES §6.2): bear-off: loser's checkers in their home (H) + 2 × outfield (O) "
            "+ 3 × in the winner's home or on the bar (B); other ends: loser's checkers left − "
            "winner's (W / L); then × the game's points."
        )
    if scoring is Scoring.PIN_GAME:
        parts.append("Points = the loser's pip count × 1, 2 (gammon) or 3 (backgammon).")
    parts.append("Team A / Team B: the running team score.")
    return " ".join(parts)


def _rows_wanted(rules: MatchRules) -> int:
    if rules.scoring is Scoring.PIN_GAME:
        return 16  # pip counts score fast: a few pairs decide even a long match
    return max(12, 2 * rules.match_length + 2)  # a pair gives at least 2 points in total


def game_grid(rules: MatchRules, box: Layout, space: float) -> Table:
    cols = _columns(rules.scoring)
    rows_wanted = _rows_wanted(rules)
    row_height = max(5.8 * mm, min(8.5 * mm, space / (rows_wanted + 1)))
    data: list[list[object]] = [heads(*(c[0] for c in cols))]
    for i in range(rows_wanted):
        data.append([str(i + 1), str(i // 2 + 1), *(c[2] for c in cols[2:])])
    extra: list[tuple[object, ...]] = [
        ("TEXTCOLOR", (2, 1), (-1, -1), HINT),
        ("FONTSIZE", (2, 1), (-1, -1), 8),
        ("ALIGN", (0, 0), (-1, -1), "CENTER"),
        ("FONTSIZE", (0, 0), (-1, 0), 8),
        ("TEXTCOLOR", (0, 1), (1, -1), INK),
    ]
    extra += [("LINEBELOW", (0, r), (-1, r), 1.1, INK) for r in range(2, rows_wanted + 1, 2)]
    heights = [8 * mm] + [row_height] * rows_wanted
    widths = box.headed_columns([(c[0], c[1]) for c in cols])
    return grid(data, widths, extra=extra, row_heights=heights)


def conversion_box(rules: MatchRules, box: Layout) -> Table:
    """RULES §6.1–6.3: the end-of-match pip-point conversion, to fill in."""
    rule = (
        "margin ÷ 15, rounded down (RULES §6.1)"
        if rules.scoring is Scoring.SIMPLE_PIP_SQUEEZE
        else "0 below 15, otherwise margin ÷ 15 rounded up (RULES §6.2)"
    )
    rows = [
        ["End-of-match conversion", "Team A", "Team B"],
        ["Pip points", "", ""],
        [text(f"Extra game points to the team with more pip points: {rule}", "cell"), "", ""],
        ["Adjusted total (game points + extra)", "", ""],
    ]
    note = "The higher adjusted total wins; equal totals: the result on game points stands (§6.3)."
    table = grid(rows, box.columns(60, 20, 20), extra=[("FONTNAME", (0, 1), (0, -1), FONT_BOLD)])
    return KeepTogether([table, text(note, "small")])


def result_block(match: MatchInfo, box: Layout) -> Flowable:
    rules = match.rules
    b_name = match.team_b.name if match.team_b else "bye"
    choices = [f"{BOX} {esc(match.team_a.name)} won", f"{BOX} {esc(b_name)} won"]
    if not rules.winner_required:
        choices.append(f"{BOX} draw")
    final = "Final score" + (" (adjusted)" if rules.scoring.is_pip_squeeze else "")
    sign = [
        ["Team A captain", "Team B captain", "Recorded by (director)"],
        ["", "", ""],
    ]
    signatures = grid(
        sign,
        box.columns(1, 1, 1),
        header_rows=0,
        row_heights=[6 * mm, 14 * mm],
        extra=[("FONTSIZE", (0, 0), (-1, 0), 8), ("BACKGROUND", (0, 0), (-1, 0), SHADE)],
    )
    return KeepTogether(
        [
            Spacer(0, 3 * mm),
            rich(f"<b>{final}:</b> Team A ______   Team B ______", "body"),
            rich("<b>Result:</b> " + ("&nbsp;" * 6).join(choices), "body"),
            Spacer(0, 1.5 * mm),
            signatures,
        ]
    )


def scoresheet(event: EventInfo, match: MatchInfo, box: Layout) -> list[Flowable]:
    rules = match.rules
    reserved = 118 * mm + (32 * mm if rules.scoring.is_pip_squeeze else 0)
    out = match_header(event, match, box, "Match scoresheet")
    out += [
        rich(esc(legend(rules.scoring)), "small"),
        Spacer(0, 1 * mm),
        game_grid(rules, box, box.height - reserved),
    ]
    if rules.scoring.is_pip_squeeze:
        out += [Spacer(0, 3 * mm), conversion_box(rules, box)]
    out.append(result_block(match, box))
    return out


def story(event: EventInfo, matches: Sequence[MatchInfo], box: Layout) -> list[Flowable]:
    """One page per match (byes have no scoresheet); a long match continues on a second page."""
    out: list[Flowable] = []
    for match in matches:
        if match.is_bye:
            continue
        if out:
            out.append(PageBreak())
        out.append(Section(f"Scoresheet – {match_title(match)}", level=0))
        out += scoresheet(event, match, box)
    if not out:
        out.append(text("No matches to score: every pairing here is a bye.", "body"))
    return out
