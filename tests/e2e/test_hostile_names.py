"""Names people typed are shown as typed, on every page and dialog (risk 3 of the desk issue).

An event whose teams and players are called `R&D <Team>`, `<img src="/etc/passwd"/>`,
`<para>` and `<b>x</b>`, kept in a file called `R&D <b>night.tandem`, is walked through every
page, dialog and window of the app: from pairing round 1 in its dialog to the phones' windows,
the report preview, the backups and a damaged file's question. Each name starts with a marker
(`Zq1` …) that survives any interpretation, so a widget that shows the marker but not the whole
name has interpreted it: rich text in a label or a tooltip, a `&` taken for a keyboard
mnemonic in a button, a tab or a group box title, or the name written in other letters.
"""

from __future__ import annotations

import os
import random
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QAbstractItemModel, QModelIndex, QSettings
from PySide6.QtGui import QAction, Qt, QTextDocument
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QGroupBox,
    QLabel,
    QMenu,
    QTabBar,
    QWidget,
)
from pytestqt.qtbot import QtBot

from director.domain.errors import UserError
from director.domain.rules import End, EventOptions, Level, MatchRules, Side
from director.domain.scoring import Game
from director.services import games, matches, slips
from director.services.events import update_event
from director.services.teams import add_team
from director.store.engine import open_database
from director.ui.crash import handle_exception
from director.ui.desk.match_desk import MatchDeskPage
from director.ui.main_window import MainWindow
from director.ui.no_show_dialog import NoShowDialog
from director.ui.phone_clocks import PhoneClocksView
from director.ui.reports.chooser import ReportChooser
from director.ui.reports.menu import ReportsMenu
from director.ui.round_dialogs import PairRoundDialog
from director.ui.rounds_page import RoundsPage
from director.ui.standings_page import StandingsPage
from director.ui.teams_page import TeamsPage
from tests.ui.app_helpers import backed_up_at_open, make_window
from tests.web.conftest import hexid

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

TEAMS = (
    ("Zq1 R&D <Team>", ('Zq2 <img src="/etc/passwd"/>', "Zq3 <para>")),
    ("Zq4 <b>x</b>", ("Zq5 A&B", "Zq6 <i>i</i> &amp;")),
    ("Zq7 <p>Club</p>", ("Zq8 <br>", "Zq9 <u>u</u>")),
    ("Zq10 <font color=red>F</font>", ("Zq11 &lt;", "Zq12 <table>")),
)
EVENT_NAME = "Zq13 <b>Night</b> & Day"
CLUB = "Zq14 <b>Club</b> & Co"
IMPORTED = ("Zq15 <b>New</b> & Co", "Zq16 <img src=x>", "Zq17 R&D", "Zq18 <i>bad</i>")
LATE = "Zq20 <b>Late</b> & Co"  # added in the walk, after round 1 is paired
# the event file's name (and so its backups' folder): no "<" or ">" in a Windows file name
FILE_STEM = "Zq19 R&D &lt;b&gt;night" if os.name == "nt" else "Zq19 R&D <b>night"
HOSTILE = {
    marker: name
    for name in [
        EVENT_NAME,
        CLUB,
        FILE_STEM,
        LATE,
        *IMPORTED,
        *(t for t, _ in TEAMS),
        *(p for _, ps in TEAMS for p in ps),
    ]
    for marker in [name.split()[0]]
}


def rich_to_plain(text: str) -> str:
    document = QTextDocument()
    document.setHtml(text)
    return document.toPlainText()


def mnemonic_text(text: str) -> str:
    """What a button or a tab shows: `&x` is x underlined, `&&` one ampersand."""
    return re.sub(r"&(.)", r"\1", text)


def label_text(label: QLabel) -> str:
    shown = label.text()
    rich = label.textFormat() is Qt.TextFormat.RichText or (
        label.textFormat() is Qt.TextFormat.AutoText and Qt.mightBeRichText(shown)
    )
    shown = rich_to_plain(shown) if rich else shown
    return mnemonic_text(shown) if label.buddy() is not None else shown


def tooltip_text(tip: str) -> str:
    return rich_to_plain(tip) if Qt.mightBeRichText(tip) else tip


def model_texts(model: QAbstractItemModel, parent: QModelIndex | None = None) -> Iterator[str]:
    parent = parent or QModelIndex()
    try:
        columns = model.columnCount(parent)
    except TypeError:  # a list model keeps columnCount private: one column
        columns = 1
    for row in range(min(model.rowCount(parent), 60)):
        for column in range(columns):
            index = model.index(row, column, parent)
            for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                value = model.data(index, role)
                if isinstance(value, str):
                    plain = role is Qt.ItemDataRole.DisplayRole
                    yield value if plain else tooltip_text(value)


