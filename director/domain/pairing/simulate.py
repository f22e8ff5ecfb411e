"""Random tournaments played through the real engines (tests, benchmarks, ``simulate``).

Pure: everything random comes from the ``random.Random`` passed in, so a seed replays a
tournament exactly. Results are Tandem matches to N: each pair of games adds one game to each
board (a single, gammon or backgammon on a 1-, 2- or 4-cube, the stronger team winning more
often); rule 4 (draws possible) in Swiss and round robin, rule 4′ (the first game that brings
a team to N ends the match) in knockout, and now and then a forfeit.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace

from director.domain.pairing.engine import pair_round, planned_rounds
from director.domain.pairing.model import (
    MatchResult,
    Outcome,
    PairingOptions,
    RoundPairing,
    TeamEntry,
)
from director.domain.pairing.swiss import clear_leader
from director.domain.rules import Format, LateEntry, MatchPointScheme, PairingSystem, RoundOne
from director.domain.standings import compute_standings

UNTIL_CLEAR_CAP = 12  # rounds at most in a simulated Swiss "until one team is clear"


@dataclass(frozen=True)
class SimulationPlan:
    system: PairingSystem = PairingSystem.SWISS
    teams: int = 16
    rounds: int = 5  # Swiss only; 0 = until one team is clear
    late_entries: int = 0  # Swiss and round robin
    withdrawals: int = 0
    forbidden_pairs: int = 0
    clubs: int = 0  # 0 = no clubs; otherwise teams are spread over this many clubs
    match_length: int = 5
    forfeit_rate: float = 0.01
    options: PairingOptions = PairingOptions()


@dataclass(frozen=True)
class SimulatedEvent:
    teams: tuple[TeamEntry, ...]
    options: PairingOptions
    rounds: tuple[RoundPairing, ...]
    results: tuple[MatchResult, ...]


def random_plan(
    rng: random.Random,
    min_teams: int = 3,
    max_teams: int = 40,
    system: PairingSystem | None = None,
) -> SimulationPlan:
    """A plan with every knob drawn at random."""
    system = system or rng.choice(list(PairingSystem))
    n = rng.randint(min_teams, max_teams)
    options = PairingOptions(
        system=system,
        match_points=rng.choice(list(MatchPointScheme)),
        round_one=rng.choice(list(RoundOne)),
        random_seed=rng.randrange(1 << 30),
        late_entry=rng.choice(list(LateEntry)),
        avoid_same_club=rng.random() < 0.3,
        double_round_robin=rng.random() < 0.3,
        consolation=rng.random() < 0.5,
    )
    return SimulationPlan(
        system=system,
        teams=n,
        rounds=0 if rng.random() < 0.1 else rng.randint(1, 9),
        late_entries=rng.randint(0, n // 5) if system is not PairingSystem.KNOCKOUT else 0,
        withdrawals=rng.randint(0, n // 5),
        forbidden_pairs=rng.randint(0, n // 3),
        clubs=rng.randint(2, 6) if options.avoid_same_club else 0,
        match_length=rng.choice([3, 5, 7, 9, 11]),
        options=options,
    )


def _teams(rng: random.Random, plan: SimulationPlan, rounds: int) -> list[TeamEntry]:
    n = plan.teams
    ids = rng.sample(range(1, 10 * n + 1), n)
    late = set(rng.sample(ids, min(plan.late_entries, n))) if rounds > 1 else set()
    gone = set(rng.sample(ids, min(plan.withdrawals, n)))
    clubs = [f"Club {c}" for c in range(plan.clubs)]
    return [
        TeamEntry(
            id=tid,
            name=f"Team {tid}",
            seed=seed,
            club=rng.choice(clubs) if clubs and rng.random() < 0.8 else None,
            rating=1500 + rng.randint(-300, 300),
            withdrawn_after_round=rng.randint(0, max(0, rounds - 1)) if tid in gone else None,
            joined_round=rng.randint(2, rounds) if tid in late else 1,
        )
        for seed, tid in enumerate(ids, start=1)
    ]


def play_match(
    rng: random.Random, edge: float, match_length: int, winner_required: bool
) -> tuple[int, int, Outcome]:
    """A match to N; ``edge`` > 0 favours team A. Returns (score A, score B, outcome)."""
    p_a = 1 / (1 + math.exp(-edge))
    score = [0, 0]
    while True:
        games = []
        for _board in Format.TANDEM.record.boards:
            level = rng.choices((1, 2, 3), weights=(70, 27, 3))[0]
            cube = rng.choices((1, 2, 4), weights=(55, 35, 10))[0]
            games.append((0 if rng.random() < p_a else 1, level * cube))
        rng.shuffle(games)  # the order in which the two games finish
        for side, points in games:
            score[side] += points
            if winner_required and score[side] >= match_length:
                return score[0], score[1], Outcome.A if side == 0 else Outcome.B
        a_done, b_done = score[0] >= match_length, score[1] >= match_length
        if a_done or b_done:
            outcome = Outcome.DRAW if a_done and b_done else Outcome.A if a_done else Outcome.B
            return score[0], score[1], outcome


def simulate(rng: random.Random, plan: SimulationPlan) -> SimulatedEvent:
    """Play a whole event round by round with the real engines."""
    options = replace(plan.options, system=plan.system, rounds=plan.rounds)
    guess = plan.rounds or UNTIL_CLEAR_CAP
    if plan.system is PairingSystem.ROUND_ROBIN:
        guess = max(2, plan.teams - 1)
    teams = _teams(rng, plan, guess)
    ids = [t.id for t in teams]
    forbidden = (
        {frozenset(rng.sample(ids, 2)) for _ in range(plan.forbidden_pairs)} if ids[1:] else set()
    )
    options = replace(options, forbidden_pairs=frozenset(forbidden))
    strength = {t.id: 2.0 * (plan.teams - t.seed) / plan.teams + rng.gauss(0, 0.5) for t in teams}
    total = planned_rounds(teams, options)
    rounds: list[RoundPairing] = []
    results: list[MatchResult] = []
    round_no = 0
    while True:
        round_no += 1
        if total and round_no > total:
            break
        if not total:
            rows = compute_standings(teams, results, scheme=options.match_points)
            if round_no > UNTIL_CLEAR_CAP or (
                results and clear_leader(rows, options.match_points.win) is not None
            ):
                break
        rp = pair_round(teams, results, options, round_no)
        rounds.append(rp)
        for p in rp.pairings:
            if p.team_b is None:
                results.append(MatchResult(round_no, p.table, p.team_a, None, 0, 0, Outcome.BYE))
            elif rng.random() < plan.forfeit_rate:
                outcome = rng.choice((Outcome.FORFEIT_A, Outcome.FORFEIT_B))
                results.append(MatchResult(round_no, p.table, p.team_a, p.team_b, 0, 0, outcome))
            else:
                edge = strength[p.team_a] - strength[p.team_b]
                knockout = plan.system is PairingSystem.KNOCKOUT
                sa, sb, outcome = play_match(rng, edge, plan.match_length, knockout)
                results.append(MatchResult(round_no, p.table, p.team_a, p.team_b, sa, sb, outcome))
    return SimulatedEvent(tuple(teams), options, tuple(rounds), tuple(results))
