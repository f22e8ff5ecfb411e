"""Knockout: a seeded bracket, byes to the top seeds, an optional consolation bracket.

The field is the teams active in round 1, in seed order. The bracket has the next power of
two of places; the standard order (1 v 16, 8 v 9, 4 v 13, 5 v 12, 2 v 15, 7 v 10, 3 v 14,
6 v 11 for 16) keeps seeds 1 and 2 apart until the final, and the places of the missing
seeds are byes, so the top seeds have them.

Table numbers are bracket positions: table t of the next round is played by the winners of
tables 2t - 1 and 2t. A bye keeps its position (a pairing with team B None); a team that is
not active in a round (withdrawn) leaves its place empty and its opponent goes through on a
bye. Rule 4′ is forced in knockout matches, so every match has a winner (the service sees to
it); a draw or a missing result stops the bracket with an error.

The consolation bracket (an option) is for the first-round losers of the main bracket, seeded
by their own seeds, starting in round 2; its tables come after the main bracket's.

This is the round-by-round knockout of the events paired before bracket plans were stored
(they go on being paired so). Every other knockout is paired match by match from its plan:
RULES §11's brackets, `domain/brackets/` through `services/bracket_pairing.py`; only
`bracket_order` is shared.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from director.domain.pairing.model import MatchResult, Pairing, RoundPairing, TeamEntry, by_seed

Slot = tuple[int | None, int | None]


def bracket_order(size: int) -> list[int]:
    """Seed numbers in bracket order for a power-of-two size."""
    if size < 1 or size & (size - 1):
        raise ValueError("a bracket size is a power of two")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for seed in order for x in (seed, total - seed)]
    return order


def _size(n: int) -> int:
    size = 1
    while size < n:
        size *= 2
    return size


def _levels(n: int) -> int:
    return _size(n).bit_length() - 1 if n >= 2 else 0


def knockout_rounds(n: int, consolation: bool = False) -> int:
    """How many rounds a knockout of n teams has (with its consolation bracket)."""
    main = _levels(n)
    losers = n - _size(n) // 2 if n >= 2 else 0
    return max(main, 1 + _levels(losers)) if consolation and losers >= 2 else main


def seeded_slots(ids_by_seed: Sequence[int]) -> list[Slot]:
    """The first round of a bracket of these teams (best seed first)."""
    size = _size(len(ids_by_seed))
    ids: list[int | None] = [*ids_by_seed, *([None] * (size - len(ids_by_seed)))]
    order = [ids[s - 1] for s in bracket_order(size)]
    return [(order[i], order[i + 1]) for i in range(0, size, 2)] if size > 1 else []


def _pair_up(winners: Sequence[int | None]) -> list[Slot]:
    return [(winners[i], winners[i + 1]) for i in range(0, len(winners) - 1, 2)]


def _slot_winner(slot: Slot, rnd: int, won: Callable[[int, int, int], int]) -> int | None:
    a, b = slot
    if a is None or b is None:
        return a if b is None else b
    return won(rnd, a, b)


def next_knockout_round(previous: RoundPairing, winners: Mapping[int, int]) -> RoundPairing:
    """The next round of one bracket from its winners (table → winning team; byes need none)."""
    tables = {p.table: p for p in previous.pairings}
    count = max(tables, default=0)
    count += count % 2
    slots: list[Slot] = [
        (tables[t].team_a, tables[t].team_b) if t in tables else (None, None)
        for t in range(1, count + 1)
    ]

    def won(_: int, a: int, b: int) -> int:
        table = slots.index((a, b)) + 1
        if table not in winners:
            raise ValueError(f"round {previous.round} table {table} has no winner")
        return winners[table]

    advanced = _pair_up([_slot_winner(s, previous.round, won) for s in slots])
    return RoundPairing(previous.round + 1, _pairings(advanced, 0))


def _pairings(slots: list[Slot], offset: int) -> tuple[Pairing, ...]:
    out = []
    for i, slot in enumerate(slots):
        present = [x for x in slot if x is not None]
        if present:
            out.append(Pairing(offset + i + 1, present[0], present[1] if present[1:] else None))
    return tuple(out)


def _replay(
    slots: list[Slot],
    rounds: range,
    active: Callable[[int, int], bool],
    won: Callable[[int, int, int], int],
    names: Mapping[int, str],
) -> tuple[list[Slot], list[str]]:
    """A bracket's slots in the last of ``rounds``, its first round being ``slots``."""
    warnings: list[str] = []
    for rnd in rounds:
        if rnd > rounds.start:
            slots = _pair_up([_slot_winner(s, rnd - 1, won) for s in slots])
        warnings = []
        kept: list[Slot] = []
        for a, b in slots:
            pa, pb = (x if x is not None and active(x, rnd) else None for x in (a, b))
            for gone, other in ((a, pb), (b, pa)):
                if gone is not None and other is not None and not active(gone, rnd):
                    warnings.append(
                        f"{names[other]} goes through on a bye: {names[gone]} has withdrawn"
                    )
            kept.append((pa, pb))
        slots = kept
    return slots, warnings


def pair_knockout(
    teams: Sequence[TeamEntry],
    results: Sequence[MatchResult],
    round_no: int,
    consolation: bool = False,
) -> RoundPairing:
    """The pairings of a knockout round, replayed from round 1 and the results before it."""
    field = [t.id for t in by_seed(teams) if t.active_in(1)]
    if not 1 <= round_no <= knockout_rounds(len(field), consolation):
        raise ValueError(f"the knockout of {len(field)} teams has no round {round_no}")
    names = {t.id: t.name for t in teams}
    by_id = {t.id: t for t in teams}
    winners = {(r.round, frozenset((r.team_a, r.team_b))): r.winner for r in results}

    def won(rnd: int, a: int, b: int) -> int:
        w = winners.get((rnd, frozenset((a, b))))
        if w is None:
            raise ValueError(f"round {rnd}: the match {names[a]} v {names[b]} has no winner")
        return w

    def active(team: int, rnd: int) -> bool:
        return by_id[team].active_in(rnd)

    first = seeded_slots(field)
    pairings: tuple[Pairing, ...] = ()
    warnings: list[str] = []
    if round_no <= _levels(len(field)):
        slots, warnings = _replay(first, range(1, round_no + 1), active, won, names)
        pairings = _pairings(slots, 0)
    if consolation and round_no >= 2:
        losers = [
            b if won(1, a, b) == a else a for a, b in first if a is not None and b is not None
        ]
        losers.sort(key=lambda t: (by_id[t].seed, t))
        if len(losers) >= 2 and round_no - 1 <= _levels(len(losers)):
            rounds = range(2, round_no + 1)
            slots, more = _replay(seeded_slots(losers), rounds, active, won, names)
            offset = _size(len(field)) >> round_no
            pairings += _pairings(slots, offset)
            warnings += more
    return RoundPairing(round_no, pairings, tuple(warnings))
