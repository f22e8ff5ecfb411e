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


def _placed(pairings: Sequence[Pairing], *teams: int) -> list[Pairing]:
    """The pairings with every team not in them given a bye at a new table (a late arrival,
    a team checked in after publishing): the edits below treat it as a team with a bye."""
    out = list(pairings)
    placed = {t for p in pairings for t in p.teams}
    for team in dict.fromkeys(teams):
        if team not in placed:
            out.append(Pairing(max((p.table for p in out), default=0) + 1, team, None))
    return out


def _index_of(pairings: Sequence[Pairing], team: int) -> int:
    return next(i for i, p in enumerate(pairings) if team in p.teams)


def _opponent(pairing: Pairing, team: int) -> int | None:
    return pairing.team_b if pairing.team_a == team else pairing.team_a


def pair_together(pairings: Sequence[Pairing], first: int, second: int) -> tuple[Pairing, ...]:
    """`first` and `second` meet at the lower of their two tables; their former opponents meet
    at the other (one of them has the bye there when the other had it; the table goes when
    both had it)."""
    if first == second:
        raise UserError("a team cannot be paired with itself")
    out = _placed(pairings, first, second)
    i, j = _index_of(out, first), _index_of(out, second)
    if i == j:
        raise UserError("these two teams are already paired together")
    here, there = out[i], out[j]
    left = [t for t in (_opponent(here, first), _opponent(there, second)) if t is not None]
    (low, at_low), (high, at_high) = sorted(((here.table, i), (there.table, j)))
    edited: list[Pairing | None] = list(out)
    edited[at_low] = Pairing(low, first, second)
    edited[at_high] = Pairing(high, left[0], left[1] if len(left) > 1 else None) if left else None
    return tuple(p for p in edited if p is not None)


def give_bye(pairings: Sequence[Pairing], team: int) -> tuple[Pairing, ...]:
    """`team` takes the bye: the team that had it plays `team`'s opponent in its place. In a
    round without a bye, `team`'s opponent is left with a bye of its own (two byes, warned)."""
    out = _placed(pairings, team)
    at = _index_of(out, team)
    here = out[at]
    if here.team_b is None:
        raise UserError("this team has the bye already")
    holders = [p.team_a for p in out if p.team_b is None]
    if holders:
        return swap_teams(out, team, holders[0])
    opponent = _opponent(here, team)
    assert opponent is not None
    new_table = max(p.table for p in out) + 1
    out[at] = Pairing(here.table, opponent, None)
    return (*out, Pairing(new_table, team, None))
