"""One board's doubling cube at the desk: value, owner, a pending offer and the four actions.

Whether the board may double comes from the domain (`MatchInfo.may_double`, `Cube.may_offer`);
the widget only shows it: a dead cube's controls are disabled and the reason is written beside
them and in their tooltips.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from director.domain.cube import Cube, CubeError
from director.domain.rules import Side
from director.ui.elided import shortened
from director.ui.plain import esc, mnemonic_safe, plain_label, rich_label, tooltip

CUBE_STYLE = (
    "QLabel#cubeValue { border: 2px solid palette(text); border-radius: 6px;"
    " font-size: 22pt; font-weight: bold; min-width: 48px; min-height: 48px;"
    " max-width: 48px; max-height: 48px; }"
)
NAME_ROOM = 100  # pixels for a player's name on an offer button: two boards fit 1280 px


class CubeWidget(QWidget):
    """Shows one cube and asks for offer (by a side), take, pass and withdraw."""

    offer_requested = Signal(object)  # Side
    take_requested = Signal()
    pass_requested = Signal()
    withdraw_requested = Signal()

    def __init__(self, board: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.board = board
        self.setStyleSheet(CUBE_STYLE)
        self.value_label = QLabel("1")
        self.value_label.setObjectName("cubeValue")
        self.value_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.state_label = rich_label()
        self.state_label.setWordWrap(True)
        self.offer_a = QPushButton("A doubles")
        self.offer_b = QPushButton("B doubles")
        self.take_button = QPushButton("Take")
        self.pass_button = QPushButton("Pass")
        self.withdraw_button = QPushButton("Withdraw")
        self.reason_label = plain_label()
        self.reason_label.setObjectName("cubeReason")
        self.reason_label.setWordWrap(True)
        self.offer_a.clicked.connect(lambda: self.offer_requested.emit(Side.A))
        self.offer_b.clicked.connect(lambda: self.offer_requested.emit(Side.B))
        self.take_button.clicked.connect(self.take_requested.emit)
        self.pass_button.clicked.connect(self.pass_requested.emit)
        self.withdraw_button.clicked.connect(self.withdraw_requested.emit)

        top = QHBoxLayout()
        top.addWidget(self.value_label)
        top.addWidget(self.state_label, 1)
        buttons = QGridLayout()
        buttons.addWidget(self.offer_a, 0, 0)
        buttons.addWidget(self.offer_b, 0, 1)
        buttons.addWidget(self.take_button, 1, 0)
        buttons.addWidget(self.pass_button, 1, 1)
        buttons.addWidget(self.withdraw_button, 1, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addLayout(buttons)
        layout.addWidget(self.reason_label)

    @property
    def offers(self) -> tuple[QPushButton, QPushButton]:
        return (self.offer_a, self.offer_b)

    @property
    def action_buttons(self) -> tuple[QPushButton, ...]:
        return (
            self.offer_a,
            self.offer_b,
            self.take_button,
            self.pass_button,
            self.withdraw_button,
        )

    def show_cube(
        self, cube: Cube, may_double: tuple[bool, str], players: tuple[str, str], live: bool
    ) -> None:
        """`may_double` is the domain's answer for this board; `live`: its game is being played."""
        allowed, reason = may_double
        self.value_label.setText(str(cube.value))
        self.state_label.setText(self._state_text(cube, players))
        offered = cube.offered_by is not None
        whole: dict[QPushButton, str] = {}  # an offer whose name is shortened: its whole text
        for button, letter, player in zip(self.offers, "AB", players, strict=True):
            # a long name is shortened (its whole text in the tooltip): never a wider window
            name = shortened(button.fontMetrics(), player, NAME_ROOM)
            button.setText(mnemonic_safe(f"{letter} doubles ({name})"))
            if name != player:
                whole[button] = f"{letter} doubles ({player})"
        self.offer_a.setEnabled(live and allowed and cube.may_offer(Side.A))
        self.offer_b.setEnabled(live and allowed and cube.may_offer(Side.B))
        for button in (self.take_button, self.pass_button, self.withdraw_button):
            button.setEnabled(live and offered)
        dead = live and not allowed  # the game is on, but this cube may not move
        self.reason_label.setText(("Cube dead: " if dead else "") + reason)
        style = "color: #b03a2e; font-weight: bold;" if dead else "" if live else "color: gray;"
        self.reason_label.setStyleSheet(style)
        for button in self.action_buttons:
            why = self._tooltip(button, cube, reason, allowed, live)
            button.setToolTip(tooltip(f"{whole[button]}\n{why}" if button in whole else why))

    def set_has_cube(self, has_cube: bool, reason: str) -> None:
        """Pin game and chasing the girls have no cube: only the reason is shown."""
        self.value_label.setVisible(has_cube)
        self.state_label.setVisible(has_cube)
        for button in self.action_buttons:
            button.setVisible(has_cube)
        if not has_cube:
            self.reason_label.setText(reason)
            self.reason_label.setStyleSheet("")

    @staticmethod
    def _state_text(cube: Cube, players: tuple[str, str]) -> str:
        if cube.offered_by is not None:
            doubler = players[0] if cube.offered_by is Side.A else players[1]
            return (
                f"<b>Team {cube.offered_by} ({esc(doubler)}) offers {cube.value * 2}</b>:"
                " take or pass?"
            )
        if cube.owner is None:
            return "centred"
        owner = players[0] if cube.owner is Side.A else players[1]
        return f"owned by team {cube.owner} ({esc(owner)})"

    def _tooltip(
        self, button: QPushButton, cube: Cube, reason: str, allowed: bool, live: bool
    ) -> str:
        if button.isEnabled() or not live or not allowed:
            return reason
        # Ask the cube itself why this action is refused now; its message is the rule's words.
        try:
            if button is self.offer_a:
                cube.offer(Side.A)
            elif button is self.offer_b:
                cube.offer(Side.B)
            else:
                cube.take()
        except CubeError as refusal:
            return str(refusal)
        return reason
