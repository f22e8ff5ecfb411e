"""An independent check of a whole event's pairings: every violation explained in words.

It never calls the pairing engines. Who met whom and who had a bye come from the pairings
given; forfeit wins and the ranking (the standings after the previous round) from the results.
Each Swiss criterion is checked only where a violation is certain: a better pairing is
exhibited, found by its own matching search on the pairs that the criteria above it allow.

Rules reported (``Violation.rule``):

- ``unknown-team``, ``team-twice``, ``not-active`` (withdrawn, or not yet joined), all systems;
- Swiss: ``team-missing`` (an active team neither paired nor given the bye, unless the
  check-in left it out), ``double-bye``,
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
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import replace

from director.domain.pairing.checker_brackets import (
    ExpectedBracket,
    Match,
    expected_round_robin,
    round_winners,
)
from director.domain.pairing.checker_swiss import SwissRoundCheck
from director.domain.pairing.model import (
    MatchResult,
    Outcome,
    PairingOptions,
    RoundPairing,
    TeamEntry,
    Violation,
)
from director.domain.rules import PairingSystem

__all__ = ["Violation", "check_event"]


def check_event(
    teams: Sequence[TeamEntry],
    rounds_pairings: Sequence[RoundPairing],
    results: Sequence[MatchResult],
    options: PairingOptions,
    sat_out: Mapping[int, AbstractSet[int]] | None = None,
) -> list[Violation]:
    """Every violation of the pairing rules in the event's rounds so far. `sat_out`: by round,
    the teams left out of it by design (RULES §8 check-in: not marked present), never missing."""
    by_id = {t.id: t for t in teams}
    rounds = sorted(rounds_pairings, key=lambda rp: rp.round)
    out: list[Violation] = []
    met: Counter[frozenset[int]] = Counter()
    free: Counter[int] = Counter()
    for rp in rounds:
        problems = _basic(rp, by_id)
        out += problems
        if options.system is PairingSystem.SWISS:
            out_of_it = (sat_out or {}).get(rp.round, frozenset())
            present = [
                replace(t, withdrawn_after_round=rp.round - 1) if t.id in out_of_it else t
                for t in teams
            ]
            out += SwissRoundCheck(present, rp, results, options, met, free, bool(problems)).check()
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
        wrong = _difference(rp.round, expected, actual, "bracket", "the seeded bracket")
        if wrong:
            return out + wrong  # the later rounds follow a bracket that is already broken
        for bracket, pairs in playing:
            problem = bracket.advance(pairs, round_winners(results, rp.round))
            if problem is not None:
                out.append(Violation(rp.round, (), "bracket", problem))
                return out
    return out
