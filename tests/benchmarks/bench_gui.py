"""GUI figures, each a whole process measured as a user waits for it: from its spawn until
its window is visible on a real X display.

1. cold start to the start page's window, against a bare PySide6 `QMainWindow` on the same
   display (target: at most 1.5 times the bare window);
2. opening a 1,000-team, 9-round event (`tandem-director FILE`) until its first page's table
   is painted with its rows (target: at most 4 times the bare window);
3. `tandem-director pair FILE --preview` of round 4 of a 1,000-team Swiss (target < 1 s);
then, in this process (offscreen), the standings refresh after a result (target < 200 ms).

Run: python tests/benchmarks/bench_gui.py [--teams 1000 --rounds 9] [--only 12] [--runs 5]
The big events are built once through the services (minutes) and kept in the user cache
folder for later runs.

Figures 1 and 2 run on an X server of their own (Xvfb, started here; `--display :N` takes one
that runs) with Qt's xcb platform and the system's fonts through fontconfig, as on a desktop. A
run starts `python -c ...` as the installed `tandem-director` script starts the app, and ends
when the process's window is mapped (the X server's MapNotify, watched with `xev`) and `xdotool
search --onlyvisible --pid PID` finds it visible; for figure 2 (its window maps with the start
page while the event opens) only once the event's table has been painted with its rows too,
told by a watch the child sets on every table as it gets its model (`EVENT`; not the app's
code: the event's first page may be painted before the event loop runs); then the process is
sent SIGTERM and closes its event cleanly (killed, it left the event "not closed properly" and
the next run opened it with the full integrity check). The children run as the installed app
does, on settings of their own (no recent events), from compiled bytecode (pip compiles a wheel
at install; PYTHONDONTWRITEBYTECODE, set on some machines, would make every run compile the
sources again), after one untimed warm-up of each; the bare window and the app take turns, so
that what else the machine does weighs on both alike. Each figure is the median of `--runs` (5)
runs, wall-clock; the CPU seconds of the children until then (/proc) are given beside (a
machine busy with other work inflates them far less).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import queue
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # this process's own figures

import platformdirs

APP = """
import sys
from director.cli import main  # as the installed command's script starts the app
sys.exit(main())
"""

EVENT = """
import sys
import time
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QTableView, QTreeView

class TableShown(QObject):
    # the benchmark's watch, not the app's: the first paint of the open event's table with rows
    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.Paint and not self.told:
            view = watched.parent()
            model = view.model()
            if model is not None and model.rowCount() > 0 and on_event_page(view):
                self.told = True
                QTimer.singleShot(0, tell)  # once this paint is flushed to the display
        return False

def on_event_page(widget):
    while widget is not None:  # inside the open event's view (not the start page's)
        if type(widget).__name__ == "EventView":
            return True
        widget = widget.parentWidget()
    return False

def tell():
    print(f"table shown {time.perf_counter()!r}", flush=True)  # the same clock as the bench's

shown = TableShown()
shown.told = False
watched = []

def watching(real):
    # every table and tree gets the watch on its viewport as it gets its model: the event's
    # first page may be painted before the event loop runs (while its database opens)
    def set_model(view, model):
        real(view, model)
        if not watched or watched[-1] is not view:
            watched.append(view)
            view.viewport().installEventFilter(shown)
    return set_model

QTableView.setModel = watching(QTableView.setModel)
QTreeView.setModel = watching(QTreeView.setModel)
real_exec = QApplication.exec

def exec_checking(app):
    # the app opens a FILE given to it before its event loop: its first page is built by now
    if not any(on_event_page(view) for view in watched):
        print("no table on the event's first page", flush=True)
    return real_exec()  # a static method of Qt's

