"""Pick a match at the desk: a round, then a table (teams shown).

A round's matches are read only when that round is chosen, so a large event (hundreds of
tables, many rounds) opens the desk as fast as a club night does.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSizePolicy, QWidget

from director.domain.event import MatchInfo, PlayStatus
from director.domain.wording import isolated
from director.ui.elided import narrow, shortened
from director.ui.models.round_model import result_words
from director.ui.plain import tooltip

OTHER = -1  # matches outside the rounds (e.g. a match record imported by hand)
Loader = Callable[[int | None], list[MatchInfo]]  # a round's matches; None: the others


NAME_ROOM = 260  # pixels for each team's name in a list of matches


def match_label(match: MatchInfo, shorten: Callable[[str], str] = str) -> str:
    """'Table 3: Blue Bar v Gammonites · 3–2, pair 3': the table's state at a glance;
    `shorten` cuts each name (a list of matches keeps its width whatever the names)."""
    table = (
        f"Match {match.id}"
        if not match.table
        else "Bye"
        if match.is_bye
        else f"Table {match.table}"
    )
    a, b = (isolated(shorten(name)) for name in match.names)
    return f"{table}: {a} v {b} · {state_text(match, shorten)}"


def add_match(box: QComboBox, match: MatchInfo) -> None:
    """One match in a list of matches: long names shortened, the whole line in its tooltip."""
    box.addItem("", match.id)
    set_match(box, box.count() - 1, match)


def set_match(box: QComboBox, index: int, match: MatchInfo) -> None:
    metrics = box.fontMetrics()
    box.setItemText(index, match_label(match, lambda name: shortened(metrics, name, NAME_ROOM)))
    box.setItemData(index, tooltip(match_label(match)), Qt.ItemDataRole.ToolTipRole)


def state_text(match: MatchInfo, shorten: Callable[[str], str] = str) -> str:
    if match.is_bye or match.forfeit_by is not None:
        return result_words(match, shorten)
    final = match.outcome.final
    if match.status is PlayStatus.FINISHED:
        return f"{result_words(match, shorten) or 'finished'} {final.a}–{final.b}"
    if match.status is PlayStatus.NOT_STARTED:
        return "not started"
    score = match.outcome.score
    unit = match.rules.event_format.unit  # a pair of games, or one game (RULES §10)
    crawford = " (Crawford)" if match.outcome.cube_rule.crawford else ""
    return f"{score.a}–{score.b}, {unit} {match.outcome.current_pair}{crawford}"


class MatchList(QComboBox):
    """The tables of a round; re-read just before it opens when a result changed meanwhile."""

    def __init__(self, about_to_open: Callable[[], None]) -> None:
        super().__init__()
        self.about_to_open = about_to_open

    def showPopup(self) -> None:
        self.about_to_open()
        super().showPopup()


class MatchPicker(QWidget):
    picked = Signal(int)  # match id
    cleared = Signal()  # a round without matches is shown: so is no match

    def __init__(self, load: Loader, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.load = load
        self.rounds = QComboBox()
        self.rounds.setObjectName("roundPicker")
        self.matches = MatchList(self.refill_if_stale)
        self.matches.setObjectName("matchPicker")
        self.matches.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        narrow(self.matches)
        self.cache: dict[int, list[MatchInfo]] = {}
        self.stale = False  # a match changed since the list was read
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

    def forget(self) -> None:
        """A result changed somewhere: the tables' states are read again when next shown."""
        self.cache = {}
        self.stale = True

    def refill_if_stale(self) -> None:
        if not self.stale:
            return
        self.stale = False
        current = self.matches.currentData()
        with QSignalBlocker(self.matches):
            self._fill_matches(self.rounds.currentData())
            self.matches.setCurrentIndex(self.matches.findData(current))

    def show_state_of(self, match: MatchInfo) -> None:
        """The line of the match the desk shows, as the desk has just read it: never stale
        while the list is closed (it said "not started" after a whole match)."""
        index = self.matches.findData(match.id)
        if index >= 0:
            set_match(self.matches, index, match)
        number = match.round if match.round is not None else OTHER
        cached = self.cache.get(number)
        if cached is not None:
            self.cache[number] = [match if m.id == match.id else m for m in cached]

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
        self.stale = False  # read afresh below, or none to read
        self.matches.clear()
        for match in self.round_matches(number) if number is not None else []:
            add_match(self.matches, match)

    def _round_chosen(self) -> None:
        """A round chosen shows its first table: the round shown and the match never differ."""
        with QSignalBlocker(self.matches):
            self._fill_matches(self.rounds.currentData())
            self.matches.setCurrentIndex(0 if self.matches.count() else -1)
        if self.matches.count():
            self._match_chosen(0)
        else:
            self.cleared.emit()

    def step(self, by: int) -> None:
        """The next (+1) or previous (-1) table of the round shown."""
        index = self.matches.currentIndex() + by
        if 0 <= index < self.matches.count():
            self.matches.setCurrentIndex(index)
            self._match_chosen(index)

    def _match_chosen(self, index: int) -> None:
        match_id = self.matches.itemData(index)
        if match_id is not None:
            self.picked.emit(int(match_id))
