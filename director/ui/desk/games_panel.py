"""The games of the match at the desk: the list, and undo / correct beside it."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from director.domain.event import MatchInfo
from director.ui.models.games_model import (
    BOARD_COLUMN,
    COUNTED_COLUMN,
    CUBE_COLUMN,
    PIP_COLUMN,
    GamesModel,
)


class GamesPanel(QWidget):
    undo_requested = Signal()
    correction_requested = Signal(int)  # row of the game to correct (-1: none selected)

    def __init__(self, undo_key: str, correct_key: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.games = GamesModel()
        self.table = QTableView(self)
        self.table.setObjectName("games")
        self.table.setModel(self.games)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.doubleClicked.connect(lambda index: self.correction_requested.emit(index.row()))
        self.undo_button = QPushButton("Undo last game…", self)
        self.undo_button.setToolTip(f"Undo the last game of this match ({undo_key})")
        self.undo_button.clicked.connect(self.undo_requested.emit)
        self.edit_button = QPushButton("Correct game…", self)
        self.edit_button.setToolTip(
            f"Correct the selected game; the reason goes to the audit log ({correct_key})"
        )
        self.edit_button.clicked.connect(
            lambda: self.correction_requested.emit(self.selected_row())
        )
        buttons = QVBoxLayout()
        buttons.addWidget(self.undo_button)
        buttons.addWidget(self.edit_button)
        buttons.addStretch(1)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)

    def show_match(self, match: MatchInfo | None) -> None:
        self.games.set_match(match)
        pip_squeeze = match is not None and match.rules.scoring.variant.squeeze is not None
        self.table.setColumnHidden(PIP_COLUMN, not pip_squeeze)
        has_cube = match is None or match.rules.scoring.variant.has_cube
        self.table.setColumnHidden(CUBE_COLUMN, not has_cube)
        record = None if match is None else match.rules.event_format
        one_board = record is not None and record.one_board
        self.table.setColumnHidden(BOARD_COLUMN, one_board)  # one board: game after game
        self.table.setColumnHidden(COUNTED_COLUMN, record is not None and not record.pair_end_rules)
        has_games = match is not None and bool(match.games)
        self.undo_button.setEnabled(has_games)
        self.edit_button.setEnabled(has_games)

    def selected_row(self) -> int:
        rows = self.table.selectionModel().selectedRows()
        return rows[0].row() if rows else -1
