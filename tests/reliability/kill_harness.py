"""The parent side of the kill test: shoot writers, reopen the file, compare with what they said.

After every SIGKILL the event is reopened the way the app does (`open_event`), and must hold
exactly what the writer acknowledged, plus at most the one operation it had begun (committed
but not yet reported); the integrity check, the foreign-key check, the game/pair consistency
check and a re-score of every match must all be clean.
"""

from __future__ import annotations

import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO

from director.domain.rules import End, EventOptions, MatchRules
from director.domain.scoring import Game
from director.services.events import create_event
from director.services.matches import create_match, list_matches, stored_differences
from director.services.teams import add_team
from director.store.engine import create_database, open_database, open_event
from director.store.integrity import database_problems
from tests.reliability.child_writer import planned_games

REPO = Path(__file__).resolve().parents[2]
Games = list[tuple[int, Game]]


def prepare_event(path: Path, teams: int = 16, matches: int = 24) -> None:
    db = create_database(str(path))
    with db.Session() as session, session.begin():
        create_event(session, "Kill test", EventOptions(match=MatchRules(match_length=9)))
        ids = [add_team(session, f"Team {i}", (f"A{i}", f"B{i}")).value.id for i in range(teams)]
        rng = random.Random(7)
        for table in range(matches):
            a, b = rng.sample(ids, 2)
            create_match(session, a, b, table=table)
    db.close()


def read_state(db_path: Path) -> tuple[dict[int, Games], list[str], bool]:
    """Reopen like the app; the games of every match, every problem found, and `unclean`."""
    db = open_event(str(db_path), make_backup=False)  # the writers make theirs
    try:
        problems = database_problems(db)
        with db.Session() as session:
            state = {
                m.id: list(zip(m.game_ids, m.games, strict=True)) for m in list_matches(session)
            }
            problems += stored_differences(session)
        return state, problems, db.report.unclean
    finally:
        db.close()


def corrected(games: Games, game_id: int, end: End) -> Games:
    return [(i, replace(g, end=end) if i == game_id else g) for i, g in games]


@dataclass
class Tally:
    kills: int = 0
    acknowledged: int = 0  # operations the writers reported committed
    lost: int = 0  # acknowledged but missing or different after the reopen
    integrity_failures: int = 0
    in_flight_committed: int = 0  # begun, not reported, found committed (allowed)
    in_flight_absent: int = 0  # begun, not reported, not committed (allowed)
    unclean_detected: int = 0
    opened: int = 0  # writers that had opened the event when they were killed
    writer_errors: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"kills {self.kills}, acknowledged operations {self.acknowledged}, "
            f"lost {self.lost}, integrity failures {self.integrity_failures}, "
            f"in flight: committed {self.in_flight_committed} / not committed "
            f"{self.in_flight_absent}, unclean shutdowns detected {self.unclean_detected} "
            f"(writers killed after opening: {self.opened})"
        )


