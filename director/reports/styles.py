"""The one place for how a report looks: fonts, type sizes, page templates, tables, escaping.

Every report is a list of platypus flowables built by one document module and laid out here
by `build_pdf`: A4, Letter or A3, portrait or landscape pages, the event name and date at the top
of every page, the page number ("page 3 of 12") and the generation time at the foot.

Names are people's own spelling: every piece of text that goes into a Paragraph passes
through `esc`, so `&`, `<` and `>` print literally instead of being read as markup, and each
script prints in a font that has it, shaped and in right-to-left order where it must be
(`fonts.markup`).
"""

from __future__ import annotations

import functools
import io
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_RIGHT
from reportlab.lib.pagesizes import A3, A4, LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    KeepTogether,
    PageTemplate,
    Paragraph,
    Table,
)

from director import __version__
from director.domain.rules import Paper
from director.domain.wording import right_to_left
from director.reports import fonts
from director.reports.fonts import markup, needs_shaping, register_fonts

FONT, FONT_BOLD = fonts.FONT, fonts.FONT_BOLD

Story = list[Flowable]  # what a document module returns: flowables for `build_pdf`

MARGIN = 14 * mm
HEADER = 13 * mm  # the band above the frame holding the event name and the document title
FOOTER = 11 * mm
PORTRAIT, LANDSCAPE = "portrait", "landscape"

INK = colors.black
GREY = colors.HexColor("#666666")
HINT = colors.HexColor("#9a9a9a")  # pre-printed choices on a blank sheet, to be circled
RULE = colors.HexColor("#808080")
SHADE = colors.HexColor("#e6e6e6")  # table headers
ZEBRA = colors.HexColor("#f4f4f4")
ALERT = colors.HexColor("#b00020")

HEAD_SIZE = 7.5  # table headings

# reportlab's own fixed timestamp in invariant mode, so a test's two builds print the same time
INVARIANT_TIME = datetime(2000, 1, 1)


def esc(value: object) -> str:
    """Text for a Paragraph: `&`, `<` and `>` print as themselves, never as markup; each
    script in a font that has it."""
    return markup(str(value))


def _style(name: str, size: float, *, bold: bool = False, **kw: Any) -> ParagraphStyle:
    kw.setdefault("leading", size * 1.22)
    return ParagraphStyle(name, fontName=FONT_BOLD if bold else FONT, fontSize=size, **kw)


STYLES: dict[str, ParagraphStyle] = {
    "title": _style("title", 17, bold=True, spaceAfter=3 * mm),
    "h2": _style("h2", 12.5, bold=True, spaceBefore=3 * mm, spaceAfter=1.5 * mm),
    "body": _style("body", 9.5, spaceAfter=1 * mm),
    "small": _style("small", 8, textColor=GREY, spaceAfter=0.8 * mm),
    "note": _style("note", 8.5, spaceAfter=0.8 * mm),
    "rules": _style("rules", 7.2, spaceAfter=0.4 * mm, leading=8.6),
    "legend": _style("legend", 6.8, textColor=GREY, leading=8.1),
    "alert": _style("alert", 9.5, textColor=ALERT, spaceAfter=1 * mm),
    "cell": _style("cell", 9),
    "cell-dense": _style("cell-dense", 7, leading=8.3),  # a draw sheet of 64 on one page
    "cell-small": _style("cell-small", 7.5, textColor=GREY),
    "qr-caption": _style("qr-caption", 6, textColor=GREY, alignment=1),
    "name-team": _style("name-team", 11, bold=True),
    "name": _style("name", 10.5),
    "head": _style("head", HEAD_SIZE, bold=True, alignment=1, leading=HEAD_SIZE * 1.15),
    "wall-title": _style("wall-title", 26, bold=True, spaceAfter=5 * mm),
    "wall-table": _style("wall-table", 26, bold=True, alignment=1),
    "wall-team": _style("wall-team", 16, bold=True),
    "wall-player": _style("wall-player", 12),
    "wall-v": _style("wall-v", 14, textColor=GREY, alignment=1),
    "wall-head": _style("wall-head", 10, bold=True, alignment=1),
    "index": _style("index", 11),
    "cover-title": _style("cover-title", 28, bold=True, spaceAfter=6 * mm, leading=34),
}


