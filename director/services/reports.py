"""PDF reports: gather the event's snapshots through the other services and lay them out.

`render(session, kind, ...)` returns the PDF bytes; the caller writes them (the CLI with
`store.files.atomic_write`) or shows them (the GUI's preview). `REPORTS` holds one record per
report (its kind, title, builder and what it takes); `KINDS` are their words, as the CLI and
the Reports menu use them; `title_of` and `suggested_file_name` name them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

from director.domain.changes import Area, Changed, Changes
from director.domain.errors import UserError
from director.domain.met import MetParameters, match_equity_table
from director.domain.rules import Paper
from director.domain.wording import counted, quoted

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from director.domain.event import EventInfo, MatchInfo
    from director.reports.event import EventData
    from director.reports.styles import Layout, Story

    Built = tuple[Story, str, bool]  # a report's flowables, its title ("": its own), landscape

# The database and reportlab are imported inside the functions that use them: the CLI reads
# KINDS to build its parser, and `tandem-director --help` should not load them (nor networkx).


@dataclass(frozen=True)
class Report:
    """One report: adding a report is one of these in `REPORTS` (at the end of this module)
    and the module in `director/reports/` its builder calls."""

    kind: str  # the word the CLI, the Reports menu and the file names use
    title: str
    build: Callable[[_Job], Built]  # the flowables, the title and whether landscape
    of_round: bool = False  # it takes a round (default the latest)
    of_match: bool = False  # it takes one match instead
    sheet: bool = False  # about one round's play: needs a paired round, says "Round 3 of 7"
    after_round: bool = False  # "after round R" rather than "of round R"
    filtered: bool = False  # the whole event, or only one round's or one match's part


@dataclass(frozen=True)
class _Job:
    """What a report's builder is given."""

    session: Session
    event: EventInfo
    round: int | None
    match: int | None
    paper: Paper
    when: datetime
    params: MetParameters
    slip_address: str
    issue_slip_tokens: bool = True

    @property
    def box(self) -> Layout:
        from director.reports.styles import layout

        return layout(self.paper)


def report(kind: str) -> Report:
    """The report of this kind; a kind nobody knows is the user's slip."""
    found = next((r for r in REPORTS if r.kind == kind), None)
    if found is None:
        raise UserError(f"there is no report {quoted(kind)}: choose one of {', '.join(KINDS)}")
    return found


def title_of(kind: str) -> str:
    return report(kind).title


def suggested_file_name(kind: str, round: int | None = None, match: int | None = None) -> str:
    """A file name for the Save dialog and the docs: `scoresheet-round-3.pdf`."""
    name = report(kind).kind
    if match is not None:
        name += f"-match-{match}"
    elif round is not None:
        name += f"-round-{round}"
    return f"{name}.pdf"


def round_numbers(session: Session) -> list[int]:
    from sqlalchemy import select

    from director.store import models

    return list(
        session.scalars(select(models.Round.number).distinct().order_by(models.Round.number))
    )


def _check_round(session: Session, number: int) -> None:
    known = round_numbers(session)
    if number in known:
        return
    if not known:
        raise UserError(f"there is no round {number}: no round is paired yet")
    raise UserError(f"there is no round {number}: the rounds are 1 to {max(known)}")


def _latest_round(session: Session) -> int:
    known = round_numbers(session)
    if not known:
        raise UserError("no round is paired yet: there is nothing to print for a round")
    return known[-1]


def _matches(session: Session, round: int | None, match: int | None) -> list[MatchInfo]:
    """The one match asked for, or the matches of the round asked for (default: the latest)."""
    from director.services.matches import get_match, list_matches

    if match is not None:
        info = get_match(session, match)
        if round is not None and info.round != round:
            raise UserError(f"match {match} is not in round {round}")
        return [info]
    number = _latest_round(session) if round is None else round
    if round is not None:
        _check_round(session, number)
    return list_matches(session, number)


# --- standings data: from the standings service -------------------------------------------


