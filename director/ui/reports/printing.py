"""Printing a PDF's pages on a QPrinter: each page rendered by QtPdf and fitted to the paper.

QtPdf renders pages as images, so each page is drawn at up to 300 dpi (sharp on paper, and a
hundred pages stay a reasonable print job), scaled to fit the printer's printable area and
centred; a report's own margins are kept, the printer's unprintable edge is respected.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QRectF, QSize, QSizeF, Qt
from PySide6.QtGui import QPageLayout, QPageSize, QPainter
from PySide6.QtPdf import QPdfDocument
from PySide6.QtPrintSupport import QPrinter
from PySide6.QtWidgets import QProgressDialog, QWidget

from director.domain.errors import UserError
from director.domain.rules import Paper
from director.ui.waiting import busy

MAX_DPI = 300
PAGE_SIZES = {
    Paper.A4: QPageSize.PageSizeId.A4,
    Paper.LETTER: QPageSize.PageSizeId.Letter,
    Paper.A3: QPageSize.PageSizeId.A3,
}


def orientation_of(size: QSizeF) -> QPageLayout.Orientation:
    wide = size.width() > size.height()
    return QPageLayout.Orientation.Landscape if wide else QPageLayout.Orientation.Portrait


def set_up_printer(printer: QPrinter, document: QPdfDocument, paper: Paper, name: str) -> None:
    """The report's paper and first page's orientation, and the smallest margins the printer
    allows (the report has its own): what the print dialog then offers."""
    printer.setDocName(name)
    printer.setPageSize(QPageSize(PAGE_SIZES[paper]))
    if document.pageCount():
        printer.setPageOrientation(orientation_of(document.pagePointSize(0)))
    layout = printer.pageLayout()
    printer.setPageMargins(layout.minimumMargins(), layout.units())


def pages_to_print(printer: QPrinter, page_count: int, current: int) -> list[int]:
    """The 0-based pages the print dialog asked for, each copy in turn when the printer
    cannot make copies itself."""
    first, last = 0, page_count - 1
    if printer.printRange() == QPrinter.PrintRange.PageRange and printer.fromPage() > 0:
        first = printer.fromPage() - 1
        last = min(last, (printer.toPage() or page_count) - 1)
    elif printer.printRange() == QPrinter.PrintRange.CurrentPage:
        first = last = current
    pages = list(range(first, last + 1))
    if printer.supportsMultipleCopies() or printer.copyCount() <= 1:
        return pages
    return pages * printer.copyCount()


def _target(printer: QPrinter, page: QSizeF) -> QRectF:
    """Where the page goes: fitted into the printable area, centred (painter coordinates)."""
    area = printer.pageRect(QPrinter.Unit.DevicePixel)
    scale = min(area.width() / page.width(), area.height() / page.height())
    width, height = page.width() * scale, page.height() * scale
    return QRectF((area.width() - width) / 2, (area.height() - height) / 2, width, height)


def print_pages(
    document: QPdfDocument,
    printer: QPrinter,
    pages: Sequence[int],
    progress: Callable[[int], bool] | None = None,
) -> int:
    """Print `pages` of `document`; returns how many were printed. `progress(n)` is called
    before page n (0-based count) and stops the job when it returns False."""
    if not pages:
        return 0
    printer.setPageOrientation(orientation_of(document.pagePointSize(pages[0])))
    painter = QPainter()
    if not painter.begin(printer):
        if printer.outputFileName():
            raise UserError(f"cannot write {printer.outputFileName()}: check the folder and name")
        name = printer.printerName() or "the printer"
        raise UserError(f"{name} could not be started: check that it is on and connected")
    printed = 0
    try:
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        for index, page in enumerate(pages):
            if progress is not None and not progress(index):
                break
            size = document.pagePointSize(page)
            if index:
                # a landscape page (a wide crosstable) turns the paper for that page
                printer.setPageOrientation(orientation_of(size))
                printer.newPage()
            target = _target(printer, size)
            dpi = min(printer.resolution(), MAX_DPI)
            pixels = QSize(round(size.width() * dpi / 72), round(size.height() * dpi / 72))
            painter.drawImage(target, document.render(page, pixels))
            printed += 1
    finally:
        painter.end()
    return printed


def print_with_progress(
    document: QPdfDocument, printer: QPrinter, pages: Sequence[int], parent: QWidget
) -> int:
    """`print_pages` with a busy cursor and, for a long job, a progress dialog with Stop
    (window-modal: it keeps the window painted while the pages go out)."""
    progress = QProgressDialog("Printing…", "Stop", 0, len(pages), parent)
    progress.setWindowModality(Qt.WindowModality.WindowModal)
    progress.setMinimumDuration(800)

    def step(done: int) -> bool:
        progress.setValue(done)
        return not progress.wasCanceled()

    try:
        with busy():
            return print_pages(document, printer, pages, step)
    finally:
        progress.reset()
        progress.deleteLater()
