"""Two fixes to reportlab's text layer, so a shaped name can be found and copied from a PDF.

reportlab writes each font's ToUnicode map (what a reader extracts) as one UTF-16 unit per
glyph. Two cases lose the name:

- a character outside the Basic Multilingual Plane (an emoji, a rare CJK ideograph) is
  written as `<1F3B2>`, which no reader can decode: it needs a UTF-16 surrogate pair;
- a glyph HarfBuzz made from several characters (a Devanagari conjunct, an Arabic ligature)
  has no code of its own, so reportlab gives it one from the Private Use Area, and the text
  layer then holds that private character instead of the letters.

`install()` wraps reportlab's shaping to remember which characters each private glyph stands
for (HarfBuzz's clusters say so) and replaces the ToUnicode writer with one that maps every
glyph to its real text, as UTF-16 (surrogates included).
"""

from __future__ import annotations

import functools
from typing import Any

from reportlab.lib.fonts import ps2tt, tt2ps
from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfgen import textobject
from reportlab.platypus import paragraph, paraparser

PRIVATE = range(0xE000, 0xF900)

# (base font name, private code) → the text that glyph stands for
_private_text: dict[tuple[str, int], str] = {}


def _face_key(font_name: str) -> str:
    face = pdfmetrics.getFont(font_name).face
    return str((face.name + face.subfontNameX).decode("pdfdoc"))


def _remember(word: Any, shaped: Any) -> None:
    """Record the source characters of every private-use glyph in one shaped word."""
    source = "".join(s for _, s in word[1:] if isinstance(s, str))
    glyphs = [(f, s) for f, s in shaped[1:] if hasattr(s, "__shapeData__")]
    clusters = sorted({d.cluster for _, s in glyphs for d in s.__shapeData__})
    ends = dict(zip(clusters, [*clusters[1:], len(source)], strict=True))
    by_cluster: dict[int, list[str]] = {}
    for _, text in glyphs:
        for char, data in zip(text, text.__shapeData__, strict=False):
            by_cluster.setdefault(data.cluster, []).append(char)
    for frag, text in glyphs:
        for char, data in zip(text, text.__shapeData__, strict=False):
            key = (_face_key(frag.fontName), ord(char))
            if ord(char) not in PRIVATE or key in _private_text:
                continue
            # the cluster's characters that its other glyphs do not already stand for, given
            # to its first private glyph (a conjunct's reph, an i-matra drawn before)
            rest = list(source[data.cluster : ends.get(data.cluster, len(source))])
            for other in by_cluster[data.cluster]:
                if ord(other) not in PRIVATE and other in rest:
                    rest.remove(other)
            _private_text[key] = "".join(rest)
            by_cluster[data.cluster] = [c for c in by_cluster[data.cluster] if c != char]
            for other in by_cluster[data.cluster]:
                if ord(other) in PRIVATE:
                    _private_text.setdefault((key[0], ord(other)), "")


def _font_runs(word: Any) -> list[list[Any]]:
    """A word's fragments in runs of one font each (a cbDefn mark joins the run it is in)."""
    runs: list[list[Any]] = []
    font = None
    for frag, text in word[1:]:
        name = None if hasattr(frag, "cbDefn") else frag.fontName
        if not runs or (name is not None and font is not None and name != font):
            runs.append([])
        runs[-1].append((frag, text))
        font = name or font
    return runs


def _shape_by_font(shape: Any, word: Any, *args: Any, **kwargs: Any) -> Any:
    """Shape each run of one font by itself, and join the pieces into one word.

    reportlab shapes a whole word with the font of its first fragment, and a word is what
    stands between spaces: "1&nbsp;&nbsp;王伟" (a board and its player) or "(فريق)" was shaped
    with DejaVu, whose glyph numbers were then read in the other run's font: 王 became a box,
    and an Arabic letter a glyph number beyond Noto Sans Arabic's last, which crashed the
    subsetting. `markup` gives each script's run its font; here each run gets its own shaping.
    """
    runs = _font_runs(word)
    if len(runs) <= 1:
        return shape(word, *args, **kwargs)
    pieces: list[Any] = []
    width, changed = 0.0, False
    for run in runs:
        sub = word.__class__([_width(run), *run])
        shaped = shape(sub, *args, **kwargs)
        changed = changed or shaped is not sub
        width += shaped[0]
        pieces += shaped[1:]
    if not changed:
        return word
    return ttfonts.makeShapedFragWord(word)([width, *pieces])


def _width(run: list[Any]) -> float:
    return float(
        sum(
            pdfmetrics.stringWidth(text, frag.fontName, frag.fontSize)
            for frag, text in run
            if not hasattr(frag, "cbDefn")
        )
    )


# scripts whose shaped glyphs are drawn in another order than their letters are typed: a
# Devanagari reph (र् of शर्मा) is drawn after the consonant it sits on, an i-matra before
REORDERED = ((0x0900, 0x097F), (0xA8E0, 0xA8FF), (0x1CD0, 0x1CFF))


