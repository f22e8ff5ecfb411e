"""Register teams one after another: the dialog stays open and clears itself after each team."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from director.domain.errors import UserError
from director.domain.event import TeamInfo
from director.domain.wording import quoted
from director.services.club import add_person
from director.services.teams import add_player, add_team, edit_team
from director.ui.context import EventContext
from director.ui.person_field import PersonField
from director.ui.style import error_label, hint, show_error


def whole_number(label: str, text: str) -> int | None:
    """A typed number: blank is None, anything else must be a whole number."""
    text = text.strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise UserError(f"{label} must be a whole number, not {quoted(text)}") from None


def new_persons(ctx: EventContext, team: TeamInfo) -> TeamInfo:
    """With a club open, each name registered without a person picked becomes a new person
    in the club, and the event keeps their ids (RULES §12)."""
    if ctx.club is None:
        return team
    boards = [name for name in team.players if name]
    if all(p is not None for p in team.persons[: len(boards)]):
        return team
    ids = tuple(
        person if person is not None else ctx.club.write(add_person, name)
        for name, person in zip(boards, team.persons, strict=False)
    )
    persons = (ids[0], ids[1] if len(ids) > 1 else None)
    return ctx.change(edit_team, team.id, persons=persons)


class AddTeamDialog(QDialog):
    def __init__(self, ctx: EventContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.added: list[TeamInfo] = []
        self.setWindowTitle("Add teams")
        self.setMinimumWidth(460)
        self.name = QLineEdit(self)
        self.player1 = QLineEdit(self)
        self.player2 = QLineEdit(self)
        self.persons = (PersonField(self.player1, ctx.club), PersonField(self.player2, ctx.club))
        self.club = QLineEdit(self)
        self.rating = QLineEdit(self)
        self.seed = QLineEdit(self)
        self.name.setPlaceholderText("e.g. Blue Bar")
        self.club.setPlaceholderText("optional")
        self.rating.setPlaceholderText("optional")
        self.seed.setPlaceholderText("blank: after the last seed")
        form = QFormLayout()
        form.setVerticalSpacing(8)
        form.addRow("Team name", self.name)
        form.addRow("Board 1 player", self.player1)
        form.addRow("Board 2 player", self.player2)
        form.addRow("Club", self.club)
        form.addRow("Rating", self.rating)
        form.addRow("Seed", self.seed)
        self.error = error_label(self)
        self.done_text = hint("", self)
        self.done_text.hide()
        buttons = QDialogButtonBox(self)
        self.add_button = QPushButton("Add team", self)
        self.add_button.setProperty("role", "primary")
        self.add_button.setDefault(True)
        buttons.addButton(self.add_button, QDialogButtonBox.ButtonRole.ActionRole)
        close = buttons.addButton(QDialogButtonBox.StandardButton.Close)
        close.setAutoDefault(False)
        self.add_button.clicked.connect(self.add)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 18, 20, 14)
        layout.addWidget(
            hint(
                "Each team has two players: board 1 and board 2. Press Enter to "
                "add the team and start the next one.",
                self,
            )
        )
        layout.addSpacing(6)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(self.done_text)
        layout.addWidget(buttons)

    def add(self) -> TeamInfo | None:
        try:
            rating = whole_number("the rating", self.rating.text())
            seed = whole_number("the seed", self.seed.text())
            team = self.ctx.change(
                add_team,
                self.name.text(),
                (self.player1.text(), self.player2.text()),
                self.club.text(),
                rating,
                seed,
                (self.persons[0].person, self.persons[1].person),
            )
            team = new_persons(self.ctx, team)
        except UserError as exc:
            show_error(self.error, str(exc))
            return None
        show_error(self.error, "")
        self.added.append(team)
        self.done_text.setText(f"Added {team.name} (seed {team.seed}). Next team:")
        self.done_text.show()
        for person in self.persons:
            person.clear()
        for field in (self.name, self.rating, self.seed):
            field.clear()  # the club often repeats: keep it
        self.name.setFocus()
        return team


class AddPlayerDialog(QDialog):
    """Register the players of an individual event one after another (RULES §10): a player is
    the entrant, under their own name, on the one board."""

    def __init__(self, ctx: EventContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.added: list[TeamInfo] = []
        self.setWindowTitle("Add players")
        self.setMinimumWidth(460)
        self.name = QLineEdit(self)
        self.club = QLineEdit(self)
        self.rating = QLineEdit(self)
        self.seed = QLineEdit(self)
        self.name.setPlaceholderText("e.g. Ana Kovač")
        self.person = PersonField(self.name, ctx.club)
        self.club.setPlaceholderText("optional")
        self.rating.setPlaceholderText("optional")
        self.seed.setPlaceholderText("blank: after the last seed")
        form = QFormLayout()
        form.setVerticalSpacing(8)
        form.addRow("Player", self.name)
        form.addRow("Club", self.club)
        form.addRow("Rating", self.rating)
        form.addRow("Seed", self.seed)
        self.error = error_label(self)
        self.done_text = hint("", self)
        self.done_text.hide()
        buttons = QDialogButtonBox(self)
        self.add_button = QPushButton("Add player", self)
        self.add_button.setProperty("role", "primary")
        self.add_button.setDefault(True)
        buttons.addButton(self.add_button, QDialogButtonBox.ButtonRole.ActionRole)
        close = buttons.addButton(QDialogButtonBox.StandardButton.Close)
        close.setAutoDefault(False)
        self.add_button.clicked.connect(self.add)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 18, 20, 14)
        layout.addWidget(
            hint(
                "Each player enters once, under their own name (case and spacing are "
                "ignored when names are compared). Press Enter to add the player and start "
                "the next one.",
                self,
            )
        )
        layout.addSpacing(6)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(self.done_text)
        layout.addWidget(buttons)

    def add(self) -> TeamInfo | None:
        try:
            rating = whole_number("the rating", self.rating.text())
            seed = whole_number("the seed", self.seed.text())
            player = self.ctx.change(add_player, self.name.text(), self.club.text(), rating, seed,
                                     self.person.person)  # fmt: skip
            player = new_persons(self.ctx, player)
        except UserError as exc:
            show_error(self.error, str(exc))
            return None
        show_error(self.error, "")
        self.added.append(player)
        self.done_text.setText(f"Added {player.name} (seed {player.seed}). Next player:")
        self.done_text.show()
        self.person.clear()
        for field in (self.rating, self.seed):
            field.clear()  # the club often repeats: keep it
        self.name.setFocus()
        return player
