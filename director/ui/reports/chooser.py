"""The question before a round's report: which round, and (for scoresheets and match reports)
every match of it or one match. Only rounds and matches the event has are offered."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from director.domain.event import MatchInfo
from director.services.reports import report
from director.services.rounds import RoundInfo
from director.ui.desk.match_picker import add_match, match_label
from director.ui.elided import narrow
from director.ui.reports.request import ReportRequest, needs_match
from director.ui.style import hint, section_title

OUTSIDE_ROUNDS = -1  # the round box's entry for matches played outside any round


class ReportChooser(QDialog):
    """Pick the round (default the latest) and, where it applies, one match or all of them.

    `chosen()` is the request to render once the dialog is accepted."""

    def __init__(
        self,
        kind: str,
        rounds: Sequence[RoundInfo],
        other_matches: Sequence[MatchInfo] = (),
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.kind = kind
        self.matches: dict[int, tuple[MatchInfo, ...]] = {r.number: r.matches for r in rounds}
        first = ReportRequest(kind)
        self.setWindowTitle(first.title)
        self.round_box = QComboBox(self)
        self.round_box.setObjectName("round")
        after = "After round" if report(kind).after_round else "Round"
        for info in rounds:
            unpublished = "" if info.published else " (not published)"
            self.round_box.addItem(f"{after} {info.number}{unpublished}", info.number)
        if other_matches and needs_match(kind):
            self.matches[OUTSIDE_ROUNDS] = tuple(other_matches)
            self.round_box.addItem("Matches outside the rounds", OUTSIDE_ROUNDS)
        self.match_box = QComboBox(self)
        self.match_box.setObjectName("match")
        narrow(self.match_box)
        form = QFormLayout()
        form.addRow("&Round:", self.round_box)
        if needs_match(kind):
            form.addRow("&Matches:", self.match_box)
        else:
            self.match_box.hide()
        self.round_box.currentIndexChanged.connect(lambda _index: self._fill_matches())
        # the latest round is what is printed most: it is chosen, so Enter is enough
        self.round_box.setCurrentIndex(len(rounds) - 1 if rounds else 0)
        self._fill_matches()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.preview_button = QPushButton("&Preview", self)
        self.preview_button.setProperty("role", "primary")
        self.preview_button.setDefault(True)
        buttons.addButton(self.preview_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(section_title(first.title, self))
        layout.addWidget(hint(self._explanation(), self))
        layout.addLayout(form)
        layout.addWidget(buttons)
        self.resize(460, self.sizeHint().height())

    def _explanation(self) -> str:
        if needs_match(self.kind):
            return "Print every match of a round in one go, or a single match."
        if report(self.kind).after_round:
            return "The table as it stood after the round you choose."
        return "Choose the round to print."

    def _fill_matches(self) -> None:
        self.match_box.clear()
        number = self.round_box.currentData()
        matches = self.matches.get(number, ()) if isinstance(number, int) else ()
        if number != OUTSIDE_ROUNDS:  # a whole round's sheets in one go
            self.match_box.addItem(f"Every match of the round ({len(matches)})", None)
        for match in sorted(matches, key=lambda m: m.table):
            add_match(self.match_box, match)

    def match_info(self, match_id: int) -> MatchInfo:
        return next(m for ms in self.matches.values() for m in ms if m.id == match_id)

    def choose(self, round_number: int, match_id: int | None = None) -> None:
        """Select a round (and a match of it): what a person does with the two boxes."""
        self.round_box.setCurrentIndex(self.round_box.findData(round_number))
        self.match_box.setCurrentIndex(self.match_box.findData(match_id))

    def chosen(self) -> ReportRequest:
        number = self.round_box.currentData()
        round_number = number if isinstance(number, int) and number != OUTSIDE_ROUNDS else None
        match = self.match_box.currentData() if needs_match(self.kind) else None
        if not isinstance(match, int):
            return ReportRequest(self.kind, round_number)
        return ReportRequest(
            self.kind, round_number, match, match_label=match_label(self.match_info(match))
        )
