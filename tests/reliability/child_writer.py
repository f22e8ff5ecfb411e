"""The process the kill test shoots: records results through the services at full speed.

Run as `python -m tests.reliability.child_writer EVENT PLAN_SEED`, it imports everything once
and then serves as a fork server (so a hundred kills do not pay a hundred interpreter starts):
`run SEED` on stdin forks a writer and prints `W pid`; `reap PID` waits for that writer and
prints `X pid sig9` (or `exitN`). A writer opens the event the way the app does and loops:
it prints `B op match ...` before each transaction and `A op match ...` only after its commit
returned. Every line is one `os.write` to the shared pipe, never buffered in the process.
"""

from __future__ import annotations

import os
import random
import sys
import traceback
from dataclasses import replace

from director.domain.rules import End, MatchRules
from director.domain.scoring import Game
from director.domain.simulation import simulate_match
from director.services.games import correct_game, record_game, undo_last_game
from director.services.matches import get_match, list_matches
from director.store.engine import open_event


def out(line: str) -> None:
    os.write(1, (line + "\n").encode())


def planned_games(rules: MatchRules, plan_seed: int, match_id: int) -> list[Game]:
    """The games a match will see, the same in the writer and in the checking parent."""
    return simulate_match(rules, random.Random(f"{plan_seed}:{match_id}"))


def toggled(game: Game) -> Game:
    """A correction that keeps the score: bear-off and resignation at the same level."""
    return replace(game, end=End.RESIGN if game.end is End.BEAR_OFF else End.BEAR_OFF)


def correctable(game: Game) -> bool:
    return game.end in (End.BEAR_OFF, End.RESIGN) and game.level is not None


def work(event: str, plan_seed: int, seed: int) -> None:
    db = open_event(event)
    out(f"O {int(db.report.unclean)}")
    rng = random.Random(seed)
    with db.Session() as session:
        ids = [m.id for m in list_matches(session)]
    plans: dict[int, list[Game]] = {}
    while True:
        match_id = rng.choice(ids)
        with db.Session() as session:
            info = get_match(session, match_id)
        plan = plans.setdefault(match_id, planned_games(info.rules, plan_seed, match_id))
        count = len(info.games)
        roll = rng.random()
        fixable = [i for i, g in enumerate(info.games) if correctable(g)]
        if count and (info.outcome.finished or roll < 0.12):
            game_id = info.game_ids[-1]
            out(f"B undo {match_id} {game_id}")
            with db.Session() as session, session.begin():
                undo_last_game(session, match_id, "kill test")
            out(f"A undo {match_id} {game_id}")
        elif fixable and roll < 0.24:
            index = rng.choice(fixable)
            game_id, fixed = info.game_ids[index], toggled(info.games[index])
            out(f"B correct {match_id} {game_id} {fixed.end.value}")
            with db.Session() as session, session.begin():
                correct_game(session, game_id, fixed, "kill test")
            out(f"A correct {match_id} {game_id} {fixed.end.value}")
        else:
            out(f"B record {match_id} {count}")
            with db.Session() as session, session.begin():
                after = record_game(session, match_id, plan[count]).value
            out(f"A record {match_id} {after.game_ids[-1]}")


def serve(event: str, plan_seed: int) -> None:
    out("READY")
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        command, arg = line.split()
        if command == "run":
            pid = os.fork()
            if pid == 0:
                try:
                    work(event, plan_seed, int(arg))
                except BaseException as exc:
                    out(f"E {exc!r}")
                    traceback.print_exc()
                    sys.stderr.flush()
                os._exit(3)
            out(f"W {pid}")
        elif command == "reap":
            _, status = os.waitpid(int(arg), 0)
            how = (
                f"sig{os.WTERMSIG(status)}"
                if os.WIFSIGNALED(status)
                else (f"exit{os.WEXITSTATUS(status)}")
            )
            out(f"X {arg} {how}")


if __name__ == "__main__":
    serve(sys.argv[1], int(sys.argv[2]))
