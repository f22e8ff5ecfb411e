"""Names people typed are shown as typed, on every page and dialog (risk 3 of the desk issue).

An event whose teams and players are called `R&D <Team>`, `<img src="/etc/passwd"/>`,
`<para>` and `<b>x</b>` is walked through every page and dialog of the app. Each name starts
with a marker (`Zq1` …) that survives any interpretation, so a widget that shows the marker
but not the whole name has interpreted it: rich text in a label or a tooltip, a `&` taken for
a keyboard mnemonic in a button, a tab or a group box title.
"""

from __future__ import annotations

import re
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

from director.domain.rules import End, EventOptions, Level, MatchRules, Side
from director.domain.scoring import Game
from director.services import games, matches
from director.services.events import update_event
from director.services.rounds import pair_next_round
from director.services.teams import add_team
from director.store.engine import open_database
from director.ui.desk.match_desk import MatchDeskPage
from director.ui.main_window import MainWindow
from director.ui.rounds_page import RoundsPage
from director.ui.standings_page import StandingsPage
from director.ui.teams_page import TeamsPage
from tests.ui.app_helpers import make_window

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
HOSTILE = {
    marker: name
    for name in [
        EVENT_NAME,
        CLUB,
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


def interpreted(what: str, text: str) -> list[str]:
    return [
        f"{what}: shows {text!r} for {full!r}"
        for marker, full in HOSTILE.items()
        if len(re.findall(rf"{marker}\b", text)) != text.count(full)
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


def seed(path: Path) -> tuple[int, int]:
    """Four hostile teams, round 1 paired, a game on table 1; returns (match with a game, other)."""
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
            pair_next_round(session)
        with db.Session() as session, session.begin():
            first, second = matches.list_matches(session, 1)[:2]
            game = Game(1, 1, Side.A, End.BEAR_OFF, cube=2, level=Level.GAMMON)
            games.record_game(session, first.id, game)
        return first.id, second.id
    finally:
        db.close()


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path) -> Iterator[MainWindow]:
    main = make_window(qtbot, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    main.resize(1366, 800)
    yield main
    main.close_event()


def close_dialogs(walk: Walk, step: str) -> None:
    walk.check(step)
    for widget in QApplication.topLevelWidgets():
        if widget.isVisible() and widget.isModal():
            widget.close()


def test_every_page_and_dialog_shows_names_as_typed(
    qtbot: QtBot, window: MainWindow, event_path: Path
) -> None:
    with_game, other = seed(event_path)
    assert window.open_target(str(event_path), remember=True)
    walk = Walk()
    walk.check("event opened")
    view = window.view
    assert view is not None and window.ctx is not None
    for index in range(len(view.pages)):
        view.show_page(index)
        walk.check(f"page {index}")

    # teams: the team dialog, removing and withdrawing a team (questions name the team)
    view.show_page(0)
    teams = view.pages[0]
    assert isinstance(teams, TeamsPage)
    teams.add_teams()
    close_dialogs(walk, "add-team dialog")
    teams.table.selectRow(0)
    walk.check("a team selected")
    teams.remove_selected()
    close_dialogs(walk, "remove-team question")
    teams.withdraw_selected()
    close_dialogs(walk, "withdraw question")

    # a team list with hostile names (and a bad row) in the CSV import preview
    csv = event_path.with_name("hostile.csv")
    csv.write_text(
        'team,player1,player2\n"Zq15 <b>New</b> & Co","Zq16 <img src=x>","Zq17 R&D"\n'
        '"Zq18 <i>bad</i>",,\n',
        encoding="utf-8",
    )
    teams.import_csv(str(csv))
    close_dialogs(walk, "CSV import preview")

    # rounds: the list, the edit-pairings and forbidden-pairs dialogs, pair again and undo questions
    view.show_page(1)
    page = view.pages[1]
    assert isinstance(page, RoundsPage)
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

    # the desk: both matches, the record and correct dialogs, undo, the clock window
    for match_id in (with_game, other):
        window.ctx.match_requested.emit(match_id)
        walk.check(f"desk, match {match_id}")
    window.ctx.match_requested.emit(with_game)
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
    keys = QSettings(str(event_path.with_suffix(".keys")), QSettings.Format.IniFormat)
    desk.clock_settings = keys
    desk._clock_clicked()
    walk.check("clock window")
    for clock in list(window.ctx.clock_windows.values()):
        if isinstance(clock, QWidget):
            clock.close()

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

    # the start page, the event now in its list of recent events
    window.close_event()
    walk.check("start page")

    assert not walk.problems, "\n".join(sorted(set(walk.problems)))
    assert walk.seen == set(HOSTILE)  # the walk did reach every name
