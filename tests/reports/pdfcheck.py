"""Reading a report back: its text with pypdf, its pages rendered with pypdfium2."""

from __future__ import annotations

import io
import re

import pypdfium2 as pdfium
from pypdf import PdfReader

A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)


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
