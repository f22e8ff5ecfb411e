"""Rounds: preview, pair, publish, swap by hand, re-pair, undo, and the pairing checker.

The engines and the checker live in `director.domain.pairing`; this module maps the event's
rows to their values, writes what the director accepts, and audits every override.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from director.domain.brackets.plan import CONSOLATION, MAIN
from director.domain.changes import Area, Changed, Changes
from director.domain.errors import ConflictError, UserError
from director.domain.event import MatchInfo, PlayStatus, TeamInfo, round_status
from director.domain.pairing.control import check_manual
from director.domain.pairing.engine import pair_round, planned_rounds
from director.domain.pairing.model import (
    MatchResult,
    Outcome,
    Pairing,
    PairingOptions,
    RoundPairing,
    TeamEntry,
    Violation,
)
from director.domain.pairing.swiss import clear_leader
from director.domain.rules import PairingSystem
from director.domain.standings import compute_standings
from director.services import audit
from director.services.brackets import event_plan, planned_length
from director.services.events import event_row
from director.services.matches import list_matches, new_match_row
from director.services.teams import list_teams
from director.store import convert, models

if TYPE_CHECKING:
    from collections.abc import Iterable

RoundStatus = PlayStatus  # a round's status is its matches' (domain.event.round_status)


@dataclass(frozen=True)
class RoundInfo:
    number: int
    published: bool
    status: RoundStatus
    matches: tuple[MatchInfo, ...]


@dataclass(frozen=True)
class RoundPreview:
    number: int
    pairings: tuple[Pairing, ...]
    warnings: tuple[str, ...]
    teams: dict[int, TeamInfo]
    scores: dict[int, float] = field(default_factory=dict)  # match points before the round
    left_out: tuple[int, ...] = ()  # registered, active, but not checked in (RULES §8)
    places: dict[int, str] = field(default_factory=dict)  # knockout: table → bracket place
    # pairing a published round again: its pairings now, and the edits by hand it drops
    replaces: tuple[Pairing, ...] = ()
    dropped: tuple[str, ...] = ()

    def float_of(self, pairing: Pairing) -> str:
        """'A floats down' when the teams come from different score groups ('' otherwise)."""
        if pairing.team_b is None:
            return ""
        a, b = self.scores.get(pairing.team_a, 0), self.scores.get(pairing.team_b, 0)
        if a == b:
            return ""
        return "A floats down, B up" if a > b else "B floats down, A up"

    def lines(self) -> list[str]:
        out = []
        for p in self.pairings:
            a = self.teams[p.team_a].name
            if p.team_b is None:  # played at no table
                out.append(f"bye: {a}")
            else:
                out.append(f"table {p.table}: {a} v {self.teams[p.team_b].name}")
            if p.table in self.places:
                out[-1] += f" ({self.places[p.table]})"
        return out


# --- the event's rows as the pairing engine's values ---------------------------------------


def team_entry(team: TeamInfo) -> TeamEntry:
    return TeamEntry(
        id=team.id,
        name=team.name,
        seed=team.seed,
        club=team.club or None,
        rating=team.rating,
        withdrawn_after_round=team.withdrawn_after_round,
        joined_round=team.joined_round,
    )


def _outcome(result: str, forfeit_by: str | None, bye: bool) -> Outcome:
    if bye:
        return Outcome.BYE
    if forfeit_by is not None:
        return Outcome.FORFEIT_B if forfeit_by == "A" else Outcome.FORFEIT_A
    return Outcome(result)


def stored_results(session: Session) -> list[MatchResult]:
    """Every round's results from the stored scorelines: one query, no re-scoring.

    Every write re-scores its match before it commits, and `check` proves the stored
    scorelines equal the games, so standings and pairings can read them directly.
    """
    m = models.Match
    query = (
        select(
            models.Round.number,
            m.table_no,
            m.team_a_id,
            m.team_b_id,
            m.final_a,
            m.final_b,
            m.result,
            m.forfeit_by,
        )  # fmt: skip
        .join(models.Round, m.round_id == models.Round.id)
        .order_by(models.Round.number, m.table_no, m.id)
    )
    return [
        MatchResult(number, table, a, b, fa, fb, _outcome(result, forfeit, b is None))
        for number, table, a, b, fa, fb, result, forfeit in session.execute(query)
    ]


def forbidden_pairs(session: Session) -> frozenset[frozenset[int]]:
    rows = session.scalars(select(models.ForbiddenPair))
    return frozenset(frozenset((r.team_low_id, r.team_high_id)) for r in rows)


@dataclass(frozen=True)
class PairingInputs:
    teams: list[TeamEntry]
    results: list[MatchResult]
    rounds: list[RoundPairing]
    options: PairingOptions


def pairing_inputs(session: Session, teams: list[TeamInfo] | None = None) -> PairingInputs:
    """What the engines and the checker take, from the rows; ``teams`` when already read."""
    event = event_row(session)
    options = PairingOptions.from_event(
        convert.event_options(event),
        forbidden_pairs=forbidden_pairs(session),
        random_seed=event.random_seed,
    )
    results = stored_results(session)
    by_round: dict[int, list[Pairing]] = {}
    for r in results:
        by_round.setdefault(r.round, []).append(Pairing(r.table, r.team_a, r.team_b))
    rounds = [RoundPairing(n, tuple(p)) for n, p in sorted(by_round.items())]
    teams = list_teams(session) if teams is None else teams
    return PairingInputs([team_entry(t) for t in teams], results, rounds, options)


# --- reading rounds -------------------------------------------------------------------------


def list_rounds(session: Session) -> list[RoundInfo]:
    matches = list_matches(session)
    out = []
    for row in session.scalars(select(models.Round).order_by(models.Round.number)):
        mine = tuple(m for m in matches if m.round == row.number)
        out.append(RoundInfo(row.number, row.published, round_status(mine), mine))
    return out


def get_round(session: Session, number: int) -> RoundInfo:
    for info in list_rounds(session):
        if info.number == number:
            return info
    raise UserError(f"there is no round {number}")


# --- pairing the next round -----------------------------------------------------------------


def next_round_number(session: Session, results: list[MatchResult] | None = None) -> int:
    """The round to pair next, once the last one is finished.

    Read from the stored scorelines like the pairing itself (`stored_results`; ``results``
    when already read): re-scoring every match of a 1,000-team event only to learn this took
    longer than the pairing."""
    last = session.scalar(select(func.max(models.Round.number))) or 0
    if by_match(session):  # a knockout's next match waits only for its own feeders
        from director.services import bracket_pairing

        ready = bracket_pairing.ready_matches(session)
        if ready.waiting:
            raise UserError(ready.waiting)
        return last + 1
    unfinished = [
        f"table {r.table}"
        for r in (stored_results(session) if results is None else results)
        if r.round == last and r.outcome is Outcome.UNFINISHED
    ]
    if unfinished:
        raise UserError(
            f"round {last} is not finished yet ({', '.join(unfinished)}): enter its results first"
        )
    return last + 1


def _check_more_rounds(inputs: PairingInputs, number: int) -> None:
    planned = planned_rounds(inputs.teams, inputs.options)
    if planned and number > planned:
        raise UserError(f"all {planned} rounds of this event are paired")
    if not planned and inputs.results:
        rows = compute_standings(inputs.teams, inputs.results, scheme=inputs.options.match_points)
        leader = clear_leader(rows, inputs.options.match_points.win)
        if leader is not None:
            raise UserError("one team is clear of all others: the Swiss is over")


def event_over(session: Session) -> str:
    """Why no further round will be paired ("all 5 rounds of this event are paired"), or ""
    while one may be (or the last round is still being played)."""
    if by_match(session):
        from director.services import bracket_pairing

        ready = bracket_pairing.ready_matches(session)
        return ready.waiting if ready.complete else ""
    try:
        number = next_round_number(session)
    except UserError:
        return ""  # the last round is still being played
    try:
        _check_more_rounds(pairing_inputs(session), number)
    except UserError as over:
        return str(over)
    return ""


def preview_next_round(session: Session, again: bool = False) -> RoundPreview:
    """The engine's pairing of the next round, with its warnings; nothing is written. With
    `again`, of the last round once more, as if it were not paired (it has no result yet):
    with the pairings it replaces and the edits by hand it drops."""
    if by_match(session):
        if again:
            raise UserError(AGAIN_BY_PLAN)
        return _preview_ready(session)
    listed = list_teams(session)
    inputs = pairing_inputs(session, listed)
    replaces: tuple[Pairing, ...] = ()
    if again:
        last = _last_round(session, "paired again")
        number = last.number
        inputs = replace(
            inputs,
            results=[r for r in inputs.results if r.round < number],
            rounds=[rp for rp in inputs.rounds if rp.round < number],
        )
        replaces = pairings_of(last)
    else:
        number = next_round_number(session, inputs.results)
    _check_more_rounds(inputs, number)
    teams = {t.id: t for t in listed}
    entries, left_out = checked_in(inputs.teams, teams, number)
    active = [t for t in entries if t.active_in(number)]
    if len(active) < 2:
        raise UserError(f"round {number} needs at least two active teams")
    paired = pair_round(entries, inputs.results, inputs.options, number)
    rows = compute_standings(inputs.teams, inputs.results, scheme=inputs.options.match_points)
    scores = {r.team_id: r.match_points for r in rows}
    dropped = hand_edits(session, number) if again else ()
    return RoundPreview(
        number,
        paired.pairings,
        paired.warnings,
        teams,
        scores,
        left_out,
        replaces=replaces,
        dropped=dropped,
    )


def pairings_of(info: RoundInfo) -> tuple[Pairing, ...]:
    return tuple(
        Pairing(m.table, m.team_a.id, m.team_b.id if m.team_b else None) for m in info.matches
    )


AGAIN_BY_PLAN = (
    "a knockout paired by its bracket plan pairs the same matches again: undo the round instead"
)
HAND_EDITS = ("edit pairings", "pair by hand")  # the audit's actions of a round paired by hand


def hand_edits(session: Session, number: int) -> tuple[str, ...]:
    """The round's edits by hand since it was last paired, in the audit's words (their warnings
    left out): what pairing it again would drop."""
    edits: list[str] = []
    for line in audit.entries(session, round=number):
        if line.round_number != number:
            continue
        if line.action in ("pair again", "undo round"):
            edits = []
        elif line.action in HAND_EDITS:
            edits.append(line.reason.split("; warnings: ")[0] or line.action)
    return tuple(edits)


def _preview_ready(session: Session) -> RoundPreview:
    """A knockout's next batch: every match whose two feeders are finished (RULES §11)."""
    from director.services import bracket_pairing

    number = next_round_number(session)
    state = bracket_pairing.draw_state(session)
    ready = bracket_pairing.ready_matches(session, state)
    pairings = tuple(Pairing(n.table, n.team_a, n.team_b) for n in ready.new)
    places = {n.table: str(n.key) for n in ready.new}
    warnings = tuple(
        f"{state.teams[b.team].name} goes through on a bye: {state.teams[b.gone].name} has "
        f"withdrawn ({b.key})"
        for b in ready.byes
    )
    return RoundPreview(number, pairings, warnings, state.teams, places=places)


