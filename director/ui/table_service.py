"""The director's side of the players' phones: the table service toggle, pending results, tokens.

Off until the director turns it on. On, it shows where the pages are (every address, and a QR
code of the first), the results the players sent and confirmed (**pending results**: Enter
accepts the selected one, the same as typing it at the desk), and per table the slip QR code,
the phones seen and a Revoke button that locks those phones out.

The server runs in its own thread (`director.web.server`); what it tells this window arrives
as a queued signal on the GUI thread, and the window's changes go through `ctx.change` like any
page's, so the desk's pages and the phones see them the same way.
"""

from __future__ import annotations

import io
import time

import segno
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from director.domain.changes import Area, Changes
from director.domain.errors import UserError
from director.domain.event import MatchInfo
from director.domain.rules import Side
from director.domain.wording import isolated
from director.services import reports, slips
from director.services.slips import SlipInfo, TeamTokens
from director.ui.context import EventContext
from director.web.server import ANY_ADDRESS, DEFAULT_PORT, TableService

QR_SCALE = 5


def qr_pixmap(text: str, scale: int = QR_SCALE) -> QPixmap:
    """A QR code as a pixmap (segno writes the PNG; black on white for any phone camera)."""
    buffer = io.BytesIO()
    segno.make(text, error="m").save(buffer, kind="png", scale=scale, border=2)
    pixmap = QPixmap()
    pixmap.loadFromData(buffer.getvalue(), "PNG")
    return pixmap


def plain(text: str) -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)  # names are text, never markup
    label.setWordWrap(True)
    return label


class _Bridge(QObject):
    """From the server thread to the GUI thread: a queued signal."""

    told = Signal(object)  # Changes


class PendingList(QListWidget):
    """The pending results, oldest first; Enter accepts the selected one."""

    accept_requested = Signal(int)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not event.isAutoRepeat():
            item = self.currentItem()
            if item is not None:
                self.accept_requested.emit(int(item.data(Qt.ItemDataRole.UserRole)))
            return
        super().keyPressEvent(event)


