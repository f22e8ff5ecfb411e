"""The Club page: open the club's register, find a person as you type, see their card (rating
chart, events, head to head), and publish this event's results after the matching step.

Every value comes from `services.club` through the club's own context (`ui/club_context.py`);
the event's results through the event's (`ctx.read`). Names are plain text everywhere.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from director.domain.errors import UserError
from director.domain.rating import history_points, shown
from director.domain.wording import counted
from director.services import club
from director.services.teams import entrant_format, seed_by_club_rating
from director.ui.club_context import ClubContext
from director.ui.context import EventContext
from director.ui.models.club_model import ClubModel
from director.ui.rating_chart import RatingChart
from director.ui.standings_page import table_view
from director.ui.style import error_label, hint, page_header, page_layout, show_error

if TYPE_CHECKING:
    from director.ui.restore_dialog import RestoreDialog

CLUB_FILES = "Tandem Director club (*.club)"


def plain(text: str, parent: QWidget, role: str = "") -> QLabel:
    label = QLabel(text, parent)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    if role:
        label.setProperty("role", role)
    return label


class PublishDialog(QDialog):
    """The matching step: every name of the event and the person it goes to, before writing.
    A name several persons carry blocks publishing (map it with `club publish --map`)."""

    def __init__(self, results: club.EventResults, matched: list[club.NameMatch],
                 parent: QWidget | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self.setWindowTitle("Publish to the club")
        self.setMinimumWidth(520)
        self.lines = QPlainTextEdit(self)
        self.lines.setReadOnly(True)
        self.lines.setPlainText("\n".join(m.describe() for m in matched))
        self.refusal = error_label(self)
        buttons = QDialogButtonBox(self)
        self.publish_button = buttons.addButton("Publish", QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        if ambiguous := [m for m in matched if m.how == "ambiguous"]:
            show_error(self.refusal, ambiguous[0].describe() + ": give the player the person "
                       "(club link --map NAME=ID) before publishing")  # fmt: skip
            self.publish_button.setEnabled(False)
        layout = QVBoxLayout(self)
        layout.addWidget(
            plain(
                f"{results.name} ({results.event_date}): "
                f"{counted(len(results.matches), 'result')}. Each name goes to:",
                self,
            )
        )
        layout.addWidget(self.lines)  # fmt: skip
        layout.addWidget(self.refusal)
        layout.addWidget(buttons)


class ClubPage(QWidget):
    title = "Club"

    def __init__(self, ctx: EventContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.club: ClubContext | None = None
        self.summary = plain("No club open", self, "counts")
        self.summary.setWordWrap(False)  # one line beside the title, as every page's count
        self.open_button = QPushButton("Open club…", self)
        self.publish_button = QPushButton("Publish this event…", self)
        self.publish_button.setEnabled(False)
        self.seed_button = QPushButton("Seed by club rating", self)
        self.seed_button.setToolTip(
            "Before round 1: each team whose players are the club's "
            "persons takes their club rating, then all are seeded by it"
            if ctx.read(entrant_format).entrant == "team"
            else "Before round 1: each player who is one of the club's persons takes their "
            "club rating, then all are seeded by it"
        )
        self.seed_button.setEnabled(False)
        self.restore_button = QPushButton("Restore from backup…", self)
        self.restore_button.setToolTip(
            "Put one of the club's backups back in place of the club file (the file it "
            "replaces is kept beside it)"
        )
        self.restore_button.setEnabled(False)
        self.error = error_label(self)
        self.notice = plain("", self)
        self.notice.setVisible(False)
        self.search = QLineEdit(self)
        self.search.setPlaceholderText("Find a person: name, earlier name or #id")
        self.search.setClearButtonEnabled(True)
        self.search.setEnabled(False)
        self.model = ClubModel()
        self.table = table_view(self)
        self.table.setObjectName("clubPersons")
        self.table.setModel(self.model)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)  # the name takes the rest
        self.name = plain("", self)
        font = self.name.font()
        font.setPointSizeF(font.pointSizeF() * 1.5)
        font.setBold(True)
        self.name.setFont(font)
        self.facts = plain("", self)
        self.rating = plain("", self)
        self.chart = RatingChart(self)
        self.details = QPlainTextEdit(self)
        self.details.setReadOnly(True)
        card = QWidget(self)
        card_layout = QVBoxLayout(card)
        for w in (self.name, self.facts, self.rating, self.chart, self.details):
            card_layout.addWidget(w)
        left = QWidget(self)
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.search)
        left_layout.addWidget(self.table)
        split = QSplitter(self)
        split.addWidget(left)
        split.addWidget(card)
        split.setSizes([560, 640])
        top = page_header("Club", self.summary, self)
        top.addWidget(self.open_button)
        top.addWidget(self.seed_button)
        top.addWidget(self.publish_button)
        top.addWidget(self.restore_button)
        layout = page_layout(self)
        layout.addLayout(top)
        layout.addWidget(hint("The club's register: every person across events, their rating "
                              "(RULES §12) and history. Publish an event once it is finished.",
                              self))  # fmt: skip
        layout.addWidget(self.error)
        layout.addWidget(self.notice)
        layout.addWidget(split, 1)
        self.open_button.clicked.connect(self.choose_club)
        self.publish_button.clicked.connect(self.publish)
        self.seed_button.clicked.connect(self.seed)
        self.restore_button.clicked.connect(self.restore_from_backup)
        self.search.textChanged.connect(self.find_persons)
        self.table.selectionModel().currentRowChanged.connect(self.show_person)
        self.destroyed.connect(self._close_club_of(self))

    @staticmethod
    def _close_club_of(page: ClubPage) -> object:
        holder = page.__dict__  # read when the page is gone: no method of it runs then
        page_ctx = page.ctx

        def close() -> None:
            opened = holder.get("club")
            if opened is not None:
                if page_ctx.club is opened:
                    page_ctx.club = None
                opened.close()

        return close

    # --- opening ---------------------------------------------------------------------

    def choose_club(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open the club", "", CLUB_FILES)
        if path:
            self.open_club(path)

    def open_club(self, target: str) -> bool:
        try:
            opened = ClubContext.open(target, self)
        except UserError as exc:
            show_error(self.error, str(exc))
            return False
        if self.club is not None:
            self.club.close()
        self.club = self.ctx.club = opened
        show_error(self.error, "")
        self.search.setEnabled(True)
        self.publish_button.setEnabled(True)
        self.seed_button.setEnabled(True)
        self.restore_button.setEnabled(opened.db.is_sqlite)  # a server's: restored on the server
        self.reload()
        return True

    def close_club(self) -> None:
        """Close the club (a restore is refused while it is open)."""
        if self.club is not None:
            if self.ctx.club is self.club:
                self.ctx.club = None
            self.club.close()
            self.club = None
        for widget in (self.search, self.publish_button, self.seed_button, self.restore_button):
            widget.setEnabled(False)

    def show_notice(self, text: str) -> None:
        self.notice.setText(text)
        self.notice.setVisible(bool(text))

    def restore_from_backup(self) -> RestoreDialog | None:
        """Restore from backup…: the club's backups, as the event's File menu lists an event's;
        the club is closed, restored and opened again."""
        if self.club is None or not self.club.db.is_sqlite:
            return None
        from director.ui.restore_dialog import RestoreDialog, restore_closed

        target = self.club.db.target
        restore = partial(restore_closed, self.close_club, self.open_club, self.show_notice, target)
        dialog = RestoreDialog(Path(target), restore, self)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def reload(self) -> None:
        assert self.club is not None
        rows = self.club.read(club.club_table)
        rated = sum(r.place is not None for r in rows)
        self.summary.setText(f"{self.club.title}: {counted(len(rows), 'person')}, {rated} rated")
        self.model.set_rows(rows)
        self.find_persons(self.search.text())

    # --- finding and showing a person -------------------------------------------------

    def find_persons(self, text: str) -> None:
        if self.club is None:
            return
        if not text.strip():
            self.model.show_only(None)
        else:
            hits = self.club.read(club.search_persons, text, len(self.model.every))
            self.model.show_only({h.id for h in hits})
        if self.model.rowCount():
            self.table.selectRow(0)
        else:
            self.show_card(None)

    def show_person(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self.club is None or not current.isValid():
            return
        self.show_card(self.club.read(club.person_view, self.model.person(current.row())))

    def show_card(self, view: club.PersonView | None) -> None:
        if view is None:
            for label in (self.name, self.facts, self.rating):
                label.setText("")
            self.chart.set_points([])
            self.details.setPlainText("")
            return
        names = view.names
        self.name.setText(view.name)
        facts = [f"#{view.id}", view.club, view.country]
        if view.aliases:
            facts.append("also known as " + ", ".join(view.aliases))
        self.facts.setText(" · ".join(f for f in facts if f))
        s = view.standing
        self.rating.setText(
            "No rated match yet" if s is None else
            f"Rating {shown(s.rating)} · experience {s.experience} · {s.matches} rated"
            + (" · provisional" if s.provisional else "")
        )  # fmt: skip
        self.chart.set_points(history_points(view.history))
        lines = ["Events played:"] + [
            f"  {e.event_date}  {e.name}: {counted(e.matches, 'match', 'matches')}"
            for e in view.events
        ]
        if view.rivals is not None:  # RULES §12: the nemesis report, both of its names
            rivals = (("Nemesis", view.rivals.nemesis), ("Beats most", view.rivals.beaten_most))
            shown_rivals = [f"{label}: {names[r.opponent]} ({r.wins}-{r.losses}"
                            + (f"-{r.draws}" if r.draws else "") + ")"
                            for label, r in rivals if r is not None]  # fmt: skip
            lines += ["", *shown_rivals] if shown_rivals else []
        lines += ["", "Head to head:"] + [  # the longest part last
            f"  against {names.get(r.opponent, '?')}: {r.wins}-{r.losses}"
            + (f"-{r.draws}" if r.draws else "") for r in view.records
        ]  # fmt: skip
        self.details.setPlainText("\n".join(lines))

    # --- seeding the event ------------------------------------------------------------

    def seed(self) -> None:
        assert self.club is not None
        try:
            ratings = self.club.read(club.person_ratings)
            teams = self.ctx.change(seed_by_club_rating, ratings)
        except UserError as exc:
            show_error(self.error, str(exc))
            return
        show_error(self.error, "")
        top = ", ".join(t.name for t in sorted(teams, key=lambda t: t.seed)[:3])
        self.summary.setText(f"Seeded by club rating: {top}{' …' if len(teams) > 3 else ''}")

    # --- publishing -------------------------------------------------------------------

    def publish(self) -> PublishDialog | None:
        """The event's results, every name matched and shown; written once accepted."""
        if self.club is None:
            return None
        try:
            results = self.ctx.read(club.event_results)
            matched = self.club.read(club.match_event, results)
        except UserError as exc:
            show_error(self.error, str(exc))
            return None
        dialog = PublishDialog(results, matched, self)
        dialog.accepted.connect(lambda: self._write(results, matched))
        dialog.open()
        return dialog

    def _write(self, results: club.EventResults, matched: list[club.NameMatch]) -> None:
        assert self.club is not None
        try:
            done = self.club.write(club.publish, results, matched)
        except UserError as exc:
            show_error(self.error, str(exc))
            return
        show_error(self.error, "")
        self.reload()
        published = counted(done.matches, "result")
        self.summary.setText(f"{self.summary.text()} · published {published} of {done.event}")