def checked_in(
    entries: list[TeamEntry], teams: dict[int, TeamInfo], number: int
) -> tuple[list[TeamEntry], tuple[int, ...]]:
    """RULES §8 check-in: once any team is marked present, only present teams are paired in
    this round; the others sit it out (their past results stand, a later round may have them
    again once they check in)."""
    if not any(t.present for t in teams.values()):
        return entries, ()
    out = tuple(e.id for e in entries if e.active_in(number) and not teams[e.id].present)
    return [
        replace(e, withdrawn_after_round=number - 1) if e.id in out else e for e in entries
    ], out


def sat_out(teams: Iterable[TeamInfo], pairings: Iterable[Pairing]) -> frozenset[int]:
    """The teams a round leaves out by design (RULES §8 check-in): once any team is marked
    present, those not marked present and not paired in it. Never "missing"."""
    listed = list(teams)
    if not any(t.present for t in listed):
        return frozenset()
    paired = {t for p in pairings for t in p.teams}
    return frozenset(t.id for t in listed if not t.present and t.id not in paired)


def manual_warnings(session: Session, number: int, pairings: tuple[Pairing, ...]) -> list[str]:
    listed = list_teams(session)
    inputs = pairing_inputs(session, listed)
    history = [r for r in inputs.results if r.round < number]
    out = sat_out(listed, pairings)
    entries = [
        replace(e, withdrawn_after_round=number - 1) if e.id in out and e.active_in(number) else e
        for e in inputs.teams
    ]
    return check_manual(
        pairings,
        entries,
        history,
        round_no=number,
        forbidden_pairs=inputs.options.forbidden_pairs,
    )


