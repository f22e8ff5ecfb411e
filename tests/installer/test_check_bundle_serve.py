"""installer/check_bundle.py's `serve` check, run on the unfrozen app in real subprocesses: it
passes on a complete install and fails when the phones' scripts are missing from the package
(what a frozen bundle without resources/web/ would be)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.installer.helpers import ROOT, load_script

APP = [sys.executable, "-m", "director.cli"]


@pytest.fixture(scope="module")
def simulated_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    event = tmp_path_factory.mktemp("simulated") / "sim.tandem"
    done = subprocess.run(
        [*APP, "simulate", str(event), "--teams", "4", "--rounds", "2"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return event


@pytest.fixture
def simulated(simulated_once: Path, tmp_path: Path) -> Path:
    """A simulated event (built once by the command line), copied for this test."""
    return Path(shutil.copy(simulated_once, tmp_path / "sim.tandem"))


def test_the_bundle_check_sees_the_phones_pages_served(simulated: Path) -> None:
    check_bundle = load_script("check_bundle")
    check_bundle.check_serve(APP, simulated)
    assert any(line.startswith("serve: the phones' pages") for line in check_bundle.passed)


def test_the_bundle_check_fails_without_the_phones_scripts(
    simulated: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "packages" / "director_resources"
    shutil.copytree(ROOT / "resources", package)
    (package / "web" / "nosleep.min.js").unlink()
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "packages"))
    check_bundle = load_script("check_bundle")
    with pytest.raises(check_bundle.Failed, match="nosleep.min.js"):
        check_bundle.check_serve(APP, simulated)
