"""Swiss pairing (RULES §8): no rematch, score groups, fewest and smallest floats, the bye.

The active teams are ranked as the standings rank them after the previous round (match
points, then the event's tie-breaks); round 1 is ranked by seed, or in a random order drawn
from ``PairingOptions.random_seed``. A score group is the teams on equal match points. The
round is the complete pairing that is best on these criteria, in this order (the weights that
encode them are documented in ``swiss_matching``):

1. fewest rematches (then fewest repeated rematches); each one left is a warning;
2. the bye (odd field) to a team without a bye or forfeit win, if one can have it;
3. no forbidden pair; each one left is a warning;
4. the bye to the lowest-ranked such team;
5. fewest floats: pairs across score groups, counted as score-group boundaries crossed;
6. smallest floats: the squared match-point difference;
7. no two teams of the same club, when the event avoids it;
8. top half v bottom half in each score group (1 v m/2+1, ...), the lowest floating down.

Fields up to ``EXACT_LIMIT`` teams are solved as one matching over all pairs. A larger field
is solved fast: the bye goes to the lowest-ranked team with the fewest free wins, the rest is
cut into consecutive segments of an even number of teams, at score-group boundaries where
possible, and each segment is matched on its pairs without a rematch or forbidden pair. A
segment is accepted only when it is complete and crosses no more boundaries than the parity
bound (so criteria 1-5 are at their best possible values); otherwise it is merged with its
neighbour and solved again, and as a last resort the whole field is solved as one matching
over a window of ranks that widens until no avoidable rematch is left.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence

from director.domain.pairing.model import (
    History,
    MatchResult,
    PairingOptions,
    RoundPairing,
    TeamEntry,
    by_seed,
    numbered,
)
from director.domain.pairing.swiss_matching import SwissField, solve
from director.domain.rules import RoundOne
from director.domain.standings import StandingRow, compute_standings

EXACT_LIMIT = 64
SEGMENT_MIN = 32
SEGMENT_MAX = 64
WINDOW = 2 * SEGMENT_MAX

Pairs = list[tuple[int, int]]


def swiss_field(
    teams: Sequence[TeamEntry],
    results: Sequence[MatchResult],
    options: PairingOptions,
    round_no: int,
) -> SwissField:
    """The active teams of ``round_no``, ranked for pairing, with their history."""
    active = {t.id for t in teams if t.active_in(round_no)}
    scheme = options.match_points
    if round_no == 1 and options.round_one is RoundOne.RANDOM:
        order = [t.id for t in by_seed(teams) if t.id in active]
        random.Random(options.random_seed).shuffle(order)
        units = dict.fromkeys(order, 0)
    else:
        rows = compute_standings(
            teams,
            [r for r in results if r.round < round_no],
            scheme=scheme,
            tie_breaks=options.tie_breaks,
            late_entry=options.late_entry,
            through_round=round_no - 1,
        )
        order = [r.team_id for r in rows if r.team_id in active]
        units = {r.team_id: round(r.match_points / scheme.draw) for r in rows}
    distinct = sorted({units[t] for t in order}, reverse=True)
    group_of = {u: g for g, u in enumerate(distinct)}
    clubs = {t.id: t.club for t in teams if t.club} if options.avoid_same_club else {}
    return SwissField(
        order=tuple(order),
        units=units,
        group={t: group_of[units[t]] for t in order},
        history=History.of(results, before_round=round_no),
        forbidden=options.forbidden_pairs,
        clubs=clubs,
    )


def pair_swiss(
    teams: Sequence[TeamEntry],
    results: Sequence[MatchResult],
    options: PairingOptions,
    round_no: int,
) -> RoundPairing:
    """The pairings of Swiss round ``round_no`` from the results of the rounds before it."""
    field = swiss_field(teams, results, options, round_no)
    pairs, bye = _pair(field)
    names = {t.id: t.name for t in teams}
    warnings = []
    for a, b in pairs:
        met = field.met(a, b)
        if met:
            first = field.history.first_met[frozenset((a, b))]
            times = "once" if met == 1 else f"{met} times"
            warnings.append(
                f"{names[a]} and {names[b]} meet again (met {times}, first in round {first}):"
                " no pairing without this rematch was possible"
            )
        if frozenset((a, b)) in field.forbidden:
            warnings.append(
                f"{names[a]} and {names[b]} are a forbidden pair: no pairing avoided it"
                " without a rematch or a second bye"
            )
        club = field.clubs.get(a)
        if club is not None and club == field.clubs.get(b):
            warnings.append(f"{names[a]} and {names[b]} are both from {club}")
    if bye is not None and field.history.free_wins[bye]:
        warnings.append(
            f"{names[bye]} has the bye although it already had a bye or forfeit win:"
            " no team without one could have it without a rematch"
        )
    all_pairs: list[tuple[int, int | None]] = [*pairs, *([(bye, None)] if bye is not None else [])]
    return RoundPairing(round_no, numbered(all_pairs), tuple(warnings))


def _pair(field: SwissField) -> tuple[Pairs, int | None]:
    order = list(field.order)
    if len(order) <= 1:
        return [], order[0] if order else None
    if len(order) <= EXACT_LIMIT:
        return _whole(field, len(order))
    bye = _ideal_bye(field)
    rest = [t for t in order if t != bye]
    pairs = _segmented(field, rest)
    if pairs is not None:
        return pairs, bye
    width = WINDOW
    while width < len(order):
        pairs, got = _whole(field, width)
        if (
            got == bye
            and field.crossings(pairs) == field.parity_bound(rest)
            and all(field.fresh(a, b) for a, b in pairs)
        ):
            return pairs, bye
        width *= 2
    return _whole(field, len(order))


def _ideal_bye(field: SwissField) -> int | None:
    """The lowest-ranked team with the fewest free wins, for an odd field."""
    if len(field.order) % 2 == 0:
        return None
    fewest = min(field.history.free_wins[t] for t in field.order)
    return next(t for t in reversed(field.order) if field.history.free_wins[t] == fewest)


def _window(teams: Sequence[int], width: int) -> Pairs:
    return [(a, b) for i, a in enumerate(teams) for b in teams[i + 1 : i + 1 + width]]


def _whole(field: SwissField, width: int) -> tuple[Pairs, int | None]:
    """The whole field in one matching over the pairs at most ``width`` ranks apart.

    The first matching leaves out the pairs that met before: when it is complete it has no
    rematch, and no complete pairing with a rematch could beat it (rematches weigh most).
    Over all pairs (``width`` at least the field) the result is exact on every criterion.
    """
    order = field.order
    odd = len(order) % 2 == 1
    candidates = _window(order, width)
    fresh = [(a, b) for a, b in candidates if not field.met(a, b)]
    pairs, bye = solve(field, order, fresh, odd)
    if 2 * len(pairs) + odd != len(order):
        pairs, bye = solve(field, order, candidates, odd)
    return pairs, bye


def _cut(field: SwissField, teams: Sequence[int]) -> list[list[int]]:
    """Consecutive segments of an even size, cut at score-group boundaries where possible."""
    segments: list[list[int]] = []
    current: list[int] = []
    for t in teams:
        if current and len(current) % 2 == 0:
            new_group = field.group[t] != field.group[current[-1]]
            if (len(current) >= SEGMENT_MIN and new_group) or len(current) >= SEGMENT_MAX:
                segments.append(current)
                current = []
        current.append(t)
    if segments and len(current) < SEGMENT_MIN // 2:
        segments[-1].extend(current)
    elif current:
        segments.append(current)
    return segments


def _segmented(field: SwissField, teams: Sequence[int]) -> Pairs | None:
    """Pairs for ``teams`` (an even number) at their best on criteria 1-5, or None."""
    pending = deque(_cut(field, teams))
    accepted: list[tuple[list[int], Pairs]] = []
    while pending:
        segment = pending.popleft()
        pairs = _segment_pairs(field, segment)
        if pairs is not None:
            accepted.append((segment, pairs))
        elif pending:
            pending[0] = segment + pending[0]
        elif accepted:
            pending.append(accepted.pop()[0] + segment)
        else:
            return None
    out = [p for _, pairs in accepted for p in pairs]
    out.sort(key=lambda p: field.index[p[0]])
    return out


def _segment_pairs(field: SwissField, segment: list[int]) -> Pairs | None:
    """The segment's best pairs if they reach the bounds: first over the pairs at most one
    score group apart (a float of two groups is rarely needed), then over all its pairs."""
    bound = field.parity_bound(segment)
    strict = [(a, b) for a, b in _window(segment, WINDOW) if field.fresh(a, b)]
    near = [(a, b) for a, b in strict if abs(field.group[a] - field.group[b]) <= 1]
    for candidates in (near, strict) if len(near) < len(strict) else (strict,):
        pairs, _ = solve(field, segment, candidates, with_bye=False)
        if 2 * len(pairs) == len(segment) and field.crossings(pairs) == bound:
            return pairs
    return None


def clear_leader(
    rows: Sequence[StandingRow], win_points: float, rounds_left: int = 0
) -> int | None:
    """The team that is mathematically clear of all others, or None.

    A team is clear when its match points exceed every other team's match points plus all
    it could still win (``rounds_left`` wins; none for a withdrawn team). With no rounds left
    (a Swiss played "until one team is clear") that is a sole leader on match points.
    """
    if not rows:
        return None
    leader = max(rows, key=lambda r: r.match_points)
    for row in rows:
        if row is leader:
            continue
        reach = row.match_points + (0 if row.withdrawn else rounds_left * win_points)
        if reach >= leader.match_points:
            return None
    return leader.team_id
