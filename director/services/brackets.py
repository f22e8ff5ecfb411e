"""The event's bracket plan (RULES §11) and where each stored match sits in it.

The event keeps its plan as JSON (`models.Event.bracket_plan`); an event without one (every
knockout older than revision 0010) is read as the old one-boolean knockout: a single bracket,
or single + consolation when its consolation option is on, every round at the event's length.
Each match keeps its bracket, its round there and its slot (`models.Match.bracket`,
`bracket_round`, `slot`) apart from its table, and is played to its bracket round's length
(fixed when it is paired, with the event's scoring, cube and clock rules: #28's per-match
rules). Changing the plan changes only matches not yet started (no game, no clock event); the
change is audited and each match it re-lengths is named in the warnings returned.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from sqlalchemy import select
from sqlalchemy.orm import Session

from director.domain.brackets.plan import (
    CONSOLATION,
    MAIN,
    Bracket,
    BracketPlan,
    Feed,
    plan_from_json,
    plan_problems,
    plan_to_json,
)
from director.domain.changes import Area, Changed, Changes
from director.domain.errors import UserError
from director.domain.event import EventInfo
from director.domain.match_reserve import match_clock
from director.domain.rules import EventOptions, PairingSystem
from director.domain.wording import counted
from director.services import audit
from director.services.events import event_row, update_event
from director.store import convert, models
from director.store.values import StoredResult


def legacy_plan(consolation: bool, length: int) -> BracketPlan:
    """The plan an event without one is read as: the old single bracket (+ consolation)."""
    main = Bracket(MAIN, (length,))
    if not consolation:
        return BracketPlan("single", (main,))
    return BracketPlan("consolation", (main, Bracket(CONSOLATION, (length,), (Feed(MAIN, 1, 1),))))


def plan_of(event: models.Event) -> BracketPlan:
    if event.bracket_plan:
        return plan_from_json(event.bracket_plan)
    return legacy_plan(event.consolation, event.match_length)


def event_plan(session: Session) -> BracketPlan:
    """The event's plan (the old single / consolation when it has none stored)."""
    return plan_of(event_row(session))


def planned_length(plan: BracketPlan, bracket: str, round_no: int) -> int | None:
    """The length the plan gives a match of this bracket round (None: no such bracket)."""
    try:
        return plan.bracket(bracket).length(round_no)
    except KeyError:
        return None


def started_match_ids(session: Session) -> set[int]:
    """Matches with a game or a clock event: they keep the rules they were paired with."""
    started = select(models.Game.match_id).union(select(models.ClockEvent.match_id))
    return set(session.scalars(started))


def give_length(event: models.Event, row: models.Match, length: int) -> bool:
    """Play `row` to `length` with the rules it keeps otherwise; True when that changed it."""
    rules = convert.match_rules(row)
    if rules.match_length == length:
        return False
    rules = replace(rules, match_length=length)
    clock = match_clock(rules, convert.event_options(event).time_control)
    convert.write_match_rules(row, rules, clock)
    return True


def same_brackets(one: BracketPlan, other: BracketPlan) -> bool:
    """Whether two plans have the same brackets, fed the same way (lengths aside)."""
    return [(b.name, b.feeds, b.third_place) for b in one.brackets] == [
        (b.name, b.feeds, b.third_place) for b in other.brackets
    ]


@dataclass(frozen=True, slots=True)
class PlanChange:
    plan: BracketPlan
    warnings: tuple[str, ...]  # each not-started match the change re-lengths, by its bracket


def set_plan(session: Session, plan: BracketPlan, reason: str = "") -> Changed[PlanChange]:
    """Store the event's plan. A match not started yet takes its bracket round's new length;
    a started one keeps what it was paired with. Audited; the warnings name what changed."""
    problems = plan_problems(plan)
    if problems:
        raise UserError("; ".join(problems))
    event = event_row(session)
    if event.pairing_system != PairingSystem.KNOCKOUT.value:
        raise UserError("only a knockout event has a bracket plan")
    before = plan_of(event)
    if not same_brackets(plan, before):
        if session.scalars(select(models.Round.id)).first() is not None:
            raise UserError(
                f"a round is paired: the plan keeps the brackets of {before.name!r} "
                "(only their match lengths can change now)"
            )
        event.consolation = len(plan.brackets) > 1  # the old switch follows the plan
    paired = session.scalars(
        select(models.Match).where(models.Match.bracket.is_not(None)).order_by(models.Match.id)
    ).all()
    placed = {(m.bracket, m.bracket_round) for m in paired}
    gone = sorted({str(b) for b, _ in placed if planned_length(plan, str(b), 1) is None})
    if gone:
        raise UserError(
            f"the plan has no bracket {gone[0]!r}, and matches of it are paired already"
        )
    started = started_match_ids(session)
    warnings: list[str] = []
    kept: list[str] = []
    for row in paired:
        length = planned_length(plan, str(row.bracket), int(row.bracket_round or 1))
        assert length is not None
        where = f"{row.bracket} round {row.bracket_round} match {row.slot} (table {row.table_no})"
        if row.id in started:
            if row.match_length != length:
                kept.append(
                    f"{where} has started: it stays at {counted(row.match_length, 'point')}"
                )
        elif row.result in (StoredResult.UNFINISHED, StoredResult.BYE) and give_length(
            event, row, length
        ):
            warnings.append(f"{where} is now to {counted(length, 'point')}")
    event.bracket_plan = plan_to_json(plan)
    session.flush()
    audit.log(
        session,
        "bracket plan",
        "event",
        plan_to_json(before),
        event.bracket_plan,
        "; ".join([reason, *warnings, *kept] if reason else [*warnings, *kept]),
    )
    return Changed(PlanChange(plan, tuple(warnings + kept)), Changes.of(Area.EVENT, Area.ROUNDS))


def update_event_and_plan(
    session: Session,
    plan: BracketPlan | None,
    *,
    name: str,
    options: EventOptions,
    venue: str,
    event_date: str,
    organiser: str,
    director: str,
    version: int | None,
) -> Changed[EventInfo]:
    """The Event options dialog's save, as one change: the event's name and options
    (`update_event`) and, for a knockout, its plan (`set_plan`, when it differs), both in the
    caller's one transaction: a refused plan leaves the options as they were too."""
    saved = update_event(
        session,
        name=name,
        options=options,
        venue=venue,
        event_date=event_date,
        organiser=organiser,
        director=director,
        version=version,
    )
    if plan is None or plan == event_plan(session):
        return saved
    planned = set_plan(session, plan)
    return Changed(convert.event_info(event_row(session)), saved.changes | planned.changes)
