"""An open event: the navigation on the left, the pages on the right.

Pages are built (and their modules loaded) the first time they are shown, so opening a large
event only pays for the page on screen. They know nothing of each other: each reads through
`ctx` and refreshes on `ctx.changed`; a request to show a match arrives as `ctx.match_requested`.
Built on an event file's first look (`ctx.first_look`), it shows the event from it until the
database is there.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QListWidget,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from director.domain.changes import Area, Changes
from director.domain.errors import UserError
from director.domain.event import EventInfo
from director.domain.rules import PairingSystem
from director.domain.wording import counted
from director.ui.context import EventContext
from director.ui.pages import DESK, PAGES
from director.ui.plain import plain_label, tooltip
from director.ui.style import hint, icon
from director.ui.window_parts import shown_target


def summary(info: EventInfo) -> str:
    """The event's main options in a few words, for the navigation panel."""
    o = info.options
    swiss = f"Swiss, {counted(o.rounds, 'round')}" if o.rounds else "Swiss until clear"
    system = {
        PairingSystem.SWISS: swiss,
        PairingSystem.ROUND_ROBIN: "Double round robin" if o.double_round_robin else "Round robin",
        PairingSystem.KNOCKOUT: "Knockout",
    }[o.pairing_system]
    clock = o.time_control
    record = o.match.event_format
    if record.match_clock:  # one reserve a match (RULES §10): its base is per match point
        return (
            f"{record.label} · match to {o.match.match_length} · {o.match.scoring.variant.label}"
            f"\n{system}\nReserve {clock.base_seconds // 60}:{clock.base_seconds % 60:02d} a "
            f"point + {clock.increment_seconds} s {clock.mode.label.split()[-1]}"
        )
    return (
        f"Match to {o.match.match_length} · {o.match.scoring.variant.label}\n{system}\n"
        f"Clock {clock.base_seconds // 60}:{clock.base_seconds % 60:02d} + "
        f"{clock.increment_seconds} s {clock.mode.label.split()[0]}"
    )


def where_text(ctx: EventContext) -> str:
    """Where the event is kept, short: the file's name, or the server address."""
    return Path(ctx.title).name if ctx.is_file else f"{shown_target(ctx.title)} (shared)"


class EventView(QWidget):
    page_changed = Signal(int)

    def __init__(self, ctx: EventContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.pages: list[QWidget | None] = [None] * len(PAGES)
        self.stack = QStackedWidget(self)
        for _spec in PAGES:
            self.stack.addWidget(QWidget(self.stack))  # a placeholder until first shown
        self.navigation = QListWidget(self)
        self.navigation.setObjectName("navigation")
        self.navigation.setIconSize(QSize(22, 22))
        for number, spec in enumerate(PAGES, start=1):
            self.navigation.addItem(spec.title)
            if spec.key == "teams":  # who enters, as the format says: teams or players
                self.teams_item = self.navigation.item(number - 1)
            item = self.navigation.item(number - 1)
            item.setIcon(icon(spec.icon))
            item.setToolTip(f"{spec.title} (Ctrl+{number})")
            item.setSizeHint(QSize(0, 42))
        self.event_name = plain_label(parent=self)
        self.event_name.setWordWrap(True)
        self.event_name.setStyleSheet("font-size: 13pt; font-weight: bold;")
        self.event_name.setContentsMargins(4, 0, 4, 0)
        self.event_summary = hint("", self)
        self.event_summary.setContentsMargins(4, 0, 4, 0)
        self.where = hint(where_text(ctx), self)
        self.where.setToolTip(tooltip(shown_target(ctx.title)))
        self.where.setContentsMargins(4, 0, 4, 0)
        self.where.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        panel = QWidget(self)
        panel.setObjectName("navigationPanel")
        panel.setAttribute(Qt.WidgetAttribute.WA_StyledBackground)
        panel.setFixedWidth(232)
        side = QVBoxLayout(panel)
        side.setContentsMargins(10, 18, 10, 12)
        side.setSpacing(6)
        side.addWidget(self.event_name)
        side.addWidget(self.event_summary)
        side.addSpacing(8)
        side.addWidget(self.navigation, 1)
        side.addWidget(self.where)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(panel)
        layout.addWidget(self.stack, 1)
        self.navigation.currentRowChanged.connect(self.show_page)
        ctx.changed.connect(self.on_event_changed)
        ctx.match_requested.connect(self.show_match)
        look = ctx.first_look
        self.info = look.info if look is not None else self._read_info()
        self._show_info()

    def _read_info(self) -> EventInfo:
        from director.services.events import get_event

        return self.ctx.read(get_event)

    def read_again(self) -> None:
        """What the event's first look showed, read from its database now it is open: the
        event, and each page built (they are read as when they refresh)."""
        self.info = self._read_info()
        self._show_info()
        for page in self.pages:
            refresh = getattr(page, "refresh", None)
            if callable(refresh):
                refresh()

    def on_event_changed(self, changes: Changes) -> None:
        if changes.touches(Area.EVENT):
            try:
                self.info = self._read_info()
            except UserError:
                return
            self._show_info()

    def _show_info(self) -> None:
        self.event_name.setText(self.info.name)
        self.event_summary.setText(summary(self.info))
        entrants = f"{self.info.options.match.event_format.entrant}s".capitalize()
        number = self.navigation.row(self.teams_item) + 1
        self.teams_item.setText(entrants)
        self.teams_item.setToolTip(f"{entrants} (Ctrl+{number})")

    def page(self, index: int) -> QWidget:
        """The page at `index`, built now if this is its first showing."""
        built = self.pages[index]
        if built is None:
            placeholder = self.stack.widget(index)
            assert placeholder is not None
            try:
                built = PAGES[index].build(self.ctx, self.stack)
            except Exception:
                if not self.ctx.scan_refusal():
                    raise
                # a value the app never writes, met before the scan of the values said so:
                # the window closes the event with the scan's refusal (`on_values_scanned`)
                return placeholder
            self.stack.insertWidget(index, built)
            self.stack.removeWidget(placeholder)
            placeholder.deleteLater()
            self.pages[index] = built
        return built

    @property
    def current_index(self) -> int:
        return self.stack.currentIndex()

    def show_page(self, index: int) -> None:
        if not 0 <= index < len(PAGES):
            return
        if index == self.stack.currentIndex() and self.pages[index] is not None:
            return
        self.page(index)
        self.stack.setCurrentIndex(index)
        self.navigation.blockSignals(True)  # the row follows the page; no second round trip
        self.navigation.setCurrentRow(index)
        self.navigation.blockSignals(False)
        self.page_changed.emit(index)

    def show_match(self, match_id: int) -> None:
        desk = self.page(DESK)
        self.show_page(DESK)
        show = getattr(desk, "show_match", None)
        if callable(show):
            show(match_id)
