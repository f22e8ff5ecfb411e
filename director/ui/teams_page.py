"""The teams page: registration, check-in, withdrawals and the CSV team list.

Every change goes through a service via `ctx.change`; the page refreshes on `ctx.changed`.
Refusals (a team already paired cannot be removed, a duplicate name, ...) are shown in the
page's message bar in the service's words.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QStackedWidget,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from director.domain.changes import Changes
from director.domain.errors import UserError
from director.domain.event import TeamInfo
from director.domain.rules import EventFormat
from director.domain.teamlist import MAX_FILE_BYTES
from director.domain.wording import counted
from director.store.files import atomic_write, read_limited
from director.ui.check_delegate import CenteredCheckDelegate
from director.ui.context import EventContext
from director.ui.message_bar import MessageBar, ask
from director.ui.refresh import RefreshWhenShown
from director.ui.style import hint, page_header, page_layout, section_title
from director.ui.team_model import CHECK_FIELDS, COLUMNS, SHOW, TeamFilter, TeamModel, counts_text

STRETCH_COLUMNS = ("Team", "Board 1", "Board 2", "Club")
BOARD_COLUMNS = {"player1": 1, "player2": 2}  # the columns of each board's player
# the empty page's words on the CSV, by entrant (FORMATS.md, team list and player list)
if TYPE_CHECKING:  # imported when first asked for: with the club's search behind it, the
    # dialogs' import was most of this page's own (about 90 ms) while the event opened; the
    # services when first called: the page is first shown from the event's first look, before
    # the database layer (SQLAlchemy) has loaded (ui/context.py)
    from director.ui.csv_import_dialog import CsvImportDialog
    from director.ui.team_dialog import AddPlayerDialog, AddTeamDialog

OPENING = "the event is still opening"  # the seed button's reason while shown from its first look
CSV_COLUMNS = {
    "team": "team, player1, player2, and optionally club, rating, seed",
    "player": "player, and optionally club, rating, seed",
}


class TeamsPage(QWidget):
    title = "Teams"

    def __init__(self, ctx: EventContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.entrant = ""  # "team" or "player", as the event's format says: set by refresh
        self.model = TeamModel(ctx, self)
        self.proxy = TeamFilter(self.model, self)
        self.messages = MessageBar(self)
        self.counts = QLabel(self)
        self.counts.setProperty("role", "counts")
        self.search = QLineEdit(self)
        self.search.setPlaceholderText("Search teams, players, clubs  (Ctrl+F)")
        self.search.setClearButtonEnabled(True)
        self.search.setMinimumWidth(220)
        self.search.setMaximumWidth(460)
        self.show_choice = QComboBox(self)
        self.show_choice.addItems(SHOW)
        self.add_button = QPushButton("Add teams…", self)
        self.add_button.setProperty("role", "primary")
        self.remove_button = QPushButton("Remove", self)
        self.withdraw_button = QPushButton("Withdraw", self)
        self.import_button = QPushButton("Import CSV…", self)
        self.export_button = QPushButton("Export CSV…", self)
        self.seed_button = QPushButton("Seed by rating", self)
        self.seed_button.setObjectName("seedByRating")
        self.table = self._build_table()
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self._build_empty_state())
        self.stack.addWidget(self.table)
        self._lay_out()
        self._connect()
        self.refresh()

    # -- building ------------------------------------------------------------------------------

    def _build_table(self) -> QTableView:
        table = QTableView(self)
        table.setModel(self.proxy)
        table.setSortingEnabled(True)
        table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        table.setAlternatingRowColors(True)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
        )
        table.verticalHeader().hide()
        table.verticalHeader().setDefaultSectionSize(30)
        header = table.horizontalHeader()
        header.setHighlightSections(False)
        checks = CenteredCheckDelegate(table)
        for column, spec in enumerate(COLUMNS):
            if spec.field in CHECK_FIELDS:
                table.setItemDelegateForColumn(column, checks)
        metrics = table.fontMetrics()
        for column, spec in enumerate(COLUMNS):
            if spec.title in STRETCH_COLUMNS:
                header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
            else:
                # fixed widths: measuring 1,000 rows to fit contents would slow the page down
                sample = "Withdrawn after round 10" if spec.title == "Status" else spec.title
                header.resizeSection(column, metrics.horizontalAdvance(sample) + 36)
        return table

    def _build_empty_state(self) -> QWidget:
        empty = QWidget(self)
        layout = QVBoxLayout(empty)
        layout.addStretch(1)
        self.empty_title = title = section_title("", empty)
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(title)
        self.empty_text = text = hint("", empty)
        text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(text)
        row = QHBoxLayout()
        row.addStretch(1)
        self.empty_add = QPushButton("", empty)
        importing = QPushButton("Import CSV…", empty)
        for button, slot in ((self.empty_add, self.add_teams), (importing, self.import_csv)):
            button.clicked.connect(lambda _=False, s=slot: s())
            row.addWidget(button)
        row.addStretch(1)
        layout.addLayout(row)
        layout.addStretch(2)
        return empty

    def _lay_out(self) -> None:
        top = page_header("Teams", self.counts, self)
        self.title_label = next(w for w in self.findChildren(QLabel) if w.text() == "Teams")
        top.addWidget(self.import_button, 0, Qt.AlignmentFlag.AlignBottom)
        top.addWidget(self.export_button, 0, Qt.AlignmentFlag.AlignBottom)
        top.addWidget(self.seed_button, 0, Qt.AlignmentFlag.AlignBottom)
        tools = QHBoxLayout()
        tools.setSpacing(8)
        tools.addWidget(self.search, 2)
        tools.addWidget(QLabel("Show", self))
        tools.addWidget(self.show_choice)
        tools.addStretch(1)
        for button in (self.add_button, self.remove_button, self.withdraw_button):
            tools.addWidget(button)
        layout = page_layout(self)
        layout.addLayout(top)
        layout.addLayout(tools)
        layout.addWidget(self.messages)
        layout.addWidget(self.stack, 1)

    def _connect(self) -> None:
        # results do not change the team list
        self.refresher = RefreshWhenShown(self.ctx, self, self.refresh, concerns=Changes.structure)
        self.model.refused.connect(self._refused)
        self.search.textChanged.connect(self.proxy.set_text)
        self.show_choice.currentTextChanged.connect(self.proxy.set_show)
        self.add_button.clicked.connect(self.add_teams)
        self.remove_button.clicked.connect(self.remove_selected)
        self.withdraw_button.clicked.connect(self.withdraw_selected)
        self.import_button.clicked.connect(lambda _checked=False: self.import_csv())
        self.export_button.clicked.connect(lambda _checked=False: self.export_csv())
        self.seed_button.clicked.connect(self.seed_by_rating)
        self.table.selectionModel().selectionChanged.connect(self._update_buttons)
        self.table.itemDelegate().closeEditor.connect(self._edited_one_row)
        QShortcut(QKeySequence.StandardKey.Find, self, self.search.setFocus)
        QShortcut(QKeySequence.StandardKey.Delete, self.table, self.remove_selected)

    # -- state ---------------------------------------------------------------------------------

    def _show_entrant(self, entrant: str, boards: tuple[int, ...]) -> None:
        """The page in the words of who enters: a team with a player per board, or a player
        alone (RULES §10), with only the boards the format has."""
        if entrant == self.entrant:
            return
        self.entrant = self.model.entrant = entrant
        plural = f"{entrant}s"
        self.title_label.setText(plural.capitalize())
        self.add_button.setText(f"Add {plural}…")
        self.empty_add.setText(f"Add {plural}…")
        self.empty_title.setText(f"No {plural} yet")
        self.empty_text.setText(
            f"Add the {plural} one by one, or import a {entrant} list (CSV with the columns "
            f"{CSV_COLUMNS[entrant]})."
        )
        self.show_choice.setItemText(0, f"All {plural}")  # the filter shows all but its own
        others = "players, clubs" if entrant == "player" else "teams, players, clubs"
        self.search.setPlaceholderText(f"Search {others}  (Ctrl+F)")
        for column, spec in enumerate(COLUMNS):
            board = BOARD_COLUMNS.get(spec.field)
            # one board: the player is the entrant, named in the entrant's column
            self.table.setColumnHidden(column, board is not None and len(boards) == 1)
        self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(COLUMNS) - 1)

    def refresh(self) -> None:
        look = self.ctx.first_look
        if look is not None:  # the event's file, before its database is open: no refusal yet
            self.show_teams(look.info.options.match.event_format, look.teams, OPENING)
            return
        from director.services.teams import entrant_format, list_teams, seeding_refusal

        record = self.ctx.read(entrant_format)
        teams = self.ctx.read(list_teams)
        refusal = self.ctx.read(seeding_refusal)  # the service's answer, shown as the reason
        self.show_teams(record, teams, refusal)

    def show_teams(self, record: EventFormat, teams: list[TeamInfo], refusal: str) -> None:
        """The page as it shows `teams` of an event of this format; `refusal`: why they cannot
        be seeded by rating now ('' when they can)."""
        self._show_entrant(record.entrant, record.boards)
        self.model.set_teams(teams)
        self.counts.setText(counts_text(teams, self.entrant))
        self.stack.setCurrentIndex(1 if teams else 0)
        self.export_button.setEnabled(bool(teams))
        self.seed_button.setEnabled(not refusal)
        self.seed_button.setToolTip(
            refusal or "Seed every team again by rating, highest first (kept in the audit log)"
        )
        self._update_buttons()

    def _edited_one_row(self) -> None:
        """An inline edit is about one team: rows still selected from before would make
        Withdraw or Remove act on teams the director did not mean, so only its row stays."""
        current = self.table.currentIndex()
        if current.isValid():
            flags = QItemSelectionModel.SelectionFlag
            self.table.selectionModel().select(current, flags.ClearAndSelect | flags.Rows)

    def _refused(self, message: str) -> None:
        self.messages.show_error(message)
        self.refresh()  # another station may have changed the row: show what is stored

    def selected_teams(self) -> list[TeamInfo]:
        rows = self.table.selectionModel().selectedRows()
        return [self.model.team_at(self.proxy.mapToSource(i).row()) for i in rows]

    def _update_buttons(self) -> None:
        chosen = self.selected_teams()
        self.remove_button.setEnabled(bool(chosen))
        self.withdraw_button.setEnabled(bool(chosen))
        reinstate = bool(chosen) and all(t.withdrawn for t in chosen)
        self.withdraw_button.setText("Reinstate" if reinstate else "Withdraw")

    # -- actions -------------------------------------------------------------------------------

    def add_teams(self) -> AddTeamDialog | AddPlayerDialog:
        from director.ui.team_dialog import AddPlayerDialog, AddTeamDialog

        dialog = (AddPlayerDialog if self.entrant == "player" else AddTeamDialog)(self.ctx, self)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def remove_selected(self) -> None:
        chosen = self.selected_teams()
        if not chosen:
            return
        names = ", ".join(t.name for t in chosen)
        ask(
            self,
            f"Remove {self.entrant}s",
            f"Remove {names}?",
            "Remove",
            lambda: self._remove(chosen),
            f"A {self.entrant} that is in a pairing cannot be removed: withdraw it instead.",
        )

    def _remove(self, teams: list[TeamInfo]) -> None:
        from director.services.teams import remove_team

        for team in teams:
            try:
                self.ctx.change(remove_team, team.id)
            except UserError as exc:
                self.messages.show_error(str(exc))
                return
        self.messages.show_info(f"Removed {', '.join(t.name for t in teams)}.")

    def withdraw_selected(self) -> None:
        from director.services.teams import withdraw_team as withdraw_service

        chosen = self.selected_teams()
        reinstate = bool(chosen) and all(t.withdrawn for t in chosen)
        done: list[TeamInfo] = []
        for team in chosen:
            try:
                done.append(self.ctx.change(withdraw_service, team.id, reinstate))
            except UserError as exc:
                self.messages.show_error(str(exc))
                return
        if done and reinstate:
            self.messages.show_info(f"Reinstated {', '.join(t.name for t in done)}.")
        elif done:
            after = done[0].withdrawn_after_round or 0
            self.messages.show_info(
                f"Withdrew {', '.join(t.name for t in done)}: not paired from round "
                f"{after + 1} on; results already played stand."
            )

    def seed_by_rating(self) -> None:
        from director.services.teams import seed_by_rating

        try:
            teams = self.ctx.change(seed_by_rating)
        except UserError as refusal:
            self.messages.show_error(str(refusal))
            return
        top = ", ".join(t.name for t in teams[:3])
        self.messages.show_info(f"Seeded by rating: {top}{' …' if len(teams) > 3 else ''}.")

    def files_folder(self) -> Path:
        """Where team lists are looked for: beside the event file (a server event: home),
        never the program's own folder."""
        if self.ctx.db.is_sqlite and self.ctx.db.path.parent.is_dir():
            return self.ctx.db.path.parent
        return Path.home()

    def import_csv(self, path: str | None = None) -> CsvImportDialog | None:
        """Preview a team list and open the import dialog; nothing is written before Import."""
        from director.ui.csv_import_dialog import CsvImportDialog, ImportCancelled, read_team_list

        if path is None:
            path, _ = QFileDialog.getOpenFileName(
                self,
                "Import a team list",
                str(self.files_folder()),
                "Team lists (*.csv *.txt);;All files (*)",
            )
            if not path:
                return None
        name = Path(path).name
        try:  # at most the limit, never a pipe: the dialog lists every file
            data = read_limited(path, "a team list", MAX_FILE_BYTES, shown=name)
        except UserError as exc:
            self.messages.show_error(str(exc))
            return None
        try:
            preview = read_team_list(self.ctx, data, name, self)
        except ImportCancelled:
            return None  # the person pressed Cancel: nothing to say
        except UserError as exc:
            self.messages.show_error(f"{name}: {exc}")
            return None
        if preview is None:
            return None
        dialog = CsvImportDialog(self.ctx, data, preview, name, self)
        dialog.accepted.connect(lambda: self._imported(dialog))
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def _imported(self, dialog: CsvImportDialog) -> None:
        result = dialog.result_
        if result is None:
            return
        text = f"Imported {counted(len(result.imported), self.entrant)}."
        if result.skipped:
            count = len(result.skipped)
            text += f" Skipped {counted(count, 'bad row')}."
        if result.warnings:  # names no font prints: the director may want to respell them
            text += " " + " ".join(f"Warning: {w}." for w in result.warnings)
        self.messages.show_info(text)

    def export_csv(self, path: str | None = None) -> Path | None:
        from director.services.events import get_event
        from director.services.teams import export_teams

        if path is None:
            suggested = f"{self.ctx.read(get_event).name} {self.entrant}s.csv"
            path, _ = QFileDialog.getSaveFileName(
                self, "Export the team list", suggested, "Team lists (*.csv)"
            )
            if not path:
                return None
        target = Path(path)
        try:
            atomic_write(target, self.ctx.read(export_teams).encode("utf-8"))
        except UserError as exc:
            self.messages.show_error(str(exc))
            return None
        self.messages.show_info(
            f"Exported {counted(self.model.rowCount(), self.entrant)} to {target}."
        )
        return target
