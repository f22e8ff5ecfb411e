"""The wheel: `pip install .` (not editable) ships resources/ and the migrations, and the app
installed from it reads them from the installed package, not from a source tree.

The wheel is built once from a copy of the repository. It is installed into a fresh venv
without its dependencies; the dependencies come from this test environment through a `.pth`
line (a path only, so this environment's editable install of the app is not seen). The
complete check, a real install with its dependencies running every command and the GUI
smoke test, is scripts/test_wheel.sh (run by .ci/run).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

from tests.installer.helpers import ROOT

SKIP = {".git", ".venv", "build", "dist", "__pycache__", ".mypy_cache", ".ruff_cache"}
SKIP |= {".pytest_cache", ".hypothesis", "tandem_director.egg-info", "out"}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    shutil.copytree(ROOT, source, ignore=lambda _d, names: [n for n in names if n in SKIP])
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(work), str(source)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (built,) = work.glob("tandem_director-*.whl")
    return built


def test_the_wheel_ships_every_resource_file_and_the_migrations(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    resources = ROOT / "resources"
    expected = {
        "director_resources/" + p.relative_to(resources).as_posix()
        for p in resources.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    assert expected - names == set()
    assert "director_resources/fonts/DejaVuSans.ttf" in names
    assert "director_resources/help/rules.md" in names
    for chain in ("migrations", "club_migrations"):  # the event's and the club's
        for path in (ROOT / "director" / "store" / chain).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                assert path.relative_to(ROOT).as_posix() in names


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with only the wheel in it; the dependencies are this environment's."""
    env = tmp_path_factory.mktemp("venv") / "wheel venv"  # a space in the path, too
    venv.create(env, with_pip=False)
    python = env / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    with zipfile.ZipFile(wheel) as whl:
        whl.extractall(purelib)  # a wheel is installed by unpacking it (PEP 427)
    ours = sysconfig.get_path("purelib")
    Path(purelib, "test-dependencies.pth").write_text(ours + "\n", encoding="utf-8")
    return python


def run_installed(python: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["QT_QPA_PLATFORM"] = "offscreen"
    return subprocess.run(
        [str(python), "-m", "director.cli", *args],
        cwd=cwd,  # not the repository: its director/ must not be the one imported
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=300,
        check=False,
    )


def test_the_installed_wheel_reads_its_own_resources_and_prints_a_report(
    installed: Path, tmp_path: Path
) -> None:
    where = subprocess.run(
        [
            str(installed),
            "-c",
            "import director, director.resources as r; "
            "print(director.__file__); print(r.resource_path('help', 'rules.md'))",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    venv_root = installed.parent.parent
    assert all(Path(line).is_relative_to(venv_root) for line in where), where
    done = run_installed(installed, tmp_path, "simulate", "sim.tandem", "--teams", "4",
                         "--rounds", "1", "--seed", "3")  # fmt: skip
    assert done.returncode == 0, done.stderr
    done = run_installed(installed, tmp_path, "report", "standings", "sim.tandem", "-o", "s.pdf")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "s.pdf").read_bytes().startswith(b"%PDF")


def test_the_wheel_script_runs_every_command_the_parser_knows() -> None:
    """scripts/test_wheel.sh refuses a command it did not run, but only at the end of CI:
    a new command without its line there is caught here, in the tests, instead."""
    import argparse
    import re

    from director.cli.command_line import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    script = (ROOT / "scripts" / "test_wheel.sh").read_text(encoding="utf-8")
    ran = set(re.findall(r"^run (\S+)", script, flags=re.M))
    ran |= set(re.search(r"for windowed in ([\w ]+); do", script).group(1).split())  # type: ignore[union-attr]
    assert set(sub.choices) - ran == set()
