"""One board at the desk: its two players, the state of its game in this pair, its cube, and
the button that records its game."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QGroupBox, QPushButton, QVBoxLayout, QWidget

from director.domain.event import MatchInfo
from director.domain.rules import Side
from director.domain.wording import isolated
from director.ui.desk.cube_widget import CubeWidget
from director.ui.desk.words import board_players, board_sides, seat, side_name, unit_title
from director.ui.elided import names_shortened_in, short_names
from director.ui.plain import esc, plain_label, rich_label, tooltip


class BoardPanel(QGroupBox):
    """Board 1 (A1 v B1) or board 2 (A2 v B2)."""

    record_requested = Signal(int)  # board
    # board, "offer"/"take"/"pass"/"withdraw", Side|None
    cube_action_requested = Signal(int, str, object)

    def __init__(self, board: int, parent: QWidget | None = None) -> None:
        super().__init__(f"Board {board}", parent)
        self.board = board
        self.setStyleSheet("QGroupBox { font-weight: bold; font-size: 12pt; }")
        self.players = rich_label()
        self.players.setObjectName("players")
        self.players.setWordWrap(True)
        self.players.setStyleSheet("font-size: 13pt; font-weight: normal;")
        self.status = plain_label()
        self.status.setObjectName("boardStatus")
        self.status.setWordWrap(True)
        self.status.setStyleSheet("font-weight: normal;")
        self.cube = CubeWidget(board)
        self.cube.setStyleSheet(self.cube.styleSheet() + " QWidget { font-weight: normal; }")
        self.record_button = QPushButton(f"Record game on board {board}…")
        self.record_button.setObjectName("record")
        self.record_button.setStyleSheet("font-size: 11pt; padding: 6px;")
        self.record_button.clicked.connect(lambda: self.record_requested.emit(board))
        self.cube.offer_requested.connect(
            lambda side: self.cube_action_requested.emit(board, "offer", side)
        )
        self.cube.take_requested.connect(
            lambda: self.cube_action_requested.emit(board, "take", None)
        )
        self.cube.pass_requested.connect(
            lambda: self.cube_action_requested.emit(board, "pass", None)
        )
        self.cube.withdraw_requested.connect(
            lambda: self.cube_action_requested.emit(board, "withdraw", None)
        )
        layout = QVBoxLayout(self)
        layout.addWidget(self.players)
        layout.addWidget(self.status)
        layout.addWidget(self.cube)
        layout.addStretch(1)
        layout.addWidget(self.record_button)

    def show_match(self, match: MatchInfo) -> None:
        n = self.board
        # long names shortened: one without spaces cannot wrap, and widened the window
        a, b = (isolated(name) for name in short_names(self.players, board_players(match, n)))
        team_a, team_b = (isolated(name) for name in short_names(self.players, match.names))
        one_board = match.rules.event_format.one_board  # the players are the entrants
        seat_a, seat_b = (seat(match, side, n) for side in Side)
        self.players.setText(
            f"<b>{seat_a}</b> {esc(a)}&nbsp; v &nbsp;<b>{seat_b}</b> {esc(b)}"
            if one_board
            else f"<b>{seat_a}</b> {esc(a)} <span style='color:gray'>({esc(team_a)})</span>"
            f"&nbsp; v &nbsp;<b>{seat_b}</b> {esc(b)} "
            f"<span style='color:gray'>({esc(team_b)})</span>"
        )
        self.setTitle("" if one_board else f"Board {n}")  # one board: its players say it
        self.record_button.setText("Record game…" if one_board else f"Record game on board {n}…")
        self.players.setToolTip(tooltip(" v ".join(board_sides(match, n))))
        outcome = match.outcome
        live = self.live(match)
        self.status.setText(self.status_text(match))
        self.record_button.setEnabled(live)
        key = f"Alt+{self.board}"
        self.record_button.setToolTip(
            f"Record this board's game ({key})" if live else tooltip(self.status_text(match))
        )
        allowed, why = match.may_double(self.board)
        why = names_shortened_in(self.status, why, match.names)  # a long name takes lines
        self.cube.show_cube(match.cubes.of(self.board), (allowed, why), (a, b), live)
        reason = names_shortened_in(self.status, outcome.cube_rule.reason, match.names)
        self.cube.set_has_cube(match.rules.scoring.variant.has_cube, reason)

    def live(self, match: MatchInfo) -> bool:
        """Its game of the current pair is still being played (the pair state's answer)."""
        if match.is_bye or match.forfeit_by is not None:
            return False
        return match.pair_state.board_live(self.board)

    def status_text(self, match: MatchInfo) -> str:
        outcome = match.outcome
        if match.is_bye:
            return "a bye: no games"
        if match.forfeit_by is not None:
            return f"won by forfeit: team {match.forfeit_by} did not play"
        pair = outcome.current_pair
        unit = unit_title(match, pair)
        if self.board in outcome.boards_done:
            game = next(g for g in match.games if g.pair == pair and g.board == self.board)
            line = next((ln for ln in outcome.lines if ln.game is game), None)
            points = line.points if line else 0
            (winner,) = short_names(self.status, (side_name(match, game.winner),))
            won = f"{isolated(winner)} won {points} ({game.end})"
            if line is not None and not line.counted:
                won = f"abandoned under rule 4′ ({isolated(winner)} won it)"
            waiting = "" if outcome.finished else f"; waiting for board {3 - self.board}"
            return f"{unit}: recorded, {won}{waiting}"
        if outcome.finished:
            return "the match is over"
        return f"{unit}: in play"
