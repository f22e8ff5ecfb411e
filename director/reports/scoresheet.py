"""The blank match scoresheet, filled in by hand at the table, one page per match.

The header says everything the players need to score without asking the director: the
teams and who plays which board, the match length, the scoring, when a pair is a one-cube
pair, how a match ends, the time control and the time-forfeit rule. The grid has one row per
game in the order the games finish (that order decides rule 4′), two rows per pair.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass

from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Flowable, KeepTogether, PageBreak, Spacer, Table

from director.domain.boards import ByBoard
from director.domain.cube import CubeRegime, unit_cube_rule
from director.domain.event import EventInfo, MatchInfo
from director.domain.match_reserve import clock_text
from director.domain.rules import CubeRule, End, MatchRules, PipSqueeze, Stake, TimeControl
from director.domain.scoring import agreed_level_offered
from director.domain.wording import counted
from director.reports.styles import (
    FONT,
    FONT_BOLD,
    HEAD_SIZE,
    HINT,
    INK,
    SHADE,
    ZEBRA,
    Layout,
    Section,
    Stamp,
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


@functools.cache
def cube_regimes(rules: MatchRules) -> frozenset[CubeRegime]:
    """Every way the cube can work in a pair of this match, over every starting score: the
    rules text names only those that can happen (the domain decides each, RULES §4)."""
    n = rules.match_length
    if not rules.scoring.variant.has_cube or n == 1:
        return frozenset({unit_cube_rule(rules, 0, 0).regime})
    return frozenset(
        unit_cube_rule(rules, a, b, crawford_played=played).regime
        for a in range(n)
        for b in range(n)
        for played in (False, True)
    )


def doubling(rules: MatchRules) -> bool:
    """Whether any pair of the match may double (not a 1-point match, not a cubeless scoring)."""
    return cube_regimes(rules) != {CubeRegime.NO_CUBE}


def rules_lines(rules: MatchRules, clock: TimeControl) -> list[str]:
    """The rule book as it applies to this match, in a few lines (RULES §3, §4, §5, §6)."""
    n = rules.match_length
    label = rules.scoring.variant.label
    out = [f"<b>Match to {counted(n, 'point')}</b> · {esc(label)} scoring"]
    regimes = cube_regimes(rules)
    if not rules.scoring.variant.has_cube:
        out.append("No doubling cube.")
    elif not doubling(rules):
        out.append("A match to 1 point has no doubling.")
    else:
        cube = []
        if CubeRegime.ONE_CUBE in regimes:
            away = "1-away" if rules.one_cube_threshold == 1 else "2-away or 1-away"
            if rules.no_cube_at_one_away:
                away = "2-away"  # at 1-away nobody doubles: the next sentence
            cube.append(
                f"One-cube pair when a team is {away} as the pair starts: the first board to "
                "double takes the cube, the other board's cube stays dead at 1 (RULES §4)."
            )
        if rules.no_cube_at_one_away and rules.event_format.cube_rule is CubeRule.ONE_CUBE:
            cube.append("No doubling on either board in a pair that starts with a team 1-away.")
        if rules.event_format.cube_rule is CubeRule.CRAWFORD:
            cube.append(
                f"Crawford rule: nobody doubles in the game after a player first reaches "
                f"{n - 1} (the Crawford game); post-Crawford games double as usual (RULES §10)."
            )
        out.append(" ".join(cube))
    if not rules.event_format.pair_end_rules:  # one board: no pairs, no draws (RULES §10)
        out.append(f"The match ends the moment a game brings a player to {n}; no draws.")
        out.append(
            f"Time control: {esc(clock_text(clock, rules))}, paused between games and never "
            "reset in the match; a flag loses the match (RULES §10)."
        )
        return out
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
    """Rule 5 with the variant's stake in place of the cube (RULES §5, §6.4), or the
    variant's own sentence where it has no levels (§6.5); then whether rule 5′ applies."""
    variant = rules.scoring.variant
    text_ = variant.forfeit
    if variant.has_levels:
        where = "" if variant.stake is Stake.CUBE else f", RULES {variant.section}"
        text_ = (
            f"Time forfeit (rule 5{where}): 3 × {variant.stake} when the flagged player has "
            f"borne off no checker, otherwise 1 × {variant.stake}"
        )
    return text_ + (
        "; rule 5′ (agreed lower forfeit) allowed."
        if agreed_level_offered(rules, End.TIME)
        else "."
    )


