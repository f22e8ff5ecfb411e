"""The desk's live view of every table's phone clocks (RULES §7), and the arbiter's tools.

One row per board of the current round: both sides' times as the board's phone logged them,
projected to now by the domain's engine (the phones log in the desk's monotonic time), who is
running, a flag, and how much of the board's log the desk has and when it last heard from it.
The times are read from the table service's memory (`ClockRoom`), never from the database on
the display timer. A flag opens the time-forfeit entry with RULES §5's proposal filled in; the
director may start both boards of a match, pause or resume a board, and restore a side's time
with a reason (carried out by the phone, so its log stays the one record of the board).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from director.domain.changes import Area, Changed, Changes
from director.domain.clock import (
    ClockError,
    ClockEvent,
    EventKind,
    Phase,
    apply_event,
    format_remaining,
    initial_state,
)
from director.domain.errors import UserError
from director.domain.event import MatchInfo
from director.domain.rules import Side
from director.services import games, slips
from director.services.matches import get_match
from director.ui.clock.adjust import AdjustDialog
from director.ui.clock.forfeit import TimeForfeitDialog
from director.ui.context import EventContext
from director.ui.message_bar import ask
from director.web.clock_room import BoardLive, ClockRoom

REFRESH_MS = 200
COLUMNS = ("Table", "Board", "Side A", "Side B", "Clock", "Desk has", "Heard")


def projected(live: BoardLive, now_ns: int) -> tuple[int, int, str]:
    """(A's ns, B's ns, the state in words) of a phone's board at `now_ns`, by the engine."""
    b = live.state
    if b.phase is Phase.RUNNING:
        event = ClockEvent(EventKind.CHECKPOINT, max(now_ns, b.since_ns), live.board)
        state = initial_state(live.time_control).with_board(live.board, b)
        try:
            b = apply_event(state, event, live.time_control).board(live.board)
        except ClockError:  # the flag fell since the phone last wrote: it is on its way
            side = b.on_move
            a = 0 if side is Side.A else b.a.remaining_ns
            return a, (0 if side is Side.B else b.b.remaining_ns), f"flag {side}: arriving"
    words = {
        Phase.READY: f"ready, {b.on_move} moves first" if b.on_move else "who moves first?",
        Phase.RUNNING: f"{b.on_move} to move",
        Phase.PAUSED: "paused between games" if live.between_games else "paused",
        Phase.STOPPED: "stopped",
    }[b.phase]
    if b.flagged is not None:
        words = f"FLAG {b.flagged}{live.board}"
    return b.a.remaining_ns, b.b.remaining_ns, words


def _item(text: str) -> QTableWidgetItem:
    item = QTableWidgetItem(text)  # plain text: names are never markup in a table cell
    item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
    return item