def text(value: object, style: str = "body") -> Flowable:
    """Plain text (escaped) in a style: a `Line` when it is one line in the house font, else a
    Paragraph."""
    register_fonts()
    value = str(value)
    marked = esc(value)
    if value and "\n" not in value and marked == escape(value):
        return Line(value, STYLES[style])
    if right_to_left(value):
        return RightToLeft(value, style)
    return rich(marked, style)


def name_text(value: str, style: str = "cell", *, bold: bool = False, after: str = "") -> Flowable:
    """A team's or player's name, bold if asked, then `after` (markup: "(withdrawn)"); a
    right-to-left name wraps in the order it is read (`RightToLeft`)."""
    if right_to_left(value):
        return RightToLeft(value, style, bold=bold, after=after)
    if not bold and not after:
        return text(value, style)
    return rich((f"<b>{esc(value)}</b>" if bold else esc(value)) + after, style)


class RightToLeft(Flowable):  # type: ignore[misc]
    """Text with right-to-left runs, broken into lines in the order it is read and each line
    then put in display order by itself: a long Arabic or Hebrew name that wraps starts on its
    first line (reordering the whole name first would put its last words there)."""

    def __init__(self, value: str, style: str, *, bold: bool = False, after: str = "") -> None:
        super().__init__()
        self.value, self.style_name = " ".join(value.split()), style
        self.bold, self.after = bold, after
        self.style = STYLES[style]
        self.spaceBefore, self.spaceAfter = self.style.spaceBefore, self.style.spaceAfter
        self._para: Paragraph | None = None

    def _line(self, words: str) -> str:
        return f"<b>{esc(words)}</b>" if self.bold else esc(words)

    def _width(self, words: str) -> float:
        para = rich(self._line(words), self.style_name)
        para.wrap(1e6, 1e6)
        return float(max(para.getActualLineWidths0(), default=0.0))

    def minWidth(self) -> float:  # the widest word, as a Paragraph says
        return max(self._width(word) for word in self.value.split(" "))

    def _lines(self, width: float) -> list[str]:
        lines: list[str] = []
        for word in self.value.split(" "):
            wider = f"{lines[-1]} {word}" if lines else word
            if lines and self._width(wider) <= width:
                lines[-1] = wider
            else:
                lines.append(word)
        return lines

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        style = self.style
        room = avail_width - style.leftIndent - style.rightIndent - style.firstLineIndent
        lines = self._lines(room)
        marked = "<br/>".join(self._line(line) for line in lines) + self.after
        self._para = rich(marked, self.style_name)
        self.width, self.height = self._para.wrap(avail_width, avail_height)
        return self.width, self.height

    def split(self, avail_width: float, avail_height: float) -> list[Flowable]:
        self.wrap(avail_width, avail_height)
        assert self._para is not None
        return list(self._para.split(avail_width, avail_height))

    def draw(self) -> None:
        assert self._para is not None
        self._para.drawOn(self.canv, 0, 0)


class Line(Flowable):  # type: ignore[misc]
    """Plain text printed as a Paragraph of one line prints it, without parsing markup or
    breaking lines (a report prints thousands: names, numbers, headings); text wider than
    the space falls back to that Paragraph."""

    def __init__(self, value: str, style: ParagraphStyle) -> None:
        super().__init__()
        self.value = " ".join(value.split())  # as a Paragraph collapses spaces
        self.style = style
        self.spaceBefore, self.spaceAfter = style.spaceBefore, style.spaceAfter
        self.text_width = pdfmetrics.stringWidth(self.value, style.fontName, style.fontSize)
        self._para: Paragraph | None = None

    def minWidth(self) -> float:  # the widest word, as a Paragraph says
        if self._para is not None:
            return float(self._para.minWidth())
        font, size = self.style.fontName, self.style.fontSize
        return max(float(pdfmetrics.stringWidth(w, font, size)) for w in self.value.split(" "))

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        style = self.style
        room = avail_width - style.leftIndent - style.rightIndent - style.firstLineIndent
        if self._para is not None or self.text_width > room + 1e-6:
            self._para = self._para or Paragraph(escape(self.value), style)
            self.width, self.height = self._para.wrap(avail_width, avail_height)
        else:
            self.width, self.height = avail_width, float(style.leading)
        return self.width, self.height

    def split(self, avail_width: float, avail_height: float) -> list[Flowable]:
        if self._para is None:
            return []
        return list(self._para.split(avail_width, avail_height))

    def draw(self) -> None:
        if self._para is not None:
            self._para.drawOn(self.canv, 0, 0)
            return
        canv, style = self.canv, self.style
        y = self.height - style.fontSize  # the first baseline, where a Paragraph puts it
        canv.setFillColor(style.textColor)
        canv.setFont(style.fontName, style.fontSize)
        if style.alignment == TA_CENTER:
            x = style.leftIndent + (self.width - style.leftIndent - style.rightIndent) / 2
            canv.drawCentredString(x, y, self.value)
        elif style.alignment == TA_RIGHT:
            canv.drawRightString(self.width - style.rightIndent, y, self.value)
        else:
            canv.drawString(style.leftIndent + style.firstLineIndent, y, self.value)


