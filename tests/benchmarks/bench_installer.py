"""Installer figures: the frozen bundle's size and start times next to the unfrozen app's.

Run: python tests/benchmarks/bench_installer.py [--build]
Uses dist/tandem-director (built with installer/build.py when missing, or always with --build,
and then the build time is printed too). Start times are the median of several runs after one
warm-up: `--version` (interpreter and imports), the GUI's start (until the QApplication exists
and the smoke test prints its first line) and the whole `--smoke-test` (a small event opened,
every page and report). Targets: --version < 1 s, GUI start < 2 s, bundle < 300 MiB.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "dist" / "tandem-director"
FROZEN_EXE = APP / (
    "tandem-director-cli.exe" if platform.system() == "Windows" else "tandem-director"
)
SOURCE = [sys.executable, "-m", "director.cli"]
RUNS = 5
GUI_RUNS = 3
ENV = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}


def median_time(command: Sequence[str], runs: int) -> float:
    subprocess.run(command, check=True, capture_output=True, env=ENV)  # warm the file cache
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, env=ENV)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def gui_times(command: Sequence[str], folder: Path) -> tuple[float, float]:
    """(seconds until the GUI is up, seconds for the whole smoke test), medians."""
    ups, totals = [], []
    for run in range(GUI_RUNS + 1):
        start = time.perf_counter()
        smoke = [*command, "--smoke-test", str(folder / str(run))]
        process = subprocess.Popen(smoke, stdout=subprocess.PIPE, text=True, env=ENV)
        assert process.stdout is not None
        first = process.stdout.readline()
        up = time.perf_counter() - start
        rest = process.stdout.read()
        if process.wait() != 0 or "Qt platform" not in first:
            raise SystemExit(f"--smoke-test failed:\n{first}{rest}")
        if run:  # the first run warms the file cache
            ups.append(up)
            totals.append(time.perf_counter() - start)
    return statistics.median(ups), statistics.median(totals)


def size_of(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def main() -> None:
    parser = argparse.ArgumentParser(description="installer figures")
    parser.add_argument("--build", action="store_true", help="rebuild the bundle first")
    args, _ = parser.parse_known_args()  # bench.sh passes its arguments to every benchmark
    if args.build or not FROZEN_EXE.is_file():
        start = time.perf_counter()
        build = [sys.executable, str(ROOT / "installer" / "build.py")]
        subprocess.run(build, check=True, capture_output=True)
        took = time.perf_counter() - start
        print(f"build (installer/build.py, {os.cpu_count()} cores): {took:.0f} s")
    files = [p for p in APP.rglob("*") if p.is_file()]
    print(f"bundle: {size_of(APP) / 2**20:.1f} MiB in {len(files)} files ({APP})")
    internal = APP / "_internal"
    if internal.is_dir():
        parts = [internal / "PySide6" / "Qt" / "lib", internal / "PySide6" / "Qt" / "plugins"]
        parts += [p for p in internal.iterdir() if p.name != "PySide6" and not p.is_symlink()]
        biggest = sorted(parts, key=size_of, reverse=True)[:6]
        shown = ", ".join(f"{p.relative_to(internal)} {size_of(p) / 2**20:.0f}" for p in biggest)
        print(f"  largest parts (MiB): {shown}")

    frozen_version = median_time([str(FROZEN_EXE), "--version"], RUNS)
    source_version = median_time([*SOURCE, "--version"], RUNS)
    print(f"--version start: frozen {frozen_version:.3f} s, unfrozen {source_version:.3f} s")
    frozen_met = median_time([str(FROZEN_EXE), "met", "--json"], RUNS)
    source_met = median_time([*SOURCE, "met", "--json"], RUNS)
    print(f"met --json: frozen {frozen_met:.3f} s, unfrozen {source_met:.3f} s")
    with tempfile.TemporaryDirectory(prefix="bench-installer-") as folder:
        f_up, f_total = gui_times([str(FROZEN_EXE)], Path(folder) / "frozen")
        s_up, s_total = gui_times(SOURCE, Path(folder) / "source")
    print(f"GUI start (QApplication up): frozen {f_up:.3f} s, unfrozen {s_up:.3f} s")
    print(
        f"GUI smoke test (event, pages, reports): frozen {f_total:.2f} s, unfrozen {s_total:.2f} s"
    )


if __name__ == "__main__":
    main()
