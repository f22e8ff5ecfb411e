"""Reading a report back: its text with pypdf, its pages rendered with pypdfium2."""

from __future__ import annotations

import io
import re
import struct
from typing import Any

import pypdfium2 as pdfium
from pypdf import PdfReader
from pypdf.generic import ContentStream

A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)
A3 = (841.89, 1190.55)


def reader(data: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(data))


def page_texts(data: bytes) -> list[str]:
    return [page.extract_text() for page in reader(data).pages]


def flat(text: str) -> str:
    """Whitespace (line breaks inside wrapped paragraphs included) as single spaces."""
    return re.sub(r"\s+", " ", text)


def pdf_text(data: bytes) -> str:
    return flat(" ".join(page_texts(data)))


def page_sizes(data: bytes) -> list[tuple[float, float]]:
    return [
        (round(float(p.mediabox.width), 2), round(float(p.mediabox.height), 2))
        for p in reader(data).pages
    ]


def ink(data: bytes, page: int = 0) -> float:
    """The share of a rendered page's pixels that are not near-white."""
    document = pdfium.PdfDocument(data)
    try:
        image = document[page].render(scale=0.5).to_pil().convert("L")
    finally:
        document.close()
    histogram = image.histogram()
    return sum(histogram[:200]) / sum(histogram)


def outline_titles(data: bytes) -> list[tuple[str, int]]:
    """Every bookmark, depth-first, with the page number (0-based) it opens."""
    pdf = reader(data)
    out: list[tuple[str, int]] = []

    def walk(items: list[object]) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                out.append((str(item.title), pdf.get_destination_page_number(item)))  # type: ignore[attr-defined]

    walk(pdf.outline)
    return out


def fonts(data: bytes) -> dict[str, bool]:
    """The base font name of every font used (subset prefix removed): is its file embedded?"""
    found: dict[str, bool] = {}
    for page in reader(data).pages:
        resources = page.get("/Resources") or {}
        for font in (resources.get("/Font") or {}).values():
            obj = font.get_object()
            name = str(obj["/BaseFont"]).split("+")[-1].lstrip("/")
            descriptor = obj.get("/FontDescriptor")
            found[name] = descriptor is not None and "/FontFile2" in descriptor.get_object()
    return found


def qr_codes(data: bytes, page: int = 0) -> list[str]:
    """What the QR codes printed on a page say, read from the rendered page (zxing-cpp)."""
    import zxingcpp

    document = pdfium.PdfDocument(data)
    try:
        image = document[page].render(scale=2).to_pil()
    finally:
        document.close()
    return [found.text for found in zxingcpp.read_barcodes(image)]


def _table(font: bytes, tag: bytes) -> bytes:
    """One table of a TrueType font file, found in its table directory."""
    (count,) = struct.unpack(">H", font[4:6])
    for i in range(count):
        entry = font[12 + 16 * i : 28 + 16 * i]
        if entry[:4] == tag:
            offset, length = struct.unpack(">LL", entry[8:16])
            return font[offset : offset + length]
    raise AssertionError(f"the font has no {tag!r} table")


def notdef_drawn(data: bytes) -> dict[str, list[str]]:
    """Font → the text of each character drawn with that font's glyph 0 (.notdef, a box),
    on any page or in any form a page places. reportlab embeds a subset of each font: its
    `cmap` (format 6) gives each code's glyph, its ToUnicode map the code's text; a code
    drawn (a `Tj`/`TJ` string under `Tf`) whose glyph is 0 is a character the font lacked."""
    pdf = reader(data)
    found: dict[str, list[str]] = {}
    for page in pdf.pages:
        _walk(pdf, page.get_contents(), page.get("/Resources"), found)
    return found


def _walk(pdf: PdfReader, content: object, resources: object, found: dict[str, list[str]]) -> None:
    if content is None or resources is None:
        return
    resources = resources.get_object()  # type: ignore[attr-defined]
    fonts_ = resources.get("/Font") or {}
    forms = resources.get("/XObject") or {}
    stream = content if isinstance(content, ContentStream) else ContentStream(content, pdf)
    font = None
    for operands, operator in stream.operations:
        if operator == b"Tf":
            font = fonts_[operands[0]].get_object()
        elif operator in (b"Tj", b"'", b'"', b"TJ") and font is not None:
            strings = operands[-1] if operator == b"TJ" else [operands[-1]]
            # a string operand as written (pypdf decodes it as text: its bytes are codes)
            codes = b"".join(
                getattr(s, "original_bytes", s) for s in strings if isinstance(s, (bytes, str))
            )
            _check(font, codes, found)
        elif operator == b"Do":
            form = forms[operands[0]].get_object()
            if form.get("/Subtype") == "/Form":
                _walk(pdf, ContentStream(form, pdf), form.get("/Resources") or resources, found)


def _check(font: Any, codes: bytes, found: dict[str, list[str]]) -> None:
    descriptor = font.get("/FontDescriptor")
    if descriptor is None or "/FontFile2" not in descriptor.get_object():
        return
    name = str(font["/BaseFont"]).split("+")[-1].lstrip("/")
    glyphs, first, texts = _subset(font)
    for code in codes:
        if glyphs[code - first] == 0:
            box = texts.get(code, f"<{code:02X}>")
            if box not in found.setdefault(name, []):
                found[name].append(box)


def _subset(font: Any) -> tuple[tuple[int, ...], int, dict[int, str]]:
    """An embedded subset font's glyph of each code (from `first`) and each code's text."""
    program = font["/FontDescriptor"].get_object()["/FontFile2"].get_object().get_data()
    cmap = _table(program, b"cmap")
    fmt, _, _, first, count = struct.unpack(">HHHHH", cmap[12:22])
    assert fmt == 6, fmt
    glyphs = struct.unpack(f">{count}H", cmap[22 : 22 + 2 * count])
    return glyphs, first, _to_unicode(font["/ToUnicode"].get_object().get_data())


def _to_unicode(cmap: bytes) -> dict[int, str]:
    """A ToUnicode CMap's `bfchar` pairs: code → text."""
    pairs = re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", cmap.split(b"beginbfchar")[-1])
    return {int(c, 16): bytes.fromhex(t.decode()).decode("utf-16-be") for c, t in pairs}
