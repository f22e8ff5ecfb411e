"""installer/icons.py: the PNG, ICO and ICNS files drawn from the app's SVG icon."""

from __future__ import annotations

import struct
from pathlib import Path

from PySide6.QtGui import QImage
from pytestqt.qtbot import QtBot

from tests.installer.helpers import load_script

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
icons = load_script("icons")


def png_size(data: bytes) -> tuple[int, int]:
    assert data.startswith(PNG_SIGNATURE)
    width, height = struct.unpack(">II", data[16:24])  # the IHDR chunk comes first
    return width, height


def test_every_png_size_is_drawn_square_and_not_blank(icon_dir: Path, qtbot: QtBot) -> None:
    for size in icons.PNG_SIZES:
        image = QImage(str(icon_dir / f"tandem-director-{size}.png"))
        assert (image.width(), image.height()) == (size, size)
        # the board's green fills the middle, the corners are transparent (rounded square)
        assert image.pixelColor(size // 2, size - size // 8).alpha() == 255
        assert image.pixelColor(0, 0).alpha() == 0


def test_the_ico_holds_each_windows_size_as_png(icon_dir: Path) -> None:
    data = (icon_dir / "tandem-director.ico").read_bytes()
    reserved, kind, count = struct.unpack("<HHH", data[:6])
    assert (reserved, kind, count) == (0, 1, len(icons.ICO_SIZES))
    sizes = []
    for i in range(count):
        w, h, _colours, _r, planes, bits, length, offset = struct.unpack(
            "<BBBBHHII", data[6 + 16 * i : 22 + 16 * i]
        )
        image = data[offset : offset + length]
        assert png_size(image) == ((w or 256), (h or 256))
        assert (planes, bits) == (1, 32)
        sizes.append(w or 256)
    assert sizes == sorted(icons.ICO_SIZES)
    assert offset + length == len(data)


def test_the_icns_entries_are_pngs_of_the_size_their_type_says(icon_dir: Path) -> None:
    data = (icon_dir / "tandem-director.icns").read_bytes()
    assert data[:4] == b"icns"
    assert struct.unpack(">I", data[4:8])[0] == len(data)
    expected = {kind: size for kind, size in icons.ICNS_TYPES}
    pos, seen = 8, {}
    while pos < len(data):
        kind, length = data[pos : pos + 4], struct.unpack(">I", data[pos + 4 : pos + 8])[0]
        seen[kind] = png_size(data[pos + 8 : pos + length])
        pos += length
    # "ic11" is 16 pt at 2x: 32 pixels, so the pixel size is what the table gives
    assert seen == {kind: (size, size) for kind, size in expected.items()}