class _Standings:
    """The standings after one round (default the latest), with the crosstable and board
    totals of the whole event; a crosstable "after round R" drops the later rounds' cells."""

    def __init__(self, session: Session, through: int | None) -> None:
        from director.services import standings as standings_service  # networkx: only now
        from director.services.events import get_event
        from director.services.matches import list_matches

        self.matches = list_matches(session)
        if through is not None:
            _check_round(session, through)
        else:  # the last round with a result: a round just paired has nothing to stand on
            through = max(
                (m.round for m in self.matches if m.round is not None and _scored(m)), default=0
            )
        view = standings_service.standings(session, through)
        self.through = view.through_round
        self.heading = view.heading
        self.rows = [line.row for line in view.lines]
        self.team_map = {line.team.id: line.team for line in view.lines}
        self.rounds = [n for n in round_numbers(session) if n <= self.through]
        cells = standings_service.event_crosstable(session)
        self.crosstable = {
            team: {n: cell for n, cell in by_round.items() if n <= self.through}
            for team, by_round in cells.items()
        }
        self.boards = standings_service.board_statistics(session)
        self.game_points = _game_points(self.matches, self.through)
        event = get_event(session)
        rounds_done = [n for n in round_numbers(session) if n <= self.through]
        # over: every round the event has is played and nothing is left to finish
        self.final = (
            bool(self.matches)
            and len(rounds_done) >= event.options.rounds
            and all(_scored(m) for m in self.matches if m.round is not None)
            and self.through == max(round_numbers(session), default=0)
        )


def _scored(match: MatchInfo) -> bool:
    return match.is_bye or match.forfeit_by is not None or match.outcome.finished


def _game_points(
    matches: Sequence[MatchInfo], through: int
) -> dict[int, dict[int, tuple[int, int]]]:
    """team id → round → (game points for, against) of its finished match, before any
    pip-squeeze adjustment (what "game points" means in RULES §6.3)."""
    out: dict[int, dict[int, tuple[int, int]]] = {}
    for m in matches:
        if m.round is None or m.round > through or m.team_b is None or m.forfeit_by:
            continue
        if not m.outcome.finished:
            continue
        score = m.outcome.score
        out.setdefault(m.team_a.id, {})[m.round] = (score.a, score.b)
        out.setdefault(m.team_b.id, {})[m.round] = (score.b, score.a)
    return out


# --- render --------------------------------------------------------------------------------


def render(
    session: Session,
    kind: str,
    round: int | None = None,
    match: int | None = None,
    paper: Paper | str | None = None,
    *,
    generated: datetime | None = None,
    met_parameters: MetParameters | None = None,
    start_time: str | None = None,
    logo: str | Path | None = None,
    slip_address: str | None = None,
    issue_slip_tokens: bool = True,
) -> bytes:
    """The PDF of one report. `round` picks the round (scoresheets, match reports and pairings
    default to the latest; standings and crosstable are "after round R", default the latest);
    `match` picks one match (scoresheet, match report); `paper` overrides the event's;
    `generated` is the time printed in the footer (default now; fixed in invariant mode);
    `start_time` ("19:30") is printed as the round's start on a round's sheets; `logo` is a
    club logo (PNG or JPEG) for the page header; `slip_address` (where phones reach the table
    service, default the address the director stored) prints each scoresheet's result-slip QR
    code: that issues the match tokens, so the caller commits the session
    (`issue_slip_tokens=False`: only the codes already issued, for a read-only session).
    """
    from director.reports import styles
    from director.services.events import get_event

    chosen_report = report(kind)
    if match is not None and not (chosen_report.of_match or chosen_report.filtered):
        raise UserError(f"the {kind} report covers more than one match: --match does not apply")
    if round is not None and not (chosen_report.of_round or chosen_report.filtered):
        raise UserError(f"the {kind} report covers the whole event: --round does not apply")
    event = get_event(session)
    chosen = Paper(paper) if paper is not None else event.options.paper
    when = styles.generation_time(generated)
    info = styles.ReportInfo(
        event.name, event.event_date, chosen, when, venue=event.venue, end_date=event.end_date,
        organiser=event.organiser, director=event.director,
        round_text=_round_text(session, event, kind, round, match, start_time),
        logo=_check_logo(logo),
    )  # fmt: skip
    params = met_parameters or MetParameters()
    address = check_slip_address(slip_address) if slip_address else stored_slip_address(session)
    job = _Job(session, event, round, match, chosen, when, params, address, issue_slip_tokens)
    story, title, landscape = chosen_report.build(job)
    title = title or chosen_report.title
    orientation = styles.LANDSCAPE if landscape else styles.PORTRAIT
    return styles.build_pdf(info, title, story, orientation)


# --- the result-slip QR code on the scoresheets (issue 18) --------------------------------

SLIP_ADDRESS_KEY = "reports.slip_address"


