"""Small builders shared by the pairing tests."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from director.domain.pairing.model import MatchResult, Outcome, RoundPairing, TeamEntry


def make_teams(n: int) -> list[TeamEntry]:
    """Teams 1..n named T1..Tn, seed = id."""
    return [TeamEntry(i, f"T{i}", i) for i in range(1, n + 1)]


def changed(teams: list[TeamEntry], team_id: int, **fields: Any) -> list[TeamEntry]:
    """The teams with one team's fields changed."""
    return [replace(t, **fields) if t.id == team_id else t for t in teams]


def pairs_of(rp: RoundPairing) -> list[tuple[int, int | None]]:
    return [(p.team_a, p.team_b) for p in rp.pairings]


def play(
    rp: RoundPairing, winner: Callable[[int, int], int] = min, scores: tuple[int, int] = (5, 3)
) -> list[MatchResult]:
    """Results for a round: ``winner(a, b)`` wins each match (default: the lower id)."""
    out = []
    for p in rp.pairings:
        if p.team_b is None:
            out.append(MatchResult(rp.round, p.table, p.team_a, None, 0, 0, Outcome.BYE))
            continue
        a_wins = winner(p.team_a, p.team_b) == p.team_a
        sa, sb = scores if a_wins else scores[::-1]
        outcome = Outcome.A if a_wins else Outcome.B
        out.append(MatchResult(rp.round, p.table, p.team_a, p.team_b, sa, sb, outcome))
    return out


def result(rnd: int, a: int, b: int | None, outcome: Outcome = Outcome.A) -> MatchResult:
    if b is None:
        return MatchResult(rnd, 99, a, None, 0, 0, Outcome.BYE)
    scores = {Outcome.A: (5, 3), Outcome.B: (3, 5), Outcome.DRAW: (5, 5)}.get(outcome, (0, 0))
    return MatchResult(rnd, 1, a, b, *scores, outcome)
