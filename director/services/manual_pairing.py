"""The director's own pairings (RULES §8): swap two teams, pair two teams directly, give or
move the bye, and the forbidden pairs. Every override is warned and audited.

The edits themselves are the domain's (`domain.pairing.control`); this module applies one to
a published round that has no result yet, through `rounds.set_round_pairings`, which checks,
warns and writes the audit line.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from sqlalchemy.orm import Session

from director.domain.changes import Area, Changed, Changes
from director.domain.errors import UserError
from director.domain.event import TeamInfo
from director.domain.pairing.control import give_bye, pair_together, swap_teams
from director.domain.pairing.model import Pairing
from director.domain.wording import isolated
from director.services import audit, rounds
from director.services.teams import list_teams


class Edit(StrEnum):
    """What the director does to a round's pairings, in the words of the dialog."""

    SWAP = "swap places"
    PAIR = "pair together"
    BYE = "give the bye"

    @property
    def needs_second_team(self) -> bool:
        return self is not Edit.BYE


def edited(
    pairings: tuple[Pairing, ...], edit: Edit, first: int, second: int | None = None
) -> tuple[Pairing, ...]:
    """The round's pairings once this edit is made (nothing is written)."""
    if edit is Edit.BYE:
        return give_bye(pairings, first)
    if second is None:
        raise UserError("choose the second team")
    if edit is Edit.SWAP:
        if first == second:
            raise UserError("choose two different teams")
        return swap_teams(pairings, first, second)
    return pair_together(pairings, first, second)


def round_pairings(session: Session, number: int) -> tuple[Pairing, ...]:
    info = rounds.get_round(session, number)
    return tuple(
        Pairing(m.table, m.team_a.id, m.team_b.id if m.team_b else None) for m in info.matches
    )


def unpaired_teams(session: Session, number: int) -> list[TeamInfo]:
    """Active teams the round does not pair (a late arrival, a team checked in afterwards):
    the director can pair one of them directly, or give it the bye."""
    placed = {t for p in round_pairings(session, number) for t in p.teams}
    return [
        t
        for t in list_teams(session)
        if t.id not in placed and rounds.team_entry(t).active_in(number)
    ]


@dataclass(frozen=True)
class EditPreview:
    pairings: tuple[Pairing, ...]
    warnings: tuple[str, ...]


def preview_edit(
    session: Session, number: int, edit: Edit, first: int, second: int | None = None
) -> EditPreview:
    """The round after the edit, with every warning (RULES §8); nothing is written."""
    after = edited(round_pairings(session, number), edit, first, second)
    return EditPreview(after, tuple(rounds.manual_warnings(session, number, after)))


def edit_round(
    session: Session,
    number: int,
    edit: Edit,
    first: int,
    second: int | None,
    reason: str,
) -> Changed[list[str]]:
    """Make the edit in a round with no result yet; returns the warnings (audited with it)."""
    rounds.lock_round(session, number)  # the pairings read below cannot change under us
    names = {t.id: t.name for t in list_teams(session)}
    what = f"{edit}: {names.get(first, first)}"
    if edit.needs_second_team and second is not None:
        what += f" and {names.get(second, second)}"
    after = edited(round_pairings(session, number), edit, first, second)
    why = reason.strip()
    return Changed(
        rounds.set_round_pairings(session, number, after, f"{what}; {why}" if why else ""),
        Changes.of(Area.ROUNDS),
    )


# --- forbidden pairs ------------------------------------------------------------------------


@dataclass(frozen=True)
class ForbiddenPair:
    first: TeamInfo
    second: TeamInfo

    @property
    def ids(self) -> tuple[int, int]:
        return self.first.id, self.second.id


def list_forbidden_pairs(session: Session) -> list[ForbiddenPair]:
    teams = {t.id: t for t in list_teams(session)}
    out = []
    for pair in rounds.forbidden_pairs(session):
        a, b = sorted(pair, key=lambda t: (teams[t].seed, t))
        out.append(ForbiddenPair(teams[a], teams[b]))
    return sorted(out, key=lambda p: (p.first.seed, p.second.seed))


def set_forbidden(
    session: Session, first: int, second: int, forbidden: bool, reason: str
) -> Changed[list[str]]:
    """Forbid (or allow again) a pair of teams: the engine never pairs a forbidden pair, and a
    pairing by hand that has one is warned. Audited with its reason; returns the warnings (the
    pair sits at one table of a published round that has not started)."""
    if not reason.strip():
        raise UserError("a forbidden pair needs a reason for the audit log (same club, family)")
    teams = {t.id: t for t in list_teams(session)}
    for team in (first, second):
        if team not in teams:
            raise UserError(f"there is no team with id {team}")
    known = frozenset((first, second)) in rounds.forbidden_pairs(session)
    if known == forbidden:
        state = "already forbidden" if forbidden else "not forbidden"
        raise UserError(f"{teams[first].name} v {teams[second].name} is {state}")
    rounds.set_forbidden_pair(session, first, second, forbidden)
    action = "forbid pair" if forbidden else "allow pair"
    target = f"teams {min(first, second)} and {max(first, second)}"
    names = f"{teams[first].name} v {teams[second].name}"
    warnings = _meeting_now(session, first, second) if forbidden else []
    note = reason.strip() + ("; warnings: " + "; ".join(warnings) if warnings else "")
    audit.log(session, action, target, None, names, note)
    return Changed(warnings, Changes.of(Area.ROUNDS))


def _meeting_now(session: Session, first: int, second: int) -> list[str]:
    """Where the pair sits at one table of a round that may still be paired again or edited."""
    pair = {first, second}
    return [
        f"{isolated(m.team_a.name)} and {isolated(m.team_b.name)} meet at table {m.table} of"
        f" round {info.number},"
        " which has not started: pair it again or edit it"
        for info in rounds.list_rounds(session)
        if not rounds.started_refusal(info, "edited")
        for m in info.matches
        if m.team_b is not None and {m.team_a.id, m.team_b.id} == pair
    ]