def check_slip_address(value: str) -> str:
    """Where phones reach the table service, as `serve` and the Phones window print it
    ("http://192.168.1.20:8080/"), with its trailing slash; anything else is refused."""
    parts = urlsplit(value.strip())
    try:
        parts.port  # noqa: B018  # a port that is not a number raises here
    except ValueError:
        parts = parts._replace(scheme="")
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise UserError(
            f"{quoted(value)} is not the address of the table service: write it as serve prints "
            "it, e.g. http://192.168.1.20:8080/"
        )
    path = parts.path if parts.path.endswith("/") else parts.path + "/"
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def stored_slip_address(session: Session) -> str:
    """The address the director set for the scoresheets' QR codes ("": none set)."""
    from director.store import models

    row = session.get(models.Meta, SLIP_ADDRESS_KEY)
    return row.value if row is not None else ""


def set_slip_address(session: Session, value: str) -> Changed[str]:
    """Store (or with "" clear) the address printed in the scoresheets' QR codes, for a table
    service another computer runs (`serve` on a Raspberry Pi beside the projector)."""
    from director.store import models

    address = check_slip_address(value) if value.strip() else ""
    session.merge(models.Meta(key=SLIP_ADDRESS_KEY, value=address))
    session.flush()
    return Changed(address, Changes.of(Area.SLIPS))


def _slip_links(
    session: Session, matches: Sequence[MatchInfo], address: str, issue: bool
) -> dict[int, tuple[str, str]]:
    """Match id → the links its two QR codes open (team A's, team B's): only a match of the
    open round takes slips; `issue` issues the missing tokens (a write), else only the issued
    ones print."""
    from director.domain.rules import Side
    from director.services.slips import live_tokens, team_tokens

    if not address:
        return {}
    find = team_tokens if issue else live_tokens
    out: dict[int, tuple[str, str]] = {}
    for m in matches:
        tokens = None if m.is_bye else find(session, m.id)
        if tokens is not None:
            out[m.id] = (f"{address}slip/{tokens[Side.A]}", f"{address}slip/{tokens[Side.B]}")
    return out


def conditions_text(event: EventInfo) -> str:
    """ "Match to 5 points · standard scoring · 2 min + 12 s Fischer increment per player"."""
    from director.domain.match_reserve import clock_text

    rules = event.options.match
    n = rules.match_length
    clock = clock_text(event.options.time_control).removesuffix(" per game")
    label = rules.scoring.variant.label
    return f"Match to {counted(n, 'point')} · {label} scoring · {clock}"


def _points_before(session: Session, number: int) -> dict[int, float]:
    """Each team's match points after the round before `number` (its score going in)."""
    from director.services import standings as standings_service

    if number <= 1:
        return {}
    view = standings_service.standings(session, number - 1)
    return {line.team.id: line.row.match_points for line in view.lines}


TIME_OF_DAY = re.compile(r"([0-9]{2}):([0-9]{2})")


def _round_text(
    session: Session,
    event: EventInfo,
    kind: str,
    round: int | None,
    match: int | None,
    start: str | None,
) -> str:
    """ "Round 3 of 7 · starts 19:30" for the sheets of one round."""
    # 0-9 only: "²²:³³" passed str.isdigit, then raised in int(); "١٩:٣٠" was read as 19:30
    found = TIME_OF_DAY.fullmatch(start) if start is not None else None
    if start is not None and (found is None or int(found[1]) > 23 or int(found[2]) > 59):
        raise UserError(f"the start time {quoted(start)} is not a time of day (HH:MM, e.g. 19:30)")
    if not report(kind).sheet or match is not None or not round_numbers(session):
        return ""
    number = round if round is not None else _latest_round(session)
    total = event.options.rounds
    text = f"Round {number} of {total}" if total >= number else f"Round {number}"
    return text + (f" · starts {start}" if start else "")


def _check_logo(logo: str | Path | None) -> Path | None:
    if logo is None:
        return None
    from reportlab.lib.utils import ImageReader

    path = Path(logo)
    try:
        ImageReader(str(path)).getSize()
    except Exception as exc:  # reportlab raises many kinds for a file it cannot read
        raise UserError(f"{path}: not a picture the reports can print (PNG or JPEG)") from exc
    return path


def _scoresheet(job: _Job) -> Built:
    from director.reports import scoresheet

    matches = _matches(job.session, job.round, job.match)
    links = _slip_links(job.session, matches, job.slip_address, job.issue_slip_tokens)
    return scoresheet.story(job.event, matches, job.box, slip_links=links), "", False


def _match_report(job: _Job) -> Built:
    from director.reports import match_report

    return (
        match_report.story(job.event, _matches(job.session, job.round, job.match), job.box),
        "",
        False,
    )


