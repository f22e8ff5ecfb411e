"""Render the app's SVG icons (resources/icons/*.svg) to the PNGs the app draws.

The app shows an icon from its PNG renderings at the sizes it is shown at, each at 1x, 1.5x
and 2x for high-density screens: Qt draws a PNG itself, where an SVG loads the SVG icon
engine and renders the drawing, 10 ms of the start page's first paint
(tests/benchmarks/bench_gui.py, figure 1). The SVGs stay the sources: edit one, then run

    python scripts/render_icons.py            # writes resources/icons/rendered/NAME-SIZE.png
    python scripts/render_icons.py --check    # exit 1 if a rendering is missing or stale

(tests/ui/test_icons.py runs the check).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

from PySide6.QtGui import QImage

ROOT = Path(__file__).resolve().parent.parent
ICONS = ROOT / "resources" / "icons"

# The sizes each icon is shown at (device-independent pixels), by its name's start.
SHOWN_AT = {
    "tandem-director": (16, 22, 24, 32, 48, 64, 72, 128, 256),  # window, about box, start page
    "action-": (40,),  # the start page's big buttons
    "nav-": (22,),  # the event's navigation
}
SCALES = (1, 1.5, 2)


def sizes(name: str) -> list[int]:
    shown = next(s for start, s in SHOWN_AT.items() if name.startswith(start))
    return sorted({round(size * scale) for size in shown for scale in SCALES})


def drawn(svg: Path, sizes: list[int]) -> dict[int, bytes]:
    """The SVG drawn at each size as PNG bytes, as the installer draws the platforms' icon
    files (installer/icons.py: Qt's SVG renderer, the bundled font for the icon's "2")."""
    pngs: dict[int, bytes] = installer_icons().render_pngs(svg, tuple(sizes))
    return pngs


@cache
def installer_icons() -> ModuleType:
    spec = importlib.util.spec_from_file_location("icons", ROOT / "installer" / "icons.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def image(png: bytes | Path) -> QImage:
    loaded = QImage.fromData(png) if isinstance(png, bytes) else QImage(str(png))
    return loaded.convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)


def renderings(icons: Path) -> dict[Path, bytes]:
    """Each rendering's file, with what it should hold."""
    return {
        icons / "rendered" / f"{svg.stem}-{size}.png": png
        for svg in sorted(icons.glob("*.svg"))
        for size, png in drawn(svg, sizes(svg.stem)).items()
    }


def differs(path: Path, png: bytes) -> bool:
    """Whether the file is not that drawing (up to two steps in a colour channel: renderers
    round antialiased edges differently from one Qt release to the next)."""
    have, want = image(path), image(png)
    if have.size() != want.size():
        return True
    a, b = bytes(have.constBits()), bytes(want.constBits())
    return max(abs(x - y) for x, y in zip(a, b, strict=True)) > 2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="check, write nothing")
    parser.add_argument("--icons", type=Path, default=ICONS, help="the icons' folder")
    args = parser.parse_args(argv)
    rendered = args.icons / "rendered"
    wanted = renderings(args.icons)
    if args.check:
        stale = [p for p, png in wanted.items() if not p.exists() or differs(p, png)]
        extra = [p for p in rendered.glob("*.png") if p not in wanted]
        for path in stale + extra:
            print(f"{path.name}: {'stale' if path in stale else 'no source'}")
        if stale or extra:
            print("run python scripts/render_icons.py", file=sys.stderr)
            return 1
        return 0
    rendered.mkdir(exist_ok=True)
    for path in rendered.glob("*.png"):
        if path not in wanted:
            path.unlink()
    for path, png in wanted.items():
        path.write_bytes(png)
    print(f"wrote {len(wanted)} renderings to {rendered}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
