"""The director's own pairings: warnings for a hand-made round, and swapping two teams.

RULES §8: the director may edit any pairing; the app warns and records the override. These
functions only warn; nothing here refuses a pairing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence

from director.domain.errors import UserError
from director.domain.pairing.model import History, MatchResult, Pairing, TeamEntry


def check_manual(
    pairings: Sequence[Pairing],
    teams: Sequence[TeamEntry],
    history: Sequence[MatchResult],
    *,
    round_no: int | None = None,
    forbidden_pairs: Collection[frozenset[int]] = frozenset(),
) -> list[str]:
    """Warnings, in words, for a round the director paired or edited by hand.

    ``history`` holds the results of the earlier rounds; ``round_no`` defaults to the round
    after the last one in it.
    """
    if round_no is None:
        round_no = max((r.round for r in history), default=0) + 1
    by_id = {t.id: t for t in teams}
    past = History.of(history, before_round=round_no)

    def name(team: int) -> str:
        return by_id[team].name if team in by_id else f"unknown team {team}"

    out: list[str] = []
    tables = Counter(p.table for p in pairings)
    out += [f"table {t} is used {n} times" for t, n in sorted(tables.items()) if n > 1]
    seen = Counter(t for p in pairings for t in p.teams)
    for team, times in seen.items():
        if team not in by_id:
            out.append(f"{name(team)} is paired")
        elif times > 1:
            out.append(f"{name(team)} is paired {times} times")
        elif not by_id[team].active_in(round_no):
            t = by_id[team]
            why = (
                f"joins only in round {t.joined_round}"
                if round_no < t.joined_round
                else f"withdrew after round {t.withdrawn_after_round}"
            )
            out.append(f"{t.name} is paired but {why}")
    out += [
        f"{t.name} is missing: it is active but not paired"
        for t in teams
        if t.active_in(round_no) and t.id not in seen
    ]
    byes = [p.team_a for p in pairings if p.team_b is None]
    if len(byes) > 1:
        out.append(f"{len(byes)} byes: " + ", ".join(name(t) for t in byes))
    for team in byes:
        if past.free_wins[team]:
            out.append(f"{name(team)} has the bye but already had a bye or forfeit win")
    for p in pairings:
        if p.team_b is None:
            continue
        if p.team_a == p.team_b:
            out.append(f"{name(p.team_a)} is paired with itself at table {p.table}")
            continue
        key = frozenset(p.teams)
        if past.meetings[key]:
            out.append(
                f"{name(p.team_a)} v {name(p.team_b)} is a rematch"
                f" (they met in round {past.first_met[key]})"
            )
        if key in forbidden_pairs:
            out.append(f"{name(p.team_a)} v {name(p.team_b)} is a forbidden pair")
    return out


def swap_teams(pairings: Sequence[Pairing], first: int, second: int) -> tuple[Pairing, ...]:
    """The pairings with two teams' places exchanged (between tables, or A and B at one)."""

    def swapped(team: int) -> int:
        return second if team == first else first if team == second else team

    placed = {t for p in pairings for t in p.teams}
    missing = [t for t in (first, second) if t not in placed]
    if missing:
        raise UserError(f"team {missing[0]} is not in these pairings")
    return tuple(
        Pairing(p.table, swapped(p.team_a), None if p.team_b is None else swapped(p.team_b))
        for p in pairings
    )
