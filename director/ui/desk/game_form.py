"""The fields of one game, fitted to the event's scoring, with each problem beside its field.

Which fields a game needs comes from `domain.scoring.required_fields`; what is wrong with the
values from `domain.scoring.game_problems`. The form only parses what was typed (a count must
be a whole number) and routes the domain's messages to the field they name.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from director.domain.numbers import typed_number
from director.domain.rules import CHECKERS, End, Level, MatchRules, Side
from director.domain.scoring import (
    COUNTS,
    Game,
    agreed_level_offered,
    game_problems,
    required_fields,
)
from director.ui.desk.cube_spin import CubeSpin

COUNT_LABELS = {  # one for each of scoring.COUNTS
    "loser_borne_off": "Checkers the flagged player had borne off",
    "winner_left": "Winner's checkers left on the board",
    "loser_left": "Loser's checkers left on the board",
    "loser_home": "Loser's checkers in their own home board",
    "loser_outfield": "Loser's checkers in the outfield",
    "loser_in_winner_home_or_bar": "Loser's checkers in the winner's home board or on the bar",
    "loser_pips": "Loser's pip count",
}
FIELD_LABELS = {
    "winner": "Winner",
    "end": "How the game ended",
    "cube": "Cube value",
    "level": "Level",
    "agreed_level": "Agreed lower forfeit (rule 5′)",
    **COUNT_LABELS,
}
# The rule 5′ choice sits right under the count it depends on (the flagged player's).
ROW_ORDER = ("winner", "end", "cube", "level", COUNTS[0], "agreed_level", *COUNTS[1:])
END_LABELS = {
    End.BEAR_OFF: "played out (bear-off)",
    End.PASS: "double passed",
    End.RESIGN: "resigned",
    End.TIME: "time forfeit (flag fell)",
}
ERROR_STYLE = "color: #b03a2e;"


def readable(text: str) -> str:
    """A domain message with the record-format field names replaced by the form's labels."""
    for name in sorted(FIELD_LABELS, key=len, reverse=True):
        if name in text and "_" in name:
            text = text.replace(name, f"“{FIELD_LABELS[name].lower()}”")
    return text


