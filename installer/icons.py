"""Draw the app icon files the platforms want from resources/icons/tandem-director.svg.

`python installer/icons.py OUTDIR` writes PNGs (16 to 1024 pixels, for Linux icon themes),
`tandem-director.ico` (Windows: the .exe, the installer and the `.tandem` file icon) and
`tandem-director.icns` (macOS). Qt draws the SVG; the ICO and ICNS containers are written here
because both are a short header around PNG images and Qt's writers make only one size each.
The icon's "2" is drawn with the bundled DejaVu font, so every build draws the same pixels.
"""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SVG = ROOT / "resources" / "icons" / "tandem-director.svg"
FONT = ROOT / "resources" / "fonts" / "DejaVuSans-Bold.ttf"
NAME = "tandem-director"
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512, 1024)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# ICNS entry types by the pixel size of their PNG (Apple's "icns" format, types since 10.7)
ICNS_TYPES = (
    (b"icp4", 16),
    (b"icp5", 32),
    (b"icp6", 64),
    (b"ic07", 128),
    (b"ic08", 256),
    (b"ic09", 512),
    (b"ic10", 1024),
    (b"ic11", 32),
    (b"ic12", 64),
    (b"ic13", 256),
    (b"ic14", 512),
)


def render_pngs(svg: Path, sizes: tuple[int, ...]) -> dict[int, bytes]:
    """The SVG drawn at each size, as PNG bytes."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QFontDatabase, QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    app = QGuiApplication.instance() or QGuiApplication([])
    if QFontDatabase.addApplicationFont(str(FONT)) < 0:
        raise SystemExit(f"icons: cannot load the font {FONT}")
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"icons: {svg} is not a valid SVG")
    out: dict[int, bytes] = {}
    for size in sizes:
        image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        renderer.render(painter)
        painter.end()
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        if not image.save(buffer, "PNG"):
            raise SystemExit(f"icons: cannot encode a {size} px PNG")
        out[size] = bytes(data.data())
    del app
    return out


def ico(pngs: dict[int, bytes]) -> bytes:
    """A Windows .ico holding PNG images (Windows Vista and later read PNG entries)."""
    sizes = sorted(pngs)
    header = struct.pack("<HHH", 0, 1, len(sizes))
    offset = len(header) + 16 * len(sizes)
    entries, images = b"", b""
    for size in sizes:
        data = pngs[size]
        side = 0 if size >= 256 else size  # 0 means 256 in the one-byte width/height fields
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(data), offset)
        images += data
        offset += len(data)
    return header + entries + images


def icns(pngs: dict[int, bytes]) -> bytes:
    """A macOS .icns holding PNG images."""
    body = b"".join(
        kind + struct.pack(">I", 8 + len(pngs[size])) + pngs[size] for kind, size in ICNS_TYPES
    )
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def make_icons(outdir: Path, svg: Path = SVG) -> list[Path]:
    """Write every icon file into `outdir`; returns the files written."""
    outdir.mkdir(parents=True, exist_ok=True)
    pngs = render_pngs(svg, PNG_SIZES)
    written = []
    for size, data in pngs.items():
        path = outdir / f"{NAME}-{size}.png"
        path.write_bytes(data)
        written.append(path)
    for path, data in (
        (outdir / f"{NAME}.ico", ico({s: pngs[s] for s in ICO_SIZES})),
        (outdir / f"{NAME}.icns", icns(pngs)),
        (outdir / f"{NAME}.png", pngs[256]),
    ):
        path.write_bytes(data)
        written.append(path)
    return written


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: python installer/icons.py OUTDIR")
    for written in make_icons(Path(sys.argv[1])):
        print(written)
