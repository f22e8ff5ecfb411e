"""The preview's page controls: the page number and count, previous/next, and the zoom."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPointF
from PySide6.QtGui import QKeySequence
from PySide6.QtPdf import QPdfDocument
from PySide6.QtPdfWidgets import QPdfView
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSpinBox, QToolButton, QWidget

ZOOM_STEPS = (0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0, 4.0)
Zoom = QPdfView.ZoomMode


def _button(text: str, tip: str, parent: QWidget, keys: str = "") -> QToolButton:
    button = QToolButton(parent)
    button.setText(text)
    button.setToolTip(f"{tip} ({keys})" if keys else tip)
    if keys:
        button.setShortcut(QKeySequence(keys))
    return button


class PageBar(QWidget):
    """Page n of N with previous/next, and fit width / whole page / zoom out / zoom in."""

    def __init__(self, view: QPdfView, document: QPdfDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.view = view
        self.document = document
        self.previous = _button("◀", "Previous page", self)
        self.next = _button("▶", "Next page", self)
        self.page = QSpinBox(self)
        self.page.setObjectName("page")
        self.page.setMinimum(1)
        self.page.setKeyboardTracking(False)
        self.page.setAccessibleName("Page")
        self.count = QLabel(self)
        self.count.setObjectName("pageCount")
        self.fit_width = _button("Fit width", "Fit the page's width to the window", self)
        self.fit_page = _button("Whole page", "Show whole pages", self)
        for button in (self.fit_width, self.fit_page):
            button.setCheckable(True)
        self.zoom_out = _button("−", "Zoom out", self, "Ctrl+-")
        self.zoom_in = _button("+", "Zoom in", self, "Ctrl++")
        self.zoom_label = QLabel(self)
        self.zoom_label.setMinimumWidth(48)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel("Page", self))
        for widget in (self.previous, self.page, self.next, self.count):
            layout.addWidget(widget)
        layout.addSpacing(16)
        for widget in (self.fit_width, self.fit_page, self.zoom_out, self.zoom_label):
            layout.addWidget(widget)
        layout.addWidget(self.zoom_in)

        self.previous.clicked.connect(lambda: self.go_to(self.current() - 1))
        self.next.clicked.connect(lambda: self.go_to(self.current() + 1))
        self.page.valueChanged.connect(lambda value: self.go_to(value - 1))
        self.fit_width.clicked.connect(lambda: self.set_zoom_mode(Zoom.FitToWidth))
        self.fit_page.clicked.connect(lambda: self.set_zoom_mode(Zoom.FitInView))
        self.zoom_out.clicked.connect(lambda: self.step_zoom(-1))
        self.zoom_in.clicked.connect(lambda: self.step_zoom(+1))
        # bound methods, not lambdas: Qt drops these connections when the bar goes
        view.pageNavigator().currentPageChanged.connect(self.show_page)
        view.zoomModeChanged.connect(self.show_zoom)
        view.zoomFactorChanged.connect(self.show_zoom)
        view.viewport().installEventFilter(self)  # a fitted zoom changes with the window
        self.set_zoom_mode(Zoom.FitToWidth)
        self.refresh()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self.show_zoom()
        return super().eventFilter(watched, event)

    def page_count(self) -> int:
        return self.document.pageCount()

    def current(self) -> int:
        """The 0-based page shown (the one at the top of the view)."""
        return self.view.pageNavigator().currentPage()

    def go_to(self, page: int) -> None:
        if 0 <= page < self.page_count() and page != self.current():
            navigator = self.view.pageNavigator()
            navigator.jump(page, QPointF(), navigator.currentZoom())
        self.show_page()

    def refresh(self) -> None:
        """After a (new) document loaded: the count, and back to page 1."""
        count = self.page_count()
        self.page.setMaximum(max(count, 1))
        self.count.setText(f"of {count}")
        self.setEnabled(count > 0)
        self.show_page()
        self.show_zoom()

    def show_page(self, *_changed: object) -> None:
        page = self.current()
        self.page.blockSignals(True)  # showing the page must not jump to it again
        self.page.setValue(page + 1)
        self.page.blockSignals(False)
        self.previous.setEnabled(page > 0)
        self.next.setEnabled(page < self.page_count() - 1)

    def set_zoom_mode(self, mode: QPdfView.ZoomMode) -> None:
        self.view.setZoomMode(mode)
        self.show_zoom()

    def step_zoom(self, direction: int) -> None:
        """The next zoom step up or down from what is shown now (a fitted view included)."""
        now = self.shown_zoom()
        if direction > 0:
            steps = [z for z in ZOOM_STEPS if z > now + 0.01] or [ZOOM_STEPS[-1]]
            factor = steps[0]
        else:
            steps = [z for z in ZOOM_STEPS if z < now - 0.01] or [ZOOM_STEPS[0]]
            factor = steps[-1]
        self.view.setZoomMode(Zoom.Custom)
        self.view.setZoomFactor(factor)
        self.show_zoom()

    def shown_zoom(self) -> float:
        """The zoom factor on screen: in a fitted mode, the page's width shown over its width
        at 100 % (QPdfView keeps its own factor only for the custom zoom)."""
        if self.view.zoomMode() == Zoom.Custom or not self.page_count():
            return self.view.zoomFactor()
        points = self.document.pagePointSize(max(self.current(), 0))
        at_100 = points.width() * self.view.logicalDpiX() / 72
        height_100 = points.height() * self.view.logicalDpiY() / 72
        margins = self.view.documentMargins()
        room = self.view.viewport().width() - margins.left() - margins.right()
        fit = room / at_100 if at_100 else 1.0
        if self.view.zoomMode() == Zoom.FitInView and height_100:
            tall = self.view.viewport().height() - margins.top() - margins.bottom()
            fit = min(fit, tall / height_100)
        return max(fit, 0.01)

    def show_zoom(self, *_changed: object) -> None:
        mode = self.view.zoomMode()
        self.fit_width.setChecked(mode == Zoom.FitToWidth)
        self.fit_page.setChecked(mode == Zoom.FitInView)
        self.zoom_label.setText(f"{round(self.shown_zoom() * 100)} %")
