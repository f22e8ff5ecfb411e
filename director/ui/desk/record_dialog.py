"""Record a game, or correct a recorded one with a reason for the audit log.

The dialog shows, before saving, what the game will award: the domain scores the match with
this game in it (`score_match`), so the points, the new score, a rule 4′ abandonment or a
one-cube breach are all the domain's answer. Saving goes through `ctx.change`; a refusal (a
rule, another station's edit) is shown in the dialog and nothing is written.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from director.domain.errors import UserError
from director.domain.event import MatchInfo
from director.domain.match import MatchOutcome, score_match
from director.domain.rules import End, Level, Side
from director.domain.scoring import Game
from director.domain.wording import counted, isolated
from director.services import games
from director.ui.context import EventContext
from director.ui.desk.game_form import ERROR_STYLE, GameForm, readable
from director.ui.desk.words import board_sides, result_text, seat
from director.ui.elided import short_names
from director.ui.message_bar import ask
from director.ui.plain import esc, plain_label, rich_label

ClockTimes = tuple[int | None, int | None]
# A game worth more than twice the match length is far more likely a slip (a 32 cube typed for
# a 2) than a real game: the desk asks before saving it. A check on typing, not a rule.
UNLIKELY_FACTOR = 2
# One key for each common choice, as typing a side's letter in the Winner list always was: a
# gammon on a 2-cube is Alt+1 A G 2 Enter, not seven keys with three Tabs (#24 point 5). A text
# field (a count, the cube's own box, a correction's reason) keeps its keys.
WINNER_KEYS = {"A": Side.A, "B": Side.B}
LEVEL_KEYS = {"S": Level.SINGLE, "G": Level.GAMMON, "K": Level.BACKGAMMON}
CUBE_KEYS = ("1", "2", "4", "8")  # the common cubes; 16 and up are typed in the cube's box
KEYS_HINT = (
    "Keys: A or B the winner · S single, G gammon, K backgammon · 1 2 4 8 the cube · Enter saves"
)
VOID_STYLE = (
    "background: #fff4ce; border: 1px solid #e6cf7a; border-radius: 6px; padding: 6px 10px;"
)
SIDE_ROOM = 200  # pixels for a name in "A: Ana (Blue Bar)", the winner's choice


class RecordGameDialog(QDialog):
    """The next game of one board of a match."""

    def __init__(
        self,
        ctx: EventContext,
        match: MatchInfo,
        board: int,
        proposal: Game | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.match = match
        self.board = board
        self.clock_ns: ClockTimes = (None, None)  # the clock window sets the times at game end
        self.saved: MatchInfo | None = None
        self.attempted = False  # Save was pressed: say what is still missing
        pair = self.pair_number()
        self.setWindowTitle(self.heading())
        # long names shortened (a name without spaces cannot wrap): the dialog fits the screen
        self.names = short_names(self, match.names)
        players = board_sides(match, board, lambda name: short_names(self, (name,), SIDE_ROOM)[0])
        self.header = rich_label()
        self.header.setWordWrap(True)
        seat_a, seat_b = (seat(match, side, board) for side in Side)
        self.header.setText(
            f"<b>{self.heading()}</b><br>{seat_a} {esc(players[0])} &nbsp;v&nbsp;"
            f" {seat_b} {esc(players[1])}"
        )
        self.form = GameForm(match.rules, board, pair, players)
        self.preview = plain_label()
        self.preview.setObjectName("preview")
        self.preview.setWordWrap(True)
        self.preview.setStyleSheet("font-size: 13pt; font-weight: bold;")
        self.problems = plain_label()
        self.problems.setObjectName("problems")
        self.problems.setWordWrap(True)
        self.problems.setStyleSheet(ERROR_STYLE)
        self.refusal = plain_label()
        self.refusal.setObjectName("refusal")
        self.refusal.setWordWrap(True)
        self.refusal.setStyleSheet(ERROR_STYLE + "font-weight: bold;")
        self.refusal.hide()
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        self.layout_ = QVBoxLayout(self)
        self.layout_.addWidget(self.header)
        self.layout_.addWidget(self.form)
        self.extra = QFormLayout()
        self.layout_.addLayout(self.extra)
        self.layout_.addWidget(self.preview)
        self.layout_.addWidget(self.problems)
        self.layout_.addWidget(self.refusal)
        self.layout_.addStretch(1)
        self.keys_hint = plain_label(KEYS_HINT)
        self.keys_hint.setObjectName("keysHint")
        self.keys_hint.setWordWrap(True)
        self.keys_hint.setStyleSheet("color: #5b6661;")
        self.layout_.addWidget(self.keys_hint)
        self.layout_.addWidget(self.buttons)
        self._choice_keys()
        # the desk's proposal (a pass, a flag) names its winner; a fresh game leaves it open
        self.form.set_game(proposal or self.initial_game(), winner_known=proposal is not None)
        self.confirm_box: QMessageBox | None = None
        self.form.changed.connect(self.update_preview)
        self.setMinimumWidth(560)
        self.update_preview()

    def _choice_keys(self) -> None:
        """The winner's, the level's and the common cubes' keys (see WINNER_KEYS), taken by
        this dialog's lists and buttons (a text field keeps its keys, and a key typed in
        another window, such as the clock window beside an entry it opened, is never one)."""
        for widget in (
            self,
            self.form.winner,
            self.form.end,
            self.form.level,
            self.form.agreed_level,
            *self.buttons.buttons(),
        ):
            widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            plain = event.modifiers() & ~Qt.KeyboardModifier.ShiftModifier
            if not plain and self.choice_key(event.text().upper()):
                return True
        return super().eventFilter(watched, event)

    def choice_key(self, key: str) -> bool:
        """Do what `key` chooses; whether it chose something."""
        if key in WINNER_KEYS:
            return self._choose(self.form.winner, WINNER_KEYS[key].value)
        if key in LEVEL_KEYS:
            return self._choose(self.form.level, LEVEL_KEYS[key].value)
        if key in CUBE_KEYS and self.form.cube.isVisibleTo(self):
            self.form.cube.setValue(int(key))
            return True
        return False

    def _choose(self, combo: QComboBox, data: object) -> bool:
        index = combo.findData(data)
        if index < 0 or not combo.isVisibleTo(self):
            return False
        combo.setCurrentIndex(index)
        return True

    @property
    def save_button(self) -> QPushButton:
        return self.buttons.button(QDialogButtonBox.StandardButton.Save)

    def heading(self) -> str:
        record = self.match.rules.event_format
        if record.one_board:
            return f"Record {record.where(self.pair_number(), self.board)}"
        return f"Record game: board {self.board}, pair {self.pair_number()}"

    def pair_number(self) -> int:
        return self.match.outcome.current_pair

    @property
    def shown_names(self) -> tuple[str, str]:
        """The teams' names as the dialog shows them (a long one shortened)."""
        return self.names[0], self.names[1]

    def shown_name(self, side: Side) -> str:
        return self.shown_names[0] if side is Side.A else self.shown_names[1]

    def initial_game(self) -> Game:
        """A bear-off single on the board's live cube: the commonest game, the cube prefilled
        (the winner is not: `set_game` leaves it for the director)."""
        cube = self.match.cubes.of(self.board)
        return Game(
            pair=self.pair_number(),
            board=self.board,
            winner=cube.owner or Side.A,
            end=End.BEAR_OFF,
            cube=cube.value,
            level=Level.SINGLE,
        )

    # -- preview ------------------------------------------------------------------------

    def games_with(self, game: Game) -> tuple[Game, ...]:
        return (*self.match.games, game)

    def update_preview(self) -> None:
        self.refusal.hide()
        try:
            self._preview()
        finally:
            self.fit_height()

    def fit_height(self) -> None:
        """Grow to show every wrapped line (a field's error, the rule 5′ one of a time
        forfeit): a window's layout does not ask its word-wrapped labels' heightForWidth."""
        needed = self.layout_.totalHeightForWidth(self.width())
        if self.isVisible() and needed > self.height():
            self.resize(self.width(), needed)

    def _preview(self) -> None:
        game, general = self.form.check()
        if game is None:
            # the winner is not chosen yet, but a used cube on a dead board is refused already
            sketch, _ = self.form.parse(any_winner=True)
            cube = self.match.pair_state.cube_problems(sketch) if sketch is not None else []
            general += [readable(text) for text in cube]
            self.show_problems(general)
            return
        outcome = self.scored(game)
        general += [readable(str(p)) for p in outcome.problems]
        if general:
            self.show_problems(general)
            return
        self.problems.hide()
        self.preview.setText(self.award_text(game, outcome))
        self.save_button.setEnabled(not self.missing())

    def scored(self, game: Game) -> MatchOutcome:
        """The match with this game, scored by the domain with the live cubes of the pair: a
        double offered on the other board already made it the cube board (RULES §4)."""
        live = {self.match.outcome.current_pair: self.match.cubes}
        return score_match(self.match.rules, self.games_with(game), self.match.names, live)

    def missing(self) -> bool:
        """Something besides the game is still needed before saving (a correction's reason)."""
        return False

    def show_problems(self, general: list[str]) -> None:
        self.preview.setText("Points: — (not ready to save)")
        self.problems.setText("\n".join(general))
        self.problems.setVisible(bool(general))
        self.save_button.setEnabled(False)

    def award_text(self, game: Game, outcome: MatchOutcome) -> str:
        line = next(line for line in outcome.lines if line.game is game)
        winner = isolated(self.shown_name(game.winner))
        if not line.counted:
            text = f"Abandoned under rule 4′: the match was already decided, {winner} scores 0"
        else:
            text = f"{winner} scores {counted(line.points, 'point')}"
            if self.match.rules.scoring.variant.squeeze is not None:
                text += f" and {counted(line.pip_points, 'pip point')}"
        text += f" → score {outcome.score}"
        if outcome.finished and not self.match.outcome.finished:
            text += f". The match ends: {result_text(outcome, self.shown_names)}"
        return text

    # -- save ---------------------------------------------------------------------------

    def points_of(self, game: Game) -> int:
        outcome = score_match(self.match.rules, self.games_with(game), self.match.names)
        return max(
            (
                ln.points
                for ln in outcome.lines
                if (ln.game.pair, ln.game.board) == (game.pair, game.board)
            ),
            default=0,
        )

    def save(self) -> None:
        self.attempted = True
        self.update_preview()
        game, _ = self.form.check()
        if game is None or not self.save_button.isEnabled():
            return  # the messages are on screen; nothing is written
        points, length = self.points_of(game), self.match.rules.match_length
        if points > UNLIKELY_FACTOR * length:
            self.confirm_box = ask(
                self,
                "Unusually many points",
                f"This game scores {points} points in a match to {length}: more than the match"
                " could need. Save it as it is?",
                "Save anyway",
                lambda: self.write_and_close(game),
            )
            return
        self.write_and_close(game)

    def write_and_close(self, game: Game) -> None:
        try:
            self.saved = self.write(game)
        except UserError as refusal:
            self.refusal.setText(f"Not saved: {refusal}")
            self.refusal.show()
            return
        self.accept()

    def write(self, game: Game) -> MatchInfo:
        return self.ctx.change(
            games.record_game,
            self.match.id,
            game,
            version=self.match.version,
            clock_ns=self.clock_ns,
        )