def match_header(
    event: EventInfo, match: MatchInfo, box: Layout, heading: str, *, rules: bool = True
) -> list[Flowable]:
    """Title, the two teams with their boards, and (unless printed elsewhere) the rules."""
    out: list[Flowable] = [
        rich(f"{esc(heading)} — {esc(match_title(match))}", "title"),
        teams_table(SheetNames.of(match), box),
        Spacer(0, 2 * mm),
    ]
    if rules:
        out += [rich(line, "note") for line in rules_lines(match.rules, event.options.time_control)]
    return out


@dataclass(frozen=True)
class SheetNames:
    """The names a sheet prints: the two teams, and each board's two players (A's, B's), keyed
    by the match's boards ("" leaves a line to write)."""

    teams: tuple[str, str]
    boards: ByBoard[tuple[str, str]]
    entrant: str = "team"  # an individual event's entrant is a player, on its one board
    # the players printed apart from the entrants: a team's, board by board (an individual
    # event's player is the entrant itself)
    players_apart: bool = True

    @classmethod
    def of(cls, match: MatchInfo) -> SheetNames:
        a, b = match.team_a, match.team_b
        fmt = match.rules.event_format
        return cls(
            (a.name, b.name if b else "bye"),
            ByBoard.each(fmt.boards, lambda n: (a.player(n), b.player(n) if b else "")),
            fmt.entrant,
            not fmt.one_board,
        )

    @classmethod
    def blank(cls, rules: MatchRules) -> SheetNames:
        fmt = rules.event_format
        blank = ByBoard.each(fmt.boards, lambda _: ("", ""))
        return cls(("", ""), blank, fmt.entrant, not fmt.one_board)


def sheet_teams(names: SheetNames, box: Layout) -> Table:
    """The scoresheet's teams: one row per team, its players board by board beside it; or the
    two players of an individual match."""
    if not names.players_apart:
        rows = [
            heads("", "Player"),
            *([text(side, "name-team"), text(player, "name-team")]
              for side, player in zip("AB", names.teams, strict=True)),
        ]  # fmt: skip
        heights = [4.5 * mm, None, None] if names.teams[0] else [4.5 * mm, 8 * mm, 8 * mm]
        return grid(rows, box.columns(5, 95), padding=3, row_heights=heights)
    boards = names.boards.items()
    rows = [
        heads("", "Team", *(f"Board {n}" for n, _ in boards)),
        *(
            [
                text(side, "name-team"),
                text(team, "name-team"),
                *(text(players[i], "name") for _, players in boards),
            ]
            for i, (side, team) in enumerate(zip("AB", names.teams, strict=True))
        ),
    ]
    heights = [4.5 * mm, None, None] if names.teams[0] else [4.5 * mm, 8 * mm, 8 * mm]
    players = (56 / len(boards),) * len(boards)
    return grid(rows, box.columns(5, 39, *players), padding=3, row_heights=heights)


SLIP_QR = (
    19 * mm
)  # the result-slip QR code beside the teams: a phone camera reads it at arm's length


