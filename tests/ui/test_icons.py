"""The icons: drawn from PNG renderings of their SVG sources, kept up to date with them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QSize
from PySide6.QtGui import QImage

from director.resources import resource_path
from director.ui.style import app_icon, icon
from tests.installer.helpers import ROOT

SCRIPT = ROOT / "scripts" / "render_icons.py"


def check(icons: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--check", "--icons", str(icons)],
        capture_output=True, text=True, timeout=120, check=False, env=env,
    )  # fmt: skip


def test_every_rendering_is_its_svg_drawn_at_its_size() -> None:
    done = check(resource_path("icons"))
    assert done.returncode == 0, done.stdout + done.stderr


def test_an_svg_changed_without_rendering_it_again_is_found(tmp_path: Path) -> None:
    icons = tmp_path / "icons"
    shutil.copytree(resource_path("icons"), icons)
    svg = icons / "action-new.svg"
    svg.write_text(svg.read_text(encoding="utf-8").replace("#1d5c4a", "#b3261e"), "utf-8")
    (icons / "rendered" / "nav-desk-33.png").unlink()
    (icons / "rendered" / "gone-40.png").write_bytes(b"")
    done = check(icons)
    assert done.returncode == 1
    assert set(done.stdout.split("\n")[:-1]) == {
        "action-new-40.png: stale",
        "action-new-60.png: stale",
        "action-new-80.png: stale",
        "nav-desk-33.png: stale",
        "gone-40.png: no source",
    }


@pytest.mark.parametrize(
    ("name", "shown"), [("tandem-director", 72), ("action-new", 40), ("nav-desk", 22)]
)
def test_an_icon_is_drawn_from_its_renderings(name: str, shown: int) -> None:
    drawn = icon(name)
    assert QSize(shown, shown) in drawn.availableSizes()
    assert QSize(2 * shown, 2 * shown) in drawn.availableSizes()  # a high-density screen
    picture = drawn.pixmap(QSize(shown, shown)).toImage()
    rendering = QImage(str(resource_path("icons", "rendered", f"{name}-{shown}.png")))
    assert picture.convertToFormat(rendering.format()) == rendering


def test_the_app_icon_and_a_missing_one() -> None:
    assert not app_icon().isNull()
    assert icon("no-such-icon").isNull()