def _pairings(job: _Job) -> Built:
    from director.reports import pairings
    from director.services.matches import list_matches

    number = _latest_round(job.session) if job.round is None else job.round
    _check_round(job.session, number)
    story = pairings.story(
        number, list_matches(job.session, number), job.box,
        points=_points_before(job.session, number), conditions=conditions_text(job.event),
    )  # fmt: skip
    return story, f"Pairings – round {number}", False


def _blank_scoresheet(job: _Job) -> Built:
    from director.reports import scoresheet

    return scoresheet.blank_story(job.event, job.box), "", False


def _results(job: _Job) -> Built:
    from director.reports import results as results_report
    from director.services.matches import list_matches

    number = _latest_round(job.session) if job.round is None else job.round
    _check_round(job.session, number)
    story = results_report.story(number, list_matches(job.session, number), job.box)
    return story, f"Results – round {number}", False


def _bracket(job: _Job) -> Built:
    from director.domain.rules import PairingSystem
    from director.reports import bracket
    from director.reports.styles import Section, text
    from director.services.bracket_pairing import paired_by_match
    from director.services.matches import list_matches
    from director.services.teams import list_teams

    opts = job.event.options
    if opts.pairing_system is not PairingSystem.KNOCKOUT:
        title = report("bracket").title
        words = opts.pairing_system.value.replace("-", " ")
        note = f"This event is paired {words}, not knockout: it has no bracket."
        return [Section(title), text(title, "title"), text(note, "body")], "", False
    if paired_by_match(job.session):
        return _draw_sheets(job)
    by_round: dict[int, list[MatchInfo]] = {}
    for m in list_matches(job.session):
        if m.round is not None:
            by_round.setdefault(m.round, []).append(m)
    teams = len(list_teams(job.session))
    total = max(1, (max(teams, 2) - 1).bit_length())  # rounds of a knockout of `teams`
    return bracket.story(by_round, total, job.box), "", False


def _draw_sheets(job: _Job) -> Built:
    """Every bracket's draw sheet from the event's draw (RULES §11), on landscape pages."""
    from sqlalchemy import select

    from director.domain.brackets.draw import MatchKey, Status, Vacant
    from director.reports import draw_sheet
    from director.reports.styles import LANDSCAPE, layout
    from director.services.bracket_pairing import draw_state, entry_scores, places_lines
    from director.store import models

    box = layout(job.paper, LANDSCAPE)
    if job.session.scalar(select(models.Match.id).limit(1)) is None:
        return draw_sheet.story(None, {}, [], box), "", True
    state = draw_state(job.session)
    by_key = state.stored
    name = {t.id: t.name for t in state.teams.values()}
    progress = state.progress
    boxes: dict[MatchKey, draw_sheet.Box] = {}
    for i, node in enumerate(state.draw.nodes):
        status, players = progress.of_index(i)
        if status is Status.EMPTY:
            continue
        winner = progress.winner[i]  # a bye's player too
        match = by_key.get(node.key)
        scores = entry_scores(match, players, winner if status is Status.DONE else None)
        entries = [
            draw_sheet.Entry(seat) if isinstance(seat, Vacant)
            else draw_sheet.Entry(name[seat], score, seat == winner)
            for seat, score in zip(progress.seats(i), scores, strict=True)
        ]  # fmt: skip
        note = ""
        if match is not None and status is Status.READY:
            note = f"table {match.table}"
        boxes[node.key] = draw_sheet.Box((entries[0], entries[1]), note)
    standings = [draw_sheet.Standing(b.name, tuple(places_lines(progress, b.name, name)))
                 for b in state.plan.brackets]  # fmt: skip
    slots = draw_sheet.page_slots(job.paper)
    return draw_sheet.story(state.draw, boxes, standings, box, slots), "", True


def _teams(job: _Job) -> Built:
    from director.reports import teams as teams_report
    from director.services.teams import list_teams

    entrant = job.event.options.match.event_format.entrant
    return teams_report.story(list_teams(job.session), job.box, entrant=entrant), "", False


def _audit(job: _Job) -> Built:
    return _audit_story(job.session, job.round, job.match, job.paper), "", True


def _met(job: _Job) -> Built:
    from director.reports import met

    table = match_equity_table(job.params)
    return met.story(job.params, table, job.when.date(), job.box), "", False


def _event(job: _Job) -> Built:
    from director.reports import event as event_report

    data = _event_data(job.session, job.event, job.when.date(), job.params)
    return event_report.story(data, job.paper), "", False


