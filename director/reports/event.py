"""The event report: every other report in one PDF, with an outline (bookmarks) to find them.

Cover, standings, crosstable, board statistics, then each round's pairings and match reports,
the team list and the MET handout. Blank scoresheets are left out: the match reports show
what was played. An individual event (RULES §10) has players, one board and no Tandem MET:
its report has the player list and neither board statistics nor the MET handout.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, NextPageTemplate, PageBreak, Spacer

from director.domain.event import EventInfo, MatchInfo, TeamInfo
from director.domain.met import MetParameters
from director.domain.rules import Paper
from director.domain.standings import BoardTotals, CrossCell, StandingRow
from director.domain.wording import counted
from director.reports import boards, crosstable, match_report, met, pairings, standings, teams
from director.reports.crosstable import GamePoints
from director.reports.scoresheet import rules_lines
from director.reports.styles import LANDSCAPE, PORTRAIT, Section, esc, layout, rich, text


@dataclass(frozen=True)
class EventData:
    """Everything the event report prints, gathered by the report service."""

    event: EventInfo
    teams: Sequence[TeamInfo]
    rounds: Mapping[int, Sequence[MatchInfo]]  # round number → its matches, in table order
    other_matches: Sequence[MatchInfo]  # matches outside the rounds (imported records)
    standings: Sequence[StandingRow]
    through_round: int
    crosstable: Mapping[int, Mapping[int, CrossCell]]
    game_points: GamePoints | None  # pip squeeze: game points beside adjusted totals
    final: bool  # every round played and finished: "Winner", "Final standings"
    boards: Sequence[BoardTotals]
    met_parameters: MetParameters
    met_table: Sequence[Sequence[float]]
    printed_on: date
    standings_heading: str  # what the standings are: "after round 2", "during round 3 (…)"


def cover(data: EventData) -> list[Flowable]:
    event, options = data.event, data.event.options
    by_id = {t.id: t for t in data.teams}
    entrant = options.match.event_format.entrant
    facts = [
        f"{esc(event.venue)} · {esc(event.event_date)}" if event.venue else esc(event.event_date),
        f"{counted(len(data.teams), entrant)} · {counted(len(data.rounds), 'round')} paired · "
        f"{esc(options.pairing_system.value.replace('-', ' ').capitalize())}",
    ]
    out: list[Flowable] = [
        Section("Event", level=0),
        Spacer(0, 20 * mm),
        text(event.name, "cover-title"),
    ]
    out += [rich(f, "h2") for f in facts if f]
    if data.standings and data.through_round:
        leader = by_id[data.standings[0].team_id]
        label = "Winner" if data.final else f"Leader {data.standings_heading}"
        players = ", ".join(esc(player) for player in leader.players)
        alone = leader.players == (leader.name,)  # a player, the entrant itself
        out.append(
            rich(f"{label}: <b>{esc(leader.name)}</b>" + ("" if alone else f" ({players})"), "h2")
        )
    out += [Spacer(0, 8 * mm), text("Rules", "h2")]
    out += [rich(line, "body") for line in rules_lines(options.match, options.time_control)]
    return out


def story(data: EventData, paper: Paper) -> list[Flowable]:
    portrait, landscape = layout(paper, PORTRAIT), layout(paper, LANDSCAPE)
    team_map = {t.id: t for t in data.teams}
    opts = data.event.options
    fmt = opts.match.event_format
    out = cover(data)
    out += [PageBreak()]
    out += standings.story(
        data.standings, team_map, opts.match_points, opts.tie_breaks, data.through_round,
        portrait, game_points=data.game_points, final=data.final, heading=data.standings_heading,
        entrant=fmt.entrant, draws=fmt.draws,
    )  # fmt: skip
    rounds = sorted(data.rounds)
    scored = [n for n in rounds if n <= data.through_round]
    wide = crosstable.needs_landscape(len(scored))
    out += [NextPageTemplate(LANDSCAPE if wide else PORTRAIT), PageBreak()]
    out += crosstable.story(
        data.standings, data.crosstable, team_map, scored, landscape if wide else portrait,
        game_points=data.game_points, heading=data.standings_heading, entrant=fmt.entrant,
        draws=fmt.draws,
    )  # fmt: skip
    out += [NextPageTemplate(PORTRAIT)]
    if not fmt.one_board:  # one board: the standings are the players' statistics
        out += [PageBreak(), *boards.story(data.boards, team_map, portrait)]
    for number in rounds:
        matches = data.rounds[number]
        out += [PageBreak(), Section(f"Round {number}", level=0, header=False)]
        out += pairings.story(number, matches, portrait, level=1)
        reports = [m for m in matches if not m.is_bye]
        if reports:
            out += [PageBreak(), Section(f"Match reports – round {number}", level=1)]
            out += match_report.story(data.event, reports, portrait, page_per_match=False, level=2)
    if data.other_matches:
        out += [PageBreak(), Section("Matches outside the rounds", level=0)]
        out += match_report.story(
            data.event, data.other_matches, portrait, page_per_match=False, level=1
        )
    out += [PageBreak(), *teams.story(data.teams, portrait, entrant=fmt.entrant)]
    if not fmt.one_board:  # the MET handout is Tandem's (RULES §9)
        met_pages = met.story(data.met_parameters, data.met_table, data.printed_on, portrait)
        out += [PageBreak(), *met_pages]
    return out