def rich(markup_: str, style: str = "body") -> Paragraph:
    """A Paragraph of markup whose every piece of data the caller passed through `esc`."""
    register_fonts()  # a Paragraph resolves its font when it is made
    if needs_shaping(markup_):
        return Paragraph(markup_, _shaped(style))
    return Paragraph(markup_, STYLES[style])


@functools.cache
def _shaped(style: str) -> ParagraphStyle:
    """The style with HarfBuzz shaping on: joined Arabic letters, Devanagari conjuncts."""
    return ParagraphStyle(f"{style}-shaped", parent=STYLES[style], shaping=1)


def heads(*labels: str) -> list[Paragraph]:
    """A table's header cells: bold, centred, wrapped inside narrow columns."""
    return [text(label, "head") for label in labels]


def generation_time(now: datetime | None = None) -> datetime:
    if now is not None:
        return now
    return INVARIANT_TIME if rl_config.invariant else datetime.now().astimezone()


@dataclass(frozen=True)
class ReportInfo:
    """What every page's header and foot print: the event, where, when and who runs it, the
    round the report is about, the paper and when the PDF was made."""

    event_name: str
    event_date: str  # ISO date, "" when the event has none (nothing is printed then)
    paper: Paper
    generated: datetime
    venue: str = ""
    end_date: str = ""  # the last day of an event over several days
    organiser: str = ""
    director: str = ""
    round_text: str = ""  # "Round 3 of 7 · starts 19:30" on a round's reports
    logo: Path | None = None  # a club logo (PNG or JPEG) at the left of the header

    @property
    def date_text(self) -> str:
        if self.end_date and self.end_date != self.event_date:
            return f"{self.event_date} – {self.end_date}"
        return self.event_date

    @property
    def facts(self) -> str:
        """The header's second line: venue, dates, organiser, director."""
        parts = [self.venue, self.date_text]
        if self.organiser:
            parts.append(f"Organiser: {self.organiser}")
        if self.director:
            parts.append(f"Director: {self.director}")
        return " · ".join(p for p in parts if p)


def page_size(paper: Paper, orientation: str = PORTRAIT) -> tuple[float, float]:
    size: tuple[float, float] = {Paper.A4: A4, Paper.LETTER: LETTER, Paper.A3: A3}[paper]
    if orientation == LANDSCAPE:
        return size[1], size[0]
    return size


@dataclass(frozen=True)
class Layout:
    """The space a document's flowables get on one page."""

    width: float
    height: float

    def columns(self, *weights: float) -> list[float]:
        """Column widths in proportion to `weights`, filling the frame's width."""
        total = sum(weights)
        return [self.width * w / total for w in weights]

    def headed_columns(
        self, cols: Sequence[tuple[str, float]], content: Sequence[float] = ()
    ) -> list[float]:
        """Widths in proportion to the weights, but never narrower than a heading's longest
        word (so "Winner" never breaks into "Winne r") nor than `content[i]` (what a cell
        holds); the others share what is left."""
        register_fonts()
        need = [
            max(pdfmetrics.stringWidth(w, FONT_BOLD, HEAD_SIZE) for w in label.split() or [""]) + 7
            for label, _ in cols
        ]
        need = [max(n, c) for n, c in zip(need, [*content, *[0.0] * len(need)], strict=False)]
        pinned: set[int] = set()
        while True:
            free = self.width - sum(need[i] for i in pinned)
            weight = sum(w for i, (_, w) in enumerate(cols) if i not in pinned) or 1.0
            widths = [
                need[i] if i in pinned else free * w / weight for i, (_, w) in enumerate(cols)
            ]
            short = {i for i, w in enumerate(widths) if i not in pinned and w < need[i]}
            if not short or len(pinned | short) == len(cols):
                return widths
            pinned |= short


