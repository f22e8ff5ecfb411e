"""No-show: a team that does not come to its paired match forfeits it (RULES §8).

The other team scores a win with no game points (0–0, as a bye), the absent team a loss. The
reason goes to the audit log; the forfeit can be undone, with a reason, while its round is the
one being played. `no_show_refusal` is the one answer to "may this match be forfeited (or its
forfeit undone) now?": the desk and the rounds page disable their button with its words.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from director.domain.changes import Changed
from director.domain.errors import UserError
from director.domain.event import MatchInfo, TeamInfo
from director.domain.rules import Side
from director.services.events import rounds_paired
from director.services.games import set_forfeit
from director.services.matches import get_match, list_matches
from director.services.teams import list_teams


def no_show_refusal(session: Session, match_id: int) -> str:
    """Why this match cannot be forfeited or have its forfeit undone now ('' when it can)."""
    match = get_match(session, match_id)
    return refusal_of(match, rounds_paired(session))


def refusal_of(match: MatchInfo, last_round: int) -> str:
    if match.is_bye:
        return "a bye has no opponent: nobody can forfeit it"
    if match.games:
        return "games are recorded in this match: it is played, not forfeited (undo them first)"
    if match.round is not None and match.round < last_round:
        return f"round {match.round} is over (round {last_round} is paired): its results stand"
    return ""


def record_no_show(
    session: Session, match_id: int, absent: Side | None, reason: str
) -> Changed[MatchInfo]:
    """`absent` did not show and forfeits (None: undo the forfeit); the reason is required."""
    refusal = no_show_refusal(session, match_id)
    if refusal:
        raise UserError(refusal)
    if not reason.strip():
        raise UserError("give the reason: it is kept in the audit log")
    match = get_match(session, match_id)
    if absent is None and match.forfeit_by is None:
        raise UserError("this match is not a forfeit: there is nothing to undo")
    return set_forfeit(session, match_id, absent, reason.strip())


def absent_last_round(session: Session) -> list[TeamInfo]:
    """The teams that did not show in the last round paired and would be paired in the next:
    not withdrawn, and checked in when check-in is used (else they are left out anyway). The
    rounds page asks about each before it pairs (#24 point 5)."""
    last = rounds_paired(session)
    if not last:
        return []
    absent = set()
    for match in list_matches(session, last):
        if match.forfeit_by is not None:
            team = match.team_a if match.forfeit_by is Side.A else match.team_b
            if team is not None:
                absent.add(team.id)
    teams = list_teams(session)
    check_in = any(t.present for t in teams)
    return [t for t in teams if t.id in absent and not t.withdrawn and (t.present or not check_in)]
