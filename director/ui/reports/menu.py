"""The Reports menu: one action per report, and the latest round's scoresheets in one click.

A report of a round asks which round first (`ReportChooser`); the others open their preview
at once. The menu reads the open event through `ctx_source()` each time, so it never holds
on to an event that has been closed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialog, QMenu, QWidget

from director.domain.errors import UserError
from director.services.reports import report, title_of
from director.ui.reports.request import ReportRequest, needs_match, needs_round
from director.ui.waiting import busy

if TYPE_CHECKING:  # the database layer loads when an event is first opened
    from director.ui.context import EventContext
    from director.ui.reports.chooser import ReportChooser
    from director.ui.reports.preview import ReportPreview

# the menu's sections: a round's papers, the tables, the lists, everything at once
SECTIONS = (
    ("pairings", "scoresheet", "match-report", "results"),
    ("standings", "crosstable", "boards", "bracket"),
    ("teams", "met", "blank-scoresheet", "audit"),
    ("event",),
)


class ReportsMenu(QMenu):
    def __init__(
        self,
        ctx_source: Callable[[], EventContext | None],
        settings: QSettings,
        show_error: Callable[[str], None],
        parent: QWidget,
        slip_address: Callable[[], str] = lambda: "",
    ) -> None:
        super().__init__("&Reports", parent)
        self.ctx_source = ctx_source
        self.slip_address = slip_address  # the phone service's address while it is on
        self.settings = settings
        self.show_error = show_error
        self.chooser: ReportChooser | None = None  # the last ones opened (tests look at them)
        self.preview: ReportPreview | None = None
        self.met_dialog: QDialog | None = None
        self.round_action = QAction("Scoresheets for the latest round", self)
        self.round_action.setToolTip("Every match's scoresheet of the latest round, at once")
        self.round_action.triggered.connect(lambda _checked=False: self.round_scoresheets())
        self.addAction(self.round_action)
        self.kind_actions: dict[str, QAction] = {}
        for section in SECTIONS:
            self.addSeparator()
            for kind in section:
                dots = "…" if needs_round(kind) else ""
                action = QAction(f"{title_of(kind)}{dots}", self)
                action.setData(kind)
                action.triggered.connect(lambda _checked=False, k=kind: self.open_report(k))
                self.addAction(action)
                self.kind_actions[kind] = action
        self.aboutToShow.connect(self.refresh)

    def refresh(self) -> None:
        """Name the latest round in the one-click action (read as the menu opens)."""
        latest = self._latest_round()
        self.round_action.setEnabled(latest is not None)
        if latest is None:
            self.round_action.setText("Scoresheets for the latest round (none paired yet)")
        else:
            self.round_action.setText(f"Scoresheets for round {latest}")

    def _latest_round(self) -> int | None:
        ctx = self.ctx_source()
        if ctx is None:
            return None
        from director.services.reports import round_numbers

        try:
            numbers = ctx.read(round_numbers)
        except UserError:
            return None
        return numbers[-1] if numbers else None

    # -- the actions ---------------------------------------------------------------------------

    def round_scoresheets(self) -> ReportPreview | None:
        """Every scoresheet of the latest round, straight to the preview."""
        latest = self._latest_round()
        if latest is None:
            self.show_error("No round is paired yet: there are no scoresheets to print.")
            return None
        return self.show_preview(ReportRequest("scoresheet", latest))

    def open_report(self, kind: str) -> QDialog | None:
        """A round's report asks which round (and match) first; the others show at once."""
        ctx = self.ctx_source()
        if ctx is None:
            return None
        if kind == "met":  # the model's parameters first (RULES §9)
            from director.ui.reports.met_dialog import MetDialog

            dialog = MetDialog(self.parentWidget())
            dialog.accepted.connect(
                lambda: self.show_preview(ReportRequest(kind, met=dialog.parameters()))
            )
            dialog.finished.connect(dialog.deleteLater)
            dialog.open()
            self.met_dialog = dialog
            return dialog
        if not needs_round(kind):
            return self.show_preview(ReportRequest(kind))
        from director.services.matches import list_matches
        from director.services.rounds import list_rounds
        from director.ui.reports.chooser import ReportChooser

        try:
            with busy():
                rounds = ctx.read(list_rounds)
                others = [m for m in ctx.read(list_matches) if m.round is None]
        except UserError as refusal:
            self.show_error(f"Cannot make the {title_of(kind).lower()}: {refusal}")
            return None
        if not others or not needs_match(kind):
            others = []
        if not rounds and not others:
            if report(kind).sheet:  # one round's matches: there must be a paired round
                self.show_error(
                    f"No round is paired yet: there are no {title_of(kind).lower()} to print."
                )
                return None
            return self.show_preview(ReportRequest(kind))  # standings before round 1
        chooser = ReportChooser(kind, rounds, others, self.parentWidget())
        chooser.accepted.connect(lambda: self.show_preview(chooser.chosen()))
        chooser.finished.connect(chooser.deleteLater)
        self.chooser = chooser
        chooser.open()
        return chooser

    def show_preview(self, request: ReportRequest) -> ReportPreview | None:
        ctx = self.ctx_source()
        if ctx is None:
            return None
        if request.kind == "scoresheet" and not request.slip_address:
            request = replace(request, slip_address=self.slip_address())
        from director.ui.reports.preview import ReportPreview

        try:
            preview = ReportPreview(ctx, request, self.settings, self.parentWidget())
        except UserError as refusal:
            self.show_error(f"Cannot make the {title_of(request.kind).lower()}: {refusal}")
            return None
        preview.finished.connect(preview.deleteLater)
        self.preview = preview
        preview.show()
        return preview
