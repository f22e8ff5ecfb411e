"""The checker's own round-robin and knockout schedules, built without the pairing engines.

The Berger table comes from its closed formula (not from the engine's rotation), the knockout
bracket from recursive halving; the results decide who goes through.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from director.domain.pairing.model import MatchResult, TeamEntry

Match = frozenset[int]  # one team: a bye


def berger_pairs(n: int, round_no: int) -> list[tuple[int, int]]:
    """Berger numbers paired in round ``round_no`` (1 to m - 1) of m = n rounded up to even.

    In round k the fixed number m meets p = ((k - 1) * m / 2 mod (m - 1)) + 1, and each
    other p + j meets p - j (modulo m - 1, numbers 1 to m - 1).
    """
    m = n + n % 2
    p = (round_no - 1) * (m // 2) % (m - 1) + 1
    pairs = [(p, m)]
    for j in range(1, m // 2):
        pairs.append(((p - 1 + j) % (m - 1) + 1, (p - 1 - j) % (m - 1) + 1))
    return pairs


def expected_round_robin(
    teams: Sequence[TeamEntry], round_no: int, double: bool
) -> set[Match] | None:
    """The matches the Berger schedule has in this round, or None past its last round."""
    field = [t for t in sorted(teams, key=lambda t: (t.seed, t.id)) if t.takes_part]
    n = len(field)
    cycle = n + n % 2 - 1
    if n < 2 or not 1 <= round_no <= cycle * (2 if double else 1):
        return None
    out: set[Match] = set()
    for a, b in berger_pairs(n, (round_no - 1) % cycle + 1):
        present = [field[x - 1].id for x in (a, b) if x <= n and field[x - 1].active_in(round_no)]
        if present:
            out.add(frozenset(present))
    return out


def standard_bracket(size: int) -> list[int]:
    """Seeds in bracket order: each half of a bracket is the bracket of half the size, with
    every seed s of it followed by its first-round opponent size + 1 - s."""
    if size == 1:
        return [1]
    return [x for s in standard_bracket(size // 2) for x in (s, size + 1 - s)]


def _bracket_size(n: int) -> int:
    return 1 << (n - 1).bit_length() if n > 1 else 1


class ExpectedBracket:
    """A bracket followed round by round from its seeding and the actual results."""

    def __init__(self, ids_by_seed: Sequence[int], start: int) -> None:
        size = _bracket_size(len(ids_by_seed))
        seeds = standard_bracket(size) if len(ids_by_seed) > 1 else []
        self.places: list[int | None] = [
            ids_by_seed[s - 1] if s <= len(ids_by_seed) else None for s in seeds
        ]
        self.round = start
        self.first: list[tuple[int | None, int | None]] = []

    def matches(self, teams: Mapping[int, TeamEntry]) -> list[tuple[int | None, int | None]]:
        """This round's places in pairs, teams not active in the round removed."""
        kept = [
            x if x is not None and teams[x].active_in(self.round) else None for x in self.places
        ]
        pairs = [(kept[i], kept[i + 1]) for i in range(0, len(kept) - 1, 2)]
        if not self.first:
            self.first = pairs
        return pairs

    def advance(
        self, pairs: Sequence[tuple[int | None, int | None]], winners: Mapping[Match, int | None]
    ) -> str | None:
        """Move the winners on; the problem in words if a match has no winner."""
        nxt: list[int | None] = []
        for a, b in pairs:
            if a is None or b is None:
                nxt.append(a if b is None else b)
                continue
            w = winners.get(frozenset((a, b)))
            if w is None:
                return f"round {self.round}: the knockout match of teams {a} and {b} has no winner"
            nxt.append(w)
        self.places = nxt
        self.round += 1
        return None

    @property
    def over(self) -> bool:
        return len(self.places) < 2


def round_winners(results: Sequence[MatchResult], round_no: int) -> dict[Match, int | None]:
    return {
        frozenset((r.team_a, r.team_b)): r.winner
        for r in results
        if r.round == round_no and r.team_b is not None
    }