def _standings(job: _Job) -> Built:
    from director.reports import standings as standings_report

    opts = job.event.options
    view = _Standings(job.session, job.round)
    story = standings_report.story(
        view.rows, view.team_map, opts.match_points, opts.tie_breaks, view.through, job.box,
        game_points=view.game_points if opts.match.scoring.variant.squeeze is not None else None,
        final=view.final, heading=view.heading, entrant=opts.match.event_format.entrant,
        draws=opts.match.event_format.draws,
    )  # fmt: skip
    title = standings_report.standings_title(view.through, view.final, view.heading)
    return story, title, False


def _crosstable(job: _Job) -> Built:
    from director.reports import crosstable
    from director.reports.styles import LANDSCAPE, layout

    opts = job.event.options
    view = _Standings(job.session, job.round)
    wide = crosstable.needs_landscape(len(view.rounds))
    box = layout(job.paper, LANDSCAPE) if wide else job.box
    story = crosstable.story(
        view.rows, view.crosstable, view.team_map, view.rounds, box,
        game_points=view.game_points if opts.match.scoring.variant.squeeze is not None else None,
        heading=view.heading, entrant=opts.match.event_format.entrant,
        draws=opts.match.event_format.draws,
    )  # fmt: skip
    return story, crosstable.crosstable_title(view.through, view.heading), wide


def _boards(job: _Job) -> Built:
    from director.reports import boards

    if job.event.options.match.event_format.one_board:
        raise UserError(
            "board statistics compare a team's boards; an individual event has one board: "
            "its players' statistics are the standings"
        )
    view = _Standings(job.session, job.round)
    return boards.story(view.boards, view.team_map, job.box), "", False


def _audit_story(session: Session, round: int | None, match: int | None, paper: Paper) -> Story:
    """The audit log (one round's or one match's lines when asked), on landscape pages."""
    from director.reports import audit as audit_report
    from director.reports.styles import LANDSCAPE, layout
    from director.services import audit

    places = {p.id: p for p in audit.match_places(session)}
    lines = audit.entries(session, match=match, round=round)
    subject = ""
    if match is not None:
        subject = places[match].label if match in places else f"match {match}"
    elif round is not None:
        subject = f"round {round}"
    teams = audit.team_names(session)
    rows = [line.row(places, teams) for line in lines]
    return audit_report.story(rows, layout(paper, LANDSCAPE), subject)


def _event_data(
    session: Session, event: EventInfo, printed_on: date, params: MetParameters
) -> EventData:
    from director.reports.event import EventData
    from director.services.teams import list_teams

    view = _Standings(session, None)
    every = view.matches
    rounds: dict[int, list[MatchInfo]] = {n: [] for n in view.rounds}
    for m in every:
        if m.round is not None:
            rounds.setdefault(m.round, []).append(m)
    return EventData(
        event=event,
        teams=list_teams(session),
        rounds=rounds,
        other_matches=[m for m in every if m.round is None],
        standings=view.rows,
        through_round=view.through,
        crosstable=view.crosstable,
        game_points=view.game_points
        if event.options.match.scoring.variant.squeeze is not None
        else None,
        final=view.final,
        standings_heading=view.heading,
        boards=view.boards,
        met_parameters=params,
        met_table=match_equity_table(params),
        printed_on=printed_on,
    )


# The reports, in the order of the CLI's list (the Reports menu groups them in its SECTIONS).
# A builder's title "" means the report's own title.
REPORTS = (
    Report(
        "scoresheet", "Match scoresheets", _scoresheet, of_round=True, of_match=True, sheet=True
    ),
    Report(
        "match-report", "Match reports", _match_report, of_round=True, of_match=True, sheet=True
    ),
    Report("pairings", "Pairings", _pairings, of_round=True, sheet=True),
    Report("standings", "Standings", _standings, of_round=True, after_round=True),
    Report("crosstable", "Crosstable", _crosstable, of_round=True, after_round=True),
    Report("boards", "Board statistics", _boards),
    Report("teams", "Team list", _teams),
    Report("met", "Match equity table", _met),
    Report("event", "Event report", _event),
    Report("results", "Results", _results, of_round=True, sheet=True),
    Report("blank-scoresheet", "Blank scoresheet", _blank_scoresheet),
    Report("bracket", "Draw sheets", _bracket),
    Report("audit", "Audit log", _audit, filtered=True),
)
KINDS = tuple(r.kind for r in REPORTS)
