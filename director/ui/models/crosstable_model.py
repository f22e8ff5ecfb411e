"""The crosstable: each team (in standings order) against its opponent of every round.

A cell reads 'W 5–3 #4': the result from this team's side (the domain's code), the score,
and the opponent's current rank.
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from director.domain.standings import CrossCell
from director.domain.wording import isolated
from director.services.standings import Standings

Index = QModelIndex | QPersistentModelIndex

RESULT_WORDS = {
    "W": "won against",
    "D": "drew with",
    "L": "lost to",
    "+": "won by forfeit against",
    "-": "lost by forfeit to",
    "?": "is playing",
}
RESULT_COLOURS = {"W": "#e3f1e6", "+": "#e3f1e6", "D": "#f4f0dc", "L": "#f8e4e1", "-": "#f8e4e1"}


class CrosstableModel(QAbstractTableModel):
    def __init__(self) -> None:
        super().__init__()
        self.view: Standings | None = None
        self.cells: dict[int, dict[int, CrossCell]] = {}
        self.rounds = 0
        self.rank: dict[int, int] = {}
        self.names: dict[int, str] = {}

    def set_data(self, view: Standings | None, cells: dict[int, dict[int, CrossCell]]) -> None:
        self.beginResetModel()
        self.view = view
        self.cells = cells
        self.rounds = max((r for team in cells.values() for r in team), default=0)
        if view is not None:
            self.rounds = min(self.rounds, view.through_round) if view.through_round else 0
        lines = view.lines if view else ()
        self.rank = {line.team.id: line.row.rank for line in lines}
        self.names = {line.team.id: line.team.name for line in lines}
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() or self.view is None:
            return 0
        return len(self.view.lines)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else 3 + self.rounds

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        if section == 0:
            return "Rank"
        if section == 1:
            return "Team"
        if section == 2 + self.rounds:
            return "MP"
        return f"R{section - 1}" if 0 <= section < self.columnCount() else None

    def cell(self, row: int, column: int) -> CrossCell | None:
        assert self.view is not None
        team = self.view.lines[row].team.id
        return self.cells.get(team, {}).get(column - 1)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or self.view is None:
            return None
        line = self.view.lines[index.row()]
        column = index.column()
        if column in (0, 1) or column == 2 + self.rounds:
            if role != Qt.ItemDataRole.DisplayRole:
                if role == Qt.ItemDataRole.TextAlignmentRole and column != 1:
                    return int(Qt.AlignmentFlag.AlignCenter)
                return None
            values = (str(line.row.rank), line.team.name)
            return values[column] if column < 2 else f"{line.row.match_points:g}"
        cell = self.cell(index.row(), column)
        if role == Qt.ItemDataRole.DisplayRole:
            return self.cell_text(cell)
        if role == Qt.ItemDataRole.ToolTipRole and cell is not None:
            return self.cell_words(line.team.name, column - 1, cell)
        if role == Qt.ItemDataRole.BackgroundRole and cell is not None:
            colour = RESULT_COLOURS.get(cell.result)
            return QBrush(QColor(colour)) if colour else None
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        return None

    def cell_text(self, cell: CrossCell | None) -> str:
        if cell is None:
            return ""
        if cell.opponent is None:
            return "bye"
        rank = self.rank.get(cell.opponent)
        return f"{cell.result} {cell.points_for}–{cell.points_against} #{rank}"

    def cell_words(self, team: str, round_number: int, cell: CrossCell) -> str:
        if cell.opponent is None:
            return f"Round {round_number}: {isolated(team)} had a bye"
        team, other = isolated(team), isolated(self.names.get(cell.opponent, "?"))
        return (
            f"Round {round_number}: {team} {RESULT_WORDS.get(cell.result, cell.result)} "
            f"{other} (#{self.rank.get(cell.opponent)}), {cell.points_for}–{cell.points_against}"
        )
