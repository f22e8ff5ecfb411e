"""The event's pages, one record each: adding a page is a line here and the page's module.

The order is the navigation's, the View menu's and the shortcuts' (Ctrl+1 …). A page's module
is loaded the first time the page is shown (`Page.build`), so opening a large event pays only
for the page on screen; this module itself loads nothing of the pages.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from director.ui.context import EventContext


@dataclass(frozen=True)
class Page:
    key: str  # how the code names the page ("desk": where a match is shown)
    title: str
    icon: str  # resources/icons/<icon>.svg
    module: str
    widget: str  # the page's class in `module`: it takes (ctx, parent[, settings])
    settings: bool = False  # it remembers something in the main window's settings

    def build(self, ctx: EventContext, parent: QWidget) -> QWidget:
        from director.ui.database_layer import python_import

        with python_import():  # past PySide6's hook, which would read the module's source
            module = importlib.import_module(self.module)
        page: Any = getattr(module, self.widget)
        if not self.settings:
            return cast("QWidget", page(ctx, parent))
        from PySide6.QtCore import QSettings

        settings = getattr(parent.window(), "settings", None)
        return cast(
            "QWidget", page(ctx, parent, settings if isinstance(settings, QSettings) else None)
        )


PAGES = (
    Page("teams", "Teams", "nav-teams", "director.ui.teams_page", "TeamsPage"),
    Page("rounds", "Rounds", "nav-rounds", "director.ui.rounds_page", "RoundsPage"),
    # the desk reopens on the match it showed last
    Page("desk", "Match desk", "nav-desk", "director.ui.desk.match_desk", "MatchDeskPage", True),
    Page("standings", "Standings", "nav-standings", "director.ui.standings_page", "StandingsPage"),
    Page("club", "Club", "nav-club", "director.ui.club_page", "ClubPage"),
)


def page_index(key: str) -> int:
    return next(i for i, page in enumerate(PAGES) if page.key == key)


DESK = page_index("desk")