def teams_and_slip(names: SheetNames, slip_urls: Sequence[str], box: Layout) -> Flowable:
    """The teams, and beside them each team's QR code that opens this match's result slip on
    a phone as that team (issue 18; a slip is confirmed with the other team's code, #26); an
    individual match's codes are its players'."""
    if not slip_urls:
        return sheet_teams(names, box)
    room = SLIP_QR + 2 * mm
    teams = sheet_teams(names, Layout(box.width - 2 * room, box.height))
    cells = [
        [
            slip_qr(url, SLIP_QR - 3 * mm),
            text(f"{names.entrant.capitalize()} {side} scans", "qr-caption"),
        ]
        for side, url in zip("AB", slip_urls, strict=True)
    ]
    table = Table([[teams, *cells]], colWidths=[box.width - 2 * room, room, room])
    table.setStyle(
        [
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("ALIGN", (1, 0), (-1, 0), "RIGHT"),
            *((side, (0, 0), (-1, -1), 0) for side in PADDINGS),
        ]
    )
    return table


PADDINGS = ("LEFTPADDING", "RIGHTPADDING", "TOPPADDING", "BOTTOMPADDING")


def slip_qr(url: str, size: float) -> Drawing:
    """A QR code of `url`, `size` wide, drawn as vector squares (reportlab's own encoder)."""
    widget = QrCodeWidget(url, barLevel="M", barBorder=1)
    x0, y0, x1, y1 = widget.getBounds()
    drawing = Drawing(size, size, transform=[size / (x1 - x0), 0, 0, size / (y1 - y0), 0, 0])
    drawing.add(widget)
    drawing.hAlign = "RIGHT"
    return drawing


def teams_table(names: SheetNames, box: Layout, *, size: float = 10) -> Table:
    """Team A and team B with their players board by board ("" leaves a line to write)."""
    a, b = names.teams
    who = names.entrant.capitalize()
    rows = [
        ["", f"{who} A", f"{who} B"],
        [who, text(a, "name-team"), text(b, "name-team")],
        *(
            [f"Board {n}", text(pa, "name"), text(pb, "name")]
            for n, (pa, pb) in names.boards.items()
            if names.players_apart
        ),
    ]
    return grid(rows, box.columns(16, 42, 42), size=size, padding=3)


# --- the scoresheet ------------------------------------------------------------------------

ROW_MIN, ROW_MAX = 5.2 * mm, 8 * mm  # a game row: room for a pen, more when there is space
HEAD_ROW = 9 * mm


@dataclass(frozen=True)
class Column:
    heading: str
    weight: float
    hint: str = ""  # choices pre-printed in grey, to circle
    pair: bool = False  # one cell for the pair (spans its two rows)


def columns(rules: MatchRules) -> list[Column]:
    """The game grid's columns for this match's scoring and cube (RULES §2–§6)."""
    variant, cube = rules.scoring.variant, doubling(rules)
    record = rules.event_format
    unit, paired = record.unit.capitalize(), not record.one_board  # a cell per pair, or game
    cols = [Column(unit, 4.5, pair=paired), Column("Start A–B", 8, "   –   ", pair=paired)]
    cols.append(Column("Away A / B", 8, "   /   ", pair=paired))
    if cube and CubeRegime.ONE_CUBE in cube_regimes(rules):
        cols.append(Column("One-cube · cube board", 10, f"{BOX}   1   2", pair=True))
    if cube and record.cube_rule is CubeRule.CRAWFORD:
        cols.append(Column("Crawford", 7, BOX))
    if paired:
        cols.append(Column("Board", 6, "   ".join(str(b) for b in record.boards)))
    cols.append(Column("Winner", 6.5, "A   B"))
    cols.append(Column("End", 10, "O  P  R  T" if cube else "O  R  T"))
    if variant.has_levels:
        cols.append(Column("Level", 9.5, "S  G  BG"))
    if cube:
        cols.append(Column("Cube", 5.5))
    if variant.squeeze is not None and variant.squeeze.by_position:
        cols.append(Column("H·O·B or W/L", 10))
    elif variant.squeeze is not None:
        cols.append(Column("Left W/L", 8, "   /   "))
    if variant.stake is Stake.PIP_COUNT:
        cols.append(Column("Pip count", 8))
    cols.append(Column("Points", 6.5, "1" if variant.stake is Stake.ONE_POINT else ""))
    if variant.squeeze is not None:
        cols += [Column("Pip pts", 6.5), Column("Pips A / B", 9, "   /   ")]
    cols += [Column("Score A", 6.5), Column("Score B", 6.5), Column("Initials A · B", 9)]
    return cols


