"""One Swiss round as a maximum-weight matching (networkx), with lexicographic weights.

Every candidate pair (and, with an odd field, every team with the virtual **bye** node) gets a
cost made of nine levels, most important first:

1. rematch: 1 if the two teams have met before;
2. meetings: how many times beyond once they have met (a third meeting is worse than a second);
3. bye free wins: for the bye, how many byes and forfeit wins the team already has;
4. forbidden: 1 if the pair is forbidden;
5. bye rank: for the bye, the team's place counted from the bottom (0 = the lowest-ranked);
6. crossings: how many score-group boundaries the pair crosses (the float count; the bye
   crosses none);
7. float size: the square of the match-point difference, in draw units;
8. same club: 1 when avoiding same-club pairs and both teams name the same club;
9. half: the top-half v bottom-half preference. In one score group of m teams at places
   i < j (0 = best) it is |j - i - m // 2|, so 1 v m/2+1, 2 v m/2+2, ... cost 0; for a pair
   across groups it is the upper team's place from the bottom of its group plus the lower
   team's place from the top of its group (the lowest floats to the highest).

The cost of an edge is sum(level_k × F_k) with F_9 = 1 and F_k = 1 + P × Σ_{j>k} max_j × F_j,
where max_j is the largest level-j value among the candidate edges and P the number of edges
in a complete matching. Any worsening on a level then outweighs every possible gain on all
the levels below it, in total over the whole matching, so the matching of maximum weight
(weight = a constant minus the cost, ``maxcardinality=True``) minimizes the levels in order.
Python integers keep these large weights exact, and networkx then computes in integers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import mul

from director.domain.pairing.model import History

BYE = "bye"
Node = int | str
LEVELS = 9
Levels = tuple[int, int, int, int, int, int, int, int, int]
NOBODY: Mapping[int, int] = {}


@dataclass
class SwissField:
    """The active teams of one round, ranked, with what the costs need to know."""

    order: tuple[int, ...]  # best first
    units: Mapping[int, int]  # match points in draw units
    group: Mapping[int, int]  # score group index, 0 = the top group
    history: History
    forbidden: frozenset[frozenset[int]]
    clubs: Mapping[int, str]  # only when same-club pairs are avoided
    index: dict[int, int] = field(init=False)  # team → place in ``order``
    opponents: dict[int, dict[int, int]] = field(init=False)  # team → opponent → meetings

    def __post_init__(self) -> None:
        self.index = {t: i for i, t in enumerate(self.order)}
        # the meetings by team: asked for tens of thousands of pairs in a 1,000-team round
        self.opponents = {}
        for pair, times in self.history.meetings.items():
            members = sorted(pair)  # one member, were a team ever paired with itself
            a, b = members[0], members[-1]
            self.opponents.setdefault(a, {})[b] = times
            self.opponents.setdefault(b, {})[a] = times

    def met(self, a: int, b: int) -> int:
        """How many times a and b have met (``History.met``)."""
        return self.opponents.get(a, NOBODY).get(b, 0)

    def fresh(self, a: int, b: int) -> bool:
        """Neither met before nor a forbidden pair."""
        if b in self.opponents.get(a, NOBODY):
            return False
        return not self.forbidden or frozenset((a, b)) not in self.forbidden

    def pair_levels(self, a: int, b: int, place: Mapping[int, tuple[int, int]]) -> Levels:
        """The nine levels of the pair a-b; ``place`` gives (place, size) in its group."""
        met = self.met(a, b)
        if self.index[a] > self.index[b]:
            a, b = b, a
        (pa, size), (pb, _) = place[a], place[b]
        group_a, group_b = self.group[a], self.group[b]
        half = abs(pb - pa - size // 2) if group_a == group_b else (size - 1 - pa) + pb
        club = self.clubs.get(a) if self.clubs else None
        return (
            1 if met else 0,
            met - 1 if met > 1 else 0,
            0,
            1 if self.forbidden and frozenset((a, b)) in self.forbidden else 0,
            0,
            abs(group_a - group_b),
            (self.units[a] - self.units[b]) ** 2,
            1 if club is not None and club == self.clubs.get(b) else 0,
            half,
        )

    def bye_levels(self, team: int) -> Levels:
        from_bottom = len(self.order) - 1 - self.index[team]
        return (0, 0, self.history.free_wins[team], 0, from_bottom, 0, 0, 0, 0)

    def places(self, teams: Sequence[int]) -> dict[int, tuple[int, int]]:
        """Each team's place in its score group among ``teams`` (ranked), and that size."""
        sizes: dict[int, int] = {}
        place: dict[int, tuple[int, int]] = {}
        for t in teams:
            g = self.group[t]
            place[t] = (sizes.get(g, 0), 0)
            sizes[g] = sizes.get(g, 0) + 1
        return {t: (p, sizes[self.group[t]]) for t, (p, _) in place.items()}

    def parity_bound(self, teams: Sequence[int]) -> int:
        """The fewest boundary crossings any complete pairing of ``teams`` (ranked) can have.

        A boundary between two score groups with an odd number of teams above it must be
        crossed by at least one pair; a pair crosses as many boundaries as its group distance.
        """
        bound = 0
        for i in range(1, len(teams)):
            if i % 2 and self.group[teams[i]] != self.group[teams[i - 1]]:
                bound += abs(self.group[teams[i]] - self.group[teams[i - 1]])
        return bound

    def crossings(self, pairs: Iterable[tuple[int, int]]) -> int:
        return sum(abs(self.group[a] - self.group[b]) for a, b in pairs)


def weights(levels: Sequence[Levels], pairs: int) -> list[int]:
    """Edge weights whose maximum-weight complete matching minimizes the levels in order."""
    top = [max(column) for column in zip(*levels, strict=True)] if levels else [0] * LEVELS
    factors = [0] * LEVELS
    below = 0  # the most the levels below k can add up to over a whole matching
    for k in reversed(range(LEVELS)):
        factors[k] = 1 + pairs * below
        below += top[k] * factors[k]
    ceiling = below + 1
    return [ceiling - sum(map(mul, lv, factors)) for lv in levels]


def solve(
    swiss: SwissField,
    teams: Sequence[int],
    candidates: Iterable[tuple[int, int]],
    with_bye: bool,
) -> tuple[list[tuple[int, int]], int | None]:
    """The best matching of ``teams`` (ranked) on the candidate pairs, and the bye if any."""
    import networkx as nx  # loaded when a matching is first needed

    place = swiss.places(teams)
    pairs_in = list(candidates)
    levels = [swiss.pair_levels(a, b, place) for a, b in pairs_in]
    edges: list[tuple[Node, Node]] = [*pairs_in]
    if with_bye:
        edges += [(t, BYE) for t in teams]
        levels += [swiss.bye_levels(t) for t in teams]
    graph = nx.Graph()
    graph.add_nodes_from(teams)
    weighted = weights(levels, (len(teams) + 1) // 2)
    graph.add_weighted_edges_from((a, b, w) for (a, b), w in zip(edges, weighted, strict=True))
    matching: set[tuple[Node, Node]] = nx.max_weight_matching(graph, maxcardinality=True)
    pairs: list[tuple[int, int]] = []
    bye: int | None = None
    for a, b in matching:
        if isinstance(a, int) and isinstance(b, int):
            pairs.append((a, b) if swiss.index[a] < swiss.index[b] else (b, a))
        else:
            bye = a if isinstance(a, int) else b if isinstance(b, int) else None
    pairs.sort(key=lambda p: swiss.index[p[0]])
    return pairs, bye
