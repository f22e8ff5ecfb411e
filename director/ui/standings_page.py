"""Live standings with the tie-break columns and their definitions, the crosstable, and board
statistics. All values come from `services.standings`; the page only lays them out."""

from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, QSortFilterProxyModel, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHeaderView,
    QLabel,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from director.domain.changes import Area, Changes
from director.domain.wording import counted
from director.services import standings as service
from director.services.events import rounds_paired
from director.services.standings import Standings
from director.services.teams import entrant_format
from director.ui.context import EventContext
from director.ui.models import board_stats_model
from director.ui.models.board_stats_model import BoardStatsModel
from director.ui.models.crosstable_model import CrosstableModel
from director.ui.models.standings_model import StandingsModel
from director.ui.refresh import RefreshWhenShown
from director.ui.style import hint, page_header, page_layout

LATEST = 0
CROSSTABLE_TAB, BOARDS_TAB = 1, 2


def table_view(parent: QWidget) -> QTableView:
    view = QTableView(parent)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setAlternatingRowColors(True)
    view.verticalHeader().hide()
    view.verticalHeader().setDefaultSectionSize(28)
    view.horizontalHeader().setHighlightSections(False)
    return view


FIT_ROWS = 100


def standings_concerns(changes: Changes) -> bool:
    """Standings come from the results of the rounds of the event's teams."""
    return changes.structure() or changes.touches(Area.RESULTS)


class StandingsPage(QWidget):
    title = "Standings"

    def __init__(self, ctx: EventContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.view: Standings | None = None
        self.summary = QLabel(self)
        self.summary.setProperty("role", "counts")
        self.through = QComboBox(self)
        self.through.setObjectName("throughRound")
        self.through.setToolTip("Standings as they were after an earlier round")
        self.model = StandingsModel()
        self.table = table_view(self)
        self.table.setObjectName("standings")
        self.table.setModel(self.model)
        self.legend = hint("", self)
        self.legend.setObjectName("legend")
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        self.cross_model = CrosstableModel()
        self.cross = table_view(self)
        self.cross.setObjectName("crosstable")
        self.cross.setModel(self.cross_model)
        self.boards_model = BoardStatsModel()
        self.boards_proxy = QSortFilterProxyModel(self)
        self.boards_proxy.setSourceModel(self.boards_model)
        self.boards_proxy.setSortRole(board_stats_model.SORT_ROLE)
        self.boards = table_view(self)
        self.boards.setObjectName("boardStatistics")
        self.boards.setModel(self.boards_proxy)
        self.boards.setSortingEnabled(True)
        self.boards.sortByColumn(
            board_stats_model.COLUMNS.index("Won %"), Qt.SortOrder.DescendingOrder
        )
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self._standings_tab(), "Standings")
        self.tabs.addTab(self.cross, "Crosstable")
        self.tabs.addTab(self.boards, "Board statistics")
        self._lay_out()
        self.stale: set[int] = set()
        self.through.currentIndexChanged.connect(lambda _i: self.refresh())
        self.tabs.currentChanged.connect(self.load_tab)
        self.refresher = RefreshWhenShown(ctx, self, self.refresh, concerns=standings_concerns)
        self.refresh()

    def _standings_tab(self) -> QWidget:
        tab = QWidget(self)
        layout = QVBoxLayout(tab)
        layout.setContentsMargins(0, 8, 0, 0)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.legend)
        return tab

    def _lay_out(self) -> None:
        top = page_header("Standings", self.summary, self)
        top.addWidget(QLabel("After round", self))
        top.addWidget(self.through)
        layout = page_layout(self)
        layout.addLayout(top)
        layout.addWidget(self.tabs, 1)

    # -- reading ------------------------------------------------------------------------

    def through_round(self) -> int | None:
        chosen = self.through.currentData()
        return None if chosen in (None, LATEST) else int(chosen)

    def refresh(self) -> None:
        self.view = self.ctx.read(service.standings, self.through_round())
        record = self.ctx.read(entrant_format)
        self.model.entrant = record.entrant
        self.model.set_standings(self.view)
        # one board: the player is the entrant, so no players column and no board statistics
        self.table.setColumnHidden(self.model.columns.index("Players"), record.one_board)
        self.table.setColumnHidden(self.model.columns.index("D"), not record.draws)  # §10
        self.tabs.setTabVisible(BOARDS_TAB, not record.one_board)
        self._fill_rounds(self.ctx.read(rounds_paired))
        self.stale = {CROSSTABLE_TAB, BOARDS_TAB}  # read when their tab is shown
        self.load_tab(self.tabs.currentIndex())
        self._fit_columns()
        self.legend.setText(self.legend_text(self.view))
        self.summary.setText(
            f"{self.view.heading}, {counted(len(self.view.lines), record.entrant)}"
        )

    def load_tab(self, index: int) -> None:
        """The crosstable and the board statistics cost a read each: only when looked at."""
        if index not in self.stale or self.view is None:
            return
        self.stale.discard(index)
        if index == CROSSTABLE_TAB:
            self.cross_model.set_data(self.view, self.ctx.read(service.event_crosstable))
        else:
            teams = {line.team.id: line.team for line in self.view.lines}
            self.boards_model.set_totals(self.ctx.read(service.board_statistics), teams)
        self._fit_columns()

    def _fill_rounds(self, last: int) -> None:
        chosen = self.through_round()
        with QSignalBlocker(self.through):
            self.through.clear()
            self.through.addItem("latest", LATEST)
            for number in range(1, last + 1):
                self.through.addItem(str(number), number)
            self.through.setCurrentIndex(max(0, self.through.findData(chosen or LATEST)))

    def _fit_columns(self) -> None:
        for view in (self.table, self.cross, self.boards):
            # size columns from the first rows only: measuring 1,000 rows on every refresh
            # would cost more than the standings themselves
            view.horizontalHeader().setResizeContentsPrecision(FIT_ROWS)
        header = self.table.horizontalHeader()
        for column, title in enumerate(self.model.columns):
            mode = (
                QHeaderView.ResizeMode.Stretch
                if title in ("Team", "Players")
                else QHeaderView.ResizeMode.ResizeToContents
            )
            header.setSectionResizeMode(column, mode)
        cross = self.cross.horizontalHeader()
        cross.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        if self.cross_model.columnCount() > 1:
            cross.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        boards = self.boards.horizontalHeader()
        boards.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        for column in (0, 1):  # the player and the team take the room that is left
            boards.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)

    @staticmethod
    def legend_text(view: Standings) -> str:
        """Every column's definition, in the event's tie-break order (RULES §8)."""
        items = [view.definitions["match points"]] + [
            view.definitions[tb.value] for tb in view.tie_breaks
        ]
        lines = []
        for text in items:
            name, _, rest = text.partition(":")
            lines.append(f"<b>{name}</b>:{rest}")
        return "<br>".join(lines)
