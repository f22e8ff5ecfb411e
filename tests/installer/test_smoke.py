"""director/ui/smoke.py, the built app's self-test, run here on the unfrozen app in a real
subprocess (scripts/smoke_frozen.sh runs the same flag in the frozen bundle)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from director.services.reports import KINDS
from tests.installer.helpers import ROOT


def smoke(*args: str, pythonpath: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    return subprocess.run(
        [sys.executable, "-m", "director.cli", "--smoke-test", *args],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def test_the_smoke_test_opens_an_event_renders_every_report_and_quits(tmp_path: Path) -> None:
    done = smoke(str(tmp_path / "out"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "PROBLEM" not in done.stderr
    assert done.stdout.splitlines()[-1].startswith("smoke: ok in ")
    for kind in KINDS:
        pdf = tmp_path / "out" / f"{kind}.pdf"
        assert pdf.read_bytes().startswith(b"%PDF"), kind
    assert (tmp_path / "out" / "standings.png").stat().st_size > 1000  # drawn back by QtPdf
    assert (tmp_path / "out" / "main-window.png").is_file()
    # the event published to a club and a person's rating chart drawn (QtCharts in the bundle)
    club = [line for line in done.stdout.splitlines() if line.startswith("smoke: club page:")]
    assert len(club) == 1 and club[0].endswith("points (Qt Charts)"), done.stdout
    assert (tmp_path / "out" / "club-page.png").is_file()


def test_a_broken_resource_makes_the_smoke_test_fail(tmp_path: Path) -> None:
    # a build that packaged a damaged icon: the same package name the spec ships resources as
    package = tmp_path / "packages" / "director_resources"
    shutil.copytree(ROOT / "resources", package)
    (package / "icons" / "nav-teams.svg").write_text("<svg this is not")
    done = smoke(str(tmp_path / "out"), pythonpath=tmp_path / "packages")
    assert done.returncode == 1
    assert "smoke: PROBLEM: the icon nav-teams.svg does not draw" in done.stderr
    assert str(package) in done.stdout  # it read the packaged resources, not the source tree
    assert "FAILED" in done.stdout.splitlines()[-1]


def test_the_smoke_test_needs_one_folder(tmp_path: Path) -> None:
    done = smoke()
    assert done.returncode == 2
    assert done.stderr == "tandem-director: --smoke-test needs one folder for its files\n"