def layout(paper: Paper, orientation: str = PORTRAIT) -> Layout:
    w, h = page_size(paper, orientation)
    return Layout(w - 2 * MARGIN, h - 2 * MARGIN - HEADER - FOOTER)


class Section(Flowable):  # type: ignore[misc]  # reportlab is untyped
    """An invisible mark: a PDF bookmark (outline entry) and/or the running header's title."""

    def __init__(self, title: str, level: int = 0, *, bookmark: bool = True, header: bool = True):
        super().__init__()
        self.title = title
        self.level = level
        self.bookmark = bookmark
        self.header = header
        self.width = self.height = 0

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        return 0, 0

    def draw(self) -> None:
        canv = self.canv
        if self.header:
            canv.report_title = self.title
        if self.bookmark:
            canv.mark_section(self.title, self.level)


class Stamp(Flowable):  # type: ignore[misc]
    """A part printed the same on many pages (a scoresheet's rules, grid and signature boxes):
    laid out once, drawn once per PDF as a form XObject, then placed by reference. 200
    scoresheets lay out and write one game grid instead of 200; the text layer is the same.
    """

    PAD = 3.0  # room around the part for rules drawn on its edges

    def __init__(self, inner: Flowable) -> None:
        super().__init__()
        self.inner = inner
        self.hAlign = getattr(inner, "hAlign", "LEFT")
        self._sizes: dict[float, tuple[float, float]] = {}
        self.width = self.height = 0.0
        self._avail = (0.0, 0.0)

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        size = self._sizes.get(avail_width)
        if size is None:
            size = self._sizes[avail_width] = self.inner.wrap(avail_width, avail_height)
        self._avail = (avail_width, avail_height)
        self.width, self.height = float(size[0]), float(size[1])
        return self.width, self.height

    def split(self, avail_width: float, avail_height: float) -> list[Flowable]:
        return list(self.inner.split(avail_width, avail_height))

    def getSpaceBefore(self) -> float:
        return float(self.inner.getSpaceBefore())

    def getSpaceAfter(self) -> float:
        return float(self.inner.getSpaceAfter())

    def draw(self) -> None:
        canv, pad = self.canv, self.PAD
        name = f"stamp{id(self)}w{round(self._avail[0] * 100)}"
        if not canv.hasForm(name):
            canv.beginForm(name, -pad, -pad, self.width + pad, self.height + pad)
            self.inner.wrap(*self._avail)  # as measured (a split may have wrapped it since)
            self.inner.drawOn(canv, 0, 0)
            canv.endForm()
        canv.doForm(name)