class GameForm(QWidget):
    """Winner, end, cube, level and the counts a scoring needs; `changed` on every edit."""

    changed = Signal()

    def __init__(
        self,
        rules: MatchRules,
        board: int,
        pair: int,
        sides: tuple[str, str],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.rules = rules
        self.board = board
        self.pair = pair
        self.inputs: dict[str, QWidget] = {}
        self.errors: dict[str, QLabel] = {}
        self.boxes: dict[str, QWidget] = {}
        self.form = QFormLayout()
        self.winner = QComboBox()
        for side, label in zip(Side, sides, strict=True):
            self.winner.addItem(f"{side}: {label}", side.value)
        # Nobody has won until the director says so: Enter never saves a guess.
        self.winner.setPlaceholderText("choose who won")
        self.winner.setCurrentIndex(-1)
        self.end = QComboBox()
        for end, label in END_LABELS.items():
            if end is End.PASS and not rules.scoring.variant.has_cube:
                continue  # nothing to pass without a cube (RULES §6.4, §6.5)
            self.end.addItem(label, end.value)
        self.cube = CubeSpin()
        self.cube.setProperty("digitsOnly", True)  # the clock keys pass it (clock/input.py)
        self.level = QComboBox()
        for level in Level:
            self.level.addItem(str(level), level.value)
        self.agreed_level = QComboBox()
        self.agreed_level.addItem("not applied: the rule's forfeit stands", None)
        for level in (Level.GAMMON, Level.SINGLE):
            self.agreed_level.addItem(f"agreed: score it as a {level}", level.value)
        widgets: dict[str, QWidget] = {
            "winner": self.winner,
            "end": self.end,
            "cube": self.cube,
            "level": self.level,
            "agreed_level": self.agreed_level,
        }
        for combo in (self.winner, self.end, self.level, self.agreed_level):
            combo.currentIndexChanged.connect(self._edited)
        self.cube.valueChanged.connect(self._edited)
        self.cube.lineEdit().textChanged.connect(self._edited)  # a refused "3" on its way
        for name in COUNTS:
            edit = QLineEdit()
            edit.setPlaceholderText(f"0–{CHECKERS}" if name != "loser_pips" else "pips to go")
            edit.setMaximumWidth(110)
            edit.setProperty("digitsOnly", True)  # the clock keys pass it (clock/input.py)
            edit.textChanged.connect(self._edited)
            widgets[name] = edit
        for name in ROW_ORDER:
            self._add_row(name, widgets[name])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.form)
        self._fit_fields()

    def _add_row(self, name: str, widget: QWidget) -> None:
        error = QLabel()
        error.setObjectName(f"error_{name}")
        error.setStyleSheet(ERROR_STYLE)
        error.setWordWrap(True)
        error.hide()
        box = QWidget()
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(1)
        column.addWidget(widget)
        column.addWidget(error)
        widget.setObjectName(name)
        self.inputs[name] = widget
        self.errors[name] = error
        self.boxes[name] = box
        self.form.addRow(FIELD_LABELS[name], box)

    def count_edit(self, name: str) -> QLineEdit:
        edit = self.inputs[name]
        assert isinstance(edit, QLineEdit)
        return edit

    # -- which fields this scoring and end need -------------------------------------------

    def visible_fields(self) -> set[str]:
        end = self.current_end()
        shown = {"winner", "end", *required_fields(self.rules.scoring, end)}
        if self.rules.scoring.variant.has_cube:
            shown.add("cube")
        if agreed_level_offered(self.rules, end):
            shown.add("agreed_level")
        return shown

    def _fit_fields(self) -> None:
        shown = self.visible_fields()
        for row, name in enumerate(self.inputs):
            self.form.setRowVisible(row, name in shown)
        label = self.form.labelForField(self.boxes["level"])
        if isinstance(label, QLabel):
            label.setText("Level conceded" if self.current_end() is End.RESIGN else "Level")

    def _edited(self) -> None:
        self._fit_fields()
        self.changed.emit()

    # -- values -------------------------------------------------------------------------

    def current_end(self) -> End:
        return End(self.end.currentData())

    def set_game(self, game: Game, winner_known: bool = True) -> None:
        """Fill the form from a game (a correction, or a pass or flag proposed by the desk);
        without `winner_known` the winner is left for the director to choose."""
        winner = self.winner.findData(game.winner.value) if winner_known else -1
        self.winner.setCurrentIndex(winner)
        self.end.setCurrentIndex(max(0, self.end.findData(game.end.value)))
        self.cube.setValue(game.cube)
        self.level.setCurrentIndex(max(0, self.level.findData((game.level or Level.SINGLE).value)))
        agreed = game.agreed_level.value if game.agreed_level else None
        self.agreed_level.setCurrentIndex(max(0, self.agreed_level.findData(agreed)))
        for name in COUNTS:
            value = getattr(game, name)
            self.count_edit(name).setText("" if value is None else str(value))
        self._fit_fields()

    def parse(self, any_winner: bool = False) -> tuple[Game | None, dict[str, str]]:
        """The game the visible fields describe, or the typing errors by field. `any_winner`:
        a sketch for checks that do not depend on who won (the live cube), side A if unset."""
        shown = self.visible_fields()
        typing: dict[str, str] = {}
        counts: dict[str, int | None] = {}
        for name in COUNTS:
            text = self.count_edit(name).text().strip()
            counts[name] = None
            if name not in shown or not text:
                continue
            counts[name] = typed_number(text)  # 0-9 only: int() read "٣" as 3, "1_0" as 10
            if counts[name] is None:
                typing[name] = f"“{text}” is not a whole number"
        if "cube" in shown and not self.cube.hasAcceptableInput():
            typing["cube"] = f"“{self.cube.text()}” is not a cube value: 1, 2, 4, 8, 16, 32 or 64"
        if self.winner.currentIndex() < 0 and not any_winner:
            typing["winner"] = "choose who won the game"
        if typing:
            return None, typing
        winner = Side(self.winner.currentData() or Side.A.value)
        level = Level(self.level.currentData()) if "level" in shown else None
        agreed_data = self.agreed_level.currentData() if "agreed_level" in shown else None
        agreed = Level(agreed_data) if agreed_data else None
        game = Game(
            pair=self.pair,
            board=self.board,
            winner=winner,
            end=self.current_end(),
            cube=self.cube.value() if "cube" in shown else 1,
            level=level,
            agreed_level=agreed,
            **counts,
        )
        return game, {}

    def check(self) -> tuple[Game | None, list[str]]:
        """Parse and validate; show each message beside its field. Returns the other messages."""
        game, by_field = self.parse()
        general: list[str] = []
        if game is not None:
            visible = self.visible_fields()  # a problem is never put beside a hidden field
            for problem in game_problems(self.rules.scoring, game):
                name = problem.field
                if name in visible:
                    shown = [by_field.get(name), readable(problem)]
                    by_field[name] = "; ".join(filter(None, shown))
                else:
                    general.append(readable(problem))
        for name, label in self.errors.items():
            label.setText(by_field.get(name, ""))
            label.setVisible(name in by_field)
        if by_field or general:
            return None, general
        return game, []
