"""An independent check of a whole event's pairings: every violation explained in words.

It never calls the pairing engines. Who met whom and who had a bye come from the pairings
given; forfeit wins and the ranking (the standings after the previous round) from the results.
Each Swiss criterion is checked only where a violation is certain: a better pairing is
exhibited, found by its own matching search on the pairs that the criteria above it allow.

Rules reported (``Violation.rule``):

- ``unknown-team``, ``team-twice``, ``not-active`` (withdrawn, or not yet joined), all systems;
- Swiss: ``team-missing`` (an active team neither paired nor given the bye), ``double-bye``,
  ``rematch`` (more rematches than needed), ``bye-repeat`` (the bye to a team with more free
  wins than another that could have had it), ``forbidden`` (a forbidden pair that could have
  been avoided), ``bye-rank`` (the bye to a team when a lower-ranked one with as few free
  wins could have had it), ``float`` (more score-group boundaries crossed than needed with
  the same bye and no rematch or forbidden pair);
- round robin: ``berger`` (the round is not the Berger table's, less inactive teams);
- knockout: ``bracket`` (not the seeded bracket, or not its winners).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import networkx as nx

from director.domain.pairing.checker_brackets import (
    ExpectedBracket,
    Match,
    expected_round_robin,
    round_winners,
)
from director.domain.pairing.model import (
    MatchResult,
    Outcome,
    PairingOptions,
    RoundPairing,
    TeamEntry,
)
from director.domain.rules import PairingSystem, RoundOne
from director.domain.standings import compute_standings


@dataclass(frozen=True)
class Violation:
    round: int
    teams: tuple[int, ...]
    rule: str
    text: str


def check_event(
    teams: Sequence[TeamEntry],
    rounds_pairings: Sequence[RoundPairing],
    results: Sequence[MatchResult],
    options: PairingOptions,
) -> list[Violation]:
    """Every violation of the pairing rules in the event's rounds so far."""
    by_id = {t.id: t for t in teams}
    rounds = sorted(rounds_pairings, key=lambda rp: rp.round)
    out: list[Violation] = []
    met: Counter[frozenset[int]] = Counter()
    free: Counter[int] = Counter()
    for rp in rounds:
        problems = _basic(rp, by_id)
        out += problems
        if options.system is PairingSystem.SWISS:
            out += _SwissRound(teams, rp, results, options, met, free, bool(problems)).check()
        elif options.system is PairingSystem.ROUND_ROBIN:
            out += _round_robin(teams, rp, options.double_round_robin)
        for p in rp.pairings:
            if p.team_b is None:
                free[p.team_a] += 1
            else:
                met[frozenset(p.teams)] += 1
        for r in results:
            if r.round == rp.round and r.outcome in (Outcome.FORFEIT_A, Outcome.FORFEIT_B):
                free[r.team_a if r.outcome is Outcome.FORFEIT_A else r.team_b or 0] += 1
    if options.system is PairingSystem.KNOCKOUT:
        out += _knockout(teams, rounds, results, options.consolation)
    return out


def _basic(rp: RoundPairing, by_id: dict[int, TeamEntry]) -> list[Violation]:
    out = []
    seen: Counter[int] = Counter(t for p in rp.pairings for t in p.teams)
    for team, times in seen.items():
        if team not in by_id:
            out.append(Violation(rp.round, (team,), "unknown-team", f"team {team} is unknown"))
        elif times > 1:
            text = f"{by_id[team].name} is paired {times} times in round {rp.round}"
            out.append(Violation(rp.round, (team,), "team-twice", text))
        elif not by_id[team].active_in(rp.round):
            t = by_id[team]
            why = (
                f"joins in round {t.joined_round}"
                if rp.round < t.joined_round
                else f"withdrew after round {t.withdrawn_after_round}"
            )
            text = f"{t.name} is paired in round {rp.round} but {why}"
            out.append(Violation(rp.round, (team,), "not-active", text))
    return out


def _perfect(nodes: Sequence[object], edges: Iterable[tuple[object, object]]) -> bool:
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from(edges)
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(nodes)


class _SwissRound:
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
        text = f"{len(rematches)} rematch(es) ({names}) where {fewest} would do"
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
            f"{self.name(bye)} has the bye after {self.free[bye]} bye(s) or forfeit win(s),"
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
        text = f"forbidden pair(s) {names} although a pairing without any existed"
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


def _round_robin(teams: Sequence[TeamEntry], rp: RoundPairing, double: bool) -> list[Violation]:
    expected = expected_round_robin(teams, rp.round, double)
    actual = {frozenset(p.teams) for p in rp.pairings}
    if expected is None:
        if not actual:
            return []
        return [Violation(rp.round, (), "berger", f"round {rp.round} is past the schedule")]
    return _difference(rp.round, expected, actual, "berger", "the Berger table")


def _difference(
    round_no: int, expected: set[Match], actual: set[Match], rule: str, what: str
) -> list[Violation]:
    if expected == actual:
        return []

    def show(matches: Iterable[Match]) -> str:
        return ", ".join(
            " v ".join(map(str, sorted(m))) if len(m) == 2 else f"{min(m)} bye"
            for m in sorted(matches, key=sorted)
        )

    missing, extra = expected - actual, actual - expected
    text = (
        f"round {round_no} is not {what}: expected {show(missing) or '-'}; got {show(extra) or '-'}"
    )
    teams = tuple(sorted({t for m in missing | extra for t in m}))
    return [Violation(round_no, teams, rule, text)]


def _knockout(
    teams: Sequence[TeamEntry],
    rounds: Sequence[RoundPairing],
    results: Sequence[MatchResult],
    consolation: bool,
) -> list[Violation]:
    by_id = {t.id: t for t in teams}
    ranked = [t.id for t in sorted(teams, key=lambda t: (t.seed, t.id)) if t.active_in(1)]
    brackets = [ExpectedBracket(ranked, 1)]
    out: list[Violation] = []
    for rp in rounds:
        if consolation and rp.round == 2 and brackets[0].first:
            winners = round_winners(results, 1)
            losers = [
                b if winners.get(frozenset((a, b))) == a else a
                for a, b in brackets[0].first
                if a is not None and b is not None
            ]
            losers.sort(key=lambda t: (by_id[t].seed, t))
            if len(losers) >= 2:
                brackets.append(ExpectedBracket(losers, 2))
        expected: set[Match] = set()
        playing = []
        for bracket in brackets:
            if bracket.round != rp.round or bracket.over:
                continue
            pairs = bracket.matches(by_id)
            expected |= {
                frozenset(x for x in p if x is not None) for p in pairs if p != (None, None)
            }
            playing.append((bracket, pairs))
        actual = {frozenset(p.teams) for p in rp.pairings}
        out += _difference(rp.round, expected, actual, "bracket", "the seeded bracket")
        for bracket, pairs in playing:
            problem = bracket.advance(pairs, round_winners(results, rp.round))
            if problem is not None:
                out.append(Violation(rp.round, (), "bracket", problem))
                return out
    return out