def pair_next_round(
    session: Session, pairings: tuple[Pairing, ...] | None = None, reason: str = ""
) -> Changed[RoundInfo]:
    """Write the next round: the engine's pairing, or the director's own (audited). A
    knockout's next round is its ready matches (RULES §11), never paired by hand."""
    if by_match(session):
        from director.services import bracket_pairing

        number = next_round_number(session)
        if pairings is not None and set(pairings) != set(_preview_ready(session).pairings):
            raise UserError(PAIRED_BY_PLAN)
        ready = bracket_pairing.pair_ready(session, number)
        changes = Changes.of(Area.ROUNDS, matches=(b.match_id for b in ready.byes))
        # a pairing that only turned withdrawals into byes answers with the last round
        return Changed(get_round(session, number if ready.new else number - 1), changes)
    preview = preview_next_round(session)
    chosen = preview.pairings if pairings is None else pairings
    if pairings is not None and set(pairings) != set(preview.pairings):
        warnings = manual_warnings(session, preview.number, chosen)
        audit.log(
            session,
            "pair by hand",
            f"round {preview.number}",
            [p.__dict__ for p in preview.pairings],
            [p.__dict__ for p in chosen],
            reason + ("; warnings: " + "; ".join(warnings) if warnings else ""),
        )
    _write_round(session, preview.number, chosen)
    return Changed(get_round(session, preview.number), Changes.of(Area.ROUNDS))