class _Canvas(Canvas):  # type: ignore[misc]
    """Keeps each page until the end so every page can say "page n of N"."""

    def __init__(self, *args: Any, info: ReportInfo, title: str, **kwargs: Any) -> None:
        kwargs["initialFontName"] = FONT  # or reportlab puts an unused Helvetica in every PDF
        super().__init__(*args, **kwargs)
        self.report_info = info
        self.report_title = title
        self._pages: list[dict[str, Any]] = []
        self._page_marks: list[str] = []
        self._marks = 0

    def mark_section(self, title: str, level: int) -> None:
        """An outline entry for this page; its destination is set when the page is written."""
        self._marks += 1
        key = f"section-{self._marks}"
        self.addOutlineEntry(title, key, level, closed=level > 0)
        self._page_marks.append(key)

    def showPage(self) -> None:
        self._pages.append(dict(self.__dict__))
        self._page_marks = []
        self._startPage()

    def save(self) -> None:
        total, marks = len(self._pages), self._marks
        for number, state in enumerate(self._pages, start=1):
            self.__dict__.update(state)
            self._decorate(number, total)
            # a bookmark names the page being written, so it is placed now, not while drawing
            for key in state["_page_marks"]:
                self.bookmarkPage(key)
            super().showPage()
        if marks:
            self.showOutline()
        super().save()

    def _decorate(self, number: int, total: int) -> None:
        info: ReportInfo = self.report_info
        width, height = self._pagesize
        top = height - MARGIN - 5 * mm
        left = MARGIN
        self.saveState()
        if info.logo is not None:
            self.drawImage(
                str(info.logo), MARGIN, top - 5 * mm, 9 * mm, 9 * mm,
                preserveAspectRatio=True, anchor="sw", mask="auto",
            )  # fmt: skip
            left += 11 * mm
        span = width - MARGIN - left
        self.setFillColor(INK)
        self._line(left, top, info.event_name, FONT_BOLD, 10, span * 0.62)
        # the title has the room a short event name leaves: "Crosstable during round 3 (…)"
        named = min(pdfmetrics.stringWidth(info.event_name, FONT_BOLD, 10), span * 0.62)
        room = max(span * 0.36, span - named - 8 * mm)
        self._line(width - MARGIN, top, self.report_title, FONT, 9, room, right=True)
        self.setFillColor(GREY)
        beside = pdfmetrics.stringWidth(info.round_text, FONT_BOLD, 8) + 6 * mm
        self._line(left, top - 4.2 * mm, info.facts, FONT, 8, span - beside)
        if info.round_text:
            self.setFillColor(INK)
            self._line(
                width - MARGIN, top - 4.2 * mm, info.round_text, FONT_BOLD, 8, span * 0.36,
                right=True,
            )  # fmt: skip
        self.setFillColor(GREY)
        self.setStrokeColor(RULE)
        self.setLineWidth(0.5)
        self.line(MARGIN, top - 6 * mm, width - MARGIN, top - 6 * mm)
        foot = MARGIN + 2 * mm
        self.line(MARGIN, foot + 4 * mm, width - MARGIN, foot + 4 * mm)
        self.setFont(FONT, 8)
        stamp = info.generated.strftime("%Y-%m-%d %H:%M")
        self.drawString(MARGIN, foot, f"Generated {stamp} · Tandem Director {__version__}")
        self.setFillColor(INK)
        self.setFont(FONT, 9)
        self.drawRightString(width - MARGIN, foot, f"Page {number} of {total}")
        self.restoreState()

    def _line(
        self, x: float, y: float, value: str, font: str, size: float, width: float,
        *, right: bool = False,
    ) -> None:  # fmt: skip
        """One header string, shortened to `width`, in the fonts its scripts need."""
        value = _fit(value, font, size, width)
        marked = esc(value)
        if not needs_shaping(marked):
            self.setFont(font, size)
            (self.drawRightString if right else self.drawString)(x, y, value)
            return
        style = ParagraphStyle(
            "header", fontName=font, fontSize=size, leading=size * 1.2, shaping=1,
            textColor=self._fillColorObj,
        )  # fmt: skip
        para = Paragraph(marked, style)
        used, _ = para.wrap(width, size * 3)
        line_width = min(width, para.minWidth() if hasattr(para, "minWidth") else used)
        para.drawOn(self, x - line_width if right else x, y - size * 0.25)


def _fit(value: str, font: str, size: float, width: float) -> str:
    """Shorten a header string with an ellipsis so it never runs into the other side."""
    if pdfmetrics.stringWidth(value, font, size) <= width:
        return value
    while value and pdfmetrics.stringWidth(value + "…", font, size) > width:
        value = value[:-1]
    return value + "…"


def build_pdf(
    info: ReportInfo, title: str, story: Sequence[Flowable], orientation: str = PORTRAIT
) -> bytes:
    """Lay the flowables out on the event's paper; the first page takes `orientation`.

    A story switches orientation with `NextPageTemplate(LANDSCAPE)` before a `PageBreak`.
    """
    register_fonts()
    buffer = io.BytesIO()
    templates = []
    for name in (PORTRAIT, LANDSCAPE):
        size = page_size(info.paper, name)
        box = layout(info.paper, name)
        frame = Frame(MARGIN, MARGIN + FOOTER, box.width, box.height, 0, 0, 0, 0, id=name)
        templates.append(PageTemplate(name, [frame], pagesize=size))
    if orientation == LANDSCAPE:
        templates.reverse()  # the first template is the first page's
    doc = BaseDocTemplate(
        buffer,
        pagesize=templates[0].pagesize,
        pageTemplates=templates,
        title=f"{info.event_name} – {title}",
        author="Tandem Director",
        creator=f"Tandem Director {__version__}",
        subject=title,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN + HEADER,
        bottomMargin=MARGIN + FOOTER,
    )
    canvasmaker = functools.partial(_Canvas, info=info, title=title)
    doc.build(list(story), canvasmaker=canvasmaker)
    return buffer.getvalue()


