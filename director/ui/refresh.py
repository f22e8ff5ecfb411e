"""The one refresh policy of the pages: read again at once when shown, else when next shown.

A page says which changes concern it and how it reads them; `RefreshWhenShown` listens to
`ctx.changed` for it, so a hidden page costs nothing while the desk records results and is
up to date the moment the director opens it.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QWidget

from director.domain.changes import Changes
from director.ui.context import EventContext


class RefreshWhenShown(QObject):
    """`apply(changes)` now when `page` is visible and `concerns(changes)`; a hidden page is
    marked stale instead and `refresh()` runs when it is shown next."""

    def __init__(
        self,
        ctx: EventContext,
        page: QWidget,
        refresh: Callable[[], None],
        *,
        concerns: Callable[[Changes], bool] = bool,
        apply: Callable[[Changes], None] | None = None,
    ) -> None:
        super().__init__(page)
        self.page = page
        self.refresh = refresh
        self.concerns = concerns
        self.apply = apply or (lambda _changes: refresh())
        self.stale = False
        page.installEventFilter(self)
        ctx.changed.connect(self.on_event_changed)

    def on_event_changed(self, changes: Changes) -> None:
        if not self.concerns(changes):
            return
        if self.page.isVisible():
            self.apply(changes)
        else:
            self.stale = True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.page and event.type() is QEvent.Type.Show and self.stale:
            self.stale = False
            self.refresh()
        return False
