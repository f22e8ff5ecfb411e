"""The icons: drawn from PNG renderings of their SVG sources, kept up to date with them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QSize
from PySide6.QtGui import QColor, QImage

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
    assert same_drawing(picture, rendering(name, shown))


# Qt hands the pixmap back premultiplied; turning it back into the PNG's straight alpha rounds
# semi-transparent edge pixels by a step (PySide6 6.11.3: 11 pixels of action-new at 40 px).
# Both are compared premultiplied, each channel of each pixel within TOLERANCE steps, as
# scripts/render_icons.py --check compares a rendering with its SVG.
TOLERANCE = 2


def rendering(name: str, size: int) -> QImage:
    return QImage(str(resource_path("icons", "rendered", f"{name}-{size}.png")))


def same_drawing(picture: QImage, want: QImage) -> bool:
    """Whether two images are one drawing: the same size, every channel of every pixel within
    TOLERANCE steps once both are premultiplied."""
    if picture.size() != want.size():
        return False
    premultiplied = QImage.Format.Format_ARGB32_Premultiplied
    have, wanted = picture.convertToFormat(premultiplied), want.convertToFormat(premultiplied)
    a, b = bytes(have.constBits()), bytes(wanted.constBits())  # the images outlive their bits
    return max(abs(x - y) for x, y in zip(a, b, strict=True)) <= TOLERANCE


def test_a_wrong_icon_is_not_taken_for_the_rendering() -> None:
    """The tolerance forgives rounding, not a different drawing: another icon, an empty one,
    a recoloured one or one of another size all differ."""
    want = rendering("action-new", 40)
    assert same_drawing(want, want)
    assert not same_drawing(rendering("action-open", 40), want)
    blank = QImage(want.size(), QImage.Format.Format_ARGB32)
    blank.fill(0)
    assert not same_drawing(blank, want)
    recoloured = want.convertToFormat(QImage.Format.Format_ARGB32)
    recoloured.invertPixels()  # colour channels only: the alpha coverage stays the same
    assert not same_drawing(recoloured, want)
    assert not same_drawing(rendering("action-new", 60), want)
    one_pixel = want.convertToFormat(QImage.Format.Format_ARGB32)
    x, y = next(
        (x, y) for y in range(40) for x in range(40) if want.pixelColor(x, y).alpha() == 255
    )
    one_pixel.setPixelColor(x, y, QColor(255, 0, 255))
    assert not same_drawing(one_pixel, want)


def test_the_app_icon_and_a_missing_one() -> None:
    assert not app_icon().isNull()
    assert icon("no-such-icon").isNull()
