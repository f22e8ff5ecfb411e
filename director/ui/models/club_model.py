"""The club's persons as a table: place, name, id, rating, experience, rated matches.

Holds row snapshots (`services.club.ClubRow`); the search shows only the ids the club's search
found (`show_only`), so a name and its aliases are matched by the service, never here.
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from director.domain.rating import shown
from director.services.club import ClubRow

Index = QModelIndex | QPersistentModelIndex
COLUMNS = ("Place", "Person", "Id", "Rating", "Experience", "Matches")
RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


class ClubModel(QAbstractTableModel):
    def __init__(self) -> None:
        super().__init__()
        self.every: list[ClubRow] = []
        self.rows: list[ClubRow] = []

    def set_rows(self, rows: list[ClubRow], only: set[int] | None = None) -> None:
        self.beginResetModel()
        self.every = rows
        self.rows = rows if only is None else [r for r in rows if r.id in only]
        self.endResetModel()

    def show_only(self, only: set[int] | None) -> None:
        self.set_rows(self.every, only)

    def person(self, row: int) -> int:
        return self.rows[row].id

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if orientation is Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid():
            return None
        r = self.rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.TextAlignmentRole and column != 1:
            return RIGHT
        if role == Qt.ItemDataRole.ToolTipRole and column == 3 and r.provisional:
            return "Provisional: experience under 100"
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        rating = "–" if r.rating is None else shown(r.rating) + (" P" if r.provisional else "")
        return (
            "" if r.place is None else str(r.place), r.name, f"#{r.id}", rating,
            str(r.experience), str(r.matches),
        )[column]  # fmt: skip