def grid(
    rows: Sequence[Sequence[object]],
    widths: Sequence[float],
    *,
    header_rows: int = 1,
    size: float = 9,
    zebra: bool = False,
    padding: float = 3,
    extra: Sequence[tuple[Any, ...]] = (),
    row_heights: Sequence[float] | None = None,
) -> Table:
    """A ruled table in the house style; header rows repeat on every page it spans."""
    commands: list[tuple[Any, ...]] = [
        ("FONTNAME", (0, 0), (-1, -1), FONT),
        ("FONTSIZE", (0, 0), (-1, -1), size),
        ("LEADING", (0, 0), (-1, -1), size * 1.2),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("GRID", (0, 0), (-1, -1), 0.4, RULE),
        ("BOX", (0, 0), (-1, -1), 0.9, INK),
        ("LEFTPADDING", (0, 0), (-1, -1), padding),
        ("RIGHTPADDING", (0, 0), (-1, -1), padding),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ]
    if header_rows:
        commands += [
            ("FONTNAME", (0, 0), (-1, header_rows - 1), FONT_BOLD),
            ("BACKGROUND", (0, 0), (-1, header_rows - 1), SHADE),
            ("LINEBELOW", (0, header_rows - 1), (-1, header_rows - 1), 0.9, INK),
        ]
    if zebra:
        commands.append(("ROWBACKGROUNDS", (0, header_rows), (-1, -1), [colors.white, ZEBRA]))
    commands += list(extra)
    table = Table(
        [list(r) for r in rows],
        colWidths=list(widths),
        rowHeights=list(row_heights) if row_heights is not None else None,
        repeatRows=header_rows,
    )
    table.setStyle(commands)
    return table


def signed(value: float) -> str:
    """A difference with its sign, printed with a real minus sign."""
    return f"+{value:g}" if value > 0 else f"−{-value:g}" if value < 0 else "0"


def num(value: float) -> str:
    """A number as people write it: no ".0", a real minus sign."""
    return f"−{-value:g}" if value < 0 else f"{value:g}"


def kept_with_tail(
    rows: Sequence[Sequence[object]],
    widths: Sequence[float],
    notes: Sequence[Flowable] = (),
    *,
    keep: int = 3,
    zebra: bool = False,
    extra: Sequence[tuple[Any, ...]] = (),
    **kwargs: Any,
) -> list[Flowable]:
    """A ruled table whose last `keep` rows stay on a page with the notes below it: no row and
    no legend is ever left alone on a page. `extra` commands address the whole table's rows."""
    body, tail = list(rows[:-keep]), list(rows[-keep:])
    if len(body) <= 1:  # short: one table, kept with its notes
        return [KeepTogether([grid(rows, widths, zebra=zebra, extra=extra, **kwargs), *notes])]
    first = grid(
        body, widths, zebra=zebra, extra=_rows_within(extra, 0, len(body), len(rows)), **kwargs
    )
    commands = _rows_within(extra, len(body), len(rows), len(rows))
    if zebra:  # the tail's stripes continue the body's
        odd = (len(body) - 1) % 2
        colours = [ZEBRA, colors.white] if odd else [colors.white, ZEBRA]
        commands.append(("ROWBACKGROUNDS", (0, 0), (-1, -1), colours))
    last = grid(tail, widths, header_rows=0, extra=commands, **kwargs)
    return [first, KeepTogether([last, *notes])]


def _rows_within(
    commands: Sequence[tuple[Any, ...]], start: int, stop: int, total: int
) -> list[tuple[Any, ...]]:
    """Style commands for a whole table of `total` rows, moved to its rows [start, stop)."""
    out = []
    for name, (c0, r0), (c1, r1), *rest in commands:
        lo = max(r0 if r0 >= 0 else total + r0, start)
        hi = min(r1 if r1 >= 0 else total + r1, stop - 1)
        if lo <= hi:
            out.append((name, (c0, lo - start), (c1, hi - start), *rest))
    return out