def _write_round(session: Session, number: int, pairings: tuple[Pairing, ...]) -> None:
    _check_teams(session, pairings)
    row = models.Round(number=number, published=True)
    session.add(row)
    session.flush()
    _new_rows(session, row.id, number, pairings)
    session.flush()


def _new_rows(session: Session, round_id: int, number: int, pairings: tuple[Pairing, ...]) -> None:
    """The round's match rows; a knockout's each with its bracket place and planned length."""
    knockout = is_knockout(session)
    places = _knockout_places(session, number, pairings) if knockout else {}
    plan = event_plan(session) if knockout else None
    for p in pairings:
        place = places.get(p.table)
        length = None if plan is None or place is None else planned_length(plan, *place[:2])
        new_match_row(
            session, p.team_a, p.team_b, round_id, p.table, knockout=knockout, place=place,
            length=length,
        )  # fmt: skip


def _knockout_places(
    session: Session, number: int, pairings: tuple[Pairing, ...]
) -> dict[int, tuple[str, int, int]]:
    """Where each table of an event round of the one-boolean knockout sits (RULES §11): the
    main bracket's matches at tables 1 … size ÷ 2^round (size: twice round 1's tables), the
    consolation's first-round losers, from event round 2, at the tables after them."""
    if number == 1:
        first = len(pairings)
    else:
        first = len(
            session.scalars(
                select(models.Match.id).join(models.Round).where(models.Round.number == 1)
            ).all()
        )
    main_tables = (2 * first) >> number
    return {
        p.table: (MAIN, number, p.table)
        if p.table <= main_tables
        else (CONSOLATION, number - 1, p.table - main_tables)
        for p in pairings
    }