QApplication.exec = exec_checking
from director.cli import main
sys.exit(main())
"""

BARE = """
import sys
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication(sys.argv)
window = QMainWindow()
window.show()
sys.exit(app.exec())
"""

CACHE = Path(platformdirs.user_cache_dir("tandem-director")) / "bench"
GIVE_UP_S = 60.0


@contextlib.contextmanager
def x_server(given: str | None) -> Iterator[str]:
    """An X display to measure on: the one given, or an Xvfb of our own (a free number chosen
    by the server itself), stopped afterwards."""
    if given:
        yield given
        return
    for tool in ("Xvfb", "xdotool"):
        if not shutil.which(tool):
            raise SystemExit(f"{tool} is missing: `source scripts/xvfb.sh` installs it")
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1366x768x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as answer:
        number = answer.readline().strip()
    if not number:
        server.kill()
        raise SystemExit("Xvfb did not start")
    try:
        yield f":{number}"
    finally:
        server.terminate()
        server.wait()


def installed_env() -> dict[str, str]:
    """An installed app's: its bytecode compiled once and kept (pip and the installer compile
    it), even where the environment says not to write any (PYTHONDONTWRITEBYTECODE, set on
    some CI machines: each run then compiled 0.14 s of bytecode again)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(CACHE / "pycache")
    return env


def child_env(display: str) -> dict[str, str]:
    """The environment of an installed app on a desktop: the xcb platform on `display`,
    bytecode compiled once and kept; settings of its own, fresh each run (no recent events,
    the first page), not the person's."""
    env = installed_env()
    env.pop("WAYLAND_DISPLAY", None)
    env["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="settings-", dir=CACHE)
    env["QT_QPA_PLATFORM"] = "xcb"
    env["DISPLAY"] = display
    return env


def visible(display: str, pid: int) -> bool:
    """Whether the process has a window mapped and viewable, as `xdotool` finds it."""
    found = subprocess.run(
        ["xdotool", "search", "--onlyvisible", "--pid", str(pid)],
        env={**os.environ, "DISPLAY": display},
        capture_output=True,
        check=False,
    )
    return found.returncode == 0 and bool(found.stdout.strip())


class MapWatch:
    """The instants windows are mapped on the display, as the X server tells them (`xev` on the
    root window's substructure): a window's MapNotify is timed as it arrives, where starting an
    `xdotool` every few milliseconds would take 0.2-0.3 s a call on a busy machine and load it
    further. `xdotool search --onlyvisible --pid` then confirms the window is the child's and
    is visible."""

    def __init__(self, display: str) -> None:
        if not shutil.which("xev"):
            raise SystemExit("xev is missing: `source scripts/xvfb.sh` installs it (x11-utils)")
        self.maps: queue.Queue[float] = queue.Queue()
        self.proc = subprocess.Popen(
            ["stdbuf", "-oL", "xev", "-display", display, "-root", "-event", "substructure"],
            stdout=subprocess.PIPE,
            text=True,
        )
        threading.Thread(target=self._read, daemon=True).start()
        time.sleep(0.5)  # xev has selected the root window's events

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.startswith("MapNotify"):
                self.maps.put(time.perf_counter())

    def drain(self) -> None:
        with contextlib.suppress(queue.Empty):
            while True:
                self.maps.get_nowait()

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


def until_visible(display: str, watch: MapWatch, code: str, *args: str) -> tuple[float, float]:
    """Wall seconds from spawning `python -c code` until its window is visible (and, for
    `EVENT`, until the event's table is painted with its rows: its line on the child's stdout
    gives the instant, `time.perf_counter` being the one monotonic clock of the machine), and
    the CPU seconds the child used by then."""
    env = child_env(display)
    watch.drain()
    told: queue.Queue[float] = queue.Queue()
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", code, *args], env=env, stdout=subprocess.PIPE, text=True
    )
    threading.Thread(target=_read_shown, args=(proc, told), daemon=True).start()
    try:
        while True:
            try:
                mapped = watch.maps.get(timeout=0.5)
            except queue.Empty:
                mapped = None
            if proc.poll() is not None:
                raise SystemExit(f"the process ended ({proc.returncode}) before its window showed")
            if time.perf_counter() - start > GIVE_UP_S:
                raise SystemExit(f"no window within {GIVE_UP_S:.0f} s")
            if visible(display, proc.pid):  # mapped and viewable: the map event timed it
                took = (mapped or time.perf_counter()) - start
                break
        if code == EVENT:  # the window maps with the start page while the event opens
            try:
                took = max(took, told.get(timeout=GIVE_UP_S) - start)
            except queue.Empty:
                raise SystemExit(f"no table shown within {GIVE_UP_S:.0f} s") from None
        cpu = cpu_seconds(proc.pid)
    finally:
        end(proc)
        shutil.rmtree(env["XDG_CONFIG_HOME"], ignore_errors=True)
    return took, cpu