def _reordered(text: str) -> bool:
    return any(lo <= ord(c) <= hi for c in text for lo, hi in REORDERED)


def _mark_actual_text(word: Any, shaped: Any) -> None:
    """Give each shaped piece of a reordering script its letters in typed order, for the
    PDF's /ActualText (readers that honour it, PDFium and Acrobat among them, then copy and
    search "शर्मा" rather than the glyph order "शमार्"). The mark rides on the piece's first
    glyph, which stays with it when reportlab joins the words of a line."""
    sources = [t for _, t in word[1:]]
    pieces = [t for _, t in shaped[1:]]
    if len(sources) != len(pieces):
        return
    for source, piece in zip(sources, pieces, strict=True):
        data = getattr(piece, "__shapeData__", None)
        if isinstance(source, str) and data and _reordered(source):
            data[0].actual_text = (source, len(piece))


def _format_text(original: Any) -> Any:
    """reportlab's text writer, with each marked piece inside `/Span <</ActualText …>> BDC …
    EMC` (the rest written as before, piece by piece, so the glyphs land where they did)."""

    def format_text(self: Any, text: Any) -> str:
        data = getattr(text, "__shapeData__", None)
        if not data or not any(hasattr(d, "actual_text") for d in data):
            return str(original(self, text))
        out: list[str] = []
        done = i = 0
        while i < len(data):
            mark = getattr(data[i], "actual_text", None)
            if mark is None:
                i += 1
                continue
            actual, count = mark
            while i + count < len(data) and text[i + count] == " ":  # the word's own space:
                actual, count = actual + " ", count + 1  # outside the span, PDFium drops it
            if i > done:
                out.append(original(self, text[done:i]))
            out.append(f"/Span <</ActualText <FEFF{_utf16(actual)}>>> BDC")
            out.append(original(self, text[i : i + count]))
            out.append("EMC")
            done = i = i + count
        if done < len(data):
            out.append(original(self, text[done:]))
        return " ".join(out)

    return format_text


def _utf16(text: str) -> str:
    return text.encode("utf-16-be").hex().upper() if text else "FEFF"


def _to_unicode_cmap(fontname: str, subset: list[int]) -> str:
    face = fontname.split("+", 1)[-1]
    pairs = []
    for i, code in enumerate(subset):
        text = _private_text.get((face, code), chr(code))
        pairs.append(f"<{i:02X}> <{_utf16(text)}>")
    return "\n".join(
        [
            "/CIDInit /ProcSet findresource begin",
            "12 dict begin",
            "begincmap",
            "/CIDSystemInfo",
            f"<< /Registry ({fontname})",
            f"/Ordering ({fontname})",
            "/Supplement 0",
            ">> def",
            f"/CMapName /{fontname} def",
            "/CMapType 2 def",
            "1 begincodespacerange",
            f"<00> <{len(subset) - 1:02X}>",
            "endcodespacerange",
            f"{len(subset)} beginbfchar",
            *pairs,
            "endbfchar",
            "endcmap",
            "CMapName currentdict /CMap defineresource pop",
            "end",
            "end",
        ]
    )


def _start_font(self: Any, attr: Any) -> None:
    """`<font face=…>` keeping the weight it stands in when the face is a family's regular
    member: `fonts.markup` gives each script's run its family's regular face, so "<b>فريق</b>",
    a bold style's Chinese name or the header's event name print bold. (reportlab's own
    start_font sets the face's weight, regular, whatever encloses it.)"""
    found = self.getAttributes(attr, paraparser._spanAttrMap)
    if "fontName" in found:
        name = found["fontName"]
        family, bold, italic = ps2tt(name)
        found["fontName"] = family
        if not _regular_of_a_family(family, name):
            found["bold"], found["italic"] = bold, italic
    self._push("font", **found)


def _regular_of_a_family(family: str, name: str) -> bool:
    try:
        return bool(
            tt2ps(family, 0, 0).lower() == name.lower()
            and all(tt2ps(family, b, i) for b, i in ((1, 0), (0, 1), (1, 1)))
        )
    except ValueError:  # a face registered alone: it has no other weight
        return False


@functools.cache
def install() -> None:
    # Noto's discretionary ligatures add vowel marks nobody typed (ﷴ for محمد): a name prints
    # letter for letter, with kerning and the required ligatures only.
    ttfonts.shapeFragWord.__defaults__[0]["dlig"] = False
    original = paragraph.shapeFragWord

    def shape(word: Any, *args: Any, **kwargs: Any) -> Any:
        shaped = original(word, *args, **kwargs)
        if shaped is not word:
            _remember(word, shaped)
            _mark_actual_text(word, shaped)
        return shaped

    paragraph.shapeFragWord = functools.partial(_shape_by_font, shape)
    paraparser.ParaParser.start_font = _start_font
    textobject.PDFTextObject._formatText = _format_text(textobject.PDFTextObject._formatText)
    ttfonts.makeToUnicodeCMap = _to_unicode_cmap
