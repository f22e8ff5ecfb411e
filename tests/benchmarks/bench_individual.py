"""Benchmark an individual night of 1,000 players (RULES §10, #28) beside 1,000 Tandem teams.

    python tests/benchmarks/bench_individual.py [--players N] [--rounds R]

Each event is built through the services in a temporary folder, as a director would run it:
register the entrants (a player list or a team list, imported), then for each Swiss round
preview the pairing, pair it, enter every match's games (seeded, played out under the
format's rules: the Crawford rule for players) and read the standings. Wall and CPU seconds
are printed for each step. The issue's figure: the individual Swiss preview takes about what
the Tandem one of as many teams takes; the script exits with status 1 when the players' is
more than 1.5 times the teams' (CPU), or when a round's results do not all finish.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from director.domain.rules import ClockMode, EventOptions, Format, MatchRules, TimeControl
from director.domain.scoring import Game
from director.domain.simulation import simulate_match
from director.services.events import create_event
from director.services.games import record_games
from director.services.matches import list_matches
from director.services.rounds import pair_next_round, preview_next_round
from director.services.standings import standings
from director.services.teams import import_teams
from director.store.engine import create_database

T = TypeVar("T")
BOUND = 1.5  # the players' Swiss preview against the teams' (CPU seconds)


@dataclass
class Figures:
    """Seconds (wall, CPU) of each step, by its name."""

    steps: dict[str, list[tuple[float, float]]] = field(default_factory=dict)

    def time(self, name: str, work: Callable[[], T]) -> T:
        wall, cpu = time.perf_counter(), time.process_time()
        out = work()
        spent = (time.perf_counter() - wall, time.process_time() - cpu)
        self.steps.setdefault(name, []).append(spent)
        return out

    def cpu(self, name: str) -> float:
        return sum(c for _, c in self.steps[name]) / len(self.steps[name])


def entrant_list(fmt: Format, count: int) -> str:
    if fmt.record.one_board:
        return "player,club\n" + "".join(f"Player {i:04d},Club {i % 40}\n" for i in range(count))
    rows = (f"Team {i:04d},Player {i:04d}a,Player {i:04d}b,Club {i % 40}\n" for i in range(count))
    return "team,player1,player2,club\n" + "".join(rows)


def night(folder: Path, fmt: Format, entrants: int, rounds: int) -> Figures:
    """Register `entrants`, then `rounds` Swiss rounds: preview, pair, results, standings."""
    figures = Figures()
    clock = TimeControl(120, 12, ClockMode.DELAY) if fmt.record.match_clock else TimeControl()
    options = EventOptions(match=MatchRules(match_length=5, format=fmt), time_control=clock,
                           rounds=rounds)  # fmt: skip
    db = create_database(str(folder / f"{fmt.value}.tandem"))
    rng = random.Random(28)
    try:
        with db.Session() as s, s.begin():
            create_event(s, f"{fmt.record.label} night", options)
        with db.Session() as s, s.begin():
            figures.time("register", lambda: import_teams(s, entrant_list(fmt, entrants)))
        for _ in range(rounds):
            with db.Session() as s:
                figures.time("preview", lambda: preview_next_round(s))
            with db.Session() as s, s.begin():
                info = figures.time("pair", lambda: pair_next_round(s).value)
            with db.Session() as s, s.begin():
                matches = [m for m in list_matches(s, info.number) if not m.is_bye]
                games = {m.id: simulate_match(m.rules, rng, rng.random()) for m in matches}

                def enter(games: dict[int, list[Game]] = games) -> None:
                    for match_id, played in games.items():
                        record_games(s, match_id, played)

                figures.time("results", enter)
            with db.Session() as s:
                unfinished = [m for m in list_matches(s, info.number) if not m.outcome.finished]
                assert not [m for m in unfinished if not m.is_bye], "a match did not finish"
                figures.time("standings", lambda: standings(s))
    finally:
        db.close()
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000, help="entrants of each night")
    parser.add_argument("--rounds", type=int, default=3, help="Swiss rounds of each night")
    args = parser.parse_args()
    print(f"{args.players} entrants, {args.rounds} Swiss rounds, matches to 5; seconds wall/CPU")
    results: dict[Format, Figures] = {}
    with tempfile.TemporaryDirectory() as folder:
        warm = Path(folder) / "warm"
        warm.mkdir()
        for fmt in Format:  # a small night of each first: imports and caches warm, not timed
            night(warm, fmt, 16, 2)
        for fmt in (Format.INDIVIDUAL, Format.TANDEM):
            results[fmt] = figures = night(Path(folder), fmt, args.players, args.rounds)
            entrant = fmt.record.entrant
            print(f"{fmt.record.label} ({args.players} {entrant}s):")
            for name, spent in figures.steps.items():
                each = "  ".join(f"{w:6.2f}/{c:6.2f}" for w, c in spent)
                print(f"  {name:<10} {each}")
            per_match = [c / (args.players // 2) for _, c in figures.steps["results"]]
            print(f"  results per match (CPU): {1000 * max(per_match):.1f} ms at most")
    players, teams = results[Format.INDIVIDUAL], results[Format.TANDEM]
    ratio = players.cpu("preview") / teams.cpu("preview")
    print(f"Swiss preview, players against teams (CPU, mean of the rounds): {ratio:.2f}×")
    if ratio > BOUND:
        print(f"out of bounds: the players' preview takes over {BOUND}× the teams'")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
