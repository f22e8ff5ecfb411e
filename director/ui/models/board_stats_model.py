"""Board statistics: each player (team and board) with games won and lost and points."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from director.domain.event import TeamInfo
from director.domain.standings import BoardTotals

Index = QModelIndex | QPersistentModelIndex

COLUMNS = (
    "Player",
    "Team",
    "Board",
    "Games",
    "Won",
    "Lost",
    "Won %",
    "Points for",
    "Points against",
    "Difference",
)
SORT_ROLE = Qt.ItemDataRole.UserRole + 1


class BoardStatsModel(QAbstractTableModel):
    def __init__(self) -> None:
        super().__init__()
        self.rows: list[tuple[BoardTotals, TeamInfo]] = []

    def set_totals(self, totals: list[BoardTotals], teams: dict[int, TeamInfo]) -> None:
        self.beginResetModel()
        self.rows = [(t, teams[t.team_id]) for t in totals if t.team_id in teams]
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if (
            orientation == Qt.Orientation.Horizontal
            and role == Qt.ItemDataRole.DisplayRole
            and 0 <= section < len(COLUMNS)
        ):
            return COLUMNS[section]
        return None

    def value(self, row: int, column: int) -> object:
        totals, team = self.rows[row]
        share = totals.won / totals.games if totals.games else 0.0
        return (
            team.player(totals.board),
            team.name,
            totals.board,
            totals.games,
            totals.won,
            totals.lost,
            share,
            totals.points_for,
            totals.points_against,
            totals.points_for - totals.points_against,
        )[column]

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid():
            return None
        value = self.value(index.row(), index.column())
        if role == SORT_ROLE:
            return value
        if role == Qt.ItemDataRole.DisplayRole:
            if COLUMNS[index.column()] == "Won %":
                assert isinstance(value, float)
                return f"{value:.0%}"
            return str(value)
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() >= 2:
            return int(Qt.AlignmentFlag.AlignCenter)
        return None
