"""The teams table: a Qt model over team ids and `TeamInfo` snapshots (STYLE habit 2).

The model never holds a session. Edits go through `services.teams.edit_team` via
`ctx.change`; a refused edit emits `refused` with the service's words and the row keeps its
old value. A reload keeps rows in place (a row is a team id) so a reload in the middle of an
edit never pulls the row from under the editor. The model sorts its own rows (`sort`, asked
by the view through the filter proxy): one Python `sorted` over precomputed keys, where the
proxy's own sort called a Python `lessThan`, and `rowCount`/`columnCount` twice per index,
about 6,000 times each for 1,000 teams, on the GUI thread while the event opened.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

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
from director.domain.numbers import typed_number
from director.domain.rules import Format
from director.domain.wording import counted, entrant_words, quoted

if TYPE_CHECKING:  # the page is first shown before the database layer loads (ui/context.py)
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
        self._ids: list[int] = []  # the rows, in the order shown (sorted when asked)
        self._loaded: list[int] = []  # the same ids in the order they came (ties keep it)
        self._teams: dict[int, TeamInfo] = {}
        self._cells: dict[int, tuple[str, ...]] = {}  # each team's texts, made when first shown
        self._sort_column = -1  # unsorted until the view asks (`sort`)
        self._sort_order = Qt.SortOrder.AscendingOrder
        self.entrant = "team"  # who enters, as the event's format says ("team" or "player")

    # -- reading -------------------------------------------------------------------------------

    def teams(self) -> list[TeamInfo]:
        return [self._teams[i] for i in self._ids]

    def team_at(self, row: int) -> TeamInfo:
        return self._teams[self._ids[row]]

    def row_of(self, team_id: int) -> int:
        return self._ids.index(team_id)

    def _sorted(self) -> list[int]:
        """The loaded ids in the asked order: one key per team, no call into Qt."""
        if not 0 <= self._sort_column < len(COLUMNS):
            return list(self._loaded)
        field, teams = COLUMNS[self._sort_column].field, self._teams
        keys = {i: self._sort_key(teams[i], field) for i in self._loaded}
        descending = self._sort_order == Qt.SortOrder.DescendingOrder
        return sorted(self._loaded, key=keys.__getitem__, reverse=descending)  # stable

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self._sort_column, self._sort_order = column, order
        self._resort()

    def _resort(self) -> None:
        """Move rows into the asked order, keeping every persistent index (an open editor,
        the selection) on its team."""
        fresh = self._sorted()
        if fresh == self._ids:
            return
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        teams = [self._ids[index.row()] for index in old]
        self._ids = fresh
        rows = {team_id: row for row, team_id in enumerate(fresh)}
        new = [self.index(rows[t], index.column()) for t, index in zip(teams, old, strict=True)]
        self.changePersistentIndexList(old, new)
        self.layoutChanged.emit()

    def set_teams(self, teams: list[TeamInfo]) -> None:
        """Show these snapshots: rows gone are removed, new ones appended, the rest updated."""
        fresh = {t.id: t for t in teams}
        if not self._ids:
            if teams:
                self.beginResetModel()
                self._loaded = [t.id for t in teams]
                self._teams = fresh
                self._cells = {}
                self._ids = self._sorted()
                self.endResetModel()
            return
        for row in range(len(self._ids) - 1, -1, -1):
            team_id = self._ids[row]
            if team_id not in fresh:
                self.beginRemoveRows(QModelIndex(), row, row)
                del self._teams[team_id]
                self._cells.pop(team_id, None)
                del self._ids[row]
                self._loaded.remove(team_id)
                self.endRemoveRows()
        for row, team_id in enumerate(self._ids):
            if self._teams[team_id] != fresh[team_id]:
                self._teams[team_id] = fresh[team_id]
                self._cells.pop(team_id, None)
                last = self.index(row, len(COLUMNS) - 1)
                self.dataChanged.emit(self.index(row, 0), last)
        new = [t for t in teams if t.id not in self._teams]
        if new:
            start = len(self._ids)
            self.beginInsertRows(QModelIndex(), start, start + len(new) - 1)
            for team in new:
                self._ids.append(team.id)
                self._loaded.append(team.id)
                self._teams[team.id] = team
            self.endInsertRows()
        self._resort()  # an edited or new team takes its place in the asked order

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
            return (
                f"The {self.entrant}'s name, unique in the event"
                if named
                else (entrant_words(spec.tip, self.entrant))
            )
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
        team = self._teams[self._ids[index.row()]]
        column = index.column()
        field = COLUMNS[column].field
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            if field in CHECK_FIELDS:
                return None
            cells = self._cells.get(team.id)
            if cells is None:  # made once per team, for the rows painted only
                cells = tuple(display_value(team, spec.field) for spec in COLUMNS)
                self._cells[team.id] = cells
            return cells[column]
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
            from director.services.teams import edit_team

            updated = self.ctx.change(edit_team, team.id, version=team.version, **changes)
        except UserError as exc:
            self.refused.emit(str(exc))
            return False
        self._teams[team.id] = updated
        self._cells.pop(team.id, None)
        row = index.row()
        self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))
        self._resort()  # its row moves to its place in the asked order
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
            number = typed_number(stripped, signed=True)  # int() took "١٦٥٠" and 25 nines
            if number is None:
                raise UserError(f"{label} must be a whole number, not {quoted(text)}")
            return {field: number}
        return {field: text}


SHOW = ("All teams", "Playing", "Withdrawn", "Not present", "Not paid")
FILTERED = SHOW[1:]  # the choices that hide some rows


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

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """The model sorts its rows (see `TeamModel`); this proxy only filters them."""
        self.teams.sort(column, order)

    def filterAcceptsRow(
        self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex
    ) -> bool:
        if not self.text and self.show not in FILTERED:
            return True  # the usual case: no Python work per row
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
