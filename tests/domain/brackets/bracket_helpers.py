"""Playing a draw out at random, match by match, with withdrawals and forfeits."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from director.domain.brackets.checker import DrawnMatch
from director.domain.brackets.draw import Draw, Pairing, Progress, Result


@dataclass
class Played:
    draw: Draw
    results: list[Result] = field(default_factory=list)
    withdrawn: list[int] = field(default_factory=list)
    pairings: dict[object, Pairing] = field(default_factory=dict)  # every match ever paired
    # the state after each step, with the results and withdrawals so far
    steps: list[tuple[Progress, int, tuple[int, ...]]] = field(default_factory=list)

    def drawn(self, progress: Progress, results: int | None = None) -> list[DrawnMatch]:
        """The matches as the store would hold them: paired ones, finished or not."""
        winners = {r.key: r.winner for r in self.results[:results]}
        out = []
        for p in self.pairings.values():
            status, players, _ = progress.of(p.key)
            if p.key in winners or status.value == "ready":
                out.append(DrawnMatch(p.key.bracket, p.key.round, p.key.number, p.player_a,
                                      p.player_b, p.length, winners.get(p.key)))  # fmt: skip
        return out


def play_out(draw: Draw, rng: random.Random, withdraw: float = 0.0, forfeit: float = 0.0,
             keep_steps: bool = False, one_at_a_time: bool = True) -> Played:  # fmt: skip
    """Results until nothing is left to pair: each step finishes one ready match (or all of
    them), sometimes by forfeit, and sometimes first withdraws an entrant still in play."""
    played = Played(draw)
    progress = draw.progress()
    while True:
        ready = progress.ready()
        for p in ready:
            played.pairings[p.key] = p
        if keep_steps:
            played.steps.append((progress, len(played.results), tuple(played.withdrawn)))
        if not ready:
            return played
        if withdraw and rng.random() < withdraw:
            gone = rng.choice(draw.field)
            if gone not in played.withdrawn:
                played.withdrawn.append(gone)
        for p in [rng.choice(ready)] if one_at_a_time else ready:
            if p.player_a in played.withdrawn or p.player_b in played.withdrawn:
                continue  # the next progress makes it a bye
            winner = rng.choice((p.player_a, p.player_b))
            played.results.append(Result(p.key, winner, rng.random() < forfeit))
        progress = draw.progress(played.results, played.withdrawn)
