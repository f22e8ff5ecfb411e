"""The preview: the right pages, page by page; the paper switch; Save PDF; refusals shown."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from director.domain.rules import Paper
from director.services.teams import add_team, list_teams
from director.ui.main_window import MainWindow
from director.ui.reports.menu import ReportsMenu
from director.ui.reports.preview import ReportPreview
from director.ui.reports.request import ReportRequest
from director.ui.reports.saving import FOLDER_KEY
from tests.reports.pdfcheck import A3, A4, LETTER, page_sizes, pdf_text
from tests.ui.app_helpers import OFFSCREEN_NOISE
from tests.ui.reports.conftest import EVENT_NAME
from tests.ui.reports.report_helpers import pages_of, refused, shown

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)


def preview_of(qtbot: QtBot, menu: ReportsMenu, request: ReportRequest) -> ReportPreview:
    return shown(qtbot, menu.show_preview(request))


def test_the_preview_shows_every_page_and_moves_between_them(
    qtbot: QtBot, menu: ReportsMenu
) -> None:
    preview = preview_of(qtbot, menu, ReportRequest("event"))
    count = pages_of(preview.pdf or b"")
    assert count > 3
    assert preview.page_count() == count
    assert preview.bar.count.text() == f"of {count}"
    assert preview.bar.page.maximum() == count
    assert preview.bar.current() == 0
    assert not preview.bar.previous.isEnabled()
    preview.bar.next.click()
    assert preview.bar.current() == 1
    assert preview.bar.page.value() == 2
    preview.bar.page.setValue(count)
    assert preview.bar.current() == count - 1
    assert not preview.bar.next.isEnabled()
    assert preview.save_button.isEnabled()
    assert preview.print_button.isEnabled()


def test_zoom_steps_from_the_fitted_width(qtbot: QtBot, menu: ReportsMenu) -> None:
    preview = preview_of(qtbot, menu, ReportRequest("teams"))
    assert preview.bar.fit_width.isChecked()
    fitted = preview.bar.shown_zoom()
    preview.bar.zoom_in.click()
    assert not preview.bar.fit_width.isChecked()
    assert preview.view.zoomFactor() > fitted
    assert preview.bar.zoom_label.text() == f"{round(preview.view.zoomFactor() * 100)} %"
    preview.bar.fit_page.click()
    assert preview.bar.fit_page.isChecked()
    assert preview.bar.shown_zoom() <= fitted


def test_the_paper_is_the_events_unless_changed_here(qtbot: QtBot, menu: ReportsMenu) -> None:
    preview = preview_of(qtbot, menu, ReportRequest("standings"))
    assert preview.paper() is Paper.A4  # the event's option
    assert set(page_sizes(preview.pdf or b"")) == {A4}
    with qtbot.waitSignal(preview.shown, timeout=20_000):
        preview.paper_box.setCurrentIndex(preview.paper_box.findText("Letter"))
    assert preview.request.paper is Paper.LETTER
    assert set(page_sizes(preview.pdf or b"")) == {LETTER}
    assert preview.page_count() == pages_of(preview.pdf or b"")


def test_a3_is_offered_for_a_big_bracket_on_one_page(qtbot: QtBot, menu: ReportsMenu) -> None:
    preview = preview_of(qtbot, menu, ReportRequest("standings"))
    assert [preview.paper_box.itemText(i) for i in range(preview.paper_box.count())] == [
        "A4", "Letter", "A3"]  # fmt: skip
    with qtbot.waitSignal(preview.shown, timeout=20_000):
        preview.paper_box.setCurrentIndex(preview.paper_box.findText("A3"))
    assert preview.request.paper is Paper.A3
    assert set(page_sizes(preview.pdf or b"")) == {A3}


def test_save_pdf_writes_the_report_and_remembers_the_folder(
    qtbot: QtBot, menu: ReportsMenu, tmp_path: Path, settings: QSettings
) -> None:
    preview = preview_of(qtbot, menu, ReportRequest("standings", 2))
    folder = tmp_path / "papers"
    folder.mkdir()
    assert preview.save_to(folder / "after two")  # no extension typed: .pdf added
    saved = folder / "after two.pdf"
    text = pdf_text(saved.read_bytes())
    assert EVENT_NAME in text
    assert pages_of(saved) == preview.page_count()
    assert preview.messages.kind == "info"
    assert "after two.pdf" in preview.messages.text
    assert settings.value(FOLDER_KEY) == str(folder)
    assert sorted(p.name for p in folder.iterdir()) == ["after two.pdf"]  # no temp file left


def test_the_save_dialog_offers_the_reports_name_in_the_last_folder(
    qtbot: QtBot, menu: ReportsMenu, tmp_path: Path, settings: QSettings
) -> None:
    folder = tmp_path / "last used"
    folder.mkdir()
    settings.setValue(FOLDER_KEY, str(folder))
    preview = preview_of(qtbot, menu, ReportRequest("pairings", 3))
    dialog = preview.save_pdf()
    assert dialog is not None
    assert dialog.isVisible()
    assert Path(dialog.directory().absolutePath()) == folder
    target = folder / "pairings-round-3.pdf"
    dialog.selectFile(str(target))
    dialog.accept()
    assert "Pairings" in pdf_text(target.read_bytes())
    assert EVENT_NAME in pdf_text(target.read_bytes())


@pytest.mark.parametrize("where", ["missing folder", "a file, not a folder"])
def test_an_unwritable_place_is_refused_in_words_and_nothing_is_written(
    qtbot: QtBot, menu: ReportsMenu, tmp_path: Path, where: str
) -> None:
    preview = preview_of(qtbot, menu, ReportRequest("teams"))
    blocker = tmp_path / "blocker"
    blocker.write_text("not a folder")
    before = sorted(p.name for p in tmp_path.iterdir())
    parent = tmp_path / "gone" if where == "missing folder" else blocker
    assert not preview.save_to(parent / "teams.pdf")
    assert preview.messages.kind == "error"
    assert preview.messages.isVisible()
    assert preview.messages.text.startswith("Not saved: cannot write")
    assert "does not exist" in preview.messages.text
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert blocker.read_text() == "not a folder"


def test_saving_over_the_open_event_file_is_refused_and_the_event_goes_on(
    qtbot: QtBot, demo_window: MainWindow, menu: ReportsMenu, demo_path: Path
) -> None:
    """The save dialog's "replace?" answered yes for the event's own file put the PDF in its
    place; every later result was then refused (the file was no longer the one locked)."""
    preview = preview_of(qtbot, menu, ReportRequest("standings"))
    before = demo_path.read_bytes()
    assert not preview.save_to(demo_path)
    assert preview.messages.kind == "error"
    assert preview.messages.text == (
        f"Not saved: cannot write {demo_path}: it is an event or club file; choose another "
        "name for the output"
    )
    assert demo_path.read_bytes()[:16] == before[:16] == b"SQLite format 3\x00"
    ctx = demo_window.ctx
    assert ctx is not None
    ctx.change(add_team, "Late Comers", ("Ann Lee", "Bo Ek"))  # the event still takes entries
    assert "Late Comers" in [t.name for t in ctx.read(list_teams)]


def test_a_report_that_cannot_be_made_says_why(qtbot: QtBot, menu: ReportsMenu) -> None:
    preview = menu.show_preview(ReportRequest("pairings", 9))
    assert preview is not None
    words = refused(qtbot, preview)
    assert "there is no round 9" in words
    assert preview.stack.currentWidget() is preview.status
    assert "there is no round 9" in preview.status.text()
    assert not preview.save_button.isEnabled()
    assert not preview.print_button.isEnabled()
    assert preview.save_pdf() is None


def test_refresh_shows_a_change_made_after_the_preview(
    qtbot: QtBot, demo_window: MainWindow, menu: ReportsMenu
) -> None:
    preview = preview_of(qtbot, menu, ReportRequest("teams"))
    assert "Late Arrivals" not in pdf_text(preview.pdf or b"")
    assert demo_window.ctx is not None
    demo_window.ctx.change(add_team, "Late Arrivals", ("Maya Ito", "Olu Ade"))
    assert preview.stale.isVisibleTo(preview)
    with qtbot.waitSignal(preview.shown, timeout=20_000):
        preview.refresh_button.click()
    assert not preview.stale.isVisibleTo(preview)
    assert "Late Arrivals" in pdf_text(preview.pdf or b"")


def test_closing_the_event_closes_its_previews(
    qtbot: QtBot, demo_window: MainWindow, menu: ReportsMenu
) -> None:
    preview = preview_of(qtbot, menu, ReportRequest("met"))
    assert preview.isVisible()
    with qtbot.waitSignal(preview.finished):
        demo_window.close_event()
    assert not preview.isVisible()
