"""GUI figures, each a whole process measured from its spawn:

1. cold start to a usable start page, against a bare PySide6 `QMainWindow` on the same machine
   (target: at most 1.5 times the bare window);
2. opening a 1,000-team, 9-round event to a usable window (target < 1 s);
3. `tandem-director pair FILE --preview` of round 4 of a 1,000-team Swiss (target < 1 s);
then, in this process, the standings refresh after a result (target < 200 ms).

Run: python tests/benchmarks/bench_gui.py [--teams 1000 --rounds 9] [--only 12]
The big events are built once through the services (minutes) and kept in the user cache
folder for later runs.

Figures 1 and 2 run the app as `tandem-director [FILE]` starts it (the command line, the
application's style and fonts, the window, the event opened), up to the first pass of its
event loop, which paints the window: then it is usable. (What the app leaves to the second
pass, just after: the fonts of the scripts past Cyrillic when the start page shows no name in
one, ~4 ms, and starting the database layer's warm-up thread.) The children run as the installed
app does, on settings of their own (no recent events), from compiled bytecode (pip compiles a
wheel at install; PYTHONDONTWRITEBYTECODE, set on some machines, would make every run compile
the sources again), after one untimed warm-up. Each figure is given twice: wall-clock seconds, and
the CPU seconds the process used, which a machine busy with other work inflates far less.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import platformdirs

APP = """
import os, sys, time
from director.cli import main  # first, as the installed command's script imports it
from PySide6.QtWidgets import QApplication

def ready(app):  # the event loop's first pass paints the window: then it is usable
    app.processEvents()
    print("ready", time.process_time(), flush=True)
    os._exit(0)

QApplication.exec = ready
main(sys.argv[1:])
"""  # the app as `tandem-director [FILE]` starts it, up to its event loop's first pass


BARE = """
import os, sys, time
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication(sys.argv)
window = QMainWindow()
window.show()
app.processEvents()
print("ready", time.process_time(), flush=True)
"""


CACHE = Path(platformdirs.user_cache_dir("tandem-director")) / "bench"
STARTS = 9  # figure 1's starts of each, after a warm-up: its two times are a tenth of a second


def child_env() -> dict[str, str]:
    """The environment of an installed app: bytecode compiled once and kept; settings of its
    own, fresh each run (no recent events, the first page), not the person's."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(CACHE / "pycache")
    env["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="settings-", dir=CACHE)
    return env


def whole_process(code: str, *args: str) -> tuple[float, float]:
    """Wall and CPU seconds from spawning `python -c code` to its 'ready' line."""
    env = child_env()
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", code, *args], stdout=subprocess.PIPE, text=True, env=env
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    took = time.perf_counter() - start
    proc.kill()
    proc.wait()
    shutil.rmtree(env["XDG_CONFIG_HOME"], ignore_errors=True)
    word, cpu = line.split()
    assert word == "ready", line
    return took, float(cpu)


def start_to_window() -> tuple[float, float]:
    return whole_process(APP)


def pair_preview(path: Path) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "director.cli", "pair", str(path), "--preview"],
        check=True,
        stdout=subprocess.DEVNULL,
        env=child_env(),
    )
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return took, cpu


def median_of(runs: list[tuple[float, float]]) -> tuple[float, float]:
    """The median wall time and the median CPU time, after the warm-up run (dropped)."""
    timed = runs[1:]
    return statistics.median(w for w, _ in timed), statistics.median(c for _, c in timed)


def big_event(teams: int, rounds: int, played: int | None = None) -> Path:
    from director.services.simulate import SimulationSettings, simulate_event
    from director.store.engine import head_revision

    folder = CACHE
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"event-{teams}x{rounds}-{played}-{head_revision()}.tandem"
    older = sorted(folder.glob(f"event-{teams}x{rounds}-{played}-*.tandem"))
    if not path.exists() and older:  # built before a migration: upgrade it (seconds) instead
        from director.store.upgrade import upgrade_file

        partial = path.with_suffix(".upgrading")
        shutil.copyfile(older[-1], partial)
        upgrade_file(partial).unlink()  # the upgrade keeps the original beside: not needed
        partial.rename(path)
        for stale in older:  # with its -wal, -shm and backups folder
            for item in folder.glob(stale.name + "*"):
                shutil.rmtree(item) if item.is_dir() else item.unlink()
    if not path.exists():
        print(f"building a {teams}-team, {rounds}-round event once (not timed) ...", flush=True)
        partial = path.with_suffix(".building")
        for leftover in folder.glob(partial.name + "*"):
            leftover.unlink()
        settings = SimulationSettings(
            teams=teams, rounds=rounds, seed=1, forfeit_rate=0.0, rounds_to_play=played
        )
        simulate_event(str(partial), settings).close()
        partial.rename(path)
    return path