def _check_teams(session: Session, pairings: tuple[Pairing, ...]) -> None:
    known = {t.id for t in list_teams(session)}
    for p in pairings:
        for team in p.teams:
            if team not in known:
                raise UserError(f"table {p.table}: there is no team with id {team}")
        if p.team_a == p.team_b:
            raise UserError(f"table {p.table}: a team cannot play itself")


# --- director control -----------------------------------------------------------------------


def _round_row(session: Session, number: int) -> models.Round:
    row = session.scalars(select(models.Round).where(models.Round.number == number)).first()
    if row is None:
        raise UserError(f"there is no round {number}")
    return row


def lock_round(session: Session, number: int) -> None:
    """Row-lock the round and its matches until the transaction ends (PostgreSQL; SQLite has a
    single writer anyway). A station recording a result holds its match row the same way, so
    the check that the round has no results, made after this, cannot miss one: the question
    waits for that commit, then sees the result and refuses."""
    round_id = session.scalar(
        select(models.Round.id).where(models.Round.number == number).with_for_update()
    )
    if round_id is not None:
        session.scalars(
            select(models.Match.id).where(models.Match.round_id == round_id).with_for_update()
        ).all()


def started_refusal(info: RoundInfo, action: str) -> str:
    """Why the round cannot be `action` ('re-paired', 'undone') now: '' when it has no
    result yet. The pages show it as the reason a button is off."""
    if info.status is not RoundStatus.NOT_STARTED:
        return f"round {info.number} has results: it cannot be {action}"
    return ""


def _refuse_if_started(info: RoundInfo, action: str) -> None:
    refusal = started_refusal(info, action)
    if refusal:
        raise UserError(refusal)


def set_round_pairings(
    session: Session, number: int, pairings: tuple[Pairing, ...], reason: str
) -> list[str]:
    """Replace a round's pairings by hand (no results yet); returns the warnings, audited."""
    if by_match(session):
        raise UserError(PAIRED_BY_PLAN)
    lock_round(session, number)
    info = get_round(session, number)
    _refuse_if_started(info, "re-paired")
    if not reason.strip():
        raise UserError("a change to the pairings needs a reason for the audit log")
    before = [(m.table, m.team_a.id, m.team_b.id if m.team_b else None) for m in info.matches]
    warnings = manual_warnings(session, number, pairings)
    _check_teams(session, pairings)
    row = _round_row(session, number)
    session.execute(delete(models.Match).where(models.Match.round_id == row.id))
    _new_rows(session, row.id, number, pairings)
    after = [(p.table, p.team_a, p.team_b) for p in pairings]
    note = reason.strip() + ("; warnings: " + "; ".join(warnings) if warnings else "")
    audit.log(session, "edit pairings", f"round {number}", before, after, note)
    session.flush()
    return warnings


def _last_round(session: Session, action: str) -> RoundInfo:
    listed = list_rounds(session)
    if not listed:
        raise UserError("no round is paired yet")
    _refuse_if_started(listed[-1], action)
    return listed[-1]