def cpu_seconds(pid: int) -> float:
    """The CPU seconds a running process has used so far, all its threads (/proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def end(proc: subprocess.Popen[str]) -> None:
    """SIGTERM, as a logout does: the app closes its event cleanly. Killed, it left the event
    "not closed properly", and every later run opened it with the full integrity check."""
    proc.terminate()
    try:
        proc.wait(timeout=GIVE_UP_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise SystemExit("the app did not close on SIGTERM") from None


def _read_shown(proc: subprocess.Popen[str], told: queue.Queue[float]) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("table shown "):
            told.put(float(line.split()[-1]))
        else:
            print(f"the child said: {line.rstrip()}", flush=True)


def medians(runs: list[tuple[float, float]]) -> tuple[float, float]:
    """The median wall time and the median CPU time, after the warm-up run (dropped)."""
    timed = runs[1:]
    return statistics.median(w for w, _ in timed), statistics.median(c for _, c in timed)


def pair_preview(path: Path) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "director.cli", "pair", str(path), "--preview"],
        check=True,
        stdout=subprocess.DEVNULL,
        env=installed_env(),
    )
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return took, cpu


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
    parser.add_argument("--runs", type=int, default=5, help="timed runs of each (median)")
    parser.add_argument("--display", help="an X display to measure on (default: an Xvfb here)")
    parser.add_argument(
        "--only", default="123", help="the figures to measure, e.g. 12 (3: figure 3 and the rest)"
    )
    args = parser.parse_args()
    CACHE.mkdir(parents=True, exist_ok=True)
    missed: list[str] = []
    path = big_event(args.teams, args.rounds) if set(args.only) & {"2", "3"} else CACHE
    if "1" in args.only or "2" in args.only:
        with x_server(args.display) as display:
            missed += window_figures(display, args, path)
    if "3" in args.only:
        missed += later_figures(args.teams, args.rounds, path)
    print("all within their targets" if not missed else f"OUT OF TARGET: {', '.join(missed)}")
    return 1 if missed else 0


def window_figures(display: str, args: argparse.Namespace, path: Path) -> list[str]:
    """Figures 1 and 2 on `display`, the bare window's runs taken in turns with the app's;
    the names of those out of target."""
    kinds = {"bare": (BARE,)}
    if "1" in args.only:
        kinds["start"] = (APP,)
    if "2" in args.only:
        kinds["event"] = (EVENT, str(path))
    runs: dict[str, list[tuple[float, float]]] = {kind: [] for kind in kinds}
    watch = MapWatch(display)
    try:
        for _ in range(1 + args.runs):  # the first of each is the warm-up
            for kind, command in kinds.items():
                runs[kind].append(until_visible(display, watch, *command))
    finally:
        watch.close()
    bare, bare_cpu = medians(runs["bare"])
    print(
        f"a bare PySide6 QMainWindow, spawn to visible on {display} (xcb): {bare:.3f} s,"
        f" CPU {bare_cpu:.3f} s (median of {args.runs})"
    )
    missed = []
    for kind, name, target in (
        ("start", "1. cold start to the start page's window", 1.5),
        ("event", f"2. open a {args.teams}-team, {args.rounds}-round event to its window", 4.0),
    ):
        if kind not in runs:
            continue
        wall, cpu = medians(runs[kind])
        print(
            f"{name}: {wall:.3f} s, {wall / bare:.2f}x the bare window; CPU {cpu:.3f} s,"
            f" {cpu / bare_cpu:.2f}x (target <= {target}x; median of {args.runs})"
        )
        missed += [name.split(".")[0]] * (wall / bare > target)
    return missed


def later_figures(teams: int, rounds: int, path: Path) -> list[str]:
    """Figure 3 and the standings refresh; the names of those out of target."""
    swiss = big_event(teams, rounds, played=3)
    preview, preview_cpu = medians([pair_preview(swiss) for _ in range(4)])
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
