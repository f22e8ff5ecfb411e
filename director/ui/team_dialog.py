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
from director.domain.numbers import typed_number
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
    number = typed_number(text, signed=True)  # int() took "١٦٥٠", "1_650" and 25 nines
    if number is None:
        raise UserError(f"{label} must be a whole number, not {quoted(text)}")
    return number


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


class _AddEntrantDialog(QDialog):
    """Register entrants one after another: the dialog stays open and clears itself after
    each one, keeping the club (it often repeats). A subclass names its entrant, lays out the
    name fields above Club, Rating and Seed, and registers what they hold."""

    noun = "team"
    intro = ""

    def __init__(self, ctx: EventContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.added: list[TeamInfo] = []
        self.setWindowTitle(f"Add {self.noun}s")
        self.setMinimumWidth(460)
        self.name = QLineEdit(self)
        self.club = QLineEdit(self)
        self.rating = QLineEdit(self)
        self.seed = QLineEdit(self)
        self.club.setPlaceholderText("optional")
        self.rating.setPlaceholderText("optional")
        self.seed.setPlaceholderText("blank: after the last seed")
        form = QFormLayout()
        form.setVerticalSpacing(8)
        self.persons = self.name_rows(form)
        form.addRow("Club", self.club)
        form.addRow("Rating", self.rating)
        form.addRow("Seed", self.seed)
        self.error = error_label(self)
        self.done_text = hint("", self)
        self.done_text.hide()
        buttons = QDialogButtonBox(self)
        self.add_button = QPushButton(f"Add {self.noun}", self)
        self.add_button.setProperty("role", "primary")
        self.add_button.setDefault(True)
        buttons.addButton(self.add_button, QDialogButtonBox.ButtonRole.ActionRole)
        close = buttons.addButton(QDialogButtonBox.StandardButton.Close)
        close.setAutoDefault(False)
        self.add_button.clicked.connect(self.add)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 18, 20, 14)
        layout.addWidget(hint(self.intro, self))
        layout.addSpacing(6)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(self.done_text)
        layout.addWidget(buttons)

    def name_rows(self, form: QFormLayout) -> tuple[PersonField, ...]:
        """Add the rows naming the entrant to the form; the club persons they pick."""
        raise NotImplementedError

    def register(self, rating: int | None, seed: int | None) -> TeamInfo:
        raise NotImplementedError

    def add(self) -> TeamInfo | None:
        try:
            rating = whole_number("the rating", self.rating.text())
            seed = whole_number("the seed", self.seed.text())
            entrant = new_persons(self.ctx, self.register(rating, seed))
        except UserError as exc:
            show_error(self.error, str(exc))
            return None
        show_error(self.error, "")
        self.added.append(entrant)
        self.done_text.setText(f"Added {entrant.name} (seed {entrant.seed}). Next {self.noun}:")
        self.done_text.show()
        for person in self.persons:
            person.clear()
        for field in (self.name, self.rating, self.seed):
            field.clear()  # the club often repeats: keep it
        self.name.setFocus()
        return entrant


class AddTeamDialog(_AddEntrantDialog):
    noun = "team"
    intro = (
        "Each team has two players: board 1 and board 2. Press Enter to "
        "add the team and start the next one."
    )

    def name_rows(self, form: QFormLayout) -> tuple[PersonField, ...]:
        self.player1 = QLineEdit(self)
        self.player2 = QLineEdit(self)
        self.name.setPlaceholderText("e.g. Blue Bar")
        form.addRow("Team name", self.name)
        form.addRow("Board 1 player", self.player1)
        form.addRow("Board 2 player", self.player2)
        return (PersonField(self.player1, self.ctx.club), PersonField(self.player2, self.ctx.club))

    def register(self, rating: int | None, seed: int | None) -> TeamInfo:
        return self.ctx.change(
            add_team,
            self.name.text(),
            (self.player1.text(), self.player2.text()),
            self.club.text(),
            rating,
            seed,
            (self.persons[0].person, self.persons[1].person),
        )


class AddPlayerDialog(_AddEntrantDialog):
    """Register the players of an individual event one after another (RULES §10): a player is
    the entrant, under their own name, on the one board."""

    noun = "player"
    intro = (
        "Each player enters once, under their own name (case and spacing are "
        "ignored when names are compared). Press Enter to add the player and start "
        "the next one."
    )

    def name_rows(self, form: QFormLayout) -> tuple[PersonField, ...]:
        self.name.setPlaceholderText("e.g. Ana Kovač")
        self.person = PersonField(self.name, self.ctx.club)
        form.addRow("Player", self.name)
        return (self.person,)

    def register(self, rating: int | None, seed: int | None) -> TeamInfo:
        return self.ctx.change(
            add_player, self.name.text(), self.club.text(), rating, seed, self.person.person
        )
