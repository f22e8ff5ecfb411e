"""An independent check of a bracket draw's state against its plan (RULES §11).

A second reading of the rules, sharing nothing with `draw.py` but the plan and the key: it
seeds the main bracket itself, follows each player's own path through the brackets by match
numbers, and says what is wrong, match by match. The store's matches (paired or finished) are
given as `DrawnMatch`es; byes are not matches and are not given.

What it checks: every match is in a bracket and round of the plan and has that round's length;
main round 1 is standard bracket order with byes to the top seeds; a player reaches a later
match of a bracket only from the slots that feed it and only after winning each match played
before it there; a player enters a fed bracket only after losing in its source: in round 1 at
the slot of their own source round-1 match if they had won no match there (a bye then a loss
counts as a round-1 loss), otherwise in the round the plan feeds that round's losers into, in
reverse order after an even source round and reversed within each half after an odd one;
nobody plays on in a bracket after losing in it (but the play-off for third); nobody is in two
unfinished matches; a withdrawn player is in no unfinished match; the losers of a bracket's
final feed nobody; a result's winner plays in the match.

How the rest calls it: `services/rounds.py` runs `check_draw` after pairing and shows any
problem as a warning; the property tests and the benchmark run it against `draw.Draw`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from director.domain.brackets.plan import BracketPlan


@dataclass(frozen=True, slots=True)
class DrawnMatch:
    bracket: str
    round: int
    number: int
    player_a: int
    player_b: int
    length: int
    winner: int | None = None  # None while unfinished


def _seed_positions(size: int) -> dict[int, int]:
    """Seed → position (1-based) in standard bracket order, built from the top down: the
    seed at a position in a bracket of half the size keeps it, its opponent sums to size + 1."""
    if size == 1:
        return {1: 1}
    half = _seed_positions(size // 2)
    out: dict[int, int] = {}
    for seed, pos in half.items():
        out[seed] = 2 * pos - 1
        out[size + 1 - seed] = 2 * pos
    return out


@dataclass
class _Shape:
    source: str | None
    kinds: list[str]  # per round from 1: "first", "seeded", "halve", "feed"
    fed_from: dict[int, int]  # round → source round whose losers it takes
    counts: list[int]  # matches per round
    feeding: int = 0  # the last round whose losers may feed another bracket


def _shapes(plan: BracketPlan, size: int) -> dict[str, _Shape]:
    shapes: dict[str, _Shape] = {}
    main = plan.brackets[0].name
    counts = []
    c = size // 2
    while c >= 1:
        counts.append(c)
        c //= 2
    shapes[main] = _Shape(None, ["seeded"] + ["halve"] * (len(counts) - 1), {}, counts)
    _feeding(plan, shapes[main], main)
    for b in plan.brackets[1:]:
        src = shapes.get(b.feeds[0].source)
        if src is None or src.feeding < 1 or src.counts[0] < 2:
            continue
        feeds = {f.into: f.round for f in b.feeds[1:] if f.round <= src.feeding}
        kinds, counts, fed = ["first"], [src.counts[0] // 2], {}
        r = 1
        while True:
            r += 1
            if r in feeds:
                kinds.append("feed")
                counts.append(counts[-1])
                fed[r] = feeds[r]
            elif counts[-1] > 1:
                kinds.append("halve")
                counts.append(counts[-1] // 2)
            else:
                break
        shapes[b.name] = _Shape(b.feeds[0].source, kinds, fed, counts)
        _feeding(plan, shapes[b.name], b.name)
    return shapes


def _feeding(plan: BracketPlan, shape: _Shape, name: str) -> None:
    """A final's losers stay (runners-up), and so do semi-finals' when they play off for third
    (a final between two of the bracket's own winners, so not after a feed)."""
    rounds = len(shape.counts)
    play_off = plan.bracket(name).third_place and rounds >= 2 and shape.kinds[-1] != "feed"
    shape.feeding = rounds - 2 if play_off else rounds - 1


def check_draw(
    plan: BracketPlan,
    field: Sequence[int],
    matches: Sequence[DrawnMatch],
    withdrawn: Collection[int] = (),
) -> list[str]:
    """Every way the matches break the plan's rules; empty when the draw is right."""
    out: list[str] = []
    size = 2
    while size < len(field):
        size *= 2
    shapes = _shapes(plan, size)
    seed_of = {p: i + 1 for i, p in enumerate(field)}
    position = _seed_positions(size)
    lengths = {b.name: b.lengths for b in plan.brackets}
    # each player's matches in the order of the brackets and rounds
    order = {b.name: i for i, b in enumerate(plan.brackets)}
    path: dict[int, list[DrawnMatch]] = {}
    busy: dict[int, DrawnMatch] = {}
    for m in matches:
        name = f"{m.bracket} round {m.round} match {m.number}"
        shape = shapes.get(m.bracket)
        if shape is None or not 1 <= m.round <= len(shape.counts):
            out.append(f"{name}: the plan has no such bracket round for {len(field)} entrants")
            continue
        third = m.number == 2 and m.round == len(shape.counts)
        if not (1 <= m.number <= shape.counts[m.round - 1] or third):
            out.append(f"{name}: the round has {shape.counts[m.round - 1]} matches")
        want = lengths[m.bracket][min(m.round, len(lengths[m.bracket])) - 1]
        if m.length != want:
            out.append(f"{name}: played to {m.length}, the plan says {want}")
        if m.player_a == m.player_b:
            out.append(f"{name}: a player against themself")
        if m.winner is not None and m.winner not in (m.player_a, m.player_b):
            out.append(f"{name}: the winner {m.winner} does not play in it")
        for p in (m.player_a, m.player_b):
            if p not in seed_of:
                out.append(f"{name}: {p} is not an entrant")
                continue
            path.setdefault(p, []).append(m)
            if m.winner is None:
                if p in busy:
                    out.append(f"{name}: {p} is also in the unfinished {busy[p].bracket} round "
                               f"{busy[p].round} match {busy[p].number}")  # fmt: skip
                busy[p] = m
                if p in withdrawn:
                    out.append(f"{name}: {p} has withdrawn")
    for p, played in path.items():
        played.sort(key=lambda m: (order.get(m.bracket, 99), m.round, m.number))
        home = {plan.brackets[0].name: (position[seed_of[p]] + 1) // 2}
        out += _check_path(p, played, shapes, home)
    return out


def _check_path(
    p: int, played: list[DrawnMatch], shapes: dict[str, _Shape], home: dict[str, int]
) -> list[str]:
    out: list[str] = []
    won_in: dict[str, int] = {}
    lost_in: dict[str, DrawnMatch] = {}
    at: dict[str, tuple[int, int]] = {}  # bracket → (round, number) where p is expected
    for m in played:
        name = f"{m.bracket} round {m.round} match {m.number}"
        shape = shapes[m.bracket]
        final = len(shape.counts)
        if m.bracket in lost_in:
            semi = lost_in[m.bracket]
            if not (m.round == final and m.number == 2 and semi.round == final - 1):
                out.append(f"{name}: {p} plays on after losing {semi.bracket} round "
                           f"{semi.round} match {semi.number}")  # fmt: skip
            continue
        if m.bracket not in at:  # p enters this bracket here
            entry = _entry(p, m.bracket, shape, shapes, home, won_in, lost_in)
            if isinstance(entry, str):
                out.append(f"{name}: {entry}")
                return out
            at[m.bracket] = entry
        r, j = at[m.bracket]
        while r < m.round:  # byes carry p on
            r += 1
            j = j if shape.kinds[r - 1] == "feed" else (j + 1) // 2
        if (r, j) != (m.round, m.number):
            out.append(f"{name}: {p} belongs in {m.bracket} round {r} match {j}")
        at[m.bracket] = (r, j)
        if m.winner is None:
            continue
        if m.winner == p:
            won_in[m.bracket] = won_in.get(m.bracket, 0) + 1
            if m.round < final:
                nxt = m.number if shape.kinds[m.round] == "feed" else (m.number + 1) // 2
                at[m.bracket] = (m.round + 1, nxt)
        else:
            lost_in[m.bracket] = m
    return out


def _entry(
    p: int,
    bracket: str,
    shape: _Shape,
    shapes: dict[str, _Shape],
    home: dict[str, int],
    won_in: dict[str, int],
    lost_in: dict[str, DrawnMatch],
) -> tuple[int, int] | str:
    """Where p enters `bracket`: (round, match number), or why p may not be in it."""
    if shape.source is None:
        return (1, home[bracket])
    src = shape.source
    lost = lost_in.get(src)
    if lost is None:
        return f"{p} plays in {bracket} without having lost in {src}"
    if lost.round == len(shapes[src].counts) and lost.number == 1:
        return f"{p} lost the {src} final: a runner-up feeds no bracket"
    if lost.round > shapes[src].feeding:
        return f"{p} lost a {src} semi-final: they play off for third, not in {bracket}"
    if not won_in.get(src):  # a round-1 loser, byes before the loss or not
        if src not in home:
            return f"{p} entered {src} in a later round and lost at once: no round-1 loser"
        home[bracket] = (home[src] + 1) // 2
        return (1, home[bracket])
    for into, q in shape.fed_from.items():
        if q == lost.round:
            return (into, _slot(shapes[src].counts[q - 1], lost.number, q))
    return f"{p} lost {src} round {lost.round}, whose losers the plan does not feed to {bracket}"


def _slot(m: int, i: int, source_round: int) -> int:
    """The fed round's match (from 1) for the loser of source match i of m: reversed after an
    even source round, reversed within its half after an odd one."""
    if source_round % 2 == 0 or m == 1:
        return m + 1 - i
    h = m // 2
    return h + 1 - i if i <= h else m + h + 1 - i
