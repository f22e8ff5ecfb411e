"""The games of one match as a table: pair, board, winner, end, level, cube, points, score.

The model holds a `MatchInfo` snapshot (ids and values); the points, whether a game counted
and the running score come from the domain's `score_match` lines, never recomputed here.
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from director.domain.event import MatchInfo
from director.domain.match import GameLine
from director.domain.scoring import Game
from director.domain.wording import isolated

Index = QModelIndex | QPersistentModelIndex

COLUMNS = (
    "Pair",
    "Board",
    "Winner",
    "End",
    "Level",
    "Cube",
    "Points",
    "Pip points",
    "Counted",
    "Score",
)
PIP_COLUMN = COLUMNS.index("Pip points")
BOARD_COLUMN = COLUMNS.index("Board")
COUNTED_COLUMN = COLUMNS.index("Counted")  # rule 4′ abandons a game only where pairs are played
CUBE_COLUMN = COLUMNS.index("Cube")
ABANDONED_COLOUR = QColor("#8a8a8a")


def level_text(game: Game) -> str:
    if game.agreed_level is not None:
        return f"{game.agreed_level} (rule 5′)"
    if game.level is not None:
        return str(game.level)
    if game.loser_borne_off is not None:
        return f"borne off {game.loser_borne_off}"
    if game.loser_pips is not None:
        return f"{game.loser_pips} pips"
    return ""


class GamesModel(QAbstractTableModel):
    """Rows are the recorded games of a match in the order they finished."""

    def __init__(self) -> None:
        super().__init__()
        self._match: MatchInfo | None = None
        self._rows: list[tuple[int, Game, GameLine | None]] = []

    def set_match(self, match: MatchInfo | None) -> None:
        self.beginResetModel()
        self._match = match
        self._rows = []
        if match is not None:
            # The outcome's lines carry the very Game objects of `games` (one per valid game).
            by_game = {id(line.game): line for line in match.outcome.lines}
            self._rows = [
                (gid, game, by_game.get(id(game)))
                for gid, game in zip(match.game_ids, match.games, strict=True)
            ]
        self.endResetModel()

    def game_id(self, row: int) -> int:
        return self._rows[row][0]

    def game(self, row: int) -> Game:
        return self._rows[row][1]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(COLUMNS):
            if section == 0 and self._match is not None:  # what the match is a sequence of
                return self._match.rules.event_format.unit.capitalize()
            return COLUMNS[section]
        if orientation == Qt.Orientation.Vertical and 0 <= section < len(self._rows):
            return str(section + 1)
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or self._match is None:
            return None
        _gid, game, line = self._rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(game, line, column)
        if role == Qt.ItemDataRole.ForegroundRole and line is not None and not line.counted:
            return QBrush(ABANDONED_COLOUR)
        if role == Qt.ItemDataRole.ToolTipRole and line is not None and not line.counted:
            return "abandoned under rule 4′: the match was decided before this game ended"
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (0, 1, 5, 6, 7):
            return int(Qt.AlignmentFlag.AlignCenter)
        return None

    def _display(self, game: Game, line: GameLine | None, column: int) -> str:
        assert self._match is not None
        name = self._match.names[0 if game.winner.value == "A" else 1]
        score = line.score if line is not None else None
        number = str(game.pair)
        if line is not None and line.crawford:  # RULES §10: no doubling was allowed in it
            number += " (Crawford)"
        values = (
            number,
            str(game.board),
            f"{game.winner.value}: {isolated(name)}",
            str(game.end),
            level_text(game),
            str(game.cube),
            str(line.points) if line else "",
            str(line.pip_points) if line else "",
            ("yes" if line.counted else "abandoned") if line else "not valid",
            str(score) if score is not None else "",
        )
        return values[column]