class KillHarness:
    """A fork server child plus the model of what its writers acknowledged."""

    def __init__(self, event: Path, plan_seed: int, stderr: IO[bytes]) -> None:
        self.event = event
        self.plan_seed = plan_seed
        env = dict(os.environ, PYTHONPATH=str(REPO))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.reliability.child_writer", str(event), str(plan_seed)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            cwd=REPO,
            env=env,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self._expect("READY")
        state, problems, _ = read_state(event)
        assert not problems, problems
        self.model = state
        db = open_database(str(event), read_only=True)
        try:
            with db.Session() as session:
                self.plans = {
                    m.id: planned_games(m.rules, plan_seed, m.id) for m in list_matches(session)
                }
        finally:
            db.close()
        self.tally = Tally()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self.lines.put(raw.decode().rstrip("\n"))
        self.lines.put("EOF")

    def _next(self) -> str:
        line = self.lines.get(timeout=60)
        if line == "EOF":
            raise RuntimeError("the fork server died: see its stderr")
        return line

    def _expect(self, prefix: str) -> str:
        line = self._next()
        assert line.startswith(prefix), f"expected {prefix!r}, got {line!r}"
        return line

    def _send(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text.encode())
        self.proc.stdin.flush()

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()

    def plan(self, match_id: int) -> list[Game]:
        return self.plans[match_id]

    def kill_once(self, rng: random.Random, max_delay: float) -> None:
        """One writer, one SIGKILL: a quarter while it opens the file, the rest while it writes."""
        self._send(f"run {rng.randrange(1 << 30)}\n")
        pid = int(self._expect("W ").split()[1])
        output: list[str] = []
        if rng.random() < 0.75:
            # let it commit a few results first, whatever the machine's speed, then shoot
            commits = rng.randrange(6)
            while not output or not output[-1].startswith("E "):
                output.append(self._next())
                if output[-1].startswith("O ") and not commits:
                    break
                if output[-1].startswith("A "):
                    commits -= 1
                    if not commits:
                        break
            time.sleep(rng.uniform(0.0, max_delay / 4))
        else:
            time.sleep(rng.uniform(0.0, max_delay))  # mostly while it opens the file
        os.kill(pid, signal.SIGKILL)
        self._send(f"reap {pid}\n")
        while True:
            line = self._next()
            if line.startswith("X "):
                break
            output.append(line)
        self.tally.kills += 1
        if not line.endswith("sig9"):
            self.tally.writer_errors.append(f"writer ended by itself ({line}): {output[-3:]}")
        self._check(output)

    def _check(self, output: list[str]) -> None:
        opened = False
        pending: list[str] | None = None
        for line in output:
            kind, *words = line.split()
            if kind == "O":
                opened = True
            elif kind == "E":
                self.tally.writer_errors.append(line)
            elif kind == "B":
                pending = words
            elif kind == "A":
                assert pending is not None and pending[:2] == words[:2], (pending, words)
                self._apply(words)
                self.tally.acknowledged += 1
                pending = None
        state, problems, unclean = read_state(self.event)
        if problems:
            self.tally.integrity_failures += 1
            self.tally.failures.append(f"kill {self.tally.kills}: {problems}")
        if opened and not unclean:
            self.tally.failures.append(f"kill {self.tally.kills}: the unclean shutdown went unseen")
        self.tally.unclean_detected += int(unclean)
        self.tally.opened += int(opened)
        self._compare(state, pending)
        self.model = state

    def _apply(self, words: list[str]) -> None:
        op, match_id = words[0], int(words[1])
        games = self.model[match_id]
        if op == "record":
            games.append((int(words[2]), self.plan(match_id)[len(games)]))
        elif op == "undo":
            games.pop()
        else:
            self.model[match_id] = corrected(games, int(words[2]), End(words[3]))

    def _compare(self, state: dict[int, Games], pending: list[str] | None) -> None:
        for match_id, expected in self.model.items():
            found = state.get(match_id, [])
            if pending is not None and int(pending[1]) == match_id:
                if self._matches_in_flight(expected, found, pending):
                    self.tally.in_flight_committed += 1
                    continue
                if found == expected:
                    self.tally.in_flight_absent += 1
                    continue
            if found != expected:
                self.tally.lost += 1
                self.tally.failures.append(
                    f"kill {self.tally.kills}: match {match_id} has {len(found)} game(s), "
                    f"the writer acknowledged {len(expected)} (in flight: {pending})"
                )

    def _matches_in_flight(self, expected: Games, found: Games, pending: list[str]) -> bool:
        op, match_id = pending[0], int(pending[1])
        if op == "record":
            nxt = self.plan(match_id)[len(expected)]
            grown = len(found) == len(expected) + 1
            return grown and found[:-1] == expected and found[-1][1] == nxt
        if op == "undo":
            return found == expected[:-1]
        return found == corrected(expected, int(pending[2]), End(pending[3]))


def run_kills(
    event: Path, kills: int, seed: int, stderr: IO[bytes], max_delay: float = 0.12
) -> Tally:
    harness = KillHarness(event, plan_seed=seed, stderr=stderr)
    rng = random.Random(seed)
    try:
        for _ in range(kills):
            harness.kill_once(rng, max_delay)
    finally:
        harness.close()
    return harness.tally
