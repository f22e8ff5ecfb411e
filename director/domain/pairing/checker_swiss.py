"""The checker's Swiss rules: each one reported only when a better pairing is exhibited.

The better pairing is searched for with networkx matchings on the pairs that the criteria
above the one checked allow, independently of the Swiss engine; see ``checker``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from director.domain.pairing.model import (
    MatchResult,
    PairingOptions,
    RoundPairing,
    TeamEntry,
    Violation,
)
from director.domain.rules import RoundOne
from director.domain.standings import compute_standings
from director.domain.wording import counted


def _perfect(nodes: Sequence[object], edges: Iterable[tuple[object, object]]) -> bool:
    import networkx as nx  # loaded when a matching is first needed

    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from(edges)
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(nodes)


class SwissRoundCheck:
    """The checks of one Swiss round against the history before it."""

    def __init__(
        self,
        teams: Sequence[TeamEntry],
        rp: RoundPairing,
        results: Sequence[MatchResult],
        options: PairingOptions,
        met: Counter[frozenset[int]],
        free: Counter[int],
        broken: bool,
    ) -> None:
        self.rp, self.met, self.free, self.broken = rp, met, free, broken
        self.forbidden = options.forbidden_pairs
        self.names = {t.id: t.name for t in teams}
        rows = compute_standings(
            teams,
            [r for r in results if r.round < rp.round],
            scheme=options.match_points,
            tie_breaks=options.tie_breaks,
            late_entry=options.late_entry,
            through_round=rp.round - 1,
        )
        active = {t.id for t in teams if t.active_in(rp.round)}
        self.ranked = [r.team_id for r in rows if r.team_id in active]
        self.ranked_known = rp.round > 1 or options.round_one is RoundOne.BY_SEED
        points = {r.team_id: r.match_points for r in rows}
        levels = sorted({points[t] for t in self.ranked}, reverse=True)
        self.group = {t: levels.index(points[t]) for t in self.ranked}
        self.pairs = [(p.team_a, p.team_b) for p in rp.pairings if p.team_b is not None]
        self.byes = [p.team_a for p in rp.pairings if p.team_b is None]

    def violation(self, teams: Sequence[int], rule: str, text: str) -> Violation:
        return Violation(self.rp.round, tuple(teams), rule, f"round {self.rp.round}: {text}")

    def name(self, team: int) -> str:
        return self.names.get(team, str(team))

    def allowed(self, a: int, b: int, forbidden_too: bool) -> bool:
        key = frozenset((a, b))
        return not self.met[key] and not (forbidden_too and key in self.forbidden)

    def edges(self, teams: Sequence[int], forbidden_too: bool) -> list[tuple[int, int]]:
        return [
            (a, b)
            for i, a in enumerate(teams)
            for b in teams[i + 1 :]
            if self.allowed(a, b, forbidden_too)
        ]

    def check(self) -> list[Violation]:
        paired = {t for p in self.rp.pairings for t in p.teams}
        out = [
            self.violation((t,), "team-missing", f"{self.name(t)} is active but not paired")
            for t in self.ranked
            if t not in paired
        ]
        if len(self.byes) > 1:
            names = ", ".join(self.name(t) for t in self.byes)
            out.append(self.violation(self.byes, "double-bye", f"more than one bye: {names}"))
        if out or self.broken:
            return out  # the round is malformed: the optimality checks would mislead
        rematches = [p for p in self.pairs if self.met[frozenset(p)]]
        if rematches:
            return self.rematch(rematches)
        bye = self.byes[0] if self.byes else None
        found = self.bye_repeat(bye)
        forbidden = [p for p in self.pairs if frozenset(p) in self.forbidden]
        if forbidden and not found:
            return self.forbidden_pairs(forbidden, bye)
        if not forbidden:
            found += self.bye_rank(bye) + self.floats(bye)
        return found

    def rematch(self, rematches: list[tuple[int, int]]) -> list[Violation]:
        import networkx as nx  # loaded when a matching is first needed

        graph = nx.Graph()
        for i, a in enumerate(self.ranked):
            if len(self.ranked) % 2:
                graph.add_edge(a, "bye", weight=1)
            for b in self.ranked[i + 1 :]:
                graph.add_edge(a, b, weight=0 if self.met[frozenset((a, b))] else 1)
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        fewest = sum(1 for a, b in matching if graph[a][b]["weight"] == 0)
        if fewest >= len(rematches):
            return []
        names = "; ".join(f"{self.name(a)} v {self.name(b)}" for a, b in rematches)
        text = (
            f"{counted(len(rematches), 'rematch', 'rematches')} ({names}) where {fewest} would do"
        )
        return [self.violation([t for p in rematches for t in p], "rematch", text)]

    def _could_have_bye(self, candidates: Iterable[int], forbidden_too: bool) -> int | None:
        for y in candidates:
            rest = [t for t in self.ranked if t != y]
            if _perfect(rest, self.edges(rest, forbidden_too)):
                return y
        return None

    def bye_repeat(self, bye: int | None) -> list[Violation]:
        if bye is None or not self.free[bye]:
            return []
        fewer = [t for t in reversed(self.ranked) if self.free[t] < self.free[bye]]
        y = self._could_have_bye(fewer, forbidden_too=False)
        if y is None:
            return []
        text = (
            f"{self.name(bye)} has the bye after"
            f" {counted(self.free[bye], 'bye or forfeit win', 'byes or forfeit wins')},"
            f" but {self.name(y)} ({self.free[y]}) could have had it without a rematch"
        )
        return [self.violation((bye, y), "bye-repeat", text)]

    def forbidden_pairs(self, pairs: list[tuple[int, int]], bye: int | None) -> list[Violation]:
        nodes: list[object] = list(self.ranked)
        edges: list[tuple[object, object]] = list(self.edges(self.ranked, forbidden_too=True))
        if bye is not None:
            nodes.append("bye")
            edges += [(t, "bye") for t in self.ranked if self.free[t] <= self.free[bye]]
        if not _perfect(nodes, edges):
            return []
        names = "; ".join(f"{self.name(a)} v {self.name(b)}" for a, b in pairs)
        pairs_text = counted(len(pairs), "forbidden pair")
        text = f"{pairs_text} ({names}) although a pairing without any existed"
        return [self.violation([t for p in pairs for t in p], "forbidden", text)]

    def bye_rank(self, bye: int | None) -> list[Violation]:
        if bye is None or not self.ranked_known:
            return []
        below = self.ranked[self.ranked.index(bye) + 1 :]
        same = [t for t in reversed(below) if self.free[t] == self.free[bye]]
        y = self._could_have_bye(same, forbidden_too=True)
        if y is None:
            return []
        text = (
            f"{self.name(bye)} has the bye but lower-ranked {self.name(y)}, with as few byes"
            " and forfeit wins, could have had it without a rematch or forbidden pair"
        )
        return [self.violation((bye, y), "bye-rank", text)]

    def floats(self, bye: int | None) -> list[Violation]:
        import networkx as nx  # loaded when a matching is first needed

        teams = [t for t in self.ranked if t != bye]

        def dist(a: int, b: int) -> int:
            return abs(self.group[a] - self.group[b])

        actual = sum(dist(a, b) for a, b in self.pairs)
        bound = sum(dist(teams[i - 1], teams[i]) for i in range(1, len(teams), 2))
        if actual <= bound:
            return []
        far = max(self.group.values(), default=0) + 1
        graph = nx.Graph()
        for a, b in self.edges(teams, forbidden_too=True):
            graph.add_edge(a, b, weight=far - dist(a, b))
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        if 2 * len(matching) < len(teams):
            return []
        best = sum(dist(a, b) for a, b in matching)
        if best >= actual:
            return []
        floats = [t for p in self.pairs if dist(*p) for t in p]
        text = (
            f"the pairs cross {actual} score-group boundaries where {best} would do"
            " (same bye, no rematch, no forbidden pair)"
        )
        return [self.violation(floats, "float", text)]