def open_and_refresh(path: Path) -> tuple[float, float, list[tuple[float, float]]]:
    from PySide6.QtWidgets import QApplication

    from director.domain.scoring import Game
    from director.services import games, matches
    from director.ui.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv)
    window = MainWindow()
    window.show()
    app.processEvents()
    start = time.perf_counter()
    assert window.open_target(str(path), remember=False)
    app.processEvents()
    opened = time.perf_counter() - start
    assert window.view is not None and window.ctx is not None
    start = time.perf_counter()
    window.show_page(3)  # standings
    app.processEvents()
    first_standings = time.perf_counter() - start
    ctx = window.ctx
    match = next(m for m in ctx.read(matches.list_matches, 1) if m.games)
    game_id, game = match.game_ids[0], match.games[0]
    refresh: list[tuple[float, float]] = []  # wall, and CPU of every thread of this process
    for flip in range(6):
        cube = 2 if flip % 2 == 0 else game.cube  # a correction that changes the score
        corrected = Game(**{**game.__dict__, "cube": cube})
        start, cpu = time.perf_counter(), time.process_time()
        ctx.change(games.correct_game, game_id, corrected, "benchmark")
        app.processEvents()
        refresh.append((time.perf_counter() - start, time.process_time() - cpu))
    window.close_event()
    window.close()
    window.deleteLater()
    app.processEvents()
    return opened, first_standings, refresh


def main() -> int:
    """The figures; exit status 1 when one is out of its target (wall-clock, as the issue
    puts them: on a busy machine, read the CPU figures beside them too)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--teams", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument(
        "--only", default="123", help="the figures to measure, e.g. 12 (3: figure 3 and the rest)"
    )
    args = parser.parse_args()
    CACHE.mkdir(parents=True, exist_ok=True)
    missed: list[str] = []
    if "1" in args.only:
        # taken in turns, so that what else the machine does weighs on both alike
        pairs = [(whole_process(BARE), start_to_window()) for _ in range(1 + STARTS)]
        bare, bare_cpu = median_of([b for b, _ in pairs])
        start, start_cpu = median_of([a for _, a in pairs])
        print(
            f"1. cold start to the start page: {start:.3f} s, a bare QMainWindow {bare:.3f} s:"
            f" {start / bare:.2f}x; CPU {start_cpu:.3f} s against {bare_cpu:.3f} s:"
            f" {start_cpu / bare_cpu:.2f}x (target <= 1.5x; median of {STARTS} starts each)"
        )
        missed += ["1"] * (start / bare > 1.5)
    path = big_event(args.teams, args.rounds)
    if "2" in args.only:
        whole, whole_cpu = median_of([whole_process(APP, str(path)) for _ in range(4)])
        print(
            f"2. open a {args.teams}-team, {args.rounds}-round event, whole process:"
            f" {whole:.2f} s, CPU {whole_cpu:.2f} s (target < 1 s)"
        )
        missed += ["2"] * (whole >= 1)
    if "3" in args.only:
        missed += later_figures(args.teams, args.rounds, path)
    print("all within their targets" if not missed else f"OUT OF TARGET: {', '.join(missed)}")
    return 1 if missed else 0


def later_figures(teams: int, rounds: int, path: Path) -> list[str]:
    """Figure 3 and the standings refresh; the names of those out of target."""
    swiss = big_event(teams, rounds, played=3)
    preview, preview_cpu = median_of([pair_preview(swiss) for _ in range(4)])
    print(
        f"3. pair --preview of round 4 of a {teams}-team Swiss, whole process:"
        f" {preview:.2f} s, CPU {preview_cpu:.2f} s (target < 1 s)"
    )
    opened, first, refresh = open_and_refresh(path)
    print(f"open the event in a running app: {opened:.2f} s")
    print(f"first showing of its standings page: {first:.2f} s")
    wall, cpu = [w for w, _ in refresh], [c for _, c in refresh]
    print(
        f"standings refresh after a result (correction committed + page redrawn): median "
        f"{statistics.median(wall) * 1000:.0f} ms, max {max(wall) * 1000:.0f} ms, "
        f"CPU median {statistics.median(cpu) * 1000:.0f} ms (target < 200 ms)"
    )
    return ["3"] * (preview >= 1) + ["standings refresh"] * (statistics.median(wall) >= 0.2)


if __name__ == "__main__":
    sys.exit(main())