class CorrectGameDialog(RecordGameDialog):
    """Edit a recorded game; the whole match is re-checked and the reason goes to the audit."""

    def __init__(
        self,
        ctx: EventContext,
        match: MatchInfo,
        game_id: int,
        parent: QWidget | None = None,
    ) -> None:
        self.game_id = game_id
        self.original = match.games[match.game_ids.index(game_id)]
        self.voids: tuple[int, ...] = ()  # the later games this correction voids (their ids)
        self.void_text = ""
        super().__init__(ctx, match, self.original.board, self.original, parent)
        self.reason = QLineEdit()
        self.reason.setObjectName("reason")
        self.reason.setPlaceholderText(
            "required: why the game is corrected (kept in the audit log)"
        )
        self.reason_error = QLabel()
        self.reason_error.setObjectName("error_reason")
        self.reason_error.setStyleSheet(ERROR_STYLE)
        self.reason_error.hide()
        self.extra.addRow("&Reason", self.reason)  # Alt+R
        self.extra.addRow("", self.reason_error)
        # the later games the correction voids: shown apart from the points, in full
        self.void_label = plain_label()
        self.void_label.setObjectName("voids")
        self.void_label.setWordWrap(True)
        self.void_label.setStyleSheet(VOID_STYLE)
        self.void_label.hide()
        self.layout_.insertWidget(self.layout_.indexOf(self.preview) + 1, self.void_label)
        self.reason.textChanged.connect(self.update_preview)
        # a correction starts at the game, the reason comes last (Tab, or Alt+R): it started
        # in the reason, six Shift+Tab away from the winner (#24 point 5)
        self.form.winner.setFocus(Qt.FocusReason.OtherFocusReason)
        self.update_preview()

    def heading(self) -> str:
        record = self.match.rules.event_format
        if record.one_board:
            return f"Correct {record.where(self.original.pair, self.board)}"
        return f"Correct game: board {self.board}, pair {self.original.pair}"

    def pair_number(self) -> int:
        return self.original.pair

    def scored(self, game: Game) -> MatchOutcome:
        """The domain's answer for the corrected match, with the later games it voids when the
        correction ends the match sooner (they are shown, and removed with the correction)."""
        fixed = games.correction(self.match, self.game_id, game)
        self.voids = tuple(self.match.game_ids[i] for i in fixed.voided)
        self.void_text = fixed.voided_text(self.shown_names)
        return fixed.outcome

    def games_with(self, game: Game) -> tuple[Game, ...]:
        game = replace(game, pair=self.original.pair)
        return tuple(
            game if gid == self.game_id else g
            for gid, g in zip(self.match.game_ids, self.match.games, strict=True)
        )

    def missing(self) -> bool:
        if not hasattr(self, "reason"):
            return True
        missing = not self.reason.text().strip()
        self.reason_error.setText("a correction needs a reason for the audit log")
        self.reason_error.setVisible(missing and self.attempted)
        return missing

    def award_text(self, game: Game, outcome: MatchOutcome) -> str:
        line = next(
            line
            for line in outcome.lines
            if line.game.pair == game.pair and line.game.board == game.board
        )
        winner = isolated(self.shown_name(game.winner))
        text = f"{winner} scores {counted(line.points, 'point')}"
        if not line.counted:
            text = f"Abandoned under rule 4′: {winner} scores 0"
        state = result_text(outcome, self.shown_names)
        self.show_voids()
        return f"{text}; the match score becomes {outcome.final} ({state})"

    def show_problems(self, general: list[str]) -> None:
        super().show_problems(general)
        self.voids = ()  # nothing can be saved: no games to void either
        self.show_voids()

    def show_voids(self) -> None:
        if not hasattr(self, "void_label"):
            return  # the base dialog's first preview, before the correction's own widgets
        count = len(self.voids)
        self.void_label.setText(
            f"The match now ends sooner: this voids {counted(count, 'later game')}, "
            f"removed with the correction (kept in the audit log): {self.void_text}"
            if count
            else ""
        )
        if self.void_label.isHidden() == bool(count):
            self.void_label.setVisible(bool(count))
            self.adjustSize()  # the dialog grows to show the whole list

    def write_and_close(self, game: Game) -> None:
        if not self.voids:
            super().write_and_close(game)
            return
        count = len(self.voids)
        self.confirm_box = ask(
            self,
            "Void later games",
            f"With this correction the match ends sooner. {counted(count, 'later game')}"
            f" could not have been played, removed with it: {self.void_text}.",
            f"Correct and void {counted(count, 'game')}",
            lambda: super(CorrectGameDialog, self).write_and_close(game),
            "The correction and every voided game are kept in the audit log.",
        )

    def write(self, game: Game) -> MatchInfo:
        return self.ctx.change(
            games.correct_game,
            self.game_id,
            game,
            self.reason.text(),
            version=self.match.version,
            voids=self.voids,
        )
