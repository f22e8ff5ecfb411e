"""The rounds page's dialogs: preview and publish the next round; edit a round by hand.

The pairing, its warnings and the swap's warnings all come from `services.rounds` (the domain's
pairing engine and checker); the dialogs show them before anything is written.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from director.domain.errors import UserError
from director.domain.event import table_label
from director.domain.pairing.model import Pairing
from director.services import manual_pairing, rounds
from director.services.manual_pairing import Edit
from director.services.rounds import RoundInfo, RoundPreview
from director.ui.context import EventContext
from director.ui.plain import plain_label
from director.ui.style import error_label, hint, section_title, show_error

WARNING_STYLE = (
    "background: #fff4ce; border: 1px solid #e6cf7a; border-radius: 6px; padding: 6px 10px;"
)


PREVIEW_HEADERS = ("Table", "Team A", "MP", "Seed", "Team B", "MP", "Seed", "Float")


def pairings_table(
    lines: list[tuple[str, ...]],
    parent: QWidget,
    headers: tuple[str, ...] = ("Table", "Team A", "Team B"),
) -> QTableWidget:
    table = QTableWidget(len(lines), len(headers), parent)
    table.setHorizontalHeaderLabels(list(headers))
    table.verticalHeader().hide()
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
    for column, title in enumerate(headers):
        if not title.startswith("Team"):
            mode = QHeaderView.ResizeMode.ResizeToContents
            table.horizontalHeader().setSectionResizeMode(column, mode)
    fill_pairings(table, lines)
    return table


def fill_pairings(table: QTableWidget, lines: list[tuple[str, ...]]) -> None:
    table.setRowCount(len(lines))
    for row, cells in enumerate(lines):
        for column, text in enumerate(cells):
            table.setItem(row, column, QTableWidgetItem(text))


def warnings_label(warnings: list[str] | tuple[str, ...], parent: QWidget) -> QLabel:
    label = plain_label("", parent)  # warnings name teams
    label.setObjectName("warnings")
    label.setWordWrap(True)
    label.setStyleSheet(WARNING_STYLE)
    set_warnings(label, warnings)
    return label


def set_warnings(label: QLabel, warnings: list[str] | tuple[str, ...]) -> None:
    label.setText("Warnings:\n" + "\n".join(f"• {w}" for w in warnings) if warnings else "")
    label.setVisible(bool(warnings))


class PairRoundDialog(QDialog):
    """The engine's pairing of the next round; Publish writes it. With `again`, of the last
    round once more (`preview_next_round(again=True)`): the edits by hand it drops are shown,
    and a reason is asked for the audit log."""

    def __init__(
        self,
        ctx: EventContext,
        preview: RoundPreview,
        parent: QWidget | None = None,
        again: bool = False,
    ):
        super().__init__(parent)
        self.ctx = ctx
        self.preview = preview
        self.again = again
        self.published: RoundInfo | None = None
        number = preview.number
        self.setWindowTitle(f"Pair round {number} again" if again else f"Pair round {number}")
        self.table = pairings_table(
            [self._line(p) for p in preview.pairings], self, PREVIEW_HEADERS
        )
        self.warnings = warnings_label(preview.warnings, self)
        left_out = [preview.teams[t].name for t in preview.left_out]
        self.left_out = plain_label(
            f"Not paired, not checked in ({len(left_out)}): " + ", ".join(left_out)
            if left_out
            else "",
            self,
        )
        self.left_out.setObjectName("leftOut")
        self.left_out.setWordWrap(True)
        self.left_out.setStyleSheet(WARNING_STYLE)
        self.left_out.setVisible(bool(left_out))
        self.dropped = plain_label(
            "Pairing again drops the changes made by hand since the round was paired:\n"
            + "\n".join(f"• {edit}" for edit in preview.dropped)
            if preview.dropped
            else "",
            self,
        )
        self.dropped.setObjectName("dropped")
        self.dropped.setWordWrap(True)
        self.dropped.setStyleSheet(WARNING_STYLE)
        self.dropped.setVisible(bool(preview.dropped))
        self.reason = QLineEdit(self)
        self.reason.setObjectName("reason")
        self.reason.setPlaceholderText("why pair it again (kept in the audit log)")
        self.reason.setVisible(again)
        self.error = error_label(self)
        self.error.setObjectName("refusal")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        publish = f"Publish round {number} again" if again else f"Publish round {number}"
        self.publish_button = QPushButton(publish, self)
        self.publish_button.setProperty("role", "primary")
        buttons.addButton(self.publish_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self.publish)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(section_title(f"Round {preview.number}: the proposed pairings", self))
        layout.addWidget(
            hint(
                "The engine's pairing replaces the round's pairings now; check it, say why, then"
                " publish it."
                if again
                else "Check the pairings, then publish them. After publishing you can still swap"
                " two teams, pair the round again or undo it, as long as no result is entered.",
                self,
            )
        )
        layout.addWidget(self.dropped)
        layout.addWidget(self.left_out)
        layout.addWidget(self.warnings)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.reason)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.resize(820, 560)

    def _name(self, team_id: int | None) -> str:
        return "bye" if team_id is None else self.preview.teams[team_id].name

    def _line(self, p: Pairing) -> tuple[str, ...]:
        """A table with each team's score before the round, its seed, and any float."""

        def facts(team: int | None) -> tuple[str, str]:
            if team is None:
                return "", ""
            return f"{self.preview.scores.get(team, 0):g}", str(self.preview.teams[team].seed)

        a, b = facts(p.team_a), facts(p.team_b)
        name_a, name_b = self._name(p.team_a), self._name(p.team_b)
        table = table_label(p.table, p.team_b is None)
        return (table, name_a, *a, name_b, *b, self.preview.float_of(p))

    def publish(self) -> None:
        try:
            if self.again:
                self.published = self.ctx.change(
                    rounds.repair_round,
                    self.preview.number,
                    self.reason.text(),
                    self.preview.pairings,
                )
            else:
                self.published = self.ctx.change(rounds.pair_next_round)
        except UserError as refusal:
            show_error(self.error, f"Not published: {refusal}")
            return
        self.accept()


