"""Importing a team list: the preview marks every bad row, and nothing is written before Import."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import (
    QApplication,
    QDialogButtonBox,
    QLabel,
    QProgressBar,
    QProgressDialog,
    QPushButton,
)
from pytestqt.qtbot import QtBot

from director.domain.teamlist import PROGRESS_STEP, parse_team_list, seeds_by_rating
from director.services.teams import TeamListPreview, add_team
from director.store.engine import open_database
from director.ui import csv_import_dialog
from director.ui.context import EventContext
from director.ui.csv_import_dialog import CHECK_COLUMN, HEADERS, PreviewModel, preview_rows
from director.ui.teams_page import TeamsPage
from tests.ui.app_helpers import OFFSCREEN_NOISE, stored_teams

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)

MIXED = (
    "team;player1;player2;club;rating;seed\n"
    "Blue Bar;Ana;Ben;North;1650;\n"
    "Gammonites;Cleo;;South;;\n"
    "Prime Time;Eva;Femi;;strong;\n"
    "Anchor Crew;Gus;Hana;;;\n"
    "blue bar;Ivo;Jade;;;\n"
)
GOOD = "team,player1,player2\nBlue Bar,Ana,Ben\nGammonites,Cleo,Dev\n"


@pytest.fixture
def page(qtbot: QtBot, event_path: Path) -> Iterator[TeamsPage]:
    ctx = EventContext(open_database(str(event_path)))
    widget = TeamsPage(ctx)
    qtbot.addWidget(widget)
    widget.show()
    yield widget
    ctx.close()


def write(tmp_path: Path, text: str | bytes, name: str = "teams.csv") -> str:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return str(path)


def test_the_preview_model_passes_the_model_tester(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    parsed = parse_team_list(MIXED)
    seeds = seeds_by_rating([(r.rating, r.seed) for r in parsed.rows])
    qtmodeltester.check(PreviewModel(preview_rows(TeamListPreview(parsed, tuple(seeds)), MIXED)))


def test_the_preview_shows_the_seed_each_team_is_imported_with(
    qtbot: QtBot, page: TeamsPage, tmp_path: Path, event_path: Path
) -> None:
    """#12: the Seed column was empty for a row without one, yet the import seeds such rows
    by rating (after every seed given): the director could not check the order beforehand."""
    page.ctx.change(add_team, "Early Birds", ("Ed", "Em"))  # seed 1
    rated = (
        "team,player1,player2,club,rating,seed\n"
        "Low,La,Lb,,1500,\nHigh,Ha,Hb,,1800,\nNobody,Na,Nb,,,\nFixed,Fa,Fb,,1700,7\n"
    )
    dialog = page.import_csv(write(tmp_path, rated))
    assert dialog is not None
    seed_column = HEADERS.index("Seed")
    shown = {
        dialog.model.index(row, 1).data(): dialog.model.index(row, seed_column).data()
        for row in range(dialog.model.rowCount())
    }
    assert shown == {
        "Low": "9 (by rating)",
        "High": "8 (by rating)",
        "Nobody": "10 (unrated)",
        "Fixed": "7",
    }
    with qtbot.waitSignal(dialog.accepted):
        dialog.import_button.click()
    stored = {t.name: t.seed for t in stored_teams(event_path)}
    assert stored == {"Early Birds": 1} | {k: int(v.split()[0]) for k, v in shown.items()}


def test_every_bad_row_is_marked_with_its_reason_and_nothing_is_written(
    qtbot: QtBot, page: TeamsPage, tmp_path: Path, event_path: Path
) -> None:
    dialog = page.import_csv(write(tmp_path, MIXED))
    assert dialog is not None and dialog.isVisible()
    model = dialog.model
    checks = {
        model.index(row, 0).data(): model.index(row, CHECK_COLUMN).data()
        for row in range(model.rowCount())
    }
    assert checks == {
        "2": "OK",
        "3": "player2 is empty",
        "4": "rating 'strong' is not a whole number",
        "5": "OK",
        "6": "team 'blue bar' appears twice in this file (first on line 2)",
    }
    bad = model.index(1, 1)
    assert bad.data() == "Gammonites;Cleo;;South;;"  # the line as written, to find it in the file
    assert bad.data(Qt.ItemDataRole.BackgroundRole) is not None
    assert (
        dialog.summary.text()
        == "2 teams ready to import; 3 bad rows, marked in red with the reason."
    )
    assert not dialog.import_button.isEnabled()
    assert "Nothing is imported while the list has bad rows" in dialog.error.text()
    dialog.reject()
    assert stored_teams(event_path) == []


def test_import_the_good_rows_only(
    qtbot: QtBot, page: TeamsPage, tmp_path: Path, event_path: Path
) -> None:
    dialog = page.import_csv(write(tmp_path, MIXED))
    assert dialog is not None
    dialog.skip_bad.setChecked(True)
    assert dialog.import_button.isEnabled()
    with qtbot.waitSignal(dialog.accepted):
        dialog.import_button.click()
    assert [(t.name, t.players, t.rating) for t in stored_teams(event_path)] == [
        ("Blue Bar", ("Ana", "Ben"), 1650),
        ("Anchor Crew", ("Gus", "Hana"), None),
    ]
    assert page.proxy.rowCount() == 2
    assert page.messages.text == "Imported 2 teams. Skipped 3 bad rows."


def test_a_clean_list_imports_at_once(
    qtbot: QtBot, page: TeamsPage, tmp_path: Path, event_path: Path
) -> None:
    dialog = page.import_csv(write(tmp_path, GOOD))
    assert dialog is not None
    assert not dialog.skip_bad.isVisibleTo(dialog)
    assert dialog.import_button.text() == "Import 2 teams"
    with qtbot.waitSignal(dialog.accepted):
        dialog.import_button.click()
    assert [t.name for t in stored_teams(event_path)] == ["Blue Bar", "Gammonites"]


def test_a_team_registered_meanwhile_is_refused_in_the_dialog(
    qtbot: QtBot, page: TeamsPage, tmp_path: Path, event_path: Path
) -> None:
    dialog = page.import_csv(write(tmp_path, GOOD))
    assert dialog is not None
    page.ctx.change(add_team, "Gammonites", ("Someone", "Else"))  # another station
    dialog.import_button.click()  # the import runs off the GUI thread: its answer comes later
    qtbot.waitUntil(lambda: "nothing imported" in dialog.error.text())
    assert dialog.isVisible()
    assert "team 'Gammonites' is already registered" in dialog.error.text()
    assert [t.name for t in stored_teams(event_path)] == ["Gammonites"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"team,player1,player2\nCaf\xe9,A,B\n", "the file is not UTF-8"),
        (b"", "the file is empty"),
        (b"name,first,second\nA,B,C\n", "the header row lacks team, player1, player2"),
    ],
)
def test_a_file_that_is_no_team_list_is_refused_before_any_preview(
    page: TeamsPage, tmp_path: Path, event_path: Path, content: bytes, message: str
) -> None:
    assert page.import_csv(write(tmp_path, content)) is None
    assert page.messages.kind == "error"
    assert page.messages.text.startswith("teams.csv: ")
    assert message in page.messages.text
    assert stored_teams(event_path) == []


def test_a_missing_file_is_refused(page: TeamsPage, tmp_path: Path) -> None:
    assert page.import_csv(str(tmp_path / "gone.csv")) is None
    assert page.messages.text == "gone.csv does not exist"


@pytest.mark.parametrize("kind", ["pipe", "20 GB"])
def test_a_pipe_or_a_huge_file_is_refused_without_reading_it(
    page: TeamsPage, tmp_path: Path, event_path: Path, kind: str
) -> None:
    """The file dialog lists every file: a named pipe chosen froze the window for good (its
    read waits for a writer), and a 20 GB file was read whole into memory before the team
    list's 5 MB limit refused it. The CLI's `import-teams` reads at most the limit; so does
    the page."""
    path = tmp_path / "teams.csv"
    if kind == "pipe":
        os.mkfifo(path)
        reason = "teams.csv is not a regular file (a pipe or a device): not a team list"
    else:
        with path.open("wb") as handle:
            handle.truncate(20 * 1024**3)  # sparse: no disk used, 20 GB to whoever reads it
        reason = "teams.csv is larger than 5 MB: not a team list"
    assert page.import_csv(str(path)) is None
    assert (page.messages.kind, page.messages.text) == ("error", reason)
    assert stored_teams(event_path) == []


def long_list(rows: int) -> str:
    return "team,player1,player2\n" + "".join(f"Team {i},A{i},B{i}\n" for i in range(rows))


def test_a_long_import_shows_its_progress_and_keeps_the_window_running(
    qtbot: QtBot, page: TeamsPage, tmp_path: Path, event_path: Path
) -> None:
    rows = 6 * PROGRESS_STEP
    dialog = page.import_csv(write(tmp_path, long_list(rows)))
    assert dialog is not None
    shown: list[tuple[int, int]] = []
    dialog.progress.valueChanged.connect(lambda v: shown.append((v, dialog.progress.maximum())))
    with qtbot.waitSignal(dialog.accepted, timeout=60000):
        dialog.import_button.click()
        assert dialog.progress.isVisible()  # the click returned before the import ended
        assert not dialog.import_button.isEnabled()  # and it cannot be started twice
    # reading, writing the teams, writing the players: each step told, the last one full
    assert len(shown) >= 3 * rows // PROGRESS_STEP
    assert shown[-1] == (3 * rows, 3 * rows)
    assert [v for v, _ in shown] == sorted(v for v, _ in shown)
    assert len(stored_teams(event_path)) == rows
    assert page.proxy.rowCount() == rows


def test_cancel_during_an_import_stores_nothing(
    qtbot: QtBot, page: TeamsPage, tmp_path: Path, event_path: Path
) -> None:
    page.ctx.change(add_team, "Early Birds", ("Ed", "Em"))
    rows = 40 * PROGRESS_STEP
    dialog = page.import_csv(write(tmp_path, long_list(rows)))
    assert dialog is not None
    cancelled: list[int] = []

    def cancel_once_writing(value: int) -> None:  # Cancel while the teams are being written
        if value > rows and not cancelled:
            cancelled.append(value)
            dialog.button_box.button(QDialogButtonBox.StandardButton.Cancel).click()

    dialog.progress.valueChanged.connect(cancel_once_writing)
    with qtbot.waitSignal(dialog.rejected, timeout=60000):
        dialog.import_button.click()
    assert cancelled and cancelled[0] < 3 * rows  # pressed before the import ended
    assert dialog.result_ is None
    assert [t.name for t in stored_teams(event_path)] == ["Early Birds"]  # reopened from disk
    assert page.proxy.rowCount() == 1


def test_a_long_list_is_read_with_its_progress_and_cancel_before_the_preview(
    qtbot: QtBot, page: TeamsPage, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """#14: the list was read on the GUI thread before the preview opened, with no progress
    and no way to stop it: the window froze for the whole of a long list."""
    monkeypatch.setattr(csv_import_dialog, "READING_SHOWN_MS", 0)  # shown at its first report
    rows = 40 * PROGRESS_STEP
    seen: list[tuple[int, int, bool]] = []  # what the reading dialog showed while it ran

    def look(box: QProgressDialog, value: int) -> None:  # on the GUI thread, while it reads
        if seen or value <= 0:
            return
        label = box.findChild(QLabel)
        assert label.text() == "Reading R&D <b>big list.csv…"
        assert label.textFormat() is Qt.TextFormat.PlainText
        seen.append((value, box.maximum(), box.isVisible()))
        box.findChild(QPushButton).click()  # its Cancel, at its first report past the start

    class Watch(QObject):  # the reading dialog, as it is shown: its bar is followed from then
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if isinstance(watched, QProgressDialog) and event.type() is QEvent.Type.Show:
                bar = watched.findChild(QProgressBar)
                bar.valueChanged.connect(lambda value, box=watched: look(box, value))
            return False

    watch = Watch(page)
    app = QApplication.instance()
    app.installEventFilter(watch)
    path = write(tmp_path, long_list(rows), "R&D <b>big list.csv")
    try:
        assert page.import_csv(path) is None  # cancelled: no preview
    finally:
        app.removeEventFilter(watch)
    assert seen and seen[0][2], "no progress was shown while the list was read"
    value, maximum, _ = seen[0]
    assert 0 < value < maximum == rows
    assert page.findChildren(csv_import_dialog.CsvImportDialog) == []
    assert page.messages.text == ""
    # and read to the end, the same list opens its preview with every row
    dialog = page.import_csv(path)
    assert dialog is not None and dialog.model.rowCount() == rows
    dialog.reject()
