"""The in-app help: Markdown pages from resources/help shown in a browser window."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, QUrl
from PySide6.QtGui import QDesktopServices, QKeySequence, QShortcut
from PySide6.QtWidgets import QHBoxLayout, QListWidget, QTextBrowser, QWidget

from director.resources import resource_path
from director.ui.style import app_icon

# key, title in the list, file in resources/help
TOPICS = (
    ("start", "Getting started", "getting-started.md"),
    ("rules", "Rules", "rules.md"),
    ("options", "Options", "options.md"),
    ("keys", "Keys", "keys.md"),
)


def help_text(key: str) -> str:
    file_name = next(f for k, _title, f in TOPICS if k == key)
    return resource_path("help", file_name).read_text(encoding="utf-8")


class HelpWindow(QWidget):
    """A separate window, so the help can stay open beside the page it explains."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle("Tandem Director Help")
        self.setWindowIcon(app_icon())
        self.resize(980, 700)
        self.topics = QListWidget(self)
        self.topics.setObjectName("navigation")
        self.topics.setFixedWidth(200)
        for _key, title, _file in TOPICS:
            self.topics.addItem(title)
            self.topics.item(self.topics.count() - 1).setSizeHint(QSize(0, 38))
        self.browser = QTextBrowser(self)
        self.browser.setOpenLinks(False)  # links between help pages are handled here
        self.browser.anchorClicked.connect(self._follow)
        self.browser.document().setDocumentMargin(24)
        self.browser.document().setDefaultStyleSheet(
            "h1 { font-size: 20pt; } h2 { font-size: 14pt; margin-top: 16px; } "
            "td, th { padding: 4px 10px; } th { background: #f0f3f2; }"
        )
        self.topics.currentRowChanged.connect(self._show_row)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.topics)
        layout.addWidget(self.browser, 1)
        self.topics.setCurrentRow(0)
        close = QShortcut(QKeySequence(Qt.Key.Key_Escape), self)
        close.setContext(Qt.ShortcutContext.WindowShortcut)
        close.activated.connect(self.close)  # a help window closes like a dialog

    @property
    def topic(self) -> str:
        return TOPICS[max(0, self.topics.currentRow())][0]

    def show_topic(self, key: str) -> None:
        row = next(i for i, (k, _title, _file) in enumerate(TOPICS) if k == key)
        self.topics.setCurrentRow(row)
        self._show_row(row)
        self.show()
        self.raise_()
        self.activateWindow()

    def _show_row(self, row: int) -> None:
        if 0 <= row < len(TOPICS):
            self.browser.setMarkdown(help_text(TOPICS[row][0]))

    def _follow(self, url: QUrl) -> None:
        target = url.toString()
        for key, _title, file_name in TOPICS:
            if target == file_name:
                self.show_topic(key)
                return
        if url.scheme() in ("http", "https", "mailto"):
            QDesktopServices.openUrl(url)
