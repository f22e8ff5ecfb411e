"""Create, open and edit an event and its options."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from director.domain.changes import Area, Changed, Changes
from director.domain.errors import ConflictError, UserError
from director.domain.event import EventInfo
from director.domain.match_reserve import match_clock
from director.domain.rules import EventFormat, EventOptions, PairingSystem, rules_for_match
from director.domain.wording import isolated, quoted
from director.services import audit
from director.store import convert, models

MAX_EVENT_NAME = 200
MAX_HEADER_TEXT = 200  # venue, organiser, director: the columns hold 200


def create_event(
    session: Session,
    name: str,
    options: EventOptions | None = None,
    venue: str = "",
    event_date: str = "",
    *,
    end_date: str = "",
    organiser: str = "",
    director: str = "",
) -> EventInfo:
    if session.scalar(select(func.count()).select_from(models.Event)):
        raise UserError("this database already holds an event")
    options = options or EventOptions()
    _check(name, options)
    check_header(venue, event_date, end_date, organiser, director)
    row = models.Event(
        name=name.strip(), venue=venue.strip(), event_date=event_date.strip(),
        end_date=end_date.strip(), organiser=organiser.strip(), director=director.strip(),
    )  # fmt: skip
    convert.write_event_options(row, options)
    session.add(row)
    session.flush()
    return convert.event_info(row)


def event_row(session: Session) -> models.Event:
    row = session.scalars(select(models.Event).limit(1)).first()
    if row is None:
        raise UserError("this database holds no event")
    return row


def get_event(session: Session) -> EventInfo:
    return convert.event_info(event_row(session))


def event_version(session: Session) -> int:
    """The event row's version: what an options dialog passes back to `update_event`."""
    return event_row(session).version


def _check(name: str, options: EventOptions) -> None:
    problems = list(options.problems())
    if not name.strip():
        problems.insert(0, "the event needs a name")
    if len(name) > MAX_EVENT_NAME:
        problems.insert(0, f"the event name is longer than {MAX_EVENT_NAME} characters")
    if problems:
        raise UserError("; ".join(problems))


def check_header(venue: str, first: str, last: str, organiser: str, director: str) -> None:
    """The report header's facts: ISO dates in order, names of a printable length."""
    problems = []
    for label, value in (("the date", first), ("the end date", last)):
        if value.strip():
            try:
                date.fromisoformat(value.strip())
            except ValueError:
                problems.append(f"{label} {quoted(value.strip())} is not a date (YYYY-MM-DD)")
    if last.strip() and not first.strip():
        problems.append("an end date needs the event's first date")
    elif not problems and last.strip() and last.strip() < first.strip():
        problems.append(f"the end date {last.strip()} is before the date {first.strip()}")
    for label, value in (("venue", venue), ("organiser", organiser), ("director", director)):
        if len(value.strip()) > MAX_HEADER_TEXT:
            problems.append(f"the {label} is longer than {MAX_HEADER_TEXT} characters")
    if problems:
        raise UserError("; ".join(problems))


def games_recorded(session: Session) -> int:
    return session.scalar(select(func.count()).select_from(models.Game)) or 0


def rounds_paired(session: Session) -> int:
    return session.scalar(select(func.count()).select_from(models.Round)) or 0


def clocks_in_use(session: Session) -> list[tuple[int, str]]:
    """The unfinished matches that keep a clock log (a clock window ran for them), as
    (match id, "table 3 (Blue Bar v Gammonites)"): the log is replayed with the event's time
    control, so that cannot change under them."""
    ids = session.scalars(
        select(models.ClockEvent.match_id)
        .join(models.Match, models.Match.id == models.ClockEvent.match_id)
        .where(models.Match.result == "unfinished")
        .distinct()
        .order_by(models.ClockEvent.match_id)
    ).all()
    out = []
    for match_id in ids:
        row = session.get(models.Match, match_id)
        assert row is not None
        a, b = (
            session.get(models.Team, team).name if team is not None else "bye"  # type: ignore[union-attr]
            for team in (row.team_a_id, row.team_b_id)
        )
        where = f"table {row.table_no}" if row.table_no else f"match {match_id}"
        out.append((match_id, f"{where} ({isolated(a)} v {isolated(b)})"))  # bidi: in place
    return out


@dataclass(frozen=True)
class OptionLocks:
    """Why each group of options cannot change now ("" while it can): the options dialog
    disables those fields with the reason, and `update_event` refuses the same changes."""

    format: str = ""  # its entrants are registered as teams or as players
    match: str = ""
    time_control: str = ""
    pairing_system: str = ""
    schedule: str = ""  # the double round robin


def _clock_lock(in_use: list[tuple[int, str]]) -> str:
    if not in_use:
        return ""
    where = ", ".join(text for _id, text in in_use[:3])
    more = f" and {len(in_use) - 3} more" if len(in_use) > 3 else ""
    return (
        f"the clock cannot change while unfinished matches keep a clock log ({where}{more}): "
        "their clocks were started under the current one. Finish those matches or reset "
        "their clocks first (Reset their clocks…)"
    )


