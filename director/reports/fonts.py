"""Fonts for every script a club's names use, and text made ready for reportlab.

DejaVu Sans prints Latin, Greek, Cyrillic and most symbols. Names in other scripts are
printed in the font made for their script: Noto Sans Arabic, Hebrew, Devanagari and Thai,
NanumSquare (Korean: every Hangul syllable in 1.4 MB), Noto Sans SC (Chinese and Japanese: the
10,269 hanzi and kanji of GB 2312, Big5 level 1 and JIS X 0208, kana and CJK punctuation, cut
to 3.5 MB a weight by scripts/subset_cjk_font.py) and Symbola (emoji) ship in `resources/fonts`
with their licences, each read only when a name needs it. A character a shipped font lacks
(a rare hanzi) is printed in a font of the system that has it, found through fontconfig or the
usual places.

`markup(value)` turns a plain string into Paragraph markup: `&`, `<` and `>` escaped, each run
of characters in the font that can print it (`<font face=...>`), right-to-left runs
(Arabic, Hebrew) put into display order with the Unicode bidirectional algorithm (python-bidi)
while each word keeps its logical order, so that reportlab's shaping (HarfBuzz) joins its
letters and lays it right to left. `unprintable(value)` names the characters no available font
has, so a team import can warn before anything is printed.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
import sys
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from director.domain.wording import right_to_left
from director.reports import shaping
from director.resources import resource_path

FONT = "DejaVuSans"
FONT_BOLD = "DejaVuSans-Bold"
FONT_MONO = "DejaVuSansMono"


@dataclass(frozen=True)
class ScriptFont:
    """A shipped font for one script: the blocks it is chosen for, before DejaVu."""

    name: str
    regular: str
    bold: str
    blocks: tuple[tuple[int, int], ...]


SCRIPT_FONTS = (
    ScriptFont(
        "NotoSansArabic",
        "NotoSansArabic-Regular.ttf",
        "NotoSansArabic-Bold.ttf",
        ((0x0600, 0x06FF), (0x0750, 0x077F), (0x08A0, 0x08FF), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF)),
    ),
    ScriptFont(
        "NotoSansHebrew",
        "NotoSansHebrew-Regular.ttf",
        "NotoSansHebrew-Bold.ttf",
        ((0x0590, 0x05FF), (0xFB1D, 0xFB4F)),
    ),
    ScriptFont(
        "NotoSansDevanagari",
        "NotoSansDevanagari-Regular.ttf",
        "NotoSansDevanagari-Bold.ttf",
        ((0x0900, 0x097F), (0xA8E0, 0xA8FF), (0x1CD0, 0x1CFF)),
    ),
    ScriptFont(
        "NotoSansThai", "NotoSansThai-Regular.ttf", "NotoSansThai-Bold.ttf", ((0x0E00, 0x0E7F),)
    ),
    ScriptFont(  # Korean: every modern Hangul syllable and the jamo, in 1.4 MB
        "NanumSquare",
        "NanumSquareR.ttf",
        "NanumSquareB.ttf",
        ((0x1100, 0x11FF), (0x3130, 0x318F), (0xA960, 0xA97F), (0xAC00, 0xD7AF), (0xD7B0, 0xD7FF)),
    ),
    ScriptFont(  # Chinese and Japanese: the hanzi and kanji names use, kana, CJK punctuation
        "NotoSansSC",
        "NotoSansSC-Regular.ttf",
        "NotoSansSC-Bold.ttf",
        ((0x3000, 0x30FF), (0x31F0, 0x31FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xFF00, 0xFFEF)),
    ),
)
EMOJI_FONT = "Symbola"  # monochrome: a PDF font cannot hold colour emoji
SYSTEM_FONT = "SystemCJK"

# TrueType-outline fonts with Chinese, Japanese or Korean that systems commonly have
# (reportlab cannot embed the CFF-outline .otf/.ttc of Noto Sans CJK or Source Han).
KNOWN_SYSTEM_FONTS = (
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/truetype/nanum/NanumGothic.ttf",
    "/usr/share/fonts/truetype/unfonts-core/UnDotum.ttf",
    "/usr/share/fonts/truetype/takao-gothic/TakaoPGothic.ttf",
    "/usr/share/fonts/truetype/fonts-japanese-gothic.ttf",
    "C:/Windows/Fonts/msyh.ttc",
    "C:/Windows/Fonts/simsun.ttc",
    "C:/Windows/Fonts/malgun.ttf",
    "C:/Windows/Fonts/msgothic.ttc",
    "/Library/Fonts/Arial Unicode.ttf",
    "/System/Library/Fonts/Supplemental/Arial Unicode.ttf",
    "/System/Library/Fonts/AppleSDGothicNeo.ttc",
)
FONTCONFIG_LANGS = ("zh-cn", "zh-tw", "ja", "ko")

RTL = frozenset({"R", "AL"})  # bidirectional classes of right-to-left letters
ISOLATES = dict.fromkeys(range(0x2066, 0x206A))  # LRI, RLI, FSI, PDI: dropped once ordered


@functools.cache
def register_fonts() -> None:
    """Register the shipped fonts once per process (each PDF embeds a subset of what it uses)."""
    shaping.install()
    for name, file in ((FONT, "DejaVuSans.ttf"), (FONT_BOLD, "DejaVuSans-Bold.ttf"),
                       (FONT_MONO, "DejaVuSansMono.ttf")):  # fmt: skip
        pdfmetrics.registerFont(TTFont(name, str(resource_path("fonts", file))))
    # <b> inside a Paragraph picks the bold face; there is no oblique face shipped
    pdfmetrics.registerFontFamily(
        FONT, normal=FONT, bold=FONT_BOLD, italic=FONT, boldItalic=FONT_BOLD
    )
    # the other scripts' fonts are read when a name first needs them (`_script_font`)


@functools.cache
def _script_font(script: ScriptFont) -> str:
    """Register one script's shipped font (regular and bold) the first time a name needs it:
    a report of Latin names reads none of these files."""
    bold = f"{script.name}-Bold"
    pdfmetrics.registerFont(TTFont(script.name, str(resource_path("fonts", script.regular))))
    pdfmetrics.registerFont(TTFont(bold, str(resource_path("fonts", script.bold))))
    pdfmetrics.registerFontFamily(
        script.name, normal=script.name, bold=bold, italic=script.name, boldItalic=bold
    )
    return script.name


@functools.cache
def _emoji_font() -> str:
    _register_single(EMOJI_FONT, str(resource_path("fonts", "Symbola.ttf")))
    return EMOJI_FONT


def _register_single(name: str, path: str, index: int = 0) -> None:
    pdfmetrics.registerFont(TTFont(name, path, subfontIndex=index))
    pdfmetrics.registerFontFamily(name, normal=name, bold=name, italic=name, boldItalic=name)


def _covered(name: str) -> dict[int, int]:
    return pdfmetrics.getFont(name).face.charToGlyph  # type: ignore[no-any-return]


def _fontconfig_files() -> Iterator[str]:
    if sys.platform == "win32" or shutil.which("fc-list") is None:
        return
    for lang in FONTCONFIG_LANGS:
        try:
            found = subprocess.run(
                ["fc-list", "--format", "%{file}\n", f":lang={lang}"],
                capture_output=True, text=True, timeout=10, check=False,
            ).stdout  # fmt: skip
        except (OSError, subprocess.SubprocessError):
            return
        yield from sorted(line for line in found.splitlines() if line.endswith((".ttf", ".ttc")))


@functools.cache
def system_fonts() -> tuple[str, ...]:
    """The system's CJK fonts reportlab can embed, registered as SystemCJK, SystemCJK-2…"""
    register_fonts()
    names: list[str] = []
    seen: set[str] = set()
    for path in (*KNOWN_SYSTEM_FONTS, *_fontconfig_files()):
        if path in seen or not Path(path).is_file():
            continue
        seen.add(path)
        name = SYSTEM_FONT if not names else f"{SYSTEM_FONT}-{len(names) + 1}"
        try:
            _register_single(name, path)
        except (TTFError, OSError, ValueError, KeyError, AssertionError):
            continue  # CFF outlines, a damaged file: not a font reportlab can embed
        names.append(name)
        if len(names) == 4:  # enough to cover Chinese, Japanese and Korean
            break
    return tuple(names)