def legend(rules: MatchRules) -> str:
    variant, cube = rules.scoring.variant, doubling(rules)
    parts = [
        "One row per game, in the order the games finish; a pair's two rows start at the score "
        "written when the pair starts. Winner: team A or B. Both players initial each game."
        if not rules.event_format.one_board
        else "One row per game, in the order played, starting at the score before it. Winner: "
        "player A or B. Both players initial each game."
    ]
    ends = "O bear-off, P pass, R resign, T time" if cube else "O bear-off, R resign, T time"
    parts.append(f"End: {ends}.")
    if variant.has_levels:
        parts.append("Level: S single, G gammon, BG backgammon.")
    if cube and CubeRegime.ONE_CUBE in cube_regimes(rules):
        parts.append(
            "One-cube pair: tick the box, and circle the board that doubled first: only it "
            "may use the cube in that pair."
        )
    if cube and rules.event_format.cube_rule is CubeRule.CRAWFORD:
        parts.append("Crawford: tick the Crawford game; nobody doubles in it.")
    if cube:
        parts.append("Points = cube × level; a pass scores the cube before the offer.")
    if variant.legend:
        parts.append(variant.legend)
    parts.append(
        f"Score A / Score B: the running {rules.event_format.entrant} score after the game."
    )
    return " ".join(parts)


def pairs_needed(rules: MatchRules) -> int:
    """Enough pairs (or games, on one board) for the longest match: every complete pair
    scores 2 points or more, every game 1 or more."""
    one_board = rules.event_format.one_board
    if rules.scoring.variant.stake is Stake.PIP_COUNT:
        return 16 if one_board else 8  # pip counts score fast: a few games decide a long match
    if one_board:
        return 2 * rules.match_length - 1  # N − 1 points each, then the game that decides
    return max(6, rules.match_length)


def game_grid(rules: MatchRules, box: Layout, first_pair: int, pairs: int, row: float) -> Table:
    cols = columns(rules)
    hint_size = 8 if len(cols) <= 15 else 7  # pip squeeze: four more columns
    hints = [pdfmetrics.stringWidth(c.hint, FONT, hint_size) + 5 for c in cols]
    widths = box.headed_columns([(c.heading, c.weight) for c in cols], hints)
    # headings as plain lines, not Paragraphs: 200 sheets would wrap 3,000 of them
    data: list[list[object]] = [
        [_heading_lines(c.heading, w - 4) for c, w in zip(cols, widths, strict=True)]
    ]
    extra: list[tuple[object, ...]] = [
        ("FONTSIZE", (0, 0), (-1, 0), HEAD_SIZE),
        ("LEADING", (0, 0), (-1, 0), HEAD_SIZE * 1.15),
        ("TEXTCOLOR", (0, 1), (-1, -1), HINT),
        ("FONTSIZE", (0, 1), (-1, -1), 8),
        ("ALIGN", (0, 0), (-1, -1), "CENTER"),
        ("TEXTCOLOR", (0, 1), (0, -1), INK),
        ("FONTSIZE", (0, 1), (0, -1), 9),
    ]
    rows = len(rules.event_format.boards)  # a pair's game per board, or one game
    for p in range(pairs):
        top = 1 + rows * p
        for _ in range(rows):
            data.append([str(first_pair + p) if _ == 0 else "", *(c.hint for c in cols[1:])])
        for j, col in enumerate(cols):
            if col.pair:
                extra.append(("SPAN", (j, top), (j, top + rows - 1)))
        if rows > 1:
            extra.append(("LINEBELOW", (0, top + rows - 1), (-1, top + rows - 1), 1.2, INK))
            last = sum(c.pair for c in cols) - 1
            extra.append(("BACKGROUND", (0, top), (last, top + rows - 1), ZEBRA))
    extra.append(("FONTSIZE", (1, 1), (-1, -1), hint_size))
    heights = [HEAD_ROW] + [row] * (rows * pairs)
    return grid(data, widths, extra=extra, row_heights=heights, padding=2)


