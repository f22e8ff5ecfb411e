"""The teams table: a Qt model over team ids and `TeamInfo` snapshots (STYLE habit 2).

The model never holds a session. Edits go through `services.teams.edit_team` via
`ctx.change`; a refused edit emits `refused` with the service's words and the row keeps its
old value. A reload keeps rows in place (a row is a team id) so a reload in the middle of an
edit never pulls the row from under the editor; the view sorts through a proxy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor, QFont

from director.domain.errors import UserError
from director.domain.event import TeamInfo
from director.domain.rules import Format
from director.domain.wording import counted, quoted
from director.services.teams import edit_team
from director.ui.context import EventContext

Index = QModelIndex | QPersistentModelIndex
SORT_ROLE = Qt.ItemDataRole.UserRole + 1  # numbers sort as numbers, not as text
TEAM_ID_ROLE = Qt.ItemDataRole.UserRole + 2


@dataclass(frozen=True)
class Column:
    title: str
    field: str  # the edit_team keyword, or "" when the column is not editable
    tip: str


COLUMNS = (
    Column("Seed", "seed", "The team's seed: round 1 pairings and the last tie-break"),
    Column("Team", "name", "The team's name, unique in the event"),
    Column("Board 1", "player1", "The board 1 player"),
    Column("Board 2", "player2", "The board 2 player"),
    Column("Club", "club", "Club, optional (Swiss can avoid same-club pairings)"),
    Column("Rating", "rating", "Rating, optional, for information"),
    Column("Paid", "paid", "Entry fee paid"),
    Column("Present", "present", "Checked in tonight"),
    Column("Status", "", "Playing, or withdrawn after a round (not paired from the next)"),
)
CHECK_FIELDS = ("paid", "present")
# the columns of a team's players (`player1`, `player2`), and the board each plays
PLAYER_FIELDS = {f"player{board}": board for board in Format.TANDEM.record.boards}
WITHDRAWN_COLOUR = QColor("#8a9490")


def status_text(team: TeamInfo) -> str:
    if team.withdrawn_after_round is not None:
        after = team.withdrawn_after_round
        return f"Withdrawn after round {after}" if after else "Withdrawn before round 1"
    if team.joined_round > 1:
        return f"Playing from round {team.joined_round}"
    return "Playing"


def display_value(team: TeamInfo, field: str) -> str:
    values: dict[str, Any] = {
        "seed": team.seed,
        "name": team.name,
        **{f"player{board}": name for board, name in team.by_board.items()},
        "club": team.club,
        "rating": "" if team.rating is None else team.rating,
        "": status_text(team),
    }
    return str(values.get(field, ""))


class TeamModel(QAbstractTableModel):
    refused = Signal(str)  # an edit the service refused, in its words

    def __init__(self, ctx: EventContext, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self._ids: list[int] = []
        self._teams: dict[int, TeamInfo] = {}
        self._sort_keys: dict[int, list[Any]] = {}  # per column, each row's; made when sorted
        self.entrant = "team"  # who enters, as the event's format says ("team" or "player")

    # -- reading -------------------------------------------------------------------------------

    def teams(self) -> list[TeamInfo]:
        return [self._teams[i] for i in self._ids]

    def team_at(self, row: int) -> TeamInfo:
        return self._teams[self._ids[row]]

    def row_of(self, team_id: int) -> int:
        return self._ids.index(team_id)

    def sort_keys(self, column: int) -> list[Any]:
        """Each row's sort key in `column` (the proxy sorts by these, without a call per row
        and comparison into `data`: sorting 1,000 teams that way took most of the page's
        first showing)."""
        keys = self._sort_keys.get(column)
        if keys is None:
            field = COLUMNS[column].field
            keys = [self._sort_key(self._teams[i], field) for i in self._ids]
            self._sort_keys[column] = keys
        return keys

    def set_teams(self, teams: list[TeamInfo]) -> None:
        """Show these snapshots: rows gone are removed, new ones appended, the rest updated."""
        fresh = {t.id: t for t in teams}
        if not self._ids:
            if teams:
                self.beginResetModel()
                self._ids = [t.id for t in teams]
                self._teams = fresh
                self._sort_keys = {}
                self.endResetModel()
            return
        for row in range(len(self._ids) - 1, -1, -1):
            if self._ids[row] not in fresh:
                self.beginRemoveRows(QModelIndex(), row, row)
                del self._teams[self._ids[row]]
                del self._ids[row]
                self._sort_keys = {}
                self.endRemoveRows()
        for row, team_id in enumerate(self._ids):
            if self._teams[team_id] != fresh[team_id]:
                self._teams[team_id] = fresh[team_id]
                self._sort_keys = {}
                last = self.index(row, len(COLUMNS) - 1)
                self.dataChanged.emit(self.index(row, 0), last)
        new = [t for t in teams if t.id not in self._teams]
        if new:
            start = len(self._ids)
            self.beginInsertRows(QModelIndex(), start, start + len(new) - 1)
            for team in new:
                self._ids.append(team.id)
                self._teams[team.id] = team
            self._sort_keys = {}
            self.endInsertRows()

    # -- Qt model ------------------------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._ids)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation is not Qt.Orientation.Horizontal or not 0 <= section < len(COLUMNS):
            return None
        spec = COLUMNS[section]
        named = spec.field == "name" and self.entrant != "team"  # the player is the entrant
        if role == Qt.ItemDataRole.DisplayRole:
            return self.entrant.capitalize() if named else spec.title
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"The {self.entrant}'s name, unique in the event" if named else spec.tip
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        field = COLUMNS[index.column()].field
        if field in CHECK_FIELDS:
            return flags | Qt.ItemFlag.ItemIsUserCheckable
        if field:
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        team = self.team_at(index.row())
        field = COLUMNS[index.column()].field
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return None if field in CHECK_FIELDS else display_value(team, field)
        if role == Qt.ItemDataRole.CheckStateRole and field in CHECK_FIELDS:
            on = team.paid if field == "paid" else team.present
            return Qt.CheckState.Checked if on else Qt.CheckState.Unchecked
        if role == SORT_ROLE:
            return self._sort_key(team, field)
        if role == TEAM_ID_ROLE:
            return team.id
        if role == Qt.ItemDataRole.ForegroundRole and team.withdrawn:
            return WITHDRAWN_COLOUR
        if role == Qt.ItemDataRole.FontRole and team.withdrawn:
            font = QFont()
            font.setItalic(True)
            return font
        if role == Qt.ItemDataRole.TextAlignmentRole and field in ("seed", "rating"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    @staticmethod
    def _sort_key(team: TeamInfo, field: str) -> Any:
        if field == "seed":
            return team.seed
        if field == "rating":
            return -1 if team.rating is None else team.rating
        if field in CHECK_FIELDS:
            return int(team.paid if field == "paid" else team.present)
        return display_value(team, field).casefold()

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if not index.isValid():
            return False
        team = self.team_at(index.row())
        field = COLUMNS[index.column()].field
        try:
            if role == Qt.ItemDataRole.CheckStateRole and field in CHECK_FIELDS:
                checked = Qt.CheckState(value) == Qt.CheckState.Checked
                changes: dict[str, Any] = {field: checked}
            elif role == Qt.ItemDataRole.EditRole and field and field not in CHECK_FIELDS:
                changes = self._edit(team, field, "" if value is None else str(value))
                if not changes:
                    return False
            else:
                return False
            updated = self.ctx.change(edit_team, team.id, version=team.version, **changes)
        except UserError as exc:
            self.refused.emit(str(exc))
            return False
        self._teams[team.id] = updated
        self._sort_keys = {}
        row = index.row()
        self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))
        return True

    @staticmethod
    def _edit(team: TeamInfo, field: str, text: str) -> dict[str, Any]:
        """The edit_team arguments for a typed value; numbers must be whole numbers."""
        if display_value(team, field) == text:
            return {}  # nothing changed: no write, no audit entry
        board = PLAYER_FIELDS.get(field)
        if board is not None:
            return {"players": tuple(team.by_board.replaced(board, text).values())}
        if field in ("seed", "rating"):
            label = "the seed" if field == "seed" else "the rating"
            stripped = text.strip()
            if field == "rating" and not stripped:
                return {"rating": None}  # an emptied cell clears the rating
            try:
                return {field: int(stripped)}
            except ValueError:
                raise UserError(f"{label} must be a whole number, not {quoted(text)}") from None
        return {field: text}


SHOW = ("All teams", "Playing", "Withdrawn", "Not present", "Not paid")


def counts_text(teams: list[TeamInfo], entrant: str = "team") -> str:
    withdrawn = sum(t.withdrawn for t in teams)
    text = counted(len(teams), entrant)
    if withdrawn:
        text += f", {withdrawn} withdrawn"
    if teams:
        text += f" · {sum(t.present for t in teams)} present · {sum(t.paid for t in teams)} paid"
    return text


class TeamFilter(QSortFilterProxyModel):
    """Search text over names, players and club, and a "show" choice (withdrawn, not present…)."""

    def __init__(self, model: TeamModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.teams = model
        self.setSourceModel(model)
        self.setSortRole(SORT_ROLE)
        self.text = ""
        self.show = SHOW[0]

    def set_text(self, text: str) -> None:
        self.beginFilterChange()
        self.text = text.strip().casefold()
        self.endFilterChange()

    def set_show(self, show: str) -> None:
        self.beginFilterChange()
        self.show = show
        self.endFilterChange()

    def lessThan(self, left: Index, right: Index) -> bool:
        keys = self.teams.sort_keys(left.column())
        return bool(keys[left.row()] < keys[right.row()])

    def filterAcceptsRow(
        self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex
    ) -> bool:
        team = self.teams.team_at(source_row)
        shown = {
            "Playing": not team.withdrawn,
            "Withdrawn": team.withdrawn,
            "Not present": not team.present,
            "Not paid": not team.paid,
        }.get(self.show, True)
        if not shown:
            return False
        if not self.text:
            return True
        haystack = (team.name, *team.players, team.club)
        return any(self.text in value.casefold() for value in haystack)