class EditPairingsDialog(QDialog):
    """Change a round that has no result yet by hand (RULES §8): swap two teams' places, pair
    two teams directly, or give the bye. The round after the change and its warnings are shown
    first; the change, its reason and its warnings go to the audit log."""

    def __init__(
        self,
        ctx: EventContext,
        info: RoundInfo,
        parent: QWidget | None = None,
        edit: Edit = Edit.SWAP,
    ):
        super().__init__(parent)
        self.ctx = ctx
        self.info = info
        self.warnings_now: list[str] = []
        self.setWindowTitle(f"Edit the pairings of round {info.number}")
        pairings = ctx.read(manual_pairing.round_pairings, info.number)
        unpaired = ctx.read(manual_pairing.unpaired_teams, info.number)
        self.names = {m.team_a.id: m.team_a.name for m in info.matches} | {
            m.team_b.id: m.team_b.name for m in info.matches if m.team_b
        }
        self.names |= {t.id: t.name for t in unpaired}
        self.edit = QComboBox(self)
        self.edit.setObjectName("edit")
        for kind in Edit:
            self.edit.addItem(kind.value.capitalize(), kind.value)
        self.edit.setCurrentIndex(self.edit.findData(edit.value))
        self.first = QComboBox(self)
        self.second = QComboBox(self)
        for combo in (self.first, self.second):
            for p in pairings:
                where = "– (bye)" if p.team_b is None else f"table {p.table}"  # no table
                for team in p.teams:
                    combo.addItem(f"{where}: {self.names[team]}", team)
            for team_info in unpaired:
                combo.addItem(f"not paired: {team_info.name}", team_info.id)
        self.second.setCurrentIndex(min(1, self.second.count() - 1))
        self.choice_error = error_label(self)
        self.choice_error.setObjectName("error_teams")
        self.choice_error.setTextFormat(Qt.TextFormat.PlainText)
        self.reason = QLineEdit(self)
        self.reason.setPlaceholderText("why (kept in the audit log), e.g. same club")
        self.table = pairings_table([], self)
        self.warnings = warnings_label([], self)
        self.error = error_label(self)
        self.error.setObjectName("refusal")
        self.error.setTextFormat(Qt.TextFormat.PlainText)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.save_button = QPushButton("Swap", self)
        self.save_button.setProperty("role", "primary")
        buttons.addButton(self.save_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow("Change", self.edit)
        form.addRow("Team", self.first)
        self.second_label = QLabel("swaps places with", self)
        form.addRow(self.second_label, self.second)
        form.addRow("", self.choice_error)
        form.addRow("Reason", self.reason)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(section_title("The round after the change", self))
        layout.addWidget(self.table, 1)
        layout.addWidget(self.warnings)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.resize(620, 560)
        for combo in (self.edit, self.first, self.second):
            combo.currentIndexChanged.connect(self.update_preview)
        self.update_preview()

    def chosen_edit(self) -> Edit:
        return Edit(self.edit.currentData())

    def chosen(self) -> tuple[int, int | None]:
        second = int(self.second.currentData()) if self.chosen_edit().needs_second_team else None
        return int(self.first.currentData()), second

    def update_preview(self) -> None:
        edit = self.chosen_edit()
        self.second_label.setText("swaps places with" if edit is Edit.SWAP else "plays")
        self.second_label.setVisible(edit.needs_second_team)
        self.second.setVisible(edit.needs_second_team)
        self.save_button.setText(BUTTON_TEXT[edit])
        show_error(self.error, "")
        first, second = self.chosen()
        try:
            preview = self.ctx.read(
                manual_pairing.preview_edit, self.info.number, edit, first, second
            )
        except UserError as refusal:
            show_error(self.choice_error, str(refusal))
            self.save_button.setEnabled(False)
            return
        show_error(self.choice_error, "")
        fill_pairings(
            self.table,
            [
                (
                    table_label(p.table, p.team_b is None),
                    self.names[p.team_a],
                    self.names.get(p.team_b or 0, "bye"),
                )
                for p in preview.pairings
            ],
        )
        self.warnings_now = list(preview.warnings)
        set_warnings(self.warnings, self.warnings_now)
        self.save_button.setEnabled(True)

    def save(self) -> None:
        if not self.save_button.isEnabled():
            return
        first, second = self.chosen()
        try:
            self.warnings_now = self.ctx.change(
                manual_pairing.edit_round,
                self.info.number,
                self.chosen_edit(),
                first,
                second,
                self.reason.text(),
            )
        except UserError as refusal:
            show_error(self.error, f"Not changed: {refusal}")
            return
        self.accept()


BUTTON_TEXT = {Edit.SWAP: "Swap", Edit.PAIR: "Pair them", Edit.BYE: "Give the bye"}
