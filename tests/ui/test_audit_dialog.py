"""The audit viewer from the rounds page: every change with its reason, filtered, printable."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from director.domain.rules import Side
from director.services import games, manual_pairing
from director.ui.audit_dialog import AuditDialog
from director.ui.context import EventContext
from director.ui.rounds_page import RoundsPage
from tests.reports.pdfcheck import pdf_text
from tests.ui.reports.report_helpers import shown
from tests.ui.test_rounds_page import click, ctx, page, publish_round

__all__ = ["ctx", "page"]  # the rounds page's fixtures: eight teams on a real event file

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")

REASON = "<b>no show</b> & <img src='x'> by 20:15"


def cells(dialog: AuditDialog, column: int) -> list[str]:
    return [dialog.table.item(r, column).text() for r in range(dialog.table.rowCount())]


def test_the_audit_log_filters_by_match_and_kind_and_prints_what_is_chosen(
    qtbot: QtBot, page: RoundsPage, ctx: EventContext, event_path: Path
) -> None:
    publish_round(qtbot, page)
    first, second = page.rounds[-1].matches[:2]
    assert first.team_b is not None
    ctx.change(games.set_forfeit, first.id, Side.B, REASON)
    ctx.change(
        manual_pairing.set_forbidden,
        first.team_a.id,
        second.team_a.id,
        True,
        "family",
    )
    page.refresh()
    page.table.selectRow(0)
    click(qtbot, page.audit_button)
    dialog = page.dialog
    assert isinstance(dialog, AuditDialog)
    label = f"round 1, table {first.table}: {first.team_a.name} v {first.team_b.name}"
    assert dialog.subject.currentText().strip() == label  # the chosen match's lines first
    # a sentence naming the match and the team that did not show (it read "forfeit", "B")
    where = f"round 1, table {first.table} ({first.team_a.name} v {first.team_b.name})"
    assert cells(dialog, 2) == [
        f"{first.team_b.name} did not show at {where}: {first.team_a.name} wins by forfeit"
    ]
    assert cells(dialog, 3) == [REASON]  # typed text shown as typed
    assert dialog.count.text() == "1 entry of 2"
    dialog.subject.setCurrentIndex(dialog.subject.findData(None))
    low, high = sorted((first.team_a, second.team_a), key=lambda t: t.id)
    assert cells(dialog, 2)[1] == f"{low.name} and {high.name} must not meet"  # by name
    dialog.action.setCurrentIndex(dialog.action.findData("forbid pair"))
    assert cells(dialog, 3) == ["family"]
    dialog.subject.setCurrentIndex(dialog.subject.findData(f"match {first.id}"))
    assert cells(dialog, 2) == []
    click(qtbot, dialog.print_button)
    preview = shown(qtbot, dialog.preview)  # type: ignore[arg-type]
    assert preview.request.title == f"Audit log – {label}"
    assert preview.pdf is not None
    text = pdf_text(preview.pdf)
    assert f"Audit log: {label}" in text
    assert REASON in text and "family" not in text
    preview.close()
