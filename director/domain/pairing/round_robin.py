"""Round robin: FIDE Berger tables, single or double (RULES §8).

The whole schedule is fixed at the start. The field is every team that takes part (it is
active in some round), numbered 1, 2, ... in seed order; with an odd field a dummy number
completes the table and its opponent has the bye. Team A is the first-named team of the
Berger table (colours do not matter in backgammon). A double round robin plays the table
twice, the second time with A and B exchanged.

A team that is not active in a round (not yet joined, or withdrawn) is not paired: its
scheduled opponent has a bye that round, and the round says so in a warning.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from director.domain.pairing.model import RoundPairing, TeamEntry, by_seed, numbered


def berger_table(n: int) -> list[list[tuple[int, int]]]:
    """The Berger table for n players: per round, (first named, second) Berger numbers.

    For an odd n the numbers run to n + 1, the dummy. Round 1 is 1-m, 2-(m-1), ...; each
    next round adds m/2 to every number except m (modulo m - 1), and m changes side.
    """
    m = n + n % 2
    if m < 2:
        return []
    half = m // 2
    rounds = [[(i, m + 1 - i) for i in range(1, half + 1)]]

    def shift(x: int) -> int:
        return x if x == m else (x - 1 + half) % (m - 1) + 1

    for _ in range(m - 2):
        nxt = []
        for a, b in rounds[-1]:
            a2, b2 = shift(a), shift(b)
            nxt.append((b2, a2) if m in (a, b) else (a2, b2))
        rounds.append(nxt)
    return rounds


@lru_cache(maxsize=16)
def _table(n: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    return tuple(tuple(rnd) for rnd in berger_table(n))


def round_robin_rounds(n: int, double: bool = False) -> int:
    """How many rounds a round robin of n teams has."""
    return len(_table(n)) * (2 if double else 1) if n >= 2 else 0


def _field(teams: Sequence[TeamEntry]) -> list[int]:
    return [t.id for t in by_seed(teams) if t.takes_part]


def _scheduled(field: Sequence[int], round_no: int) -> list[tuple[int, int | None]]:
    """The pairs of one round (1-based, second cycle included) of this field's schedule."""
    table = _table(len(field))
    second, index = divmod(round_no - 1, len(table))
    pairs: list[tuple[int, int | None]] = []
    for first, other in table[index]:
        a, b = (other, first) if second else (first, other)
        if b > len(field):
            pairs.append((field[a - 1], None))
        elif a > len(field):
            pairs.append((field[b - 1], None))
        else:
            pairs.append((field[a - 1], field[b - 1]))
    return pairs


def round_robin_schedule(teams: Sequence[TeamEntry], double: bool = False) -> list[RoundPairing]:
    """Every round of the round robin of the teams that take part, in Berger order."""
    field = _field(teams)
    return [
        RoundPairing(r, numbered(_scheduled(field, r)))
        for r in range(1, round_robin_rounds(len(field), double) + 1)
    ]


def pair_round_robin(
    teams: Sequence[TeamEntry], round_no: int, double: bool = False
) -> RoundPairing:
    """The scheduled round, less the teams not active in it (their opponents have a bye)."""
    field = _field(teams)
    total = round_robin_rounds(len(field), double)
    if not 1 <= round_no <= total:
        raise ValueError(f"a round robin of this field has rounds 1 to {total}")
    names = {t.id: t.name for t in teams}
    active = {t.id for t in teams if t.active_in(round_no)}
    pairs: list[tuple[int, int | None]] = []
    warnings = []
    for a, b in _scheduled(field, round_no):
        present = [x for x in (a, b) if x is not None and x in active]
        absent = [x for x in (a, b) if x is not None and x not in active]
        if len(present) == 2:
            pairs.append((a, b))
        elif present:
            pairs.append((present[0], None))
            if absent:
                warnings.append(
                    f"{names[present[0]]} has a bye: its scheduled opponent "
                    f"{names[absent[0]]} is not playing this round"
                )
    return RoundPairing(round_no, numbered(pairs), tuple(warnings))
