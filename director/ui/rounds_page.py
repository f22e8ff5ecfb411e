"""The rounds page: pair the next round, each round's pairings and their status, edits by
hand (swap, pair two teams, the bye), forbidden pairs, pairing again and undoing the last
round. Double-click a match to open it at the desk.

Whether an action is allowed is the service's answer: a refused action (the round has
results, the last round is not finished) shows the service's words in the message bar.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from director.domain.changes import Changes
from director.domain.errors import UserError
from director.domain.event import MatchInfo, TeamInfo, round_status
from director.domain.wording import counted, entrant_words, isolated
from director.services import no_show, rounds
from director.services.bracket_pairing import bracket_views
from director.services.matches import list_matches
from director.services.rounds import RoundInfo
from director.services.teams import entrant_format, withdraw_team
from director.ui.audit_dialog import AuditDialog
from director.ui.bracket_chart import BracketTabs
from director.ui.context import EventContext
from director.ui.forbidden_pairs_dialog import ForbiddenPairsDialog
from director.ui.message_bar import MessageBar, ask
from director.ui.models.round_model import COLUMNS, RoundMatchesModel
from director.ui.no_show_dialog import NoShowDialog
from director.ui.plain import tooltip
from director.ui.refresh import RefreshWhenShown
from director.ui.result_grid import ResultGridDialog
from director.ui.round_dialogs import EditPairingsDialog, PairRoundDialog
from director.ui.style import (
    ACCENT,
    ACCENT_LIGHT,
    hint,
    page_header,
    page_layout,
    section_title,
)

RoundsDialog = (
    PairRoundDialog
    | EditPairingsDialog
    | ForbiddenPairsDialog
    | NoShowDialog
    | AuditDialog
    | ResultGridDialog
)

ROUND_LIST_STYLE = f"""
QListWidget#roundList::item {{
    padding: 6px 10px; border-bottom: 1px solid #e4e9e7; color: #22302b;
}}
QListWidget#roundList::item:selected {{
    background: {ACCENT_LIGHT}; color: {ACCENT}; font-weight: bold;
}}
"""


PAIR_TIP = "Preview the next round's pairings and publish them (Ctrl+Shift+P)"
FORBIDDEN_TIP = "Teams that must not meet (same club, family)"
REPAIR_TIP = "Pair the last round again with the engine: shown first, with the edits it drops"
UNDO_TIP = "Delete the last round's pairings (kept in the audit log)"
RESULTS_TIP = (
    "Type the chosen round's final scores from the paper scoresheets, every table in one "
    "grid (Ctrl+Shift+R)"
)


TOP_HEIGHT = 170  # a knockout's rounds and batch above its brackets: four lines


class RoundsPage(QWidget):
    title = "Rounds"
    PAIR_READY = "Pair ready matches…"  # a knockout's pair button (the help page names it)

    def __init__(self, ctx: EventContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.rounds: list[RoundInfo] = []
        self.dialog: RoundsDialog | None = None
        self.question: QMessageBox | None = None
        self.messages = MessageBar(self)
        self.summary = QLabel(self)
        self.summary.setProperty("role", "counts")
        self.pair_button = QPushButton("Pair next round…", self)
        self.pair_button.setProperty("role", "primary")
        self.pair_button.setToolTip(PAIR_TIP)
        self.edit_button = QPushButton("Edit pairings…", self)
        self.forbidden_button = QPushButton("Forbidden pairs…", self)
        self.forbidden_button.setToolTip(FORBIDDEN_TIP)
        self.audit_button = QPushButton("Audit log…", self)
        self.audit_button.setToolTip(
            "Every correction, override, forfeit and adjustment with its reason (the chosen"
            " match's first, when one is chosen); printable"
        )
        self.repair_button = QPushButton("Pair again", self)
        self.repair_button.setToolTip(REPAIR_TIP)
        self.undo_button = QPushButton("Undo last round", self)
        self.undo_button.setToolTip(UNDO_TIP)
        self.waiting_for = ""  # the "round N is not finished" message shown, while it holds
        self.results_button = QPushButton("Enter results…", self)
        self.results_button.setObjectName("enterResults")
        self.results_button.setToolTip(RESULTS_TIP)
        self.no_show_button = QPushButton("No-show…", self)
        self.no_show_button.setObjectName("noShow")
        self.no_show_button.setEnabled(False)
        self.round_list = QListWidget(self)
        self.round_list.setObjectName("roundList")
        self.round_list.setFixedWidth(210)
        self.round_list.setStyleSheet(ROUND_LIST_STYLE)
        self.model = RoundMatchesModel()
        self.table = QTableView(self)
        self.table.setObjectName("pairings")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        for column in (0, 2, 4):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.brackets = BracketTabs(self)
        self.brackets.hide()  # a knockout's only
        self.split_pending = False  # the brackets are shown: size the rounds above them
        self.by_match = False
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self._empty_state())
        # the rounds and a round's matches above; a knockout's brackets below, the page's width
        self.split = QSplitter(Qt.Orientation.Vertical, self)
        self.split.setChildrenCollapsible(False)
        body = QWidget(self.split)
        row = QHBoxLayout(body)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.round_list)
        row.addWidget(self.table, 1)
        self.split.addWidget(body)
        self.split.addWidget(self.brackets)
        self.split.setStretchFactor(0, 1)
        self.split.setStretchFactor(1, 4)
        self.stack.addWidget(self.split)
        self.split.installEventFilter(self)
        self._lay_out()
        self._connect()
        self.refresh()

    def _empty_state(self) -> QWidget:
        empty = QWidget(self)
        layout = QVBoxLayout(empty)
        layout.addStretch(1)
        title = section_title("No round paired yet", empty)
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        text = hint("Register the teams, then press “Pair next round…” to see round 1.", empty)
        text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(title)
        layout.addWidget(text)
        layout.addStretch(2)
        return empty

    def _lay_out(self) -> None:
        top = page_header("Rounds", self.summary, self)
        tools = QHBoxLayout()
        tools.addWidget(self.pair_button)
        tools.addStretch(1)
        for button in (
            self.results_button,
            self.no_show_button,
            self.edit_button,
            self.forbidden_button,
            self.repair_button,
            self.undo_button,
            self.audit_button,
        ):
            tools.addWidget(button)
        layout = page_layout(self)
        layout.addLayout(top)
        layout.addLayout(tools)
        layout.addWidget(self.messages)
        layout.addWidget(self.stack, 1)
        layout.addWidget(hint("Double-click a match to open it at the match desk.", self))

    def _connect(self) -> None:
        self.pair_button.clicked.connect(self.pair_next_round)
        self.edit_button.clicked.connect(self.edit_pairings)
        self.forbidden_button.clicked.connect(self.edit_forbidden_pairs)
        self.audit_button.clicked.connect(self.open_audit)
        self.repair_button.clicked.connect(self.pair_again)
        self.undo_button.clicked.connect(self.undo_last_round)
        self.no_show_button.clicked.connect(self.open_no_show)
        self.table.selectionModel().selectionChanged.connect(self.update_no_show)
        self.round_list.currentRowChanged.connect(self.show_round)
        self.table.doubleClicked.connect(self.open_match)
        self.table.activated.connect(self.open_match)
        self.brackets.activated.connect(self.ctx.match_requested.emit)
        self.brackets.chosen.connect(self.choose_match)
        self.results_button.clicked.connect(self.enter_results)
        for keys, slot in (
            ("Ctrl+Shift+P", self.pair_next_round),
            ("Ctrl+Shift+R", self.enter_results),
        ):
            shortcut = QShortcut(QKeySequence(keys), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(slot)
        self.refresher = RefreshWhenShown(self.ctx, self, self.refresh, apply=self.on_event_changed)

    # -- reading ------------------------------------------------------------------------

    def on_event_changed(self, changes: Changes) -> None:
        matches = changes.only_matches()
        if matches is None or not all([self.refresh_match(m) for m in sorted(matches)]):
            self.refresh()

    def refresh_match(self, match_id: int) -> bool:
        """A result changed: read again only the round that holds the match (a large event
        has hundreds of tables per round). False when the match is in no round shown."""
        position = next(
            (
                i
                for i, info in enumerate(self.rounds)
                if any(m.id == match_id for m in info.matches)
            ),
            None,
        )
        if position is None:
            return False
        info = self.rounds[position]
        matches = tuple(self.ctx.read(list_matches, info.number))
        self.rounds[position] = replace(info, matches=matches, status=round_status(matches))
        item = self.round_list.item(position)
        item.setText(f"Round {info.number}\n{self.rounds[position].status}")
        if self.round_list.currentRow() == position:
            self.set_matches(matches)
            self.update_edit_button(self.rounds[position])
        self.summary.setText(self.summary_text())
        self.update_round_buttons()
        self.show_brackets()
        return True

    def show_brackets(self) -> None:
        """A knockout's brackets drawn as brackets: ready to start (highlighted), playing at
        a table, waiting for a feeder, or decided (RULES §11)."""
        if not self.by_match:
            self.brackets.hide()
            return
        if self.brackets.isHidden():
            self.brackets.show()
            self.split_pending = True
            self.size_split()
        self.brackets.show_views(self.ctx.read(bracket_views))

    def size_split(self) -> None:
        """The rounds keep four lines above a knockout's brackets, which take the rest: once
        the page has its height."""
        height = self.split.height()
        if self.split_pending and height > 2 * TOP_HEIGHT:
            self.split.setSizes([TOP_HEIGHT, height - TOP_HEIGHT])
            self.split_pending = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.split and event.type() == QEvent.Type.Resize:
            self.size_split()
        return super().eventFilter(watched, event)

    def refresh(self) -> None:
        self.by_match = self.ctx.read(rounds.by_match)
        self.pair_button.setText(self.PAIR_READY if self.by_match else "Pair next round…")
        entrant = self.ctx.read(entrant_format).entrant
        if entrant != self.model.entrant:
            self.model.entrant = entrant
            self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(COLUMNS) - 1)
        self.forbidden_button.setToolTip(entrant_words(FORBIDDEN_TIP, entrant))
        shown = self.current_round()
        self.rounds = self.ctx.read(rounds.list_rounds)
        self.round_list.blockSignals(True)
        self.round_list.clear()
        for info in self.rounds:
            item = QListWidgetItem(f"Round {info.number}\n{info.status}", self.round_list)
            item.setData(Qt.ItemDataRole.UserRole, info.number)
        self.round_list.blockSignals(False)
        numbers = [info.number for info in self.rounds]
        target = shown if shown in numbers else (numbers[-1] if numbers else None)
        self.stack.setCurrentIndex(1 if self.rounds else 0)
        if target is not None:
            self.round_list.setCurrentRow(numbers.index(target))
        self.show_round(numbers.index(target) if target is not None else -1)
        self.summary.setText(self.summary_text())
        self.update_round_buttons()
        self.show_brackets()

    def update_round_buttons(self) -> None:
        """Pair again and Undo are disabled with the service's reason, never refused after a
        question; a "round N is not finished" message goes once the round is."""
        last = self.rounds[-1] if self.rounds else None
        for button, action, idle in (
            (self.repair_button, "paired again", REPAIR_TIP),
            (self.undo_button, "undone", UNDO_TIP),
        ):
            refusal = "pair a round first" if last is None else rounds.started_refusal(last, action)
            button.setEnabled(not refusal)
            button.setToolTip(tooltip(refusal) if refusal else idle)
        over = self.ctx.read(rounds.event_over) if last is not None else ""
        role = "" if over else "primary"  # after the last round, nothing more to pair
        if self.pair_button.property("role") != role:
            self.pair_button.setProperty("role", role)
            self.pair_button.style().unpolish(self.pair_button)
            self.pair_button.style().polish(self.pair_button)
        self.pair_button.setToolTip(tooltip(over[:1].upper() + over[1:]) if over else PAIR_TIP)
        self.recheck_waiting()

    def recheck_waiting(self) -> None:
        if not self.waiting_for or self.messages.text != self.waiting_for:
            self.waiting_for = ""  # the message has gone or been replaced
            return
        try:
            self.ctx.read(rounds.next_round_number)
        except UserError as still:
            self.waiting_for = str(still)  # fewer tables left to wait for
            self.messages.show_error(self.waiting_for)
            return
        self.waiting_for = ""
        if self.by_match:
            self.messages.show_info("Matches are ready: pair them.")
            return
        self.messages.show_info(f"Round {len(self.rounds)} is finished: pair the next round.")

    def summary_text(self) -> str:
        if not self.rounds:
            return "no round yet"
        last = self.rounds[-1]
        played = [m for m in last.matches if not m.is_bye]  # a bye is no match to wait for
        done = sum(m.forfeit_by is not None or m.outcome.finished for m in played)
        byes = len(last.matches) - len(played)
        bye = f" (and {counted(byes, 'bye')})" if byes else ""
        of = counted(len(played), "match", "matches")
        return f"round {last.number}: {last.status}, {done} of {of} done{bye}"

    def current_round(self) -> int | None:
        item = self.round_list.currentItem()
        return int(item.data(Qt.ItemDataRole.UserRole)) if item is not None else None

    def round_info(self, number: int | None) -> RoundInfo | None:
        return next((info for info in self.rounds if info.number == number), None)

    def show_round(self, row: int) -> None:
        info = self.rounds[row] if 0 <= row < len(self.rounds) else None
        self.set_matches(info.matches if info else ())
        self.update_edit_button(info)
        self.update_results_button(info)

    def update_results_button(self, info: RoundInfo | None) -> None:
        played = info is not None and any(not m.is_bye for m in info.matches)
        self.results_button.setEnabled(played)
        self.results_button.setToolTip(RESULTS_TIP if played else "choose a round with matches")

    def enter_results(self) -> None:
        """The chosen round's result grid: every table's final score from paper."""
        number = self.current_round()
        if number is None or not self.results_button.isEnabled():
            return
        self.messages.clear()
        self._open(ResultGridDialog(self.ctx, number, self))

    def update_edit_button(self, info: RoundInfo | None) -> None:
        """Edit pairings is for the chosen round while it has no result: off, with the
        service's reason, once it has one."""
        refusal = "pair a round first" if info is None else rounds.started_refusal(info, "edited")
        if self.by_match:
            refusal = rounds.PAIRED_BY_PLAN
        self.edit_button.setEnabled(not refusal)
        self.edit_button.setToolTip(
            refusal
            or entrant_words(
                "Swap two teams, pair two teams directly or give the bye in the chosen round"
                " (warned and kept in the audit log)",
                self.model.entrant,
            )
        )

    def set_matches(self, matches: tuple[MatchInfo, ...]) -> None:
        """Show a round's matches, keeping the chosen table chosen."""
        chosen = self.selected_match()
        self.model.set_matches(matches)
        ids = [m.id for m in matches]
        if chosen is not None and chosen.id in ids:
            self.table.selectRow(ids.index(chosen.id))
        self.update_no_show()

    def selected_match(self) -> MatchInfo | None:
        rows = self.table.selectionModel().selectedRows()
        return self.model.match_at(rows[0].row()) if rows else None

    def choose_match(self, match_id: int) -> None:
        """A match chosen on the brackets is chosen in its batch's list too (the no-show and
        the audit log follow it)."""
        for position, info in enumerate(self.rounds):
            ids = [m.id for m in info.matches]
            if match_id in ids:
                if self.round_list.currentRow() != position:
                    self.round_list.setCurrentRow(position)
                self.table.selectRow(ids.index(match_id))
                return

    def open_match(self) -> None:
        match = self.selected_match()
        if match is not None:
            self.ctx.match_requested.emit(match.id)

    def update_no_show(self) -> None:
        """The no-show button follows the chosen match, enabled by the service's answer."""
        match = self.selected_match()
        refusal = "choose a match first" if match is None else ""
        if match is not None:
            refusal = self.ctx.read(no_show.no_show_refusal, match.id)
        undo = match is not None and match.forfeit_by is not None
        self.no_show_button.setText("Undo forfeit…" if undo else "No-show…")
        self.no_show_button.setEnabled(not refusal)
        self.no_show_button.setToolTip(
            tooltip(refusal) if refusal else "The chosen match's team did not show: a forfeit"
        )

    def open_no_show(self) -> None:
        match = self.selected_match()
        if match is None or not self.no_show_button.isEnabled():
            return
        self.messages.clear()
        self._open(NoShowDialog(self.ctx, match, self))

    # -- changes ------------------------------------------------------------------------

    def pair_next_round(self) -> None:
        self.messages.clear()
        try:
            self.ctx.read(rounds.next_round_number)
        except UserError as refusal:  # the last round is not finished: said until it is
            self.waiting_for = str(refusal)
            self.messages.show_error(self.waiting_for)
            return
        absent = self.ctx.read(no_show.absent_last_round)
        if absent:
            self.question = self._ask_about_absent(absent)
            return
        self._preview_next_round()

    def _ask_about_absent(self, absent: list[TeamInfo]) -> QMessageBox:
        """A team that did not show is not paired again without a question: pair it (it may
        come yet), or withdraw it (its results stand) and pair the others."""
        names = " and ".join(isolated(t.name) for t in absent)
        last = len(self.rounds)
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Did not show",
            f"{names} did not show in round {last} (a forfeit). Pair "
            f"{'it' if len(absent) == 1 else 'them'} in round {last + 1}?",
            QMessageBox.StandardButton.NoButton,
            self,
        )
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setInformativeText(
            "Withdrawn, a team is not paired from now on and its results stand; it can be "
            "reinstated on the Teams page."
        )
        pair = box.addButton("Pair them", QMessageBox.ButtonRole.AcceptRole)
        withdraw = box.addButton("Withdraw and pair", QMessageBox.ButtonRole.DestructiveRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def answered() -> None:
            chosen = box.clickedButton()
            if chosen is withdraw:
                try:
                    for team in absent:
                        self.ctx.change(withdraw_team, team.id)
                except UserError as refusal:
                    self.messages.show_error(str(refusal))
                    return
            if chosen in (pair, withdraw):
                self._preview_next_round()

        box.finished.connect(answered)
        box.open()
        return box

    def _preview_next_round(self) -> None:
        try:
            preview = self.ctx.read(rounds.preview_next_round)
        except UserError as refusal:
            self.messages.show_error(str(refusal))
            return
        dialog = PairRoundDialog(self.ctx, preview, self)
        dialog.accepted.connect(lambda: self._published(dialog))
        self._open(dialog)

    def _published(self, dialog: PairRoundDialog) -> None:
        if dialog.published is not None:
            number = dialog.published.number
            self.round_list.setCurrentRow(len(self.rounds) - 1)
            self.messages.show_info(f"Round {number} is published.")

    def edit_pairings(self) -> None:
        self.messages.clear()
        info = self.round_info(self.current_round())
        if info is None:
            return
        dialog = EditPairingsDialog(self.ctx, info, self)
        dialog.accepted.connect(lambda: self._edited(dialog))
        self._open(dialog)

    def _edited(self, dialog: EditPairingsDialog) -> None:
        text = "The pairings are changed."
        if dialog.warnings_now:
            text += " Warnings (recorded in the audit log): " + "; ".join(dialog.warnings_now)
        self.messages.show_info(text)

    def edit_forbidden_pairs(self) -> None:
        self.messages.clear()
        self._open(ForbiddenPairsDialog(self.ctx, self))

    def open_audit(self) -> None:
        match = self.selected_match()
        self._open(AuditDialog(self.ctx, self, match=match.id if match else None))

    def _open(self, dialog: RoundsDialog) -> None:
        self.dialog = dialog
        dialog.finished.connect(self._closed)
        dialog.open()

    def _closed(self) -> None:
        self.dialog = None

    def pair_again(self) -> None:
        """The engine's pairing of the last round once more, shown before it replaces the
        round (with the edits by hand it drops), and published with a reason."""
        if not self.rounds:
            return
        self.messages.clear()
        try:
            preview = self.ctx.read(rounds.preview_next_round, again=True)
        except UserError as refusal:
            self.messages.show_error(str(refusal))
            return
        dialog = PairRoundDialog(self.ctx, preview, self, again=True)
        dialog.accepted.connect(lambda: self._published(dialog))
        self._open(dialog)

    def undo_last_round(self) -> None:
        last = self.rounds[-1] if self.rounds else None
        if last is None:
            return

        def undo() -> None:
            self._change(lambda: self.ctx.change(rounds.undo_last_round))

        text = f"Undo round {last.number}? Its pairings are deleted (kept in the audit log)."
        self.question = ask(self, "Undo last round", text, "Undo the round", undo)

    def _change(self, change: Callable[[], object]) -> None:
        try:
            change()
        except UserError as refusal:
            self.messages.show_error(str(refusal))