class PhoneClocksView(QWidget):
    """`room()` is the running table service's clock room, or None while it is off."""

    def __init__(
        self,
        ctx: EventContext,
        room: Callable[[], ClockRoom | None],
        source: Callable[[], int] = time.monotonic_ns,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle("Phone clocks")
        self.ctx = ctx
        self.room = room
        self.source = source
        self.matches: dict[int, MatchInfo] = {}
        self.tokens: dict[int, slips.TeamTokens] = {}
        self.rows: list[tuple[int, int]] = []  # (match id, board) per row
        self.handled_flags: set[tuple[int, int, int]] = set()  # (match, board, flag instant)
        self.forfeits: list[TimeForfeitDialog] = []

        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        header = self.table.horizontalHeader()
        for column in (2, 3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.status = QLabel("")
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.status.setWordWrap(True)
        self.buttons: dict[str, QPushButton] = {}
        row = QHBoxLayout()
        for name, text, slot in (
            ("start", "Start both boards", self.start_selected),
            ("pause-match", "Pause the match", self.pause_match_selected),
            ("pause", "Pause board", lambda: self.command_selected(EventKind.PAUSE)),
            ("resume", "Resume board", lambda: self.command_selected(EventKind.RESUME)),
            ("adjust", "Restore a time…", self.adjust_selected),
        ):
            button = QPushButton(text)
            button.setObjectName(name)
            button.clicked.connect(slot)
            self.buttons[name] = button
            row.addWidget(button)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addLayout(row)
        layout.addWidget(self.status)
        self.resize(900, 520)
        self.timer = QTimer(self)
        self.timer.setInterval(REFRESH_MS)
        self.timer.timeout.connect(self.tick)
        self.timer.start()
        ctx.changed.connect(self.on_event_changed)
        self.refresh()

    # -- what is shown -------------------------------------------------------------------

    def on_event_changed(self, changes: Changes) -> None:
        if changes.structure() or changes.touches(Area.RESULTS):
            self.refresh()

    def refresh(self) -> None:
        """The current round's matches (names, tables, tokens): read on a change only."""
        # tokens are issued now for new tables: a write no page shows
        self.tokens, matches = self.ctx.background.call(slips.round_matches, True)
        self.matches = {m.id: m for m in matches}
        self.rows = [
            (m, n)
            for m in sorted(self.matches, key=self._table_of)
            for n in self.matches[m].rules.event_format.boards  # one board in an individual match
        ]
        self.table.setRowCount(len(self.rows))
        for r, (m, n) in enumerate(self.rows):
            match = self.matches[m]
            self.table.setItem(r, 0, _item(str(match.table)))
            self.table.setItem(r, 1, _item(str(n)))
        self.tick()

    def _table_of(self, match_id: int) -> int:
        return self.matches[match_id].table

    def tick(self) -> None:
        room = self.room()
        live = room.live() if room is not None else {}
        now = self.source()
        for r, (m, n) in enumerate(self.rows):
            match = self.matches[m]
            a_name = match.team_a.player(n)
            b_name = match.team_b.player(n) if match.team_b else ""
            board = live.get((m, n))
            if board is None:
                cells = [f"{a_name}", f"{b_name}", "no phone yet", "–", "–"]
            else:
                a_ns, b_ns, words = projected(board, now)
                heard = max(0, now - board.heard_ns) // 1_000_000_000
                cells = [
                    f"{a_name}  {format_remaining(a_ns)}",
                    f"{b_name}  {format_remaining(b_ns)}",
                    words,
                    str(board.stored),
                    f"{heard} s ago",
                ]
                self._notice_flag(board)
            for c, text in enumerate(cells, start=2):
                item = self.table.item(r, c)
                if item is None:
                    self.table.setItem(r, c, _item(text))
                elif item.text() != text:
                    item.setText(text)
        self.status.setText(
            "" if room is not None else "The table service is off: no phone clock can report."
        )

    def _notice_flag(self, board: BoardLive) -> None:
        b = board.state
        if b.flagged is None or b.flag_ns is None:
            return
        key = (board.match_id, board.board, b.flag_ns)
        if key in self.handled_flags:
            return
        self.handled_flags.add(key)
        self.open_forfeit(
            board.match_id, board.board, b.flagged, (b.a.remaining_ns, b.b.remaining_ns)
        )

    def open_forfeit(
        self, match_id: int, board: int, flagged: Side, clock_ns: tuple[int, int]
    ) -> TimeForfeitDialog | QMessageBox:
        """RULES §5's entry for the flagged board, prefilled; not modal over the other clocks.
        Where a flag loses the match (RULES §10), the clock window's question instead."""
        match = self.ctx.read(get_match, match_id)
        if not match.rules.event_format.game_forfeit:
            return self._ask_lost_on_time(match, flagged)
        dialog = TimeForfeitDialog(self.ctx, match, board, flagged, clock_ns, self)
        dialog.setModal(False)
        self.forfeits.append(dialog)
        dialog.finished.connect(lambda _r, d=dialog: self.forfeits.remove(d))
        dialog.show()
        return dialog

    def _ask_lost_on_time(self, match: MatchInfo, flagged: Side) -> QMessageBox:
        loser, winner = match.names[0], match.names[1]
        if flagged is Side.B:
            loser, winner = winner, loser

        def record() -> None:
            try:
                self.ctx.change(games.record_lost_on_time, match.id, flagged, version=match.version)
            except UserError as refusal:
                self.status.setText(str(refusal))

        return ask(
            self,
            "Lost on time",
            f"{loser}'s reserve ran out: {winner} wins the match (RULES §10).",
            f"Record: {winner} wins",
            record,
            f"The match ends now, {winner}'s score raised to {match.rules.match_length}; "
            "Undo last game at the desk takes it back.",
        )

    # -- the arbiter's tools -------------------------------------------------------------

    def selected(self) -> tuple[int, int] | None:
        rows = self.table.selectionModel().selectedRows()
        return self.rows[rows[0].row()] if rows else None

    def _need(self) -> tuple[ClockRoom, int, int] | None:
        room, chosen = self.room(), self.selected()
        if room is None:
            self.status.setText("Turn the table service on first.")
            return None
        if chosen is None:
            self.status.setText("Select a board first.")
            return None
        return room, chosen[0], chosen[1]

    def start_selected(self) -> None:
        need = self._need()
        if need is not None:
            self.start(need[0], need[1])

    def _tell(
        self, match_id: int, done: str, service: Callable[..., Changed[object]], *args: object
    ) -> None:
        """Store the desk's word for the match's phones (the room tells them once stored), off
        the GUI thread for a server event; `done` (or the refusal) is said in the status."""
        self.ctx.change_later(
            service,
            *args,
            on_done=lambda _result: self.status.setText(done),
            on_failed=lambda refusal: self.status.setText(str(refusal)),
        )

    def start(self, room: ClockRoom, match_id: int) -> None:
        """Both boards of the match start together, as from either phone."""
        done = f"Table {self.matches[match_id].table}: both boards start."
        self._tell(match_id, done, room.schedule_start, match_id)

    def pause_match_selected(self) -> None:
        """RULES §7: one action pauses every board of the match (both in Tandem)."""
        need = self._need()
        if need is not None:
            room, match_id, _ = need
            match = self.matches[match_id]
            phones = "the phone" if match.rules.event_format.one_board else "both phones"
            done = f"Sent to {phones} of table {match.table}: pause."
            self._tell(match_id, done, room.pause_match, match_id)

    def command_selected(self, kind: EventKind) -> None:
        need = self._need()
        if need is not None:
            room, match_id, board = need
            done = f"Sent to the phone of board {board}: {kind.value}."
            self._tell(match_id, done, room.command, match_id, board, kind)

    def adjust_selected(self) -> None:
        need = self._need()
        if need is None:
            return
        room, match_id, board = need
        live = room.live().get((match_id, board))
        if live is None or live.state.phase is not Phase.PAUSED:
            self.status.setText(
                f"Pause board {board} to restore a time (RULES §7); a flagged board too."
            )
            return
        side_text, ok = QInputDialog.getItem(self, "Restore a time", "Side", ["A", "B"], 0, False)
        if not ok:
            return
        side = Side(side_text)
        dialog = AdjustDialog(f"{side.value}{board}", live.state.side(side).remaining_ns, self)
        if not dialog.exec() or dialog.remaining_ns is None:
            return
        reason, ok = QInputDialog.getText(self, "Restore a time", "Reason (for the audit log)")
        if not ok or not reason.strip():
            self.status.setText("A time restore needs a reason.")
            return
        self.restore_time(room, match_id, board, side, dialog.remaining_ns, reason)

    def restore_time(
        self, room: ClockRoom, match_id: int, board: int, side: Side, ns: int, reason: str
    ) -> None:
        if not reason.strip():
            raise UserError("a time restore needs a reason for the audit log")
        done = f"Sent to the phone of board {board}: {side}{board} gets {format_remaining(ns)}."
        kind = EventKind.ADJUST
        self._tell(match_id, done, room.command, match_id, board, kind, side, ns, reason.strip())