def shown_texts(widget: QWidget) -> Iterator[tuple[str, str]]:
    """(what, text as the person sees it) for every text the widget shows."""
    name = f"{type(widget).__name__} {widget.objectName()!r}"
    if widget.isWindow():
        yield f"{name} title", widget.windowTitle()
    if widget.toolTip():
        yield f"{name} tooltip", tooltip_text(widget.toolTip())
    if isinstance(widget, QLabel):
        yield name, label_text(widget)
    if isinstance(widget, QAbstractButton):
        yield name, mnemonic_text(widget.text())
    if isinstance(widget, QGroupBox):
        yield f"{name} title", mnemonic_text(widget.title())
    if isinstance(widget, QTabBar):
        for i in range(widget.count()):
            yield f"{name} tab", mnemonic_text(widget.tabText(i))
            yield f"{name} tab tooltip", tooltip_text(widget.tabToolTip(i))
    if isinstance(widget, QComboBox):
        for i in range(widget.count()):
            yield f"{name} item", widget.itemText(i)
    if isinstance(widget, QAbstractItemView) and widget.model() is not None:
        for text in model_texts(widget.model()):
            yield f"{name} item", text
    if isinstance(widget, QMenu):
        for action in widget.actions():
            yield f"{name} action", action_text(action)


def action_text(action: QAction) -> str:
    return mnemonic_text(action.text())


def as_typed(text: str, full: str) -> int:
    """How often `full` is shown as typed in `text`: whole, or its first characters followed by
    "…" where the room is short (ui/elided.py: a long name never widens a window)."""
    whole = text.count(full)
    shortened = sum(
        1
        for found in re.finditer(rf"{re.escape(full.split(maxsplit=1)[0])}\b([^…]*)…", text)
        if full.startswith(found.group(0)[:-1]) and found.group(0)[:-1] != full
    )
    return whole + shortened


def interpreted(what: str, text: str) -> list[str]:
    return [
        f"{what}: shows {text!r} for {full!r}"
        for marker, full in HOSTILE.items()
        # a name shown in other letters ("zq1 r&d <team>") is not shown as typed either
        if len(re.findall(rf"{marker}\b", text, re.IGNORECASE)) != as_typed(text, full)
    ]


