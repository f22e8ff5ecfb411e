"""Make the Chinese and Japanese name font the app ships: Noto Sans SC cut to what names use.

    pip install fonttools   (only for this script; the app does not need it)
    python scripts/subset_cjk_font.py REGULAR.ttf BOLD.ttf resources/fonts

The sources are Noto Sans SC 2.004 Regular and Bold as TrueType (glyf outlines: reportlab
cannot embed the CFF outlines of the .otf/.ttc builds), from the npm package
`@expo-google-fonts/noto-sans-sc` 0.4.3 (SIL OFL 1.1). Whole, each weight is 10.5 MB; cut to
the characters below, 3.5 MB. Kept: every hanzi of GB 2312 (6,763: simplified Chinese), Big5
level 1 (5,401 common traditional) and JIS X 0208 (6,356 kanji: Japanese), 10,269 in all; the
hiragana and katakana blocks; CJK symbols and punctuation; full-width forms; the space. Rarer
characters still print in a system font when the computer has one (director/reports/fonts.py).
Hinting and OpenType layout features are dropped (names are set horizontally, without them).
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

from fontTools import subset


def _codec_chars(codec: str, lead: range, trail: list[int]) -> set[str]:
    out = set()
    for a in lead:
        for b in trail:
            with contextlib.suppress(UnicodeDecodeError):
                out.add(bytes([a, b]).decode(codec))
    return out


def _han(chars: set[str]) -> set[str]:
    return {c for c in chars if 0x4E00 <= ord(c) <= 0x9FFF or 0x3400 <= ord(c) <= 0x4DBF}


def wanted() -> set[int]:
    gb2312 = _codec_chars("gb2312", range(0xB0, 0xF8), list(range(0xA1, 0xFF)))
    big5_level1 = _codec_chars("big5", range(0xA4, 0xC7), [*range(0x40, 0x7F), *range(0xA1, 0xFF)])
    jis_x_0208 = _codec_chars("euc_jp", range(0xA1, 0xF5), list(range(0xA1, 0xFF)))
    han = _han(gb2312) | _han(big5_level1) | _han(jis_x_0208)
    # a space between two words of a name is set in the font of the word before it
    blocks = [0x20, 0xA0, *range(0x3000, 0x3100), *range(0x31F0, 0x3200), *range(0xFF00, 0xFFF0)]
    return {ord(c) for c in han} | set(blocks)


def main(regular: str, bold: str, folder: str) -> None:
    codes = wanted()
    for weight, source in (("Regular", regular), ("Bold", bold)):
        options = subset.Options()
        options.layout_features = []
        options.hinting = False
        options.name_IDs = ["*"]  # keep the copyright and licence records
        options.notdef_outline = True
        font = subset.load_font(source, options)
        cutter = subset.Subsetter(options)
        cutter.populate(unicodes=sorted(codes))
        cutter.subset(font)
        out = Path(folder) / f"NotoSansSC-{weight}.ttf"
        subset.save_font(font, str(out), options)
        print(f"{out}: {out.stat().st_size:,} bytes, {len(font.getBestCmap()):,} characters")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