@functools.cache
def font_for(char: str) -> str | None:
    """The font that prints `char`: its script's, else DejaVu, emoji, the system's; or None."""
    register_fonts()
    code = ord(char)
    for script in SCRIPT_FONTS:
        if any(lo <= code <= hi for lo, hi in script.blocks):
            if code in _covered(_script_font(script)):
                return script.name
            break  # a character the shipped font lacks (a rare hanzi): another font may have it
    if code in _covered(FONT):
        return FONT
    if code in _covered(_emoji_font()):
        return EMOJI_FONT
    for name in system_fonts():
        if code in _covered(name):
            return name
    return None


def _invisible(char: str) -> bool:
    """Marks, joiners and variation selectors print with the character before them."""
    return unicodedata.category(char) in ("Mn", "Me", "Cf") or char.isspace()


def unprintable(value: str) -> str:
    """The characters of `value` that no available font prints, each once, in order."""
    out: list[str] = []
    for char in value:
        if not _invisible(char) and char not in out and font_for(char) is None:
            out.append(char)
    return "".join(out)


def display_order(value: str) -> str:
    """Words in display order for a right-to-left run, each word's letters still logical.

    python-bidi gives the whole visual order; HarfBuzz reverses a right-to-left word itself
    while it joins its letters, so each run of right-to-left letters is turned back.
    """
    if not right_to_left(value):
        return value.translate(ISOLATES)
    from bidi import get_display  # only for right-to-left text

    visual = get_display(value)
    out: list[str] = []
    # a name isolated in its line (`wording.isolated`) has been ordered apart from the
    # words around it; the isolate marks themselves print nothing
    visual = visual.translate(ISOLATES)
    run: list[str] = []
    for char in visual:
        if unicodedata.bidirectional(char) in (*RTL, "NSM"):
            run.append(char)
            continue
        out += reversed(run)
        run = []
        out.append(char)
    out += reversed(run)
    return "".join(out)


@functools.lru_cache(maxsize=65536)
def markup(value: str) -> str:
    """Paragraph markup printing `value` literally, each run in a font that has it."""
    if value.isascii():
        return escape(value)
    text = display_order(value)
    parts: list[str] = []
    current, run = FONT, ""
    for char in text:
        font = current if _invisible(char) else (font_for(char) or FONT)
        if font != current and run:
            parts.append(_run(run, current))
            run = ""
        current = font
        run += char
    parts.append(_run(run, current))
    return "".join(parts)


def _run(run: str, font: str) -> str:
    if font == FONT:
        return escape(run)
    return f'<font face="{font}">{escape(run)}</font>'


def needs_shaping(markup_: str) -> bool:
    """Markup holding another script's run: reportlab must shape it (slower, so only then)."""
    return '<font face="' in markup_
