"""A player's name field that finds persons in the open club as you type.

The club's own search (`services.club.search_persons`: name, earlier name, `#id`) fills the
completer's list; picking one writes the person's name and keeps their id for the
registration (`person`). Typing again forgets the id: the name is then a new one.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QObject, QStringListModel, Qt
from PySide6.QtWidgets import QCompleter, QLineEdit

from director.services.club import PersonHit, search_persons
from director.ui.club_context import ClubContext

SHOWN = 10  # persons offered at once: a name's first letters narrow it quickly


class PersonField(QObject):
    def __init__(self, field: QLineEdit, club: ClubContext | None) -> None:
        super().__init__(field)
        self.field = field
        self.club = club
        self.person: int | None = None
        self.hits: list[PersonHit] = []
        self.model = QStringListModel(self)
        self.completer = QCompleter(self.model, self)
        self.completer.setCompletionMode(QCompleter.CompletionMode.UnfilteredPopupCompletion)
        self.completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.completer.setWidget(field)
        activated = self.completer.activated[QModelIndex]  # type: ignore[index]  # overloaded
        activated.connect(lambda index: self.pick(index.row()))
        if club is not None:
            field.setPlaceholderText("type to find the person in the club, or a new name")
            field.textEdited.connect(self.find)

    def find(self, text: str) -> None:
        self.person = None  # typed: not the person picked before
        assert self.club is not None
        self.hits = self.club.read(search_persons, text, SHOWN) if text.strip() else []
        self.model.setStringList([h.describe() for h in self.hits])
        if self.hits:
            self.completer.complete()
        else:
            self._hide()

    def pick(self, row: int) -> None:
        if not 0 <= row < len(self.hits):
            return
        hit = self.hits[row]
        self.field.setText(hit.name)
        self.person = hit.id
        self._hide()

    def _hide(self) -> None:
        popup = self.completer.popup()
        if popup is not None:
            popup.hide()

    def clear(self) -> None:
        self.field.clear()
        self.person = None