class TableServiceWindow(QWidget):
    """One per open event; closing the event (or this window's Turn off) stops the server."""

    def __init__(self, ctx: EventContext, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle("Phones at the tables")
        self.ctx = ctx
        self.service: TableService | None = None
        self.host = ANY_ADDRESS  # every address of this computer (tests serve on loopback)
        self.bridge = _Bridge(self)
        self.bridge.told.connect(self._told)
        self.match_ids: list[int] = []
        self.tokens: dict[int, TeamTokens] = {}
        self.matches: dict[int, MatchInfo] = {}

        self.toggle = QPushButton("Turn on")
        self.toggle.setCheckable(True)
        self.toggle.toggled.connect(self.set_serving)
        self.port = QSpinBox()
        self.port.setRange(1024, 65535)
        self.port.setValue(DEFAULT_PORT)
        self.port.setPrefix("port ")
        self.addresses = plain("Off: nothing is listening on the network.")
        self.addresses.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.qr = QLabel()
        self.auto = QCheckBox("Accept confirmed slips automatically")
        self.auto.toggled.connect(self._set_auto)
        self.pending = PendingList()
        self.pending.accept_requested.connect(self.accept)
        self.accept_button = QPushButton("Accept (Enter)")
        self.accept_button.clicked.connect(self._accept_selected)
        self.refuse_button = QPushButton("Refuse…")
        self.refuse_button.clicked.connect(self._refuse_selected)
        self.problem = plain("")
        self.problem.setStyleSheet("color: #b00020;")
        self.tables = QTableWidget(0, 3)
        self.tables.setHorizontalHeaderLabels(["Table", "Match", "Phones seen"])
        self.tables.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.tables.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.tables.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tables.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.tables.itemSelectionChanged.connect(self._show_table_qr)
        self.revoke_button = QPushButton("Revoke this table's QR codes")
        self.revoke_button.clicked.connect(self._revoke_selected)
        # each team's own QR code: a slip is confirmed only with the other team's (issue 26)
        self.table_qr = {side: QLabel() for side in Side}
        self.table_qr_caption = plain("")
        # another computer serving the phones (`serve` on a Raspberry Pi): its address
        self.print_address = QLineEdit(self.ctx.read(reports.stored_slip_address))
        self.print_address.setPlaceholderText("http://192.168.1.20:8080/ (as serve prints it)")
        self.print_address.returnPressed.connect(self._set_print_address)
        self.print_address_button = QPushButton("Set")
        self.print_address_button.clicked.connect(self._set_print_address)
        self.print_address_note = plain("")
        self.clocks_button = QPushButton("Phone clocks…")  # every table's clocks (issue 19)
        self.clocks_button.clicked.connect(self.show_phone_clocks)

        top = QHBoxLayout()
        top.addWidget(self.toggle)
        top.addWidget(self.port)
        top.addStretch(1)
        top.addWidget(self.clocks_button)
        buttons = QHBoxLayout()
        buttons.addWidget(self.accept_button)
        buttons.addWidget(self.refuse_button)
        buttons.addStretch(1)
        table_side = QVBoxLayout()
        codes = QHBoxLayout()
        for label in self.table_qr.values():
            codes.addWidget(label)
        table_side.addLayout(codes)
        table_side.addWidget(self.table_qr_caption)
        table_side.addWidget(self.revoke_button)
        table_side.addStretch(1)
        table_row = QHBoxLayout()
        table_row.addWidget(self.tables, 1)
        table_row.addLayout(table_side)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        address_row = QHBoxLayout()
        address_row.addWidget(self.qr)
        address_row.addWidget(self.addresses, 1)
        layout.addLayout(address_row)
        print_row = QHBoxLayout()
        print_row.addWidget(plain("Scoresheet QR codes, when another computer serves:"))
        print_row.addWidget(self.print_address, 1)
        print_row.addWidget(self.print_address_button)
        layout.addLayout(print_row)
        layout.addWidget(self.print_address_note)
        layout.addWidget(self.auto)
        layout.addWidget(plain("Pending results (confirmed by both teams):"))
        layout.addWidget(self.pending, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.problem)
        layout.addWidget(plain("Tables of the current round:"))
        layout.addLayout(table_row, 1)
        self.resize(760, 720)
        ctx.changed.connect(self.on_event_changed)
        self.refresh()

    # --- on and off -----------------------------------------------------------------------

    def set_serving(self, on: bool) -> None:
        if on and self.service is None:
            service = TableService(
                self.ctx.db, self.host, self.port.value(), on_change=self.bridge.told.emit
            )
            try:
                urls = service.start()
            except UserError as refusal:
                self.toggle.blockSignals(True)
                self.toggle.setChecked(False)
                self.toggle.blockSignals(False)
                self.addresses.setText(f"Could not turn on: {refusal}")
                return
            self.service = service
            self.addresses.setText(
                "On. Players open (or scan):\n" + "\n".join(urls) + "\n"
                "listening on every network address of this computer, port "
                f"{service.port}; the laptop and the phones must share the Wi-Fi."
            )
            self.qr.setPixmap(qr_pixmap(urls[0]))
        elif not on and self.service is not None:
            self.service.stop()
            self.service = None
            self.addresses.setText("Off: nothing is listening on the network.")
            self.qr.clear()
        self.toggle.setText("Turn off" if self.service else "Turn on")
        self.port.setEnabled(self.service is None)
        self.refresh()

    def address(self) -> str:
        """Where phones reach the service while it is on ("": off): the scoresheets print
        each match's result-slip QR code for it."""
        return self.service.urls[0] if self.service is not None else ""

    def show_phone_clocks(self) -> QWidget:
        from director.ui.phone_clocks import PhoneClocksView

        view = PhoneClocksView(
            self.ctx, lambda: self.service.web.clocks if self.service else None, parent=self
        )
        view.show()
        return view

    def shutdown(self) -> None:
        """The event is closing: stop the server first (no thread may use the database)."""
        self.set_serving(False)

    # --- what changed -------------------------------------------------------------------

    def _told(self, changes: Changes) -> None:
        """On the GUI thread: the server recorded something (auto-accept) or slips changed."""
        if changes.matches:  # the desk's pages show the result the phones sent
            self.ctx.changed.emit(changes)
        self.refresh()

    def on_event_changed(self, changes: Changes) -> None:
        if self.service is not None:
            self.service.notify()  # the phones see it at once, not at the next poll
        if changes.structure() or changes.touches(Area.RESULTS, Area.SLIPS):
            self.refresh()

    def refresh(self) -> None:
        self.auto.blockSignals(True)
        self.auto.setChecked(self.ctx.read(slips.auto_accept))
        self.auto.blockSignals(False)
        pending: list[SlipInfo] = self.ctx.read(slips.pending_slips)
        current = self.pending.currentItem()
        keep = current.data(Qt.ItemDataRole.UserRole) if current else None
        self.pending.clear()
        for slip in pending:
            item = QListWidgetItem(slip.describe())
            item.setData(Qt.ItemDataRole.UserRole, slip.id)
            self.pending.addItem(item)
            if slip.id == keep:
                self.pending.setCurrentItem(item)
        if self.pending.currentItem() is None and self.pending.count():
            self.pending.setCurrentRow(0)
        has = self.pending.count() > 0
        self.accept_button.setEnabled(has)
        self.refuse_button.setEnabled(has)
        self._fill_tables()

    def _fill_tables(self) -> None:
        # tokens are issued now for new tables: a write no page shows
        self.tokens, matches = self.ctx.background.call(slips.round_matches, True)
        selected = self._selected_match()
        self.match_ids = [m.id for m in matches]
        self.matches = {m.id: m for m in matches}
        self.tables.setRowCount(len(matches))
        for row, match in enumerate(matches):
            devices = self.service.web.devices.of_match(match.id) if self.service else []
            seen = (
                f"{len(devices)}: "
                + ", ".join(f"{d.address} ({_ago(d.last_seen)})" for d in devices)
                if devices
                else "none"
            )
            for column, text in enumerate(
                (str(match.table), " v ".join(isolated(n) for n in match.names), seen)
            ):
                self.tables.setItem(row, column, QTableWidgetItem(text))
            if match.id == selected:
                self.tables.selectRow(row)
        self.revoke_button.setEnabled(self._selected_match() is not None)

    def _selected_match(self) -> int | None:
        rows = self.tables.selectionModel().selectedRows() if self.tables.selectionModel() else []
        if not rows or rows[0].row() >= len(self.match_ids):
            return None
        return self.match_ids[rows[0].row()]

    def _show_table_qr(self) -> None:
        match_id = self._selected_match()
        self.revoke_button.setEnabled(match_id is not None)
        if match_id is None or match_id not in self.tokens or self.service is None:
            for label in self.table_qr.values():
                label.clear()
            self.table_qr_caption.setText(
                "Select a table to show its teams' slip QR codes." if self.service else ""
            )
            return
        match = self.matches[match_id]
        lines = []
        for side, label in self.table_qr.items():
            url = f"{self.service.urls[0]}slip/{self.tokens[match_id][side]}"
            label.setPixmap(qr_pixmap(url, 3))
            name = isolated(match.names[0] if side is Side.A else match.names[1])
            lines.append(f"{side.value} – {name}:\n{url}")
        self.table_qr_caption.setText(
            "Each team scans its own code; a slip is confirmed with the other team's.\n"
            + "\n".join(lines)
        )

    # --- the director's decisions --------------------------------------------------------

    def accept(self, slip_id: int) -> None:
        try:
            self.ctx.change(slips.accept_slip, slip_id)
        except UserError as refusal:
            self.problem.setText(f"Not accepted: {refusal}")
            self.refresh()
            return
        self.problem.setText("")
        self.refresh()

    def _current_slip(self) -> int | None:
        item = self.pending.currentItem()
        return int(item.data(Qt.ItemDataRole.UserRole)) if item else None

    def _accept_selected(self) -> None:
        slip_id = self._current_slip()
        if slip_id is not None:
            self.accept(slip_id)

    def _refuse_selected(self) -> None:
        slip_id = self._current_slip()
        if slip_id is None:
            return
        reason, ok = QInputDialog.getText(self, "Refuse the result", "Why (the phones show it):")
        if ok:
            self.refuse(slip_id, reason)

    def refuse(self, slip_id: int, reason: str) -> None:
        try:
            self.ctx.change(slips.refuse_slip, slip_id, reason)
        except UserError as refusal:
            self.problem.setText(str(refusal))
        self.refresh()

    def _set_print_address(self) -> None:
        """Store the address the scoresheets' QR codes print while this app serves nothing."""
        try:
            stored = self.ctx.change(reports.set_slip_address, self.print_address.text())
        except UserError as refusal:
            self.print_address_note.setStyleSheet("color: #b00020;")
            self.print_address_note.setText(str(refusal))
            return
        self.print_address.setText(stored)
        self.print_address_note.setStyleSheet("")
        self.print_address_note.setText(
            f"Scoresheets print result-slip QR codes for {stored} (this app's own address "
            "while it serves)."
            if stored
            else "Scoresheets print QR codes only while this app serves the phones."
        )

    def _set_auto(self, on: bool) -> None:
        self.ctx.change(slips.set_auto_accept, on)

    def _revoke_selected(self) -> None:
        match_id = self._selected_match()
        if match_id is not None:
            self.revoke(match_id)

    def revoke(self, match_id: int) -> None:
        """The table's phones are locked out; a new QR code is shown for the table."""
        self.ctx.change(slips.revoke_token, match_id)
        if self.service is not None:
            self.service.web.devices.forget(match_id)
        self.refresh()
        self._show_table_qr()


def _ago(stamp: float) -> str:
    seconds = int(time.monotonic() - stamp)
    return f"{seconds} s ago" if seconds < 120 else f"{seconds // 60} min ago"