def repair_round(
    session: Session, number: int, reason: str = "", expected: tuple[Pairing, ...] | None = None
) -> Changed[RoundInfo]:
    """Pair the last round again with the engine (it must have no results): `expected` is the
    pairing the director was shown (`preview_next_round(again=True)`), refused if the engine's
    answer has changed since. Audited with the pairings before and after, the reason and the
    edits by hand it drops."""
    lock_round(session, number)
    last = _last_round(session, "paired again")
    if last.number != number:
        raise UserError("only the last round can be paired again")
    if not reason.strip():
        raise UserError("pairing a round again needs a reason for the audit log")
    preview = preview_next_round(session, again=True)
    if expected is not None and set(expected) != set(preview.pairings):
        raise ConflictError(
            f"the pairing of round {number} has changed since it was shown (a team or a"
            " forbidden pair changed): look at it again",
            Changes.of(Area.ROUNDS, Area.TEAMS),
        )
    session.delete(_round_row(session, number))
    session.flush()
    pair_next_round(session)  # the engine's pairing, as previewed
    before = [(p.table, p.team_a, p.team_b) for p in preview.replaces]
    after = [(p.table, p.team_a, p.team_b) for p in preview.pairings]
    dropped = " / ".join(preview.dropped)
    note = reason.strip() + (f"; drops the edits made by hand: {dropped}" if dropped else "")
    audit.log(session, "pair again", f"round {number}", before, after, note)
    return Changed(get_round(session, number), Changes.of(Area.ROUNDS))


def undo_last_round(session: Session) -> Changed[int]:
    last_number = session.scalar(select(func.max(models.Round.number)))
    if last_number is not None:
        lock_round(session, last_number)
    rounds = list_rounds(session)
    if not rounds:
        raise UserError("no round is paired yet")
    last = rounds[-1]
    _refuse_if_started(last, "undone")
    session.delete(_round_row(session, last.number))
    audit.log(session, "undo round", f"round {last.number}")
    session.flush()
    return Changed(last.number, Changes.of(Area.ROUNDS))


def set_forbidden_pair(session: Session, team1: int, team2: int, forbidden: bool = True) -> None:
    if team1 == team2:
        raise UserError("a team cannot be paired with itself anyway")
    low, high = sorted((team1, team2))
    existing = session.scalars(
        select(models.ForbiddenPair).where(
            models.ForbiddenPair.team_low_id == low, models.ForbiddenPair.team_high_id == high
        )
    ).first()
    if forbidden and existing is None:
        session.add(models.ForbiddenPair(team_low_id=low, team_high_id=high))
    elif not forbidden and existing is not None:
        session.delete(existing)
    session.flush()


def check_pairings(session: Session) -> list[Violation]:
    """The independent checker over every round of the event (RULES §8); a knockout paired
    match by match through the brackets' own checker (RULES §11)."""
    from director.domain.pairing.checker import check_event

    if by_match(session):
        from director.services.bracket_pairing import check_draw_stored

        return [Violation(n, (), "bracket", text) for n, text in check_draw_stored(session)]
    listed = list_teams(session)
    inputs = pairing_inputs(session, listed)
    left_out = {rp.round: sat_out(listed, rp.pairings) for rp in inputs.rounds}
    return check_event(inputs.teams, inputs.rounds, inputs.results, inputs.options, left_out)


PAIRED_BY_PLAN = (
    "a knockout's brackets are paired by its plan, not by hand: set the seeds before round 1, "
    "or record a forfeit"
)


def by_match(session: Session) -> bool:
    """A knockout paired match by match (RULES §11): see `services/bracket_pairing.py`."""
    from director.services.bracket_pairing import paired_by_match

    return paired_by_match(session)


def is_knockout(session: Session) -> bool:
    return event_row(session).pairing_system == PairingSystem.KNOCKOUT.value


def progress(session: Session) -> tuple[int, bool]:
    """(the last round paired, whether all its matches are finished) in two cheap queries:
    what the app checks after every change to know when a backup milestone is reached."""
    last = session.scalar(select(func.max(models.Round.number))) or 0
    if not last:
        return 0, False
    open_matches = session.scalar(
        select(func.count())
        .select_from(models.Match)
        .join(models.Round, models.Match.round_id == models.Round.id)
        .where(models.Round.number == last, models.Match.result == "unfinished")
    )
    return last, not open_matches
