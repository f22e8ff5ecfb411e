"""Bracket benchmark: a 256-player main bracket with a progressive consolation (RULES §11).

    python tests/benchmarks/bench_brackets.py

Pairs the whole night match by match: after each result the draw's state is recomputed from
all results and the matches that became ready are paired, until nothing is left (one result
at a time, the slowest way a desk can enter them). Prints the CPU time (time.process_time,
best of 5) of the whole night, of it with every result entered at once per step, and of the
independent checker over the finished draw. Target: the 256-player night paired completely
in under 1 s of CPU; the script exits with status 1 naming a figure over its target.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from director.domain.brackets.checker import check_draw
from director.domain.brackets.draw import Draw
from director.domain.brackets.plan import ready_made
from tests.domain.brackets.bracket_helpers import play_out

PLAYERS = 256
TARGET_S = 1.0


def cpu(label: str, work: Callable[[], object], repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    print(f"  {label}: {best:.3f} s CPU (best of {repeat})")
    return best


def main() -> int:
    plan = ready_made("progressive-consolation")
    field = list(range(1, PLAYERS + 1))
    played = play_out(Draw(plan, field), random.Random(1))
    print(f"{PLAYERS} players, {plan.name}: {len(played.results)} matches paired and played")
    figure = cpu("the whole night, one result at a time",
                 lambda: play_out(Draw(plan, field), random.Random(1)))  # fmt: skip
    cpu("the whole night, each step's ready matches at once",
        lambda: play_out(Draw(plan, field), random.Random(1), one_at_a_time=False))  # fmt: skip
    final = played.draw.progress(played.results)
    matches = played.drawn(final)
    cpu("the independent checker over the finished draw",
        lambda: check_draw(plan, field, matches))  # fmt: skip
    problems = check_draw(plan, field, matches)
    print(f"  checker: {len(problems)} problems")
    if figure >= TARGET_S or problems:
        print(f"OUT OF TARGET: {figure:.3f} s (target < {TARGET_S} s), {len(problems)} problems")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