@functools.cache
def _heading_lines(label: str, width: float) -> str:
    """A heading broken into lines that fit `width` (bold, the table heading size)."""
    lines: list[str] = []
    for word in label.split():
        if lines and pdfmetrics.stringWidth(f"{lines[-1]} {word}", FONT_BOLD, HEAD_SIZE) <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return "\n".join(lines)


def conversion_box(squeeze: PipSqueeze, box: Layout, shared: Shared) -> Flowable:
    """RULES §6.1–6.3: the end-of-match pip-point conversion, to fill in."""
    table = shared.part(("conversion", squeeze, box), lambda: _conversion(squeeze, box))
    note = "The higher adjusted total wins; equal totals: the result on game points stands (§6.3)."
    return KeepTogether([table, shared.part("conversion-note", lambda: text(note, "small"))])


def _conversion(squeeze: PipSqueeze, box: Layout) -> Table:
    rule = squeeze.conversion
    rows = [
        ["End-of-match conversion", "Team A", "Team B"],
        ["Game points", "", ""],
        ["Pip points", "", ""],
        [text(f"Extra game points to the team with more pip points: {rule}", "cell"), "", ""],
        ["Adjusted total (game points + extra)", "", ""],
    ]
    return grid(
        rows, box.columns(60, 20, 20), size=8.5, padding=2,
        extra=[("FONTNAME", (0, 1), (0, -1), FONT_BOLD)],
    )  # fmt: skip


def notes_box(box: Layout, height: float = 15 * mm, where: str = "pair, board") -> Table:
    """Disputes, appeals, a director's ruling: where (`where`: a game of one board), when,
    what, who."""
    label = f"Notes · disputes · appeals ({where}, time, what happened, ruling)"
    rows = [[text(label, "cell-small")], [""]]
    return grid(rows, [box.width], header_rows=0, row_heights=[4.5 * mm, height], padding=3)


def result_block(
    names: tuple[str, str], rules: MatchRules, box: Layout, shared: Shared
) -> Flowable:
    """The result, the captains' and the director's signatures, and a box for notes."""
    who = rules.event_format.entrant.capitalize()
    choices = [
        f"{BOX} {esc(names[0]) or who + ' A'} won",
        f"{BOX} {esc(names[1]) or who + ' B'} won",
    ]
    if not rules.winner_required and rules.event_format.pair_end_rules:
        choices.append(f"{BOX} draw")
    return KeepTogether(
        [
            Spacer(0, 1.5 * mm),
            shared.part(
                ("final", rules.scoring.variant.squeeze is not None), lambda: _final_line(rules)
            ),
            rich("<b>Result:</b> " + ("&nbsp;" * 4).join(choices), "note"),
            Spacer(0, 0.5 * mm),
            shared.part(("signatures", box, rules.event_format), lambda: _signatures(box, rules)),
        ]
    )


def _final_line(rules: MatchRules) -> Flowable:
    final = "Final score" + (" (adjusted)" if rules.scoring.variant.squeeze is not None else "")
    who = rules.event_format.entrant.capitalize()
    return rich(
        f"<b>{final}:</b> {who} A ______  {who} B ______ &nbsp;&nbsp; <b>Finished at</b> ____:____",
        "note",
    )


def _signatures(box: Layout, rules: MatchRules) -> Table:
    record = rules.event_format
    where = "game" if record.one_board else "pair, board"
    label = f"Notes · disputes · appeals ({where}, time, ruling)"
    a, b = ("Player A", "Player B") if record.one_board else ("Team A captain", "Team B captain")
    sign = [
        [a, b, "Director (entered)", text(label, "cell-small")],
        ["", "", "", ""],
    ]  # fmt: skip
    return grid(
        sign,
        box.columns(19, 19, 19, 43),
        header_rows=0,
        row_heights=[4.5 * mm, 12 * mm],
        padding=2,
        extra=[("FONTSIZE", (0, 0), (-1, 0), 7), ("BACKGROUND", (0, 0), (-1, 0), SHADE)],
    )


