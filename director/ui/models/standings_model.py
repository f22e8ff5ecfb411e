"""The standings as a table: rank, team, match points, record, and the event's tie-breaks.

Each tie-break column is titled and explained (header tooltip) by the domain's definition;
the values are the domain's (`services.standings`), never recomputed here.
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont

from director.services.standings import StandingLine, Standings

Index = QModelIndex | QPersistentModelIndex

FIXED = ("Rank", "Team", "Players", "MP", "Played", "W", "D", "L", "Byes")
FIXED_TIPS = {
    "Rank": "Equal ranks (=) are still equal on match points and every tie-break",
    "Played": "Matches played or forfeited (byes not included)",
    "W": "Matches won",
    "D": "Matches drawn",
    "L": "Matches lost",
    "Byes": "Byes (and a late entrant's bye-equivalent rounds), each scored as a win",
}
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
WITHDRAWN = QColor("#8a8a8a")
CENTRED = int(Qt.AlignmentFlag.AlignCenter)
ROLES = frozenset(  # the roles `data` answers
    {
        Qt.ItemDataRole.DisplayRole,
        SORT_ROLE,
        Qt.ItemDataRole.ForegroundRole,
        Qt.ItemDataRole.FontRole,
        Qt.ItemDataRole.TextAlignmentRole,
        Qt.ItemDataRole.ToolTipRole,
    }
)


def number(value: float | None) -> str:
    return "–" if value is None else f"{value:g}"


def title_of(definition: str) -> str:
    """'Buchholz: the sum of …' → 'Buchholz' (the definition names its tie-break first)."""
    return definition.split(":", 1)[0].strip()


class StandingsModel(QAbstractTableModel):
    def __init__(self) -> None:
        super().__init__()
        self.view: Standings | None = None
        self.columns: list[str] = list(FIXED)
        self.tips: dict[str, str] = dict(FIXED_TIPS)
        self.bold = QFont()  # one for every bold cell, made once the application is up
        self.bold.setBold(True)
        self.entrant = "team"  # who enters, as the event's format says: "team" or "player"

    def set_standings(self, view: Standings | None) -> None:
        self.beginResetModel()
        self.view = view
        self.columns = list(FIXED)
        self.tips = dict(FIXED_TIPS)
        if view is not None:
            self.tips["MP"] = view.definitions["match points"]
            for tb in view.tie_breaks:
                definition = view.definitions[tb.value]
                self.columns.append(title_of(definition))
                self.tips[title_of(definition)] = definition
        self.endResetModel()

    def line(self, row: int) -> StandingLine:
        assert self.view is not None
        return self.view.lines[row]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() or self.view is None:
            return 0
        return len(self.view.lines)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.columns)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self.columns):
            return None
        title = self.columns[section]
        if role == Qt.ItemDataRole.DisplayRole:
            return self.entrant.capitalize() if title == "Team" else title
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.tips.get(title)
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        # asked for every role of every cell drawn or measured (thousands per refresh of
        # 1,000 teams): a role this model has no answer for returns at once, and the cell's
        # value is built only for the two roles that show it
        if role not in ROLES or not index.isValid() or self.view is None:
            return None
        line = self.view.lines[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(line, column, self._value(line, column))
        if role == SORT_ROLE:
            return self._value(line, column)
        if role == Qt.ItemDataRole.ForegroundRole and line.row.note:
            return QBrush(WITHDRAWN)
        if role == Qt.ItemDataRole.FontRole and self.columns[column] in ("Team", "MP"):
            return self.bold
        if role == Qt.ItemDataRole.TextAlignmentRole and self.columns[column] not in (
            "Team",
            "Players",
        ):
            return CENTRED
        if role == Qt.ItemDataRole.ToolTipRole and line.row.withdrawn:
            return f"{line.team.name} has withdrawn; its results stand"
        if role == Qt.ItemDataRole.ToolTipRole and not line.row.took_part:
            return f"{line.team.name} never checked in: no match, no bye; listed apart, unplaced"
        return None

    def _value(self, line: StandingLine, column: int) -> object:
        row = line.row
        fixed: tuple[object, ...] = (
            row.rank,
            line.team.name,
            " & ".join(line.team.players),
            row.match_points,
            row.played,
            row.wins,
            row.draws,
            row.losses,
            row.byes,
        )
        if column < len(fixed):
            return fixed[column]
        assert self.view is not None
        return row.tie_breaks.get(self.view.tie_breaks[column - len(fixed)])

    def _display(self, line: StandingLine, column: int, value: object) -> str:
        title = self.columns[column]
        if title == "Rank":
            return line.row.place
        if title == "Team" and line.row.note:
            return f"{value} ({line.row.note})"
        if isinstance(value, float | int) and not isinstance(value, bool):
            return number(value)
        return "–" if value is None else str(value)
