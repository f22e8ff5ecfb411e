"""One board in the clock window: its two faces, its cube, its state and its pause button."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QBoxLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from director.domain.clock import (
    NS_PER_SECOND,
    TENTHS_BELOW_NS,
    BoardClock,
    Phase,
    format_remaining,
)
from director.domain.event import MatchInfo
from director.domain.rules import ClockMode, Side, TimeControl
from director.ui.clock.faces import Face, FaceState, Look

LOW_NS = TENTHS_BELOW_NS  # low-time colour from where tenths appear (RULES §7: below 20 s)

BOARD_STYLE = """
QFrame#board { background: #0d0f11; border-radius: 8px; }
QLabel { color: #e8eaed; }
QLabel[role="board-title"] { font-size: 20pt; font-weight: bold; }
QLabel[role="board-state"] { font-size: 14pt; font-weight: bold; padding: 2px 10px;
    border-radius: 6px; }
QLabel[role="cube"] { font-size: 14pt; font-weight: bold; color: #111; background: #f4f1ea;
    border: 2px solid #c9c2b4; border-radius: 6px; padding: 2px 10px; }
QPushButton { font-size: 12pt; padding: 6px 12px; }
"""
STATE_COLOURS = {
    "running": "#14532d",
    "paused": "#92400e",
    "flag": "#b91c1c",
    "ready": "#1d4ed8",
    "done": "#374151",
}


def players(match: MatchInfo | None, board: int) -> tuple[tuple[str, str], tuple[str, str]]:
    """(player, team) for side A and B of a board."""
    if match is None:
        return (("", ""), ("", ""))
    if match.rules.event_format.one_board:  # the player is the entrant: named once (§10)
        b_name = match.team_b.name if match.team_b else "—"
        return ((match.team_a.name, ""), (b_name, ""))
    a = (match.team_a.player(board), match.team_a.name)
    b = (match.team_b.player(board), match.team_b.name) if match.team_b else ("—", "bye")
    return (a, b)


def cube_text(match: MatchInfo | None, board: int) -> str:
    if match is None or not match.rules.scoring.variant.has_cube:
        return ""
    cube = match.cubes.of(board)
    if cube.offered_by is not None:
        seat = f"{cube.offered_by.value}{board}"
        return f"Cube {cube.value} · {seat} offers {cube.value * 2}"
    if cube.owner is not None:
        return f"Cube {cube.value} · {cube.owner.value}{board}"
    allowed, _ = match.may_double(board)
    if not allowed and match.pair_state.board_live(board):
        return "Cube 1 · dead"
    return "Cube 1 · centre"


def _note(b: BoardClock, side: Side, tc: TimeControl, recorded: bool) -> tuple[Look, str]:
    on_move = b.on_move is side
    if b.phase is Phase.READY:
        return (Look.FIRST, "moves first") if on_move else (Look.READY, "won the roll? press")
    if b.flagged is side:
        return Look.FLAGGED, "⚑ FLAG: out of time"
    if b.phase is Phase.STOPPED:
        if b.flagged is not None:
            return Look.STOPPED, "wins on time"
        return Look.STOPPED, "game recorded" if recorded else "stopped"
    if not on_move:
        return Look.WAITING, ""
    if b.phase is Phase.PAUSED:
        return Look.ON_MOVE_PAUSED, "paused"
    delay = tc.increment_seconds * NS_PER_SECOND - b.move_ns
    if tc.mode is not ClockMode.FISCHER and delay > 0:
        return Look.RUNNING, f"delay {delay // (NS_PER_SECOND // 10) / 10:.1f}"
    return Look.RUNNING, ""


TENTH_NS = NS_PER_SECOND // 10


def next_change_ns(b: BoardClock, tc: TimeControl) -> int | None:
    """How long until what a running board shows changes (its time or its delay countdown),
    so the window repaints right then and not up to a timer interval late."""
    if b.phase is not Phase.RUNNING or b.on_move is None:
        return None
    remaining = b.side(b.on_move).remaining_ns
    delay_left = tc.increment_seconds * NS_PER_SECOND - b.move_ns
    waits = []
    if tc.mode is not ClockMode.FISCHER and delay_left > 0:
        waits.append(delay_left % TENTH_NS + 1)
    if not (tc.mode is ClockMode.DELAY and delay_left > 0):  # main time is running
        step = TENTH_NS if remaining < TENTHS_BELOW_NS else NS_PER_SECOND
        waits.append(remaining % step + 1)
    return min(waits)


@dataclass(frozen=True)
class Showing:
    """How the window shows a board besides its clock: the alarm's flash, faces turned to the
    players (a flat screen), and the key test's lit faces."""

    flash: bool = False
    turned: bool = False
    key_test: frozenset[Side] | None = None  # None: no key test; else the sides that pressed


def face_states(
    b: BoardClock,
    board: int,
    tc: TimeControl,
    match: MatchInfo | None,
    keys: tuple[str, str],
    recorded: bool,
    showing: Showing = Showing(),
) -> tuple[FaceState, FaceState]:
    out = []
    for side, (player, team), key in zip(Side, players(match, board), keys, strict=True):
        remaining = b.side(side).remaining_ns
        look, note = _note(b, side, tc, recorded)
        low = remaining < LOW_NS and b.phase is not Phase.READY and look is not Look.STOPPED
        one_board = match is not None and match.rules.event_format.one_board
        seat = side.value if one_board else f"{side.value}{board}"
        shown_key = key if b.phase in (Phase.READY, Phase.RUNNING) else ""
        if showing.key_test is not None:
            lit = side in showing.key_test
            look, low, shown_key = (Look.TESTED if lit else Look.READY), False, key
            note = f"✓ {key} works" if lit else f"press {key} to test"
        turned = showing.turned and side is Side.B
        out.append(
            FaceState(
                seat,
                player,
                team,
                format_remaining(remaining),
                look,
                low,
                note,
                shown_key,
                flash=showing.flash,
                turned=turned,
            )
        )
    return out[0], out[1]


def board_state(
    b: BoardClock, board: int, recorded: bool, pause_key: str, one_board: bool = False
) -> tuple[str, str]:
    """The board's state in words, and its colour key."""
    if b.flagged is not None:
        paused = " · paused to correct" if b.phase is Phase.PAUSED else ""
        seat = b.flagged.value if one_board else f"{b.flagged.value}{board}"
        return f"Flag fell: {seat}{paused}", "flag"
    if b.phase is Phase.READY:
        return ("First mover set" if b.on_move else "Who moves first?"), "ready"
    if b.phase is Phase.PAUSED:
        return f"PAUSED · {pause_key} resumes", "paused"
    if b.phase is Phase.STOPPED:
        return ("Game recorded" if recorded else "Stopped"), "done"
    return "Running", "running"


class BoardView(QFrame):
    """Board n: title, cube, state, the two faces (A left, B right) and its pause button."""

    pause_clicked = Signal(int)
    record_clicked = Signal(int)
    silence_clicked = Signal(int)

    def __init__(self, board: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.board = board
        self.setObjectName("board")
        self.setStyleSheet(BOARD_STYLE)
        self.title = QLabel(f"Board {board}")
        self.title.setProperty("role", "board-title")
        self.cube = QLabel()
        self.cube.setObjectName(f"cube-{board}")
        self.cube.setProperty("role", "cube")
        self.state = QLabel()
        self.state.setObjectName(f"state-{board}")
        self.state.setProperty("role", "board-state")
        self.faces = (Face(board, f"A{board}"), Face(board, f"B{board}"))
        self.pause_button = QPushButton()
        self.pause_button.setObjectName(f"pause-{board}")
        self.pause_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.pause_button.clicked.connect(lambda: self.pause_clicked.emit(self.board))
        self.record_button = QPushButton(f"Record game… (Alt+{board})")
        self.record_button.setObjectName(f"record-{board}")
        self.record_button.setToolTip("The game ended: pause this board and record it")
        self.record_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.record_button.clicked.connect(lambda: self.record_clicked.emit(self.board))
        self.silence_button = QPushButton("Silence the flag alarm")
        self.silence_button.setObjectName(f"silence-{board}")
        self.silence_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.silence_button.setStyleSheet("background: #b91c1c; color: white; font-weight: bold;")
        self.silence_button.clicked.connect(lambda: self.silence_clicked.emit(self.board))
        self.silence_button.hide()
        head = QHBoxLayout()
        head.addWidget(self.title)
        head.addWidget(self.cube)
        head.addStretch(1)
        head.addWidget(self.state)
        self.face_row = QBoxLayout(QBoxLayout.Direction.LeftToRight)
        self.face_row.setSpacing(6)
        for face in self.faces:
            self.face_row.addWidget(face, 1)
        row = self.face_row
        foot = QHBoxLayout()
        foot.addWidget(self.record_button)
        foot.addWidget(self.silence_button)
        foot.addStretch(1)
        foot.addWidget(self.pause_button)
        self.entry_space = QWidget()  # room below the faces for an open game entry
        self.entry_space.setObjectName(f"entrySpace-{board}")
        self.entry_space.setFixedHeight(0)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addLayout(head)
        layout.addLayout(row, 1)
        layout.addLayout(foot)
        layout.addWidget(self.entry_space)
        self._shown: tuple[str, str, str, str, bool, bool, bool] | None = None
        self.flat = False

    def reserve_entry(self, height: int) -> None:
        """Make room under the faces for a game entry (0: none), so it never covers them."""
        self.entry_space.setFixedHeight(max(0, height))
        layout = self.layout()
        if layout is not None:
            layout.activate()

    def set_flat(self, flat: bool) -> None:
        """Flat screen between the players: B's face on top (turned towards B), A's below."""
        self.flat = flat
        self.face_row.setDirection(
            QBoxLayout.Direction.BottomToTop if flat else QBoxLayout.Direction.LeftToRight
        )

    def show_board(
        self,
        b: BoardClock,
        tc: TimeControl,
        match: MatchInfo | None,
        keys: tuple[str, str],
        pause_key: str,
        recorded: bool,
        showing: Showing = Showing(),
        sounding: bool = False,
    ) -> None:
        states = face_states(b, self.board, tc, match, keys, recorded, showing)
        if match is not None and match.rules.event_format.one_board:
            self.title.setText(f"Game {match.outcome.current_pair}")  # the match's one board
        for face, state in zip(self.faces, states, strict=True):
            face.show_state(state)
        one_board = match is not None and match.rules.event_format.one_board
        text, colour = board_state(b, self.board, recorded, pause_key, one_board)
        pause = "Resume" if b.phase is Phase.PAUSED else "Pause"
        if b.flagged is not None and b.phase is Phase.STOPPED and not recorded:
            pause = "Correct: pause"  # the arbiter pauses a flagged board to restore a time
        open_game = match is not None and match.pair_state.match_live and not recorded
        shown = (
            text,
            colour,
            cube_text(match, self.board),
            f"{pause} ({pause_key})" if one_board else f"{pause} board {self.board} ({pause_key})",
            b.phase in (Phase.RUNNING, Phase.PAUSED) or (b.flagged is not None and not recorded),
            open_game and b.phase is not Phase.READY,
            sounding,
        )
        if shown == self._shown:
            return  # a label's setText relayouts: only when something changed
        self._shown = shown
        self.state.setText(text)
        self.state.setStyleSheet(f"background: {STATE_COLOURS[colour]};")
        self.cube.setText(shown[2])
        self.cube.setVisible(bool(shown[2]))
        self.pause_button.setText(shown[3])
        self.pause_button.setEnabled(shown[4])
        which = "the clock" if one_board else "this board"
        self.record_button.setToolTip(f"The game ended: pause {which} and record it")
        self.record_button.setEnabled(shown[5])
        self.silence_button.setVisible(sounding)
