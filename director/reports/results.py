"""The results of one round on one page: each table's teams, score and result, winner first."""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.platypus import Flowable

from director.domain.event import MatchInfo
from director.domain.match import Result
from director.domain.rules import Side
from director.domain.wording import isolated
from director.reports.styles import (
    FONT_BOLD,
    Layout,
    Section,
    heads,
    kept_with_tail,
    name_text,
    text,
)

LEGEND = (
    "Score: the match's final score (pip squeeze: the adjusted totals, RULES §6.3), the "
    "winner's first. A forfeit and a bye are wins with 0–0 game points (RULES §8)."
)


def outcome(match: MatchInfo) -> tuple[str, str]:
    """(score, result in words) of one match."""
    if match.team_b is None:
        return "–", "bye"
    if match.forfeit_by is not None:
        winner = match.team_b if match.forfeit_by is Side.A else match.team_a
        return "+ / −", f"{isolated(winner.name)} by forfeit"
    final, result = match.outcome.final, match.outcome.result
    if result is Result.UNFINISHED:
        return f"{final.a}–{final.b}", "not finished"
    if result is Result.DRAW:
        return f"{final.a}–{final.b}", "draw"
    if result is Result.A:
        return f"{final.a}–{final.b}", f"{isolated(match.team_a.name)} wins"
    return f"{final.b}–{final.a}", f"{isolated(match.team_b.name)} wins"


def story(round_number: int, matches: Sequence[MatchInfo], box: Layout) -> list[Flowable]:
    title = f"Results of round {round_number}"
    out: list[Flowable] = [Section(title), text(title, "title")]
    if not matches:
        return [*out, text("No pairings in this round yet.", "body")]
    who = matches[0].rules.event_format.entrant.capitalize()  # a team, or a player (RULES §10)
    data: list[list[object]] = [heads("Table", f"{who} A", f"{who} B", "Score", "Result")]
    for m in sorted(matches, key=lambda m: (m.team_b is None, m.table)):
        score, words = outcome(m)
        won_a = m.outcome.result is Result.A or m.forfeit_by is Side.B or m.team_b is None
        won_b = m.outcome.result is Result.B or m.forfeit_by is Side.A
        a = name_text(m.team_a.name, "cell", bold=won_a)
        b = name_text(m.team_b.name if m.team_b else "", "cell", bold=won_b)
        data.append(
            ["" if m.team_b is None else str(m.table), a, b, score, text(words, "cell")]
        )  # fmt: skip
    style = [
        ("ALIGN", (0, 0), (0, -1), "CENTER"),
        ("ALIGN", (3, 0), (3, -1), "CENTER"),
        ("FONTNAME", (3, 1), (3, -1), FONT_BOLD),
    ]
    widths = box.headed_columns([("Table", 7), (f"{who} A", 30), (f"{who} B", 30),
                                 ("Score", 10), ("Result", 23)])  # fmt: skip
    return out + kept_with_tail(
        data, widths, [text(LEGEND, "small")], size=9.5, zebra=True, extra=style
    )
