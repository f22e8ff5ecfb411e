"""The game entries the clock window opens over a board: the §5 forfeit entry a flag opens,
and the desk's record dialog when a game ends at the table (RULES §5, §7).

They are not modal and each sits over its own board, so the other board's faces stay in
sight; while one has the keyboard, the clock keys still end moves (the other board plays on).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QWidget

from director.domain.clock import Phase
from director.domain.errors import UserError
from director.domain.event import MatchInfo
from director.domain.rules import Side
from director.services import results
from director.ui.clock.controller import ClockController
from director.ui.clock.forfeit import TimeForfeitDialog
from director.ui.clock.keys import KeyMap
from director.ui.context import EventContext
from director.ui.desk.record_dialog import RecordGameDialog


class PressKeys(QObject):
    """An event filter for an entry and its fields: a clock press key ends a move instead of
    typing (no field of a game entry takes letters)."""

    def __init__(self, keymap: Callable[[], KeyMap], perform: Callable[[str], None]) -> None:
        super().__init__()
        self.keymap = keymap
        self.perform = perform

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            action = self.keymap().action(event.key())
            if action is not None and action.startswith("press-"):
                if not event.isAutoRepeat():
                    self.perform(action)
                return True
        return super().eventFilter(watched, event)


class GameEntries:
    """The open entry of each board (`dialogs`), at most one per board."""

    def __init__(
        self,
        ctx: EventContext,
        match_id: int,
        controller: ClockController,
        boards: tuple[QWidget, QWidget],
        keys: PressKeys,
        parent: QWidget,
        report: Callable[[str], None],
    ) -> None:
        self.ctx, self.match_id, self.controller = ctx, match_id, controller
        self.boards, self.keys, self.parent, self.report = boards, keys, parent, report
        self.dialogs: dict[int, RecordGameDialog] = {}

    def open_forfeit(self, board: int, flagged: Side) -> None:
        """RULES §5's entry for the board, with the rule's proposal filled in."""
        match = self._match_for(board)
        if match is not None:
            times = self.controller.clock_times(board)
            self._show(TimeForfeitDialog(self.ctx, match, board, flagged, times, self.parent))

    def record_game(self, board: int) -> None:
        """The game ended at the table: the board pauses (its times at the end go with the
        game) and the desk's record dialog opens."""
        if self.controller.clock.state.board(board).phase is Phase.RUNNING:
            self.controller.toggle_pause(board)
        match = self._match_for(board)
        if match is not None:
            dialog = RecordGameDialog(self.ctx, match, board, None, self.parent)
            dialog.clock_ns = self.controller.clock_times(board)
            self._show(dialog)

    def close_recorded(self, match: MatchInfo) -> None:
        """An entry for a game recorded elsewhere (the desk) is stale: close it."""
        for board in list(self.dialogs):
            if not match.pair_state.board_live(board):
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
            match = self.ctx.read(results.get_match, self.match_id)
        except UserError as exc:
            self.report(str(exc))
            return None
        if not match.pair_state.board_live(board):
            return None  # already recorded (at the desk), or the match is over
        return match

    def _show(self, dialog: RecordGameDialog) -> None:
        for widget in (dialog, *dialog.findChildren(QWidget)):
            widget.installEventFilter(self.keys)
        dialog.finished.connect(lambda _r, n=dialog.board: self.dialogs.pop(n, None))
        self.dialogs[dialog.board] = dialog
        view = self.boards[dialog.board - 1]
        dialog.adjustSize()
        dialog.resize(min(dialog.width(), max(view.width(), 420)), dialog.height())
        dialog.move(view.mapToGlobal(view.rect().center()) - dialog.rect().center())
        dialog.show()