class Walk:
    """Everything shown on screen, checked after each step."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.seen: set[str] = set()  # markers seen at least once: the walk reached the names

    def check(self, step: str) -> None:
        QApplication.processEvents()
        for window in QApplication.topLevelWidgets():
            if not window.isVisible():
                continue
            for widget in [window, *window.findChildren(QWidget)]:
                if not widget.isVisibleTo(window) and widget is not window:
                    continue
                for what, text in shown_texts(widget):
                    self.seen |= {m for m in HOSTILE if re.search(rf"{m}\b", text)}
                    self.problems += [f"{step}: {p}" for p in interpreted(what, text)]


def seed(path: Path) -> None:
    """Four hostile teams, all of one club, in an event with a hostile name."""
    db = open_database(str(path))
    try:
        with db.Session() as session, session.begin():
            update_event(
                session,
                name=EVENT_NAME,
                options=EventOptions(match=MatchRules(match_length=5)),
            )
            for name, players in TEAMS:
                add_team(session, name, players, club=CLUB)
    finally:
        db.close()


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path) -> Iterator[MainWindow]:
    main = make_window(qtbot, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    main.resize(1366, 800)
    yield main
    main.close_event()


@pytest.fixture
def hostile_path(event_path: Path) -> Path:
    """The event file, its name hostile too (its backups' folder carries the name)."""
    return event_path.rename(event_path.with_name(f"{FILE_STEM}.tandem"))


def close_dialogs(walk: Walk, step: str) -> None:
    walk.check(step)
    for widget in QApplication.topLevelWidgets():
        if widget.isVisible() and widget.isModal():
            widget.close()


def close_windows(walk: Walk, step: str, *windows: QWidget | None) -> None:
    """Check, then close the windows a step opened that are not modal."""
    walk.check(step)
    for shown in windows:
        assert shown is not None and shown.isVisible(), step
        shown.close()


def test_every_page_and_dialog_shows_names_as_typed(
    qtbot: QtBot, window: MainWindow, hostile_path: Path, template_event: Path
) -> None:
    seed(hostile_path)
    assert window.open_target(str(hostile_path), remember=True)
    walk = Walk()
    walk.check("event opened")
    view = window.view
    assert view is not None and window.ctx is not None
    ctx = window.ctx

    # round 1 paired through the rounds page's dialog, then a game on table 1
    view.show_page(1)
    page = view.pages[1]
    assert isinstance(page, RoundsPage)
    page.pair_next_round()
    pair_dialog = page.dialog
    assert isinstance(pair_dialog, PairRoundDialog)
    walk.check("pair-round dialog")
    pair_dialog.publish_button.click()
    assert pair_dialog.published is not None
    with_game, other = (m.id for m in ctx.read(matches.list_matches, 1)[:2])
    game = Game(1, 1, Side.A, End.BEAR_OFF, cube=2, level=Level.GAMMON)
    ctx.change(games.record_game, with_game, game)
    backed_up_at_open(qtbot, window)

    for index in range(len(view.pages)):
        view.show_page(index)
        walk.check(f"page {index}")

    # teams: the team dialog, removing and withdrawing a team (questions name the team)
    view.show_page(0)
    teams = view.pages[0]
    assert isinstance(teams, TeamsPage)
    add = teams.add_teams()
    walk.check("add-team dialog")
    add.name.setText(TEAMS[0][0])
    add.player1.setText("Ann")
    add.player2.setText("Bob")
    assert add.add() is None
    walk.check("add-team dialog, a name taken")  # the refusal names the team
    add.name.setText(LATE)
    add.player1.setText("Ann")
    add.player2.setText("Bob")
    assert add.add() is not None
    close_dialogs(walk, "add-team dialog, a team added")  # it says which
    teams.table.selectRow(0)
    walk.check("a team selected")
    teams.remove_selected()
    close_dialogs(walk, "remove-team question")
    teams.withdraw_selected()
    close_dialogs(walk, "withdraw question")

    # a team list with hostile names (and a bad row) in the CSV import preview
    csv = hostile_path.with_name(f"{FILE_STEM} teams.csv")  # its name in the dialog's title
    csv.write_text(
        'team,player1,player2\n"Zq15 <b>New</b> & Co","Zq16 <img src=x>","Zq17 R&D"\n'
        '"Zq18 <i>bad</i>",,\n',
        encoding="utf-8",
    )
    teams.import_csv(str(csv))
    close_dialogs(walk, "CSV import preview")

    # rounds: the list, the edit-pairings and forbidden-pairs dialogs, pair again and undo questions
    view.show_page(1)
    page.table.selectRow(0)
    walk.check("a pairing selected")
    page.edit_pairings()
    close_dialogs(walk, "edit-pairings dialog")
    page.edit_forbidden_pairs()
    close_dialogs(walk, "forbidden-pairs dialog")
    page.open_audit()
    close_dialogs(walk, "audit log")
    page.pair_again()
    close_dialogs(walk, "pair-again question")
    page.undo_last_round()
    close_dialogs(walk, "undo-round question")

    # the no-show of the match without a game: recorded, then undone (the dialog names the team)
    page.table.selectRow(next(r for r in range(2) if page.model.match_at(r).id == other))
    walk.check("a match without a game selected")
    for step, reason in (("no-show dialog", "did not come"), ("undo-forfeit dialog", "came")):
        page.open_no_show()
        no_show = page.dialog
        assert isinstance(no_show, NoShowDialog), step
        walk.check(step)
        if no_show.sides:
            no_show.sides[Side.B].setChecked(True)
        no_show.reason.setText(reason)
        no_show.ok_button.click()
        assert no_show.saved is not None, step
        walk.check(f"{step} saved")

    # the desk: both matches, the record and correct dialogs, undo, the clock window
    for match_id in (with_game, other):
        ctx.match_requested.emit(match_id)
        walk.check(f"desk, match {match_id}")
    ctx.match_requested.emit(with_game)
    desk = view.pages[2]
    assert isinstance(desk, MatchDeskPage)
    desk.picker.rounds.showPopup()
    desk.picker.rounds.hidePopup()
    desk.boards[0].cube.offer_a.click()
    walk.check("desk, a double offered")
    desk.boards[0].cube.withdraw_button.click()
    desk.open_record_dialog(2)
    close_dialogs(walk, "record dialog")
    desk.table.selectRow(0)
    desk.edit_game(0)
    close_dialogs(walk, "correct dialog")
    desk.undo_last_game()
    close_dialogs(walk, "undo-game question")
    keys = QSettings(str(hostile_path.with_suffix(".keys")), QSettings.Format.IniFormat)
    desk.clock_settings = keys
    for match_id in (with_game, other):  # each match's names head its clock window
        ctx.match_requested.emit(match_id)
        desk._clock_clicked()
        walk.check(f"clock window, match {match_id}")
        for clock in list(ctx.clock_windows.values()):
            if isinstance(clock, QWidget):
                clock.close()

    # the desk's Print button: a scoresheet's preview (titled with the match), while it is made
    # and once shown
    ctx.match_requested.emit(other)
    desk.print_button.settings = QSettings(
        str(hostile_path.with_suffix(".ini")), QSettings.Format.IniFormat
    )
    desk.print_button.open_preview("scoresheet")
    preview = desk.print_button.preview
    assert preview is not None
    walk.check("report preview, being made")
    with qtbot.waitSignal(preview.shown, timeout=30_000):
        pass
    close_windows(walk, "report preview", preview)
    # the Reports menu's chooser of a round's scoresheets lists the matches
    menu = window.reports_menu
    assert isinstance(menu, ReportsMenu)
    chooser = menu.open_report("scoresheet")
    assert isinstance(chooser, ReportChooser)
    chooser.match_box.showPopup()
    walk.check("report chooser, its matches")
    chooser.match_box.hidePopup()
    close_dialogs(walk, "report chooser")

    # the players' phones: the table service's tables, the phone clocks, a flag's forfeit entry
    service = window.show_table_service()
    assert service is not None
    walk.check("phones at the tables")
    with ctx.db.Session() as session, session.begin():  # table 2's phones send a result
        token = slips.token_for(session, other, Side.A)
        token_b = slips.token_for(session, other, Side.B)
        assert token is not None and token_b is not None
        sent = {"pair": 1, "board": 1, "winner": "A", "end": "bear-off", "level": "single",
                "cube": 1}  # fmt: skip
        uid = hexid()
        slips.submit_slip(session, token_b, uid, hexid(), sent)
        slips.answer_slip(session, token, uid, hexid(), agree=True)
    service.refresh()
    assert service.pending.count() == 1
    walk.check("phones at the tables, a result pending")
    clocks = service.show_phone_clocks()
    assert isinstance(clocks, PhoneClocksView)
    walk.check("phone clocks")
    forfeits = [
        clocks.open_forfeit(match_id, board, Side.A, (0, 60_000_000_000))
        for match_id in (with_game, other)
        for board in (1, 2)
    ]
    close_windows(walk, "time-forfeit entries", *forfeits, clocks, service)

    # standings (each tab), the event options, the public display, the menus
    view.show_page(3)
    standings = view.pages[3]
    assert isinstance(standings, StandingsPage)
    for tab in range(standings.tabs.count()):
        standings.tabs.setCurrentIndex(tab)
        walk.check(f"standings tab {tab}")
    window.edit_options()
    close_dialogs(walk, "event options")
    display = window.show_public_display()
    assert display is not None
    walk.check("public display")
    display.close()
    window.recent_menu.aboutToShow.emit()
    walk.check("recent menu")
    for action in window.recent_menu.actions():
        walk.problems += [f"recent menu: {p}" for p in interpreted("action", action_text(action))]
        tip = tooltip_text(action.toolTip())
        walk.problems += [f"recent menu: {p}" for p in interpreted("action tooltip", tip)]

    # the backups of the event file (their folder carries its name), listed to restore one
    restore = window.restore_from_backup()
    assert restore is not None and restore.table.rowCount() > 0
    close_dialogs(walk, "restore dialog")

    # a damaged file of the same name cannot be opened: the question names it
    damaged = hostile_path.with_name(f"{FILE_STEM} 2.tandem")
    shutil.copy(template_event, damaged)
    with damaged.open("r+b") as handle:  # pages in the middle overwritten, as by a failing disk
        handle.seek(damaged.stat().st_size // 2)
        handle.write(random.Random(1).randbytes(8192))
    assert not window.open_target(str(damaged))
    close_dialogs(walk, "damaged-file question")

    # a refusal no window caught, shown by the exception hook's box
    refusal = UserError(f"team {TEAMS[1][0]!r} cannot be changed now")
    assert handle_exception(UserError, refusal, None) is not None
    close_dialogs(walk, "the hook's refusal box")

    # the start page, the event now in its list of recent events; a new event named as typed
    window.close_event()
    walk.check("start page")
    new = window.new_event()
    new.name.setText(EVENT_NAME)
    new.organiser.setText(CLUB)
    new.set_path(str(hostile_path))  # taken: the refusal names the file
    new.accept()
    close_dialogs(walk, "new-event dialog, its file refused")

    assert not walk.problems, "\n".join(sorted(set(walk.problems)))
    assert walk.seen == set(HOSTILE)  # the walk did reach every name