class Shared:
    """The parts every sheet of one document prints alike (rules, legend, game grid, signature
    boxes), each made, laid out and written into the PDF once (`Stamp`), by what decides it."""

    def __init__(self) -> None:
        self._parts: dict[Hashable, Stamp] = {}

    def part(self, key: Hashable, make: Callable[[], Flowable]) -> Stamp:
        found = self._parts.get(key)
        if found is None:
            found = self._parts[key] = Stamp(make())
        return found


@dataclass(frozen=True)
class Sheet:
    """What one scoresheet prints: a match's, or blank lines to fill in."""

    title: str  # "Round 3, table 4", "Match 12" or "" (blank)
    names: SheetNames
    rules: MatchRules
    round_text: str = ""
    # the match's result-slip links, team A's and team B's, printed as QR codes (): none)
    slip_urls: tuple[str, ...] = ()


def sheet_of(match: MatchInfo, slip_urls: tuple[str, ...] = ()) -> Sheet:
    assert match.team_b is not None
    return Sheet(match_title(match), SheetNames.of(match), match.rules, slip_urls=slip_urls)


def blank_sheet(rules: MatchRules) -> Sheet:
    return Sheet("", SheetNames.blank(rules), rules)


def _facts(event: EventInfo, sheet: Sheet, box: Layout) -> Table:
    """Round, table, match length, scoring, clock: each in its own box, blank to fill in."""
    clock = event.options.time_control
    round_, table = ("", "")
    if sheet.title.startswith("Round "):
        round_, table = sheet.title.removeprefix("Round ").split(", table ")
    n = sheet.rules.match_length
    labels = ["Round", "Table", "Match to", "Scoring", "Time control", "Started at"]
    values = [round_, table, counted(n, "point"), sheet.rules.scoring.variant.label,
              clock_text(clock, sheet.rules).removesuffix(" per player per game")
              .removesuffix(" per player per match"), "____:____"]  # fmt: skip
    data = [heads(*labels), [text(v, "cell") for v in values]]
    return grid(
        data, box.columns(7, 7, 10, 16, 30, 12), size=9, padding=2,
        row_heights=[5 * mm, 7 * mm],
    )  # fmt: skip


def _rules_paragraph(rules: MatchRules, event: EventInfo) -> str:
    first, *rest = rules_lines(rules, event.options.time_control)
    return " ".join([f"{first}.", *rest])


def _measure(flowables: Sequence[Flowable], box: Layout) -> float:
    """The height the flowables take in the frame (a KeepTogether: its contents)."""
    total = 0.0
    for f in flowables:
        if isinstance(f, KeepTogether):
            total += _measure(f._content, box)
            continue
        total += f.wrap(box.width, box.height)[1] + f.getSpaceBefore() + f.getSpaceAfter()
    return total


