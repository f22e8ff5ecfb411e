"""The report preview: the PDF as it will print, with Print… and Save PDF….

The report is rendered off the GUI thread (`render_request` through `ui.background`) and shown
with QtPdf's QPdfView. The paper can be switched between A4, Letter and A3 here (the event's option
is the default); Refresh renders again after the event has changed. `save_to(path)` and
`print_to(printer)` do the work behind the file and print dialogs, so tests (and scripts) can
call them directly.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QSettings, Qt, Signal
from PySide6.QtGui import QCloseEvent, QColor, QKeySequence, QPalette
from PySide6.QtPdf import QPdfDocument
from PySide6.QtPdfWidgets import QPdfView
from PySide6.QtPrintSupport import QPrintDialog, QPrinter
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from director.domain.changes import Changes
from director.domain.errors import UserError
from director.domain.rules import Paper
from director.domain.wording import counted
from director.services.events import get_event
from director.store.files import atomic_write
from director.ui.context import EventContext
from director.ui.message_bar import MessageBar
from director.ui.plain import plain_label
from director.ui.reports.page_bar import PageBar
from director.ui.reports.printing import pages_to_print, print_with_progress, set_up_printer
from director.ui.reports.render_job import render_request
from director.ui.reports.request import PAPER_NAMES, ReportRequest
from director.ui.reports.saving import remember_folder, report_folder, save_dialog
from director.ui.style import hint, section_title

DESK_COLOUR = "#8c9692"  # the grey the pages lie on
STATUS_STYLE = "font-size: 12pt; color: #5b6661; padding: 24px;"


class ReportPreview(QDialog):
    shown = Signal()  # a rendered report is shown
    failed = Signal(str)  # the report could not be made: the words shown
    printed = Signal(int)  # pages sent to the printer

    def __init__(
        self,
        ctx: EventContext,
        request: ReportRequest,
        settings: QSettings,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.settings = settings
        paper = request.paper or ctx.read(get_event).options.paper
        self.request = request.on_paper(paper)
        self.pdf: bytes | None = None
        self.file_dialog: QFileDialog | None = None
        self.print_dialog: QPrintDialog | None = None
        self._printing = False
        self.setWindowTitle(f"{self.request.title} – preview")

        self.document = QPdfDocument()  # adopted below, once the view and the bar exist
        self._buffer = QBuffer(self.document)  # the device outlives its reader
        self.view = QPdfView(self)
        self.view.setDocument(self.document)
        self.view.setPageMode(QPdfView.PageMode.MultiPage)
        self.view.setPageSpacing(12)
        palette = self.view.palette()  # QPdfView paints around the pages with Dark
        palette.setColor(QPalette.ColorRole.Dark, QColor(DESK_COLOUR))
        self.view.setPalette(palette)
        self.bar = PageBar(self.view, self.document, self)
        self.status = plain_label("", self)  # the title names the match's teams
        self.status.setObjectName("status")
        self.status.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.status.setWordWrap(True)
        self.status.setStyleSheet(STATUS_STYLE)
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.status)
        self.stack.addWidget(self.view)
        self.paper_box = QComboBox(self)
        self.paper_box.setObjectName("paper")
        for choice, name in PAPER_NAMES.items():
            self.paper_box.addItem(name, choice.value)  # Qt keeps the plain string
        self.paper_box.setCurrentIndex(self.paper_box.findData(paper.value))
        self.paper_box.currentIndexChanged.connect(lambda _i: self.set_paper(self.paper()))
        self.messages = MessageBar(self)
        self.stale = hint("The event has changed since this preview was made.", self)
        self.stale.hide()
        self.refresh_button = self._button("&Refresh", self.make_report, "F5")
        self.refresh_button.setToolTip("Make the report again from the event as it is now (F5)")
        self.save_button = self._button("&Save PDF…", self.save_pdf, "Ctrl+S")
        self.print_button = self._button("&Print…", self.print_report, "Ctrl+P")
        self.print_button.setProperty("role", "primary")
        self.close_button = self._button("Close", self.reject)
        self._lay_out()
        # Qt deletes children in the order they came: the view and the bar must go before the
        # document they read, or the closing view asks a deleted document for its pages
        self.document.setParent(self)
        ctx.changed.connect(self.on_event_changed)
        ctx.destroyed.connect(self.close)  # the event closed: its reports go with it
        self._fit_screen()
        self.make_report()

    def _button(self, text: str, slot: Callable[[], object], keys: str = "") -> QPushButton:
        button = QPushButton(text, self)
        if keys:
            button.setShortcut(QKeySequence(keys))
        button.clicked.connect(lambda _checked=False: slot())
        return button

    def _lay_out(self) -> None:
        top = QHBoxLayout()
        top.addWidget(section_title(self.request.title, self), 1)
        paper_label = QLabel("Pa&per:", self)
        paper_label.setBuddy(self.paper_box)
        top.addWidget(paper_label)
        top.addWidget(self.paper_box)
        controls = QHBoxLayout()
        controls.addWidget(self.bar)
        controls.addStretch(1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.refresh_button)
        buttons.addWidget(self.stale)
        buttons.addStretch(1)
        for button in (self.save_button, self.print_button, self.close_button):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(controls)
        layout.addWidget(self.stack, 1)
        layout.addWidget(self.messages)
        layout.addLayout(buttons)

    def _fit_screen(self) -> None:
        """A page's width readable at a glance, and as tall as the screen allows."""
        screen = self.screen().availableGeometry()
        self.resize(min(980, screen.width() - 80), max(480, screen.height() - 80))

    # -- rendering -----------------------------------------------------------------------------

    def paper(self) -> Paper:
        return Paper(str(self.paper_box.currentData()))

    def set_paper(self, paper: Paper) -> None:
        if paper != self.request.paper:
            self.request = self.request.on_paper(paper)
            self.make_report()

    def make_report(self) -> None:
        """Render the request (again) in a worker thread; `shown` or `failed` follows."""
        self.stale.hide()
        self.messages.clear()
        self._set_busy(True)
        if self.pdf is None:
            title = self.request.title
            self.status.setText(f"Preparing the {title[:1].lower()}{title[1:]}…")  # names as typed
            self.stack.setCurrentWidget(self.status)
        request = self.request  # each answer names its request: a late one is ignored
        self.ctx.background.run(
            render_request,
            request,
            change=True,  # a scoresheet's QR code issues its match's token
            aside=True,
            on_done=lambda data: self._answered(self._rendered, request, data),
            on_failed=lambda refusal: self._answered(self._refused, request, str(refusal)),
            on_bug=lambda _exc: self._answered(self._crashed, request),
        )

    def _answered(self, handle: Callable[..., None], *answer: object) -> None:
        if isValid(self):  # the preview may have been closed while the report was made
            handle(*answer)

    def _set_busy(self, busy: bool) -> None:
        if busy:
            self.setCursor(Qt.CursorShape.BusyCursor)
        else:
            self.unsetCursor()
        self.refresh_button.setEnabled(not busy)
        self.paper_box.setEnabled(not busy)
        self.save_button.setEnabled(not busy and self.pdf is not None)
        self.print_button.setEnabled(not busy and self.pdf is not None)

    def _rendered(self, request: ReportRequest, data: bytes) -> None:
        if request != self.request:
            return  # an earlier paper's or refresh's result arriving late
        page = max(self.bar.current(), 0)
        old, self._buffer = self._buffer, QBuffer(self.document)
        self._buffer.setData(QByteArray(data))
        self._buffer.open(QIODevice.OpenModeFlag.ReadOnly)
        self.document.load(self._buffer)
        old.deleteLater()
        if self.document.status() != QPdfDocument.Status.Ready:
            self._refused(request, f"the PDF could not be shown ({self.document.error().name})")
            return
        self.pdf = data
        self.stack.setCurrentWidget(self.view)
        self.bar.refresh()
        self.bar.go_to(min(page, self.document.pageCount() - 1))
        self._set_busy(False)
        self.shown.emit()

    def _refused(self, request: ReportRequest, text: str) -> None:
        if request != self.request:
            return
        self.pdf = None
        self.document.close()
        self.bar.refresh()
        self.status.setText(f"This report cannot be made: {text}")
        self.stack.setCurrentWidget(self.status)
        self._set_busy(False)
        self.failed.emit(text)

    def _crashed(self, request: ReportRequest) -> None:
        """A bug: said here; ui.background raises it for the crash hook to report."""
        if request != self.request:
            return
        self._refused(request, "something went wrong inside Tandem Director (a bug)")

    def on_event_changed(self, _changes: Changes) -> None:
        if self.pdf is not None:
            self.stale.show()

    def page_count(self) -> int:
        return self.document.pageCount()

    # -- saving --------------------------------------------------------------------------------

    def _suggested_path(self) -> Path:
        return report_folder(self.settings, self.ctx.db) / self.request.file_name

    def save_pdf(self) -> QFileDialog | None:
        """Ask where to save (the last folder used, the report's usual name), then save."""
        if self.pdf is None:
            return None
        dialog = save_dialog(self, self._suggested_path())
        dialog.fileSelected.connect(self.save_to)
        self.file_dialog = dialog
        dialog.open()
        return dialog

    def save_to(self, path: str | Path) -> bool:
        """Write the PDF shown to `path` (all or nothing); the outcome shows in the dialog."""
        if self.pdf is None:
            return False
        target = Path(path)
        if not target.suffix:
            target = target.with_suffix(".pdf")
        try:
            atomic_write(target, self.pdf)
        except UserError as refusal:
            self.messages.show_error(f"Not saved: {refusal}")
            return False
        remember_folder(self.settings, target.parent)
        self.messages.show_info(f"Saved {target.name} in {target.parent}.")
        return True

    # -- printing ------------------------------------------------------------------------------

    def print_report(self) -> QPrintDialog | None:
        """The system's print dialog, set to the report's paper; printing follows on OK."""
        if self.pdf is None:
            return None
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        set_up_printer(printer, self.document, self.paper(), self.request.title)
        if printer.outputFormat() == QPrinter.OutputFormat.PdfFormat:
            # no system printer (only "print to file"): offer the report's name and folder
            printer.setOutputFileName(str(self._suggested_path()))
        dialog = QPrintDialog(printer, self)
        dialog.setMinMax(1, self.page_count())
        dialog.setOption(QPrintDialog.PrintDialogOption.PrintCurrentPage, True)
        dialog.accepted.connect(lambda: self.print_to(printer))
        dialog.finished.connect(dialog.deleteLater)
        self.print_dialog = dialog
        # window-modal without a nested event loop (QPrintDialog's own open() wants a slot)
        QDialog.open(dialog)
        return dialog

    def print_to(self, printer: QPrinter) -> int:
        """Print the pages the printer's settings ask for; returns how many were printed."""
        if self.pdf is None:
            return 0
        pages = pages_to_print(printer, self.page_count(), max(self.bar.current(), 0))
        self._printing = True
        try:
            printed = print_with_progress(self.document, printer, pages, self)
        except UserError as refusal:
            self.messages.show_error(f"Not printed: {refusal}")
            printed = 0
        else:
            if printed < len(pages):
                self.messages.show_info(f"Printing stopped after {printed} of {len(pages)} pages.")
            else:
                where = printer.outputFileName() or printer.printerName() or "the printer"
                self.messages.show_info(f"Sent {counted(printed, 'page')} to {where}.")
        finally:
            self._printing = False
        self.printed.emit(printed)
        return printed

    def closeEvent(self, event: QCloseEvent) -> None:
        if self._printing:  # the pages being printed come from this dialog's document
            event.ignore()
            return
        super().closeEvent(event)
