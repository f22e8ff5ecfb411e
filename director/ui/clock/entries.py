"""The game entries the clock window opens over a board: the §5 forfeit entry a flag opens,
and the desk's record dialog when a game ends at the table (RULES §5, §7).

They are not modal and each sits under its own board's faces, in room the board makes for it:
it covers no face, flagged or running. A flag's entry opens without taking the keyboard;
whichever window has it, the clock keys still end moves and pause (`input.ClockInput`).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from director.domain.clock import BOARDS, Phase
from director.domain.errors import UserError
from director.domain.event import MatchInfo
from director.domain.rules import Side
from director.services import games, matches
from director.ui.clock.board_view import BoardView
from director.ui.clock.controller import ClockController
from director.ui.clock.forfeit import ClockEntry, TimeForfeitDialog
from director.ui.context import EventContext
from director.ui.desk.record_dialog import RecordGameDialog
from director.ui.message_bar import ask


class GameEntries:
    """The open entry of each board (`dialogs`), at most one per board."""

    def __init__(
        self,
        ctx: EventContext,
        match_id: int,
        controller: ClockController,
        boards: tuple[BoardView, BoardView],
        parent: QWidget,
        report: Callable[[str], None],
    ) -> None:
        self.ctx, self.match_id, self.controller = ctx, match_id, controller
        self.boards, self.parent, self.report = boards, parent, report
        self.dialogs: dict[int, RecordGameDialog] = {}
        self.lost_on_time: QMessageBox | None = None  # RULES §10's question, while it is open

    def open_forfeit(self, board: int, flagged: Side) -> None:
        """RULES §5's entry for the board, with the rule's proposal filled in; where a flag
        loses the match (RULES §10), the question whether to record that."""
        match = self._match_for(board)
        if match is not None and not match.rules.event_format.game_forfeit:
            self._ask_lost_on_time(match, flagged)
        elif match is not None:
            times = self.controller.clock_times(board)
            dialog = TimeForfeitDialog(self.ctx, match, board, flagged, times, self.parent)
            self._show(dialog, activate=False)

    def _ask_lost_on_time(self, match: MatchInfo, flagged: Side) -> None:
        loser, winner = (match.names[0], match.names[1])
        if flagged is Side.B:
            loser, winner = winner, loser

        def record() -> None:
            try:
                self.ctx.change(games.record_lost_on_time, match.id, flagged, version=match.version)
            except UserError as refusal:
                self.report(str(refusal))

        self.lost_on_time = ask(
            self.parent,
            "Lost on time",
            f"{loser}'s reserve ran out: {winner} wins the match (RULES §10).",
            f"Record: {winner} wins",
            record,
            f"The match ends now, {winner}'s score raised to {match.rules.match_length}; "
            "Undo last game at the desk takes it back.",
        )
        self.lost_on_time.finished.connect(lambda _r: setattr(self, "lost_on_time", None))

    def record_game(self, board: int) -> None:
        """The game ended at the table: the board pauses (its times at the end go with the
        game) and the desk's record dialog opens."""
        if self.controller.clock.state.board(board).phase is Phase.RUNNING:
            self.controller.toggle_pause(board)
        match = self._match_for(board)
        if match is not None:
            dialog = ClockEntry(self.ctx, match, board, None, self.parent)
            dialog.clock_ns = self.controller.clock_times(board)
            self._show(dialog, activate=True)

    def close_recorded(self, match: MatchInfo) -> None:
        """An entry for a game recorded elsewhere (the desk) is stale: close it."""
        for board, dialog in list(self.dialogs.items()):
            if getattr(dialog, "saving", False):
                continue  # its own save: it handles the keys typed meanwhile, then closes
            if not match.pair_state.board_live(board):
                dialog.close()

    def _make_room(self) -> None:
        """Each board makes room for the entries it shows, and for a neighbour's entry wider
        than that board (it then reaches under this board's faces)."""
        need = {n: 0 for n in BOARDS}
        for n, dialog in self.dialogs.items():
            view = self.boards[n - 1]
            need[n] = max(need[n], dialog.height())
            if dialog.width() > view.width():
                other = 3 - n
                need[other] = max(need[other], dialog.height())
        for n, height in need.items():
            self.boards[n - 1].reserve_entry(height)

    def close_board(self, board: int) -> None:
        if board in self.dialogs:
            self.dialogs[board].close()

    def close_all(self) -> None:
        for dialog in list(self.dialogs.values()):
            dialog.close()

    def _match_for(self, board: int) -> MatchInfo | None:
        """The match as stored now, if the board's game can still be entered."""
        if board in self.dialogs:
            self.dialogs[board].raise_()
            return None
        try:
            match = self.ctx.read(matches.get_match, self.match_id)
        except UserError as exc:
            self.report(str(exc))
            return None
        if not match.pair_state.board_live(board):
            return None  # already recorded (at the desk), or the match is over
        return match

    def _show(self, dialog: RecordGameDialog, activate: bool) -> None:
        """Under the board's faces, in room the board makes for it: no face is covered."""
        view = self.boards[dialog.board - 1]

        def closed(_result: int, n: int = dialog.board) -> None:
            self.dialogs.pop(n, None)
            self._make_room()

        dialog.finished.connect(closed)
        self.dialogs[dialog.board] = dialog
        dialog.adjustSize()
        limit = max(200, view.height() * 3 // 5)  # the faces keep at least two fifths
        dialog.resize(max(view.width(), dialog.minimumSizeHint().width()), dialog.height())
        if dialog.height() > limit:
            dialog.resize(dialog.width(), max(limit, dialog.minimumSizeHint().height()))
        self._make_room()
        top_left = view.entry_space.mapToGlobal(QPoint(0, 0))
        dialog.move(top_left)
        if not activate:  # a flag must not take the keyboard from the clocks
            dialog.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating)
        dialog.show()