def option_locks(session: Session) -> OptionLocks:
    """What would alter the meaning of results already recorded or rounds paired."""
    paired = bool(rounds_paired(session))
    entrant = event_row_format(session).entrant
    registered = session.scalar(select(func.count()).select_from(models.Team))
    return OptionLocks(
        format=f"the format cannot change once {entrant}s are registered: they entered as "
        f"{entrant}s"
        if registered
        else "",
        match=(
            "the match rules (length, scoring, rule 4′, one-cube options, rule 5′) cannot change "
            "once games are recorded: it would change their scores"
        )
        if games_recorded(session)
        else "",
        time_control=_clock_lock(clocks_in_use(session)),
        pairing_system="the pairing system cannot change once a round is paired" if paired else "",
        schedule="the round-robin schedule is fixed once a round is paired" if paired else "",
    )


def event_row_format(session: Session) -> EventFormat:
    return convert.event_info(event_row(session)).options.match.event_format


def why_options_locked(session: Session, old: EventOptions, new: EventOptions) -> list[str]:
    """The locks that a change from `old` to `new` runs into."""
    locks = option_locks(session)
    changes = (
        (locks.format, old.match.format != new.match.format),
        (locks.match, old.match != new.match),
        (locks.time_control, old.time_control != new.time_control),
        (locks.pairing_system, old.pairing_system != new.pairing_system),
        (locks.schedule, old.double_round_robin != new.double_round_robin),
    )
    return [lock for lock, changed in changes if lock and changed]


def _unstarted_matches_take(session: Session, options: EventOptions) -> None:
    """A match keeps the rules it was paired with (#28) once it has started (a game or a clock
    event); one paired but not started yet is played under the options as they are set now,
    as every match was before matches kept their rules. (The pairing system, which decides
    rule 4′ in knockout, cannot change once a round is paired.)"""
    from director.services.brackets import plan_of, planned_length  # brackets reads events

    rules = rules_for_match(options, knockout=options.pairing_system is PairingSystem.KNOCKOUT)
    plan = plan_of(event_row(session)) if options.pairing_system is PairingSystem.KNOCKOUT else None
    started = select(models.Game.match_id).union(select(models.ClockEvent.match_id))
    for match in session.scalars(select(models.Match).where(models.Match.id.not_in(started))):
        # a bracket match is played to its bracket round's length (RULES §11)
        length = (
            planned_length(plan, match.bracket, match.bracket_round or 1)
            if plan is not None and match.bracket is not None
            else None
        )
        its = rules if length is None else replace(rules, match_length=length)
        clock = match_clock(its, options.time_control)
        if convert.match_rules(match) != its or convert.match_time_control(match) != clock:
            convert.write_match_rules(match, its, clock)


def update_event(
    session: Session,
    *,
    name: str | None = None,
    options: EventOptions | None = None,
    venue: str | None = None,
    event_date: str | None = None,
    end_date: str | None = None,
    organiser: str | None = None,
    director: str | None = None,
    version: int | None = None,
) -> Changed[EventInfo]:
    """Save the event's name and options; with `version` (what the dialog showed), refused
    when another station saved them since (the row's version counter, checked on PostgreSQL
    by the UPDATE itself)."""
    row = event_row(session)
    check_header(
        row.venue if venue is None else venue,
        row.event_date if event_date is None else event_date,
        row.end_date if end_date is None else end_date,
        row.organiser if organiser is None else organiser,
        row.director if director is None else director,
    )
    if version is not None and row.version != version:
        raise ConflictError(
            "the event's options were changed on another station since you opened them: "
            "the view is refreshed, open them again",
            Changes.of(Area.EVENT),
        )
    before = convert.event_info(row)
    new_options = options or before.options
    new_name = before.name if name is None else name
    _check(new_name, new_options)
    reasons = why_options_locked(session, before.options, new_options)
    if row.bracket_plan and new_options.consolation != before.options.consolation:
        reasons.append("the bracket plan says whether there is a consolation: set the plan")
    if reasons:
        raise UserError("; ".join(reasons))
    row.name = new_name.strip()
    if venue is not None:
        row.venue = venue.strip()
    if event_date is not None:
        row.event_date = event_date.strip()
    if end_date is not None:
        row.end_date = end_date.strip()
    if organiser is not None:
        row.organiser = organiser.strip()
    if director is not None:
        row.director = director.strip()
    convert.write_event_options(row, new_options)
    _unstarted_matches_take(session, new_options)
    session.flush()
    after = convert.event_info(row)
    if after != before:
        audit.log(session, "edit event", "event", repr(before), repr(after))
    return Changed(after, Changes.of(Area.EVENT))