def scoresheet(event: EventInfo, sheet: Sheet, box: Layout, shared: Shared) -> list[Flowable]:
    """The first sheet of a match, and continuation sheets for the pairs that do not fit."""
    rules = sheet.rules

    def grid_of(first_pair: int, pairs: int, row: float) -> Flowable:
        key = ("grid", rules, box, first_pair, pairs, row)
        return shared.part(key, lambda: game_grid(rules, box, first_pair, pairs, row))

    heading = f"Match scoresheet — {sheet.title}" if sheet.title else "Match scoresheet"
    top: list[Flowable] = [
        _facts(event, sheet, box),
        Spacer(0, 1.2 * mm),
        teams_and_slip(sheet.names, sheet.slip_urls, box),
        Spacer(0, 1 * mm),
        shared.part(("rules", rules), lambda: rich(_rules_paragraph(rules, event), "rules")),
        shared.part(("legend", rules), lambda: rich(esc(legend(rules)), "legend")),
        Spacer(0, 0.5 * mm),
    ]
    bottom: list[Flowable] = []
    squeeze = rules.scoring.variant.squeeze
    if squeeze is not None:
        bottom += [Spacer(0, 1.5 * mm), conversion_box(squeeze, box, shared)]
    bottom.append(result_block(sheet.names.teams, rules, box, shared))
    wanted = pairs_needed(rules)
    rows = len(rules.event_format.boards)  # the rows of a pair (a game a board) or a game
    space = box.height - _measure(top, box) - _measure(bottom, box) - HEAD_ROW - 3 * mm
    fits = max(1, int(space // (rows * ROW_MIN)))
    first = min(wanted, fits)
    row = max(ROW_MIN, min(ROW_MAX, space / (rows * first)))
    out = [*top, grid_of(1, first, row)]
    done = first
    if done >= wanted:
        return [*out, *bottom]
    # a longer match: titled continuation sheets, whole pairs only, the result on the last
    while done < wanted:
        cont_top: list[Flowable] = [
            PageBreak(),
            rich(esc(f"{heading} (continued, from {rules.event_format.unit} {done + 1})"), "h2"),
            sheet_teams(sheet.names, box),
            Spacer(0, 2 * mm),
        ]
        space = box.height - _measure(cont_top[1:], box) - HEAD_ROW - 3 * mm
        if space - _measure(bottom, box) >= rows * ROW_MIN * (wanted - done):
            count = wanted - done
            space -= _measure(bottom, box)
        else:
            count = min(wanted - done, max(1, int(space // (rows * ROW_MIN))))
        row = max(ROW_MIN, min(ROW_MAX, space / (rows * count)))
        out += [*cont_top, grid_of(done + 1, count, row)]
        done += count
    return [*out, *bottom]


def story(
    event: EventInfo,
    matches: Sequence[MatchInfo],
    box: Layout,
    *,
    round_text: str = "",
    slip_links: Mapping[int, tuple[str, str]] | None = None,
) -> list[Flowable]:
    """One sheet per match (byes have no scoresheet); a long match continues on titled sheets.
    `slip_links` (match id → its teams' result-slip links) prints each match's QR codes."""
    links = slip_links or {}
    out: list[Flowable] = []
    shared = Shared()
    for match in matches:
        if match.is_bye:
            continue
        if out:
            out.append(PageBreak())
        out.append(Section(f"Scoresheet – {match_title(match)}", level=0))
        out += scoresheet(event, sheet_of(match, links.get(match.id, ())), box, shared)
    if not out:
        out.append(text("No matches to score: every pairing here is a bye.", "body"))
    return out


def blank_story(event: EventInfo, box: Layout) -> list[Flowable]:
    """A generic sheet with the event's rules and blank names, then a spare sheet of pairs
    (of games, in an individual event)."""
    sheet = blank_sheet(event.options.match)
    out: list[Flowable] = [Section("Blank scoresheet", level=0)]
    out += scoresheet(event, sheet, box, Shared())
    out += [PageBreak(), Section("Spare sheet", level=0)]
    spare_top: list[Flowable] = [
        rich("Spare scoresheet — any match: round ____ table ____ sheet ____", "h2"),
        sheet_teams(sheet.names, box),
        Spacer(0, 2 * mm),
        rich(esc(legend(sheet.rules)), "small"),
    ]
    record = sheet.rules.event_format
    rows = len(record.boards)  # the rows of a pair (a game a board), or of a game
    space = box.height - _measure(spare_top, box) - HEAD_ROW - 6 * mm - 22 * mm
    count = max(1, int(space // (rows * 6.5 * mm)))
    row = space / (rows * count)
    grid_ = game_grid(sheet.rules, box, 1, count, row)
    where = "game" if record.one_board else "pair, board"
    return [*out, *spare_top, grid_, Spacer(0, 2 * mm), notes_box(box, where=where)]
