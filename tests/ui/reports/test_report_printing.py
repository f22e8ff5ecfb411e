"""Printing: every page (or the range asked for) reaches the printer, on the report's paper.

The printer is Qt's own PDF printer writing into the test's folder, so what was printed is
read back with pypdf (pages, paper) and pypdfium2 (the pages carry ink).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtPrintSupport import QPrinter
from pytestqt.qtbot import QtBot

from director.services.simulate import SimulationSettings, simulate_event
from director.ui.main_window import MainWindow
from director.ui.reports.menu import ReportsMenu
from director.ui.reports.preview import ReportPreview
from director.ui.reports.request import ReportRequest
from tests.reports.pdfcheck import A4, LETTER, ink, page_sizes
from tests.ui.app_helpers import OFFSCREEN_NOISE
from tests.ui.reports.report_helpers import pages_of, shown

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)


def pdf_printer(path: Path) -> QPrinter:
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(path))
    return printer


def near(size: tuple[float, float], paper: tuple[float, float]) -> bool:
    return abs(size[0] - paper[0]) < 1.5 and abs(size[1] - paper[1]) < 1.5


def preview_of(qtbot: QtBot, menu: ReportsMenu, request: ReportRequest) -> ReportPreview:
    return shown(qtbot, menu.show_preview(request))


def test_print_sends_every_page_of_the_round(
    qtbot: QtBot, menu: ReportsMenu, tmp_path: Path
) -> None:
    preview = preview_of(qtbot, menu, ReportRequest("scoresheet", 3))
    out = tmp_path / "printed.pdf"
    with qtbot.waitSignal(preview.printed) as blocker:
        printed = preview.print_to(pdf_printer(out))
    assert printed == preview.page_count() == pages_of(preview.pdf or b"")
    assert blocker.args == [printed]
    assert pages_of(out) == printed
    data = out.read_bytes()
    assert all(near(size, A4) for size in page_sizes(data))
    for page in range(printed):
        assert ink(data, page) > 0.01  # a drawn sheet, not a blank page
    assert preview.messages.text == f"Sent {printed} pages to {out}."


def test_print_follows_the_reports_paper(qtbot: QtBot, menu: ReportsMenu, tmp_path: Path) -> None:
    preview = preview_of(qtbot, menu, ReportRequest("teams"))
    with qtbot.waitSignal(preview.shown, timeout=20_000):
        preview.paper_box.setCurrentIndex(preview.paper_box.findText("Letter"))
    dialog = preview.print_report()  # the system dialog, set up for the report
    assert dialog is not None
    printer = dialog.printer()
    dialog.reject()
    assert printer.docName() == preview.request.title
    out = tmp_path / "letter.pdf"
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(out))
    assert preview.print_to(printer) == preview.page_count()
    assert all(near(size, LETTER) for size in page_sizes(out.read_bytes()))


def test_a_page_range_prints_only_those_pages(
    qtbot: QtBot, menu: ReportsMenu, tmp_path: Path
) -> None:
    preview = preview_of(qtbot, menu, ReportRequest("event"))
    assert preview.page_count() > 3
    printer = pdf_printer(tmp_path / "two.pdf")
    printer.setPrintRange(QPrinter.PrintRange.PageRange)
    printer.setFromTo(2, 3)
    assert preview.print_to(printer) == 2
    assert pages_of(tmp_path / "two.pdf") == 2


def test_the_current_page_alone(qtbot: QtBot, menu: ReportsMenu, tmp_path: Path) -> None:
    preview = preview_of(qtbot, menu, ReportRequest("event"))
    preview.bar.go_to(2)
    printer = pdf_printer(tmp_path / "one.pdf")
    printer.setPrintRange(QPrinter.PrintRange.CurrentPage)
    assert preview.print_to(printer) == 1
    assert pages_of(tmp_path / "one.pdf") == 1


@pytest.mark.qt_log_ignore("QPainter::begin")
def test_a_printer_that_cannot_start_is_named_and_nothing_is_printed(
    qtbot: QtBot, menu: ReportsMenu, tmp_path: Path
) -> None:
    preview = preview_of(qtbot, menu, ReportRequest("met"))
    out = tmp_path / "no such folder" / "met.pdf"
    assert preview.print_to(pdf_printer(out)) == 0
    assert preview.messages.kind == "error"
    assert preview.messages.text.startswith(f"Not printed: cannot write {out}")
    assert not out.parent.exists()


def test_a_landscape_page_is_printed_landscape(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    """Nine rounds: the event report's crosstable page is landscape, the rest portrait."""
    path = tmp_path / "nine rounds.tandem"
    settings = SimulationSettings(teams=10, rounds=9, seed=5, name="Nine Rounds Open")
    simulate_event(str(path), settings).close()
    assert window.open_target(str(path), remember=False)
    menu = window.reports_menu
    assert isinstance(menu, ReportsMenu)
    preview = preview_of(qtbot, menu, ReportRequest("event"))
    shown_sizes = page_sizes(preview.pdf or b"")
    wide = shown_sizes.index((A4[1], A4[0]))  # the crosstable; the pages around are portrait
    assert 0 < wide < len(shown_sizes) - 1
    out = tmp_path / "nine.pdf"
    printer = pdf_printer(out)
    printer.setPrintRange(QPrinter.PrintRange.PageRange)
    printer.setFromTo(wide, wide + 2)  # 1-based: the page before, the wide one, the one after
    assert preview.print_to(printer) == 3
    printed = page_sizes(out.read_bytes())
    for paper, sheet in zip(shown_sizes[wide - 1 : wide + 2], printed, strict=True):
        assert near(sheet, paper)
    assert near(printed[1], (A4[1], A4[0]))
