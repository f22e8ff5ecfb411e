"""The matches of one round as a table: table, teams, score, status, result.

Rows are `MatchInfo` snapshots from `services.rounds`; the score and the result are the
domain's (`MatchInfo.outcome`).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from director.domain.event import MatchInfo, PlayStatus
from director.domain.match import Result
from director.domain.wording import isolated

Index = QModelIndex | QPersistentModelIndex

COLUMNS = ("Table", "Team A", "Score", "Team B", "Status", "Result")
NOT_STARTED = PlayStatus.NOT_STARTED.value
IN_PROGRESS = PlayStatus.IN_PROGRESS.value
FINISHED = PlayStatus.FINISHED.value
STATUS_COLOURS = {NOT_STARTED: "#6b7570", IN_PROGRESS: "#9a6700", FINISHED: "#1e6b34"}


def match_status(match: MatchInfo) -> str:
    """Not started (no game yet), in progress, or finished (a result, a bye or a forfeit)."""
    return match.status.value


def result_words(match: MatchInfo, shorten: Callable[[str], str] = str) -> str:
    """'Blue Bar wins', 'draw', 'bye: Blue Bar wins'; `shorten` cuts the name."""
    if match.is_bye:
        return f"bye: {isolated(shorten(match.names[0]))} wins"
    if match.forfeit_by is not None:
        winner = match.names[1] if match.forfeit_by.value == "A" else match.names[0]
        return f"{isolated(shorten(winner))} wins by forfeit"
    result = match.outcome.result
    if result is Result.UNFINISHED:
        return ""
    paper = " (from paper)" if match.outcome.from_paper else ""
    if result is Result.DRAW:
        return f"draw{paper}"
    winner = match.names[0] if result is Result.A else match.names[1]
    return f"{isolated(shorten(winner))} wins{paper}"


def score_words(match: MatchInfo) -> str:
    if match.is_bye or match.forfeit_by is not None:
        return "–"
    return f"{match.outcome.final.a} – {match.outcome.final.b}"


class RoundMatchesModel(QAbstractTableModel):
    def __init__(self) -> None:
        super().__init__()
        self._matches: tuple[MatchInfo, ...] = ()
        self.entrant = "team"  # who enters, as the event's format says: "team" or "player"

    def set_matches(self, matches: tuple[MatchInfo, ...]) -> None:
        self.beginResetModel()
        self._matches = matches
        self.endResetModel()

    def match_at(self, row: int) -> MatchInfo:
        return self._matches[row]

    def row_of(self, match_id: int) -> int:
        return next((i for i, m in enumerate(self._matches) if m.id == match_id), -1)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._matches)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            if not 0 <= section < len(COLUMNS):
                return None
            title = COLUMNS[section]
            return title.replace("Team", self.entrant.capitalize(), 1)
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid():
            return None
        match = self._matches[index.row()]
        column = COLUMNS[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return {
                "Table": match.table_label,
                "Team A": match.names[0],
                "Score": score_words(match),
                "Team B": match.names[1] if match.team_b else "bye",
                "Status": match_status(match),
                "Result": result_words(match),
            }[column]
        if role == Qt.ItemDataRole.ForegroundRole and column == "Status":
            return QBrush(QColor(STATUS_COLOURS[match_status(match)]))
        if role == Qt.ItemDataRole.TextAlignmentRole and column in ("Table", "Score", "Status"):
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            return "Double-click to open this match at the match desk"
        return None
