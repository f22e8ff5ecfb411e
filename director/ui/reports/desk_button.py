"""The match desk's Print button: this match's blank scoresheet or its match report."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMenu, QPushButton, QWidget

from director.domain.errors import UserError
from director.domain.event import MatchInfo
from director.ui.desk.match_picker import match_label
from director.ui.reports.request import ReportRequest

if TYPE_CHECKING:
    from director.ui.context import EventContext
    from director.ui.reports.preview import ReportPreview


class MatchPrintButton(QPushButton):
    """Print… with a menu: the scoresheet to fill in at the table, or the match report of
    what has been recorded (the first item is the one the match's state calls for)."""

    def __init__(
        self,
        ctx: EventContext,
        match_source: Callable[[], MatchInfo | None],
        parent: QWidget | None = None,
        settings: QSettings | None = None,
    ) -> None:
        super().__init__("Print…", parent)
        self.ctx = ctx
        self.match_source = match_source
        self.settings = settings if settings is not None else QSettings()
        self.preview: ReportPreview | None = None
        self.setToolTip("Print this match's scoresheet or its match report")
        self.choices = QMenu(self)
        self.setMenu(self.choices)
        self.choices.aboutToShow.connect(self._fill)

    def _fill(self) -> None:
        self.choices.clear()
        match = self.match_source()
        if match is None:
            return
        kinds = [("scoresheet", "Scoresheet (to fill in)"), ("match-report", "Match report")]
        if match.games or match.forfeit_by is not None:
            kinds.reverse()  # played: the report is what is wanted now
        for kind, text in kinds:
            action = self.choices.addAction(text)
            action.triggered.connect(lambda _checked=False, k=kind: self.open_preview(k))

    def open_preview(self, kind: str) -> ReportPreview | None:
        match = self.match_source()
        if match is None:
            return None
        from director.ui.reports.preview import ReportPreview

        request = ReportRequest(kind, match.round, match.id, match_label=match_label(match))
        try:
            preview = ReportPreview(self.ctx, request, self.settings, self.window())
        except UserError:
            return None  # the event is no longer readable: the desk says so on its next read
        preview.finished.connect(preview.deleteLater)
        self.preview = preview
        preview.show()
        return preview
