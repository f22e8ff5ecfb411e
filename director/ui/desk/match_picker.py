"""Pick a match at the desk: a round, then a table (teams shown).

A round's matches are read only when that round is chosen, so a large event (hundreds of
tables, many rounds) opens the desk as fast as a club night does.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSignalBlocker, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSizePolicy, QWidget

from director.domain.event import MatchInfo

OTHER = -1  # matches outside the rounds (e.g. a match record imported by hand)
Loader = Callable[[int | None], list[MatchInfo]]  # a round's matches; None: the others


def match_label(match: MatchInfo) -> str:
    table = f"Table {match.table}" if match.table else f"Match {match.id}"
    return f"{table}: {match.names[0]} v {match.names[1]}"


class MatchPicker(QWidget):
    picked = Signal(int)  # match id

    def __init__(self, load: Loader, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.load = load
        self.rounds = QComboBox()
        self.rounds.setObjectName("roundPicker")
        self.matches = QComboBox()
        self.matches.setObjectName("matchPicker")
        self.matches.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.cache: dict[int, list[MatchInfo]] = {}
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel("Round"))
        layout.addWidget(self.rounds)
        layout.addWidget(QLabel("Match"))
        layout.addWidget(self.matches, 1)
        self.rounds.currentIndexChanged.connect(self._round_chosen)
        self.matches.activated.connect(self._match_chosen)

    def reload(self, round_count: int, current: MatchInfo | None) -> None:
        """Rounds 1..round_count and the other matches; forget what was read before."""
        self.cache = {}
        with QSignalBlocker(self.rounds):
            self.rounds.clear()
            for number in range(1, round_count + 1):
                self.rounds.addItem(str(number), number)
            self.rounds.addItem("other", OTHER)
        self.select(current)

    def round_matches(self, number: int) -> list[MatchInfo]:
        if number not in self.cache:
            self.cache[number] = self.load(None if number == OTHER else number)
        return self.cache[number]

    def select(self, match: MatchInfo | None) -> None:
        """Show `match` (or the latest round when None) without emitting `picked`."""
        if match is not None:
            number = match.round if match.round is not None else OTHER
        else:
            number = self.rounds.itemData(max(0, self.rounds.count() - 2))  # the latest round
        with QSignalBlocker(self.rounds), QSignalBlocker(self.matches):
            self.rounds.setCurrentIndex(self.rounds.findData(number))
            self._fill_matches(number)
            self.matches.setCurrentIndex(self.matches.findData(match.id) if match else -1)

    def _fill_matches(self, number: int | None) -> None:
        self.matches.clear()
        for match in self.round_matches(number) if number is not None else []:
            self.matches.addItem(match_label(match), match.id)

    def _round_chosen(self) -> None:
        with QSignalBlocker(self.matches):
            self._fill_matches(self.rounds.currentData())
            self.matches.setCurrentIndex(-1)

    def _match_chosen(self, index: int) -> None:
        match_id = self.matches.itemData(index)
        if match_id is not None:
            self.picked.emit(int(match_id))
