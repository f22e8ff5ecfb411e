"""The match desk's Print… button: the shown match's scoresheet or match report."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from director.domain.event import MatchInfo
from director.services.matches import list_matches
from director.store.engine import open_database
from director.ui.context import EventContext
from director.ui.desk.match_desk import MatchDeskPage
from tests.reports.pdfcheck import pdf_text
from tests.ui.app_helpers import OFFSCREEN_NOISE
from tests.ui.reports.report_helpers import pages_of, shown

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)


@pytest.fixture
def ctx(demo_path: Path) -> Iterator[EventContext]:
    context = EventContext(open_database(str(demo_path)))
    yield context
    context.close()


def desk_on(
    qtbot: QtBot, ctx: EventContext, match: MatchInfo, settings: QSettings
) -> MatchDeskPage:
    page = MatchDeskPage(ctx)
    qtbot.addWidget(page)
    page.print_button.settings = settings
    page.resize(1366, 700)
    page.show()
    page.show_match(match.id)
    return page


def round_three(ctx: EventContext) -> list[MatchInfo]:
    return ctx.read(list_matches, 3)


def menu_texts(page: MatchDeskPage) -> list[str]:
    page.print_button.choices.aboutToShow.emit()
    return [a.text() for a in page.print_button.choices.actions()]


def test_a_played_match_prints_its_report_first(
    qtbot: QtBot, ctx: EventContext, settings: QSettings
) -> None:
    played = next(m for m in round_three(ctx) if m.games)
    page = desk_on(qtbot, ctx, played, settings)
    assert page.print_button.isVisibleTo(page)
    assert menu_texts(page) == ["Match report", "Scoresheet (to fill in)"]
    page.print_button.choices.actions()[0].trigger()
    preview = shown(qtbot, page.print_button.preview)
    assert preview.request.kind == "match-report"
    assert preview.request.match == played.id
    assert preview.page_count() == pages_of(preview.pdf or b"")
    text = pdf_text(preview.pdf or b"")
    for name in played.names:
        assert name in text
    others = [m for m in round_three(ctx) if m.id != played.id]
    assert all(m.names[0] not in text for m in others)


def test_a_match_not_started_prints_its_blank_scoresheet_first(
    qtbot: QtBot, ctx: EventContext, settings: QSettings
) -> None:
    fresh = next(m for m in round_three(ctx) if not m.games)
    page = desk_on(qtbot, ctx, fresh, settings)
    assert menu_texts(page) == ["Scoresheet (to fill in)", "Match report"]
    page.print_button.choices.actions()[0].trigger()
    preview = shown(qtbot, page.print_button.preview)
    assert preview.request.kind == "scoresheet"
    assert f"Table {fresh.table}" in preview.windowTitle()
    text = pdf_text(preview.pdf or b"")
    assert fresh.names[0] in text
    assert fresh.names[1] in text
