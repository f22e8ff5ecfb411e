"""The match report: a match as the database holds it, game by game, with its result.

Same header as the scoresheet; every game with its points, the running score and the away
scores; games abandoned under rule 4′ and the forfeits marked with the rule applied; the
game-point score, the pip-squeeze conversion and adjusted totals, and the result.
"""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import CondPageBreak, Flowable, KeepTogether, PageBreak, Spacer

from director.domain.cube import CubeRegime, pair_cube_rule
from director.domain.event import EventInfo, MatchInfo
from director.domain.match import GameLine, Result
from director.domain.rules import Scoring, Side, Stake
from director.domain.scored_by import level_shown, scored_by
from director.domain.scoring import Game
from director.reports.scoresheet import match_header, match_title
from director.reports.styles import (
    FONT,
    FONT_BOLD,
    GREY,
    INK,
    Layout,
    Section,
    esc,
    grid,
    heads,
    num,
    rich,
    text,
)


def game_note(scoring: Scoring, game: Game, counted: bool) -> str:
    """The rule applied to a game that did not end on the board: the domain's words."""
    return scored_by(scoring, game, counted)


def _level(scoring: Scoring, game: Game) -> str:
    return level_shown(scoring, game)


def _columns(scoring: Scoring, one_board: bool = False) -> list[tuple[str, float]]:
    """The game table's columns: a one-board match's games are numbered, not placed by pair
    and board (RULES §10)."""
    variant = scoring.variant
    squeeze = variant.squeeze is not None
    place = [] if one_board else [("Pair", 4.5), ("Board", 6.5)]
    cols = [("#", 3), *place, ("Winner", 7), ("End", 8), ("Level", 9)]
    if variant.has_cube:
        cols.append(("Cube", 5))
    if variant.stake is Stake.PIP_COUNT:
        cols.append(("Pip count", 7))
    cols.append(("Points", 6.5))
    if squeeze:
        cols += [("Pip pts", 6), ("Pips A / B", 9)]
    cols += [("Score A–B", 7), ("Away A / B", 8), ("Note", 24 if squeeze else 30)]
    return cols


def pair_note(match: MatchInfo, start_a: int, start_b: int) -> str:
    """How the cube worked in a pair that started at this score (RULES §4), when restricted."""
    rule = pair_cube_rule(match.rules, start_a, start_b)
    if rule.regime is CubeRegime.FREE or not match.rules.scoring.variant.has_cube:
        return ""
    return rule.reason


def _row(
    match: MatchInfo, number: int, line: GameLine, pips: tuple[int, int], pair_note_: str
) -> list[object]:
    scoring, game = match.rules.scoring, line.game
    variant = scoring.variant
    n = match.rules.match_length
    place = [] if match.rules.event_format.one_board else [str(game.pair), str(game.board)]
    row: list[object] = [
        str(number),
        *place,
        game.winner.value,
        str(game.end),
        _level(scoring, game),
    ]
    if variant.has_cube:
        row.append(str(game.cube))
    if variant.stake is Stake.PIP_COUNT:
        row.append(str(game.loser_pips or 0))
    row.append(str(line.points))
    if variant.squeeze is not None:
        row += [num(line.pip_points), f"{num(pips[0])} / {num(pips[1])}"]
    away = f"{max(0, n - line.score.a)} / {max(0, n - line.score.b)}"
    note = "; ".join(n for n in (pair_note_, game_note(scoring, game, line.counted)) if n)
    row += [str(line.score), away, text(note, "cell-small") if note else ""]
    return row


def game_table(match: MatchInfo, box: Layout) -> Flowable:
    scoring = match.rules.scoring
    one_board = match.rules.event_format.one_board
    cols = _columns(scoring, one_board)
    data: list[list[object]] = [heads(*(c[0] for c in cols))]
    pips = [0, 0]
    extra: list[tuple[object, ...]] = [
        ("ALIGN", (0, 0), (-2, -1), "CENTER"),
        ("FONTSIZE", (0, 0), (-1, 0), 8),
    ]
    previous = (0, 0)  # the score before each game
    for i, line in enumerate(match.outcome.lines, start=1):
        if line.counted:
            pips[0 if line.game.winner is Side.A else 1] += line.pip_points
        first_of_pair = i == 1 or match.outcome.lines[i - 2].game.pair != line.game.pair
        if one_board:  # RULES §10: the Crawford game and the games after it are named
            note = crawford_note(match, i)
        else:
            note = pair_note(match, *previous) if first_of_pair else ""
        data.append(_row(match, i, line, (pips[0], pips[1]), note))
        previous = (line.score.a, line.score.b)
        if not line.counted:
            extra.append(("TEXTCOLOR", (0, i), (-2, i), GREY))
    abandoned = _abandoned_board(match)
    if abandoned is not None:
        note = text("abandoned (rule 4′): not played out, scores nothing", "cell-small")
        filler = [""] * (len(cols) - 4)
        data.append(["–", str(match.outcome.current_pair), str(abandoned), note, *filler])
        extra.append(("SPAN", (3, len(data) - 1), (-1, len(data) - 1)))
    if len(data) == 1:
        lead = 1 if one_board else 3
        data.append([""] * lead + [text("no game recorded", "cell-small")]
                    + [""] * (len(cols) - lead - 1))  # fmt: skip
    previous_pair = 0
    for r, line in enumerate(match.outcome.lines, start=1):
        if line.game.pair != previous_pair and r > 1:
            extra.append(("LINEABOVE", (0, r), (-1, r), 1.0, INK))
        previous_pair = line.game.pair
    # a cell holds "backgammon": its column is never narrower than that word
    content = [pdfmetrics.stringWidth("backgammon", FONT, 8.5) + 5 if c[0] == "Level" else 0.0
               for c in cols]  # fmt: skip
    return grid(data, box.headed_columns(cols, content), size=8.5, padding=2, extra=extra)


