"""The time-forfeit entry that a flag fall opens (RULES §5, §7).

It is the match desk's record-game dialog, opened with RULES §5's proposal filled in: the
opponent of the flagged side wins by time on the board's live cube, scored 3 × cube when the
flagged player has borne off no checker. One question on top decides that (1 × cube once a
checker is off; in pin game the pip count takes the cube's place); the desk's form shows the
rule 5′ agreed-lower choice where the domain offers it, and the preview shows the points
before anything is saved. The clock's remaining times go with the game.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication,
    QButtonGroup,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from director.domain.event import MatchInfo
from director.domain.numbers import typed_number
from director.domain.rules import End, Side
from director.domain.scoring import Game, required_fields
from director.ui.context import EventContext
from director.ui.desk.record_dialog import ClockTimes, RecordGameDialog
from director.ui.desk.words import board_players


def time_forfeit_proposal(match: MatchInfo, board: int, flagged: Side) -> Game:
    """RULES §5's proposal, as the match's pair state gives it."""
    return match.pair_state.time_forfeit(board, flagged)


class ClockEntry(RecordGameDialog):
    """A game entry opened by the clock window. Keys typed while it saves (the commit waits for
    the disk) were sent by the X server to this entry's window; once it is hidden they would be
    dropped, so they are handled before it closes: the clocks take them at their key-down."""

    saving = False  # the game is being written: the entry closes itself afterwards

    def save(self) -> None:
        self.saving = True
        try:
            super().save()
        finally:
            self.saving = False

    def accept(self) -> None:
        self.save_button.setEnabled(False)  # no second save from the input handled now
        QApplication.processEvents()
        super().accept()


class TimeForfeitDialog(ClockEntry):
    """Record the flagged game; `borne_off_yes`/`borne_off_no` answer RULES §5's question."""

    def __init__(
        self,
        ctx: EventContext,
        match: MatchInfo,
        board: int,
        flagged: Side,
        clock_ns: ClockTimes,
        parent: QWidget | None = None,
    ) -> None:
        self.flagged = flagged
        super().__init__(ctx, match, board, time_forfeit_proposal(match, board, flagged), parent)
        self.setObjectName(f"forfeit-{board}")
        self.clock_ns = clock_ns
        player = board_players(match, board)[0 if flagged is Side.A else 1]
        seat = f"{flagged.value}{board}"
        self.question = QWidget()
        self.question.setObjectName("bornOffQuestion")
        stake = match.rules.scoring.variant.stake  # pin game: the pip count (RULES §6.4)
        self.borne_off_no = QRadioButton(f"No: 3 × {stake} (a backgammon)")
        self.borne_off_yes = QRadioButton(f"Yes, at least one: 1 × {stake} (a single)")
        self.borne_off_no.setChecked(True)
        group = QButtonGroup(self.question)
        group.addButton(self.borne_off_no)
        group.addButton(self.borne_off_yes)
        ask = QLabel(f"{seat} {player}'s flag fell. Has {player} borne off a checker?")
        ask.setObjectName("bornOffAsk")
        ask.setTextFormat(Qt.TextFormat.PlainText)  # a player's name is shown as typed
        ask.setStyleSheet("font-weight: bold;")
        ask.setWordWrap(True)
        answers = QHBoxLayout()
        answers.addWidget(self.borne_off_no)
        answers.addWidget(self.borne_off_yes)
        answers.addStretch(1)
        column = QVBoxLayout(self.question)
        column.setContentsMargins(0, 6, 0, 6)
        column.addWidget(ask)
        column.addLayout(answers)
        self.layout_.insertWidget(1, self.question)
        needs_count = "loser_borne_off" in required_fields(match.rules.scoring, End.TIME)
        self.question.setVisible(needs_count)  # chasing the girls: no such question (§6.5)
        self.borne_off_yes.toggled.connect(self._answered)
        if needs_count:
            self._count().textChanged.connect(self._count_typed)

    def heading(self) -> str:
        return f"Flag fell: time forfeit on board {self.board}, pair {self.pair_number()}"

    def _count(self) -> QLineEdit:
        return self.form.count_edit("loser_borne_off")

    def _answered(self, yes: bool) -> None:
        edit = self._count()
        text = edit.text().strip()
        if yes and text in ("", "0"):
            edit.setText("1")  # at least one; the director may type the exact count
            edit.selectAll()
        elif not yes and text != "0":
            edit.setText("0")

    def _count_typed(self, text: str) -> None:
        """A count typed into the form answers the question too."""
        count = typed_number(text)  # "²" is no count (str.isdigit passed it), nor is "٣"
        if count is not None:
            button = self.borne_off_yes if count > 0 else self.borne_off_no
            if not button.isChecked():
                button.setChecked(True)
