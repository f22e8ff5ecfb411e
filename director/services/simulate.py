"""A complete, realistic, reproducible event: for demos, screenshots and benchmarks.

Everything goes through the real services (teams, the pairing engines, record_game), so a
simulated event is exactly what a director would have after running it by hand.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from sqlalchemy.orm import Session

from director.domain.brackets.plan import BracketPlan
from director.domain.errors import UserError
from director.domain.match_reserve import DELAY_S, RESERVE_PER_POINT_S
from director.domain.rules import (
    ClockMode,
    EventOptions,
    Format,
    MatchRules,
    PairingSystem,
    Scoring,
    Side,
    TimeControl,
)
from director.domain.simulation import player_name, simulate_match, team_name
from director.domain.teamlist import name_key
from director.domain.wording import counted
from director.services.brackets import set_plan
from director.services.events import create_event
from director.services.games import record_games, set_forfeit
from director.services.matches import get_match
from director.services.rounds import (
    RoundStatus,
    list_rounds,
    pair_next_round,
    preview_next_round,
    set_forbidden_pair,
)
from director.services.teams import (
    add_player,
    add_team,
    entrant_format,
    list_teams,
    players_taken,
    withdraw_team,
)
from director.store.engine import EventDatabase, new_database, open_database

CLUBS = ("North", "South", "Harbour", "Old Town", "Riverside", "Hill")


@dataclass(frozen=True)
class SimulationSettings:
    teams: int = 16  # the entrants: teams, or players in an individual event
    format: Format = Format.TANDEM  # RULES §10: an individual event enters players
    rounds: int = 5
    system: PairingSystem = PairingSystem.SWISS
    scoring: Scoring = Scoring.STANDARD
    seed: int = 1
    match_length: int = 0  # 0: the variant's usual length (5; 150 in pin game, 7 chasing the girls)
    late_entries: int = 0
    withdrawals: int = 0
    forbidden_pairs: int = 0
    forfeit_rate: float = 0.01
    rounds_to_play: int | None = None  # None: play every round; fewer leaves the event running
    consolation: bool = False  # knockout: the first-round losers play a consolation bracket
    plan: BracketPlan | None = None  # knockout: the bracket plan (RULES §11)
    name: str = ""

    def problems(self) -> list[str]:
        out = []
        kind = f"{self.format.record.entrant}s"
        if self.teams < 2:
            out.append(f"a simulated event needs at least 2 {kind}")
        if self.teams > 2000:
            out.append(f"at most 2000 {kind}")
        if self.rounds < 1 and self.system is PairingSystem.SWISS:
            out.append("at least 1 round")
        if self.late_entries + self.withdrawals >= self.teams:
            out.append("too many late entries and withdrawals for the field")
        if self.plan is not None and self.system is not PairingSystem.KNOCKOUT:
            out.append("--plan is for a knockout (--format knockout)")
        return out


def simulate_event(target: str, settings: SimulationSettings) -> EventDatabase:
    """Create `target` and play the event in it; returns the open database."""
    problems = settings.problems()
    if problems:
        raise UserError("; ".join(problems))
    rng = random.Random(settings.seed)
    length = settings.match_length or settings.scoring.variant.usual_length
    options = EventOptions(
        match=MatchRules(match_length=length, scoring=settings.scoring, format=settings.format),
        time_control=_clock(settings.format),
        pairing_system=settings.system,
        rounds=settings.rounds,
        consolation=settings.consolation,
    )
    with new_database(target) as db:  # the file appears once the event is played
        _play(db, settings, options, rng)
    return open_database(target)


def _play(
    db: EventDatabase, settings: SimulationSettings, options: EventOptions, rng: random.Random
) -> None:
    name = settings.name or f"Simulated {settings.system.value} (seed {settings.seed})"
    starters = settings.teams - settings.late_entries
    strengths: dict[int, float] = {}
    with db.Session() as s, s.begin():
        create_event(s, name, options)
        if settings.plan is not None:
            set_plan(s, settings.plan)
        for index in range(starters):
            _add_team(s, rng, index, strengths)
        ids = [t.id for t in list_teams(s)]
        for _ in range(settings.forbidden_pairs):
            a, b = rng.sample(ids, 2)
            set_forbidden_pair(s, a, b)
    late = settings.late_entries
    withdrawals = settings.withdrawals
    played = 0
    while settings.rounds_to_play is None or played < settings.rounds_to_play:
        with db.Session() as s, s.begin():
            if played and late and rng.random() < 0.6:
                _add_team(s, rng, settings.teams - late, strengths)
                late -= 1
            if played and withdrawals and rng.random() < 0.4:
                active = [t for t in list_teams(s) if not t.withdrawn]
                withdraw_team(s, rng.choice(active).id)
                withdrawals -= 1
            try:
                preview_next_round(s)
            except UserError:
                return  # every round is paired (or one team is clear)
            info = pair_next_round(s).value
        with db.Session() as s, s.begin():  # one commit per round keeps big events quick
            for match in info.matches:
                _play_match(s, match.id, strengths, settings.forfeit_rate, rng)
        played += 1


def _clock(fmt: Format) -> TimeControl:
    """The event's clock: Tandem's per game (RULES §7), or an individual event's match reserve,
    M a match point with a simple delay (RULES §10)."""
    if fmt.record.match_clock:
        return TimeControl(RESERVE_PER_POINT_S, DELAY_S, ClockMode.DELAY)
    return TimeControl()


def _add_team(s: Session, rng: random.Random, index: int, strengths: dict[int, float]) -> None:
    club = rng.choice(CLUBS)
    taken = set(players_taken(s))
    if entrant_format(s).one_board:  # the entrant is a player, under the player's name
        team = add_player(s, unique_player(rng, taken), club).value
        strengths[team.id] = rng.gauss(0.0, 0.6)
        return
    while True:
        players = (unique_player(rng, taken), unique_player(rng, taken))
        try:
            team = add_team(s, team_name(rng, index), players, club).value
            break
        except UserError:
            index += 1000  # a name clash: take the next variant
    strengths[team.id] = rng.gauss(0.0, 0.6)


def unique_player(rng: random.Random, taken: set[str]) -> str:
    """A name no team has (FORMATS: a player plays for one team): "Ana Kovač 2" once the
    name lists run out. Adds it to `taken`."""
    name = base = player_name(rng)
    number = 1
    while name_key(name) in taken:
        number += 1
        name = f"{base} {number}"
    taken.add(name_key(name))
    return name


def _play_match(
    s: Session, match_id: int, strengths: dict[int, float], forfeit_rate: float, rng: random.Random
) -> None:
    match = get_match(s, match_id)
    if match.team_b is None:
        return
    if rng.random() < forfeit_rate:
        set_forfeit(s, match_id, rng.choice([Side.A, Side.B]), "simulated no-show")
        return
    edge = strengths[match.team_a.id] - strengths[match.team_b.id]
    p_a = 1 / (1 + math.exp(-edge))
    record_games(s, match_id, simulate_match(match.rules, rng, p_a))


def status_line(db: EventDatabase) -> str:
    with db.Session() as s:
        rounds = list_rounds(s)
        teams = len(list_teams(s))
        entrant = entrant_format(s).entrant
    finished = sum(1 for r in rounds if r.status is RoundStatus.FINISHED)
    matches = sum(len(r.matches) for r in rounds)
    built = [counted(teams, entrant), counted(len(rounds), "round")]
    return f"{', '.join(built)} ({finished} finished), {counted(matches, 'match', 'matches')}"


DEMO_NAME = "Demo club night"


def build_demo(target: str, seed: int = 2026) -> None:
    """A living club night for a newcomer: 8 teams, two rounds played, the third under way.

    Round 3 has finished, half-played and unstarted matches, so every page has something
    to show and the match desk has a match to continue.
    """
    rng = random.Random(seed)
    settings = SimulationSettings(teams=8, rounds=5, seed=seed, rounds_to_play=2, name=DEMO_NAME,
                                  forfeit_rate=0.0)  # fmt: skip
    db = simulate_event(target, settings)
    try:
        with db.Session() as s, s.begin():
            matches = pair_next_round(s).value.matches
        with db.Session() as s, s.begin():
            for index, match in enumerate(matches):
                games = simulate_match(match.rules, rng, 0.55)
                cut = (len(games), len(games) // 2, 1, 0)[index % 4]
                if cut:
                    record_games(s, match.id, games[:cut])
    finally:
        db.close()