def crawford_note(match: MatchInfo, number: int) -> str:
    """RULES §10: game `number` (from 1) was the Crawford game, or came after it."""
    lines = match.outcome.lines
    if not match.rules.scoring.variant.has_cube:
        return ""
    if lines[number - 1].crawford:
        return "Crawford game: no doubling"
    return "post-Crawford" if any(line.crawford for line in lines[: number - 1]) else ""


def _abandoned_board(match: MatchInfo) -> int | None:
    """Rule 4′: the other game of the deciding pair, which the database does not hold."""
    outcome = match.outcome
    if not (match.rules.winner_required and outcome.finished and len(outcome.boards_done) == 1):
        return None
    return 2 if 1 in outcome.boards_done else 1


def result_text(match: MatchInfo) -> str:
    """The result in words (markup, names escaped)."""
    a = esc(match.team_a.name)
    b = esc(match.team_b.name) if match.team_b else ""
    final = match.outcome.final
    if match.is_bye:
        return f"Bye: {a} scores a win with 0–0 game points (RULES §8)."
    if match.forfeit_by is not None:
        absent, present = (a, b) if match.forfeit_by is Side.A else (b, a)
        return (
            f"Forfeit: {absent} did not play. {present} wins by forfeit, "
            "a win with 0–0 game points (RULES §8)."
        )
    result = match.outcome.result
    unit = match.rules.event_format.unit
    if result is Result.UNFINISHED:
        return (
            f"Unfinished: {unit} {match.outcome.current_pair} in play, score {match.outcome.score}."
        )
    lost = match.outcome.lost_on_time
    if lost is not None:  # RULES §10: the loser's reserve ran out, the winner raised to N
        loser, winner = (a, b) if lost is Side.A else (b, a)
        high, low = max(final.a, final.b), min(final.a, final.b)
        return f"{winner} wins {high}–{low} on time: {loser}'s match reserve ran out (RULES §10)."
    if result is Result.DRAW:
        return f"Draw, {final.a}–{final.b}."
    # the winner's score first, as results are said: "Blue Bar wins 9–1"
    if result is Result.A:
        return f"{a} wins {final.a}–{final.b}."
    return f"{b} wins {final.b}–{final.a}."


def totals_table(match: MatchInfo, box: Layout) -> Flowable:
    outcome = match.outcome
    who = match.rules.event_format.entrant.capitalize()
    rows: list[list[object]] = [
        ["", f"{who} A", f"{who} B"],
        ["Game points", str(outcome.score.a), str(outcome.score.b)],
    ]
    if match.rules.scoring.variant.squeeze is not None:
        rows += [
            ["Pip points", num(outcome.pip_points.a), num(outcome.pip_points.b)],
            ["Extra game points (RULES §6.1–6.3)", str(outcome.extra.a), str(outcome.extra.b)],
            ["Adjusted total", str(outcome.final.a), str(outcome.final.b)],
        ]
    style = [("ALIGN", (1, 0), (-1, -1), "CENTER"), ("FONTNAME", (0, 1), (0, -1), FONT_BOLD)]
    return grid(rows, box.columns(50, 25, 25), size=9, extra=style)


def match_report(
    event: EventInfo, match: MatchInfo, box: Layout, *, rules: bool = True
) -> list[Flowable]:
    out = match_header(event, match, box, "Match report", rules=rules)
    out.append(Spacer(0, 1.5 * mm))
    if not match.is_bye and match.forfeit_by is None:
        out += [game_table(match, box), Spacer(0, 2 * mm), totals_table(match, box)]
    out += [Spacer(0, 1.5 * mm), rich(f"<b>Result:</b> {result_text(match)}", "h2")]
    for problem in match.outcome.problems:
        out.append(text(f"Rule broken: {problem}", "alert"))
    return out


def story(
    event: EventInfo,
    matches: Sequence[MatchInfo],
    box: Layout,
    *,
    page_per_match: bool = True,
    level: int = 0,
) -> list[Flowable]:
    """Each match on its own page, or (the event report, whose cover states the rules) one
    after another without the rules, never split across pages."""
    out: list[Flowable] = []
    for match in matches:
        if out:
            out.append(PageBreak() if page_per_match else CondPageBreak(70 * mm))
        title = f"Match report – {match_title(match)}"
        section = Section(title, level=level, header=page_per_match)
        body = match_report(event, match, box, rules=page_per_match)
        if page_per_match:
            out += [section, *body]
        else:
            out += [Spacer(0, 4 * mm), KeepTogether([section, *body])]
    if not out:
        out.append(text("No match to report.", "body"))
    return out
