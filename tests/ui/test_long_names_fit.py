"""Every page fits a 1280×720 screen whatever the teams are called (#24 point 4).

An 80-character team name made the main window 1,851 px wide on a 1,600 px screen, with the
desk's Clock…, No-show…, Audit and Print buttons and the Score column off screen, and the window
stayed that wide on the other pages. Here every name is as long as the app allows (MAX_NAME),
with spaces, without, and in Arabic; each page and each state of the desk is shown in the real
main window, which must fit the screen below a window manager's title bar with every control
inside it and every table's columns visible without scrolling sideways. A shortened name keeps
its whole text in a tooltip.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect, QSettings
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QApplication,
    QDialog,
    QLabel,
    QTableView,
    QWidget,
)
from pytestqt.qtbot import QtBot

from director.domain.event import PlayStatus
from director.domain.teamlist import MAX_NAME
from director.services.matches import list_matches
from director.services.rounds import get_round, list_rounds
from director.store.engine import open_database
from director.ui.audit_dialog import AuditDialog
from director.ui.context import EventContext
from director.ui.desk.match_desk import MatchDeskPage
from director.ui.desk.record_dialog import CorrectGameDialog, RecordGameDialog
from director.ui.forbidden_pairs_dialog import ForbiddenPairsDialog
from director.ui.main_window import MainWindow
from director.ui.no_show_dialog import NoShowDialog
from director.ui.pages import DESK, PAGES
from director.ui.reports.chooser import ReportChooser
from director.ui.result_grid import ResultGridDialog
from director.ui.round_dialogs import EditPairingsDialog
from tests.reports.eventdata import build_event
from tests.ui.app_helpers import make_window, throwaway_settings

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

SCREEN = QRect(0, 0, 1280, 720 - 30)  # a window manager's title bar above the window


def longest(text: str) -> str:
    """`text`, repeated to the longest name the app takes."""
    return (text * (MAX_NAME // len(text) + 1))[:MAX_NAME].strip()


NAMES = tuple(
    (
        longest(f"T{i} The Extraordinarily Long-Named Backgammon Society of Wolverhampton "),
        (
            longest(f"P{i}a Maximiliana Wolfeschlegelsteinhausenbergerdorff "),
            longest(f"P{i}b Bartholomew Wolfeschlegelsteinhausenbergerdorff "),
        ),
    )
    for i in range(5)
) + (
    (longest("Unbroken" + "W" * 20), (longest("NoSpaceA"), longest("NoSpaceB"))),
    (longest("فريق القاهرة للطاولة "), (longest("لاعب أول "), longest("لاعب ثان "))),
)


@pytest.fixture(scope="module")
def long_names_template(template_event: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Seven teams (so each round has a bye), two rounds: a forfeit and a match under way in
    round 2, every other match finished."""
    path = tmp_path_factory.mktemp("long") / "long.tandem"
    shutil.copy(template_event, path)
    db = open_database(str(path))
    try:
        with db.Session() as session, session.begin():
            build_event(session, teams=7, rounds=2, names=NAMES)
    finally:
        db.close()
    return path


@pytest.fixture
def opened(qtbot: QtBot, long_names_template: Path, tmp_path: Path) -> MainWindow:
    path = Path(shutil.copy(long_names_template, tmp_path / "long.tandem"))
    settings: QSettings = throwaway_settings(tmp_path)
    window = make_window(qtbot, settings)
    assert window.open_target(str(path), remember=False)
    return window


def scrolled(widget: QWidget, window: QWidget) -> bool:
    """Inside a scroll area's viewport: it scrolls into view by design."""
    parent = widget.parentWidget()
    while parent is not None and parent is not window:
        if isinstance(parent.parentWidget(), QAbstractScrollArea):
            return True
        parent = parent.parentWidget()
    return False


def misfits(window: QWidget) -> list[str]:
    """What does not fit the screen: the window's least size, a control outside the window,
    a table whose columns need a sideways scroll."""
    for _ in range(3):
        QApplication.processEvents()
    least = window.minimumSizeHint()
    problems = []
    if least.width() > SCREEN.width() or least.height() > SCREEN.height():
        problems.append(f"the window needs at least {least.width()}×{least.height()}")
        widest = max(
            (w for w in window.findChildren(QWidget) if w.isVisible() and not w.children()),
            key=lambda w: w.minimumSizeHint().width(),
        )
        problems.append(
            f"the widest part: {type(widest).__name__} {widest.objectName()!r}"
            f" ({widest.minimumSizeHint().width()} px)"
        )
    window.resize(SCREEN.size())
    for _ in range(3):
        QApplication.processEvents()
    inside = window.rect()
    for widget in window.findChildren(QWidget):
        if not widget.isVisible() or widget.isWindow() or scrolled(widget, window):
            continue
        where = QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())
        if not inside.contains(where):
            name = f"{type(widget).__name__} {widget.objectName()!r}"
            problems.append(f"{name} at {where.getRect()} is outside {inside.getRect()}")
        if isinstance(widget, QTableView) and widget.horizontalScrollBar().maximum() > 0:
            problems.append(f"{type(widget).__name__} {widget.objectName()!r} scrolls sideways")
    return problems


def shortened_names_keep_a_tooltip(window: QWidget) -> list[str]:
    """A label that shows less than its text says it in its tooltip."""
    problems = []
    for label in window.findChildren(QLabel):
        if not label.isVisible() or not label.text():
            continue
        wider = label.fontMetrics().horizontalAdvance(label.text()) > label.contentsRect().width()
        if wider and not label.wordWrap() and label.text() not in label.toolTip():
            problems.append(f"{label.objectName() or label.text()[:20]!r} has no tooltip")
    return problems


@pytest.mark.parametrize("page", range(len(PAGES)), ids=[p.key for p in PAGES])
def test_every_page_fits_1280_by_720_with_the_longest_names(opened: MainWindow, page: int) -> None:
    opened.show_page(page)
    assert misfits(opened) == []
    assert shortened_names_keep_a_tooltip(opened) == []


def test_every_state_of_the_desk_fits_1280_by_720_with_the_longest_names(
    opened: MainWindow,
) -> None:
    opened.show_page(DESK)
    assert opened.view is not None
    desk = opened.view.page(DESK)
    assert isinstance(desk, MatchDeskPage)
    assert opened.ctx is not None
    shown = []
    for match in opened.ctx.read(list_matches):
        desk.show_match(match.id)
        problems = misfits(opened) + shortened_names_keep_a_tooltip(opened)
        assert problems == [], f"table {match.table} of round {match.round}"
        if match.games:  # the games stay readable: two rows at least without scrolling
            rows = desk.table.viewport().height() // max(1, desk.table.rowHeight(0))
            assert rows >= 2, f"{rows} games shown at table {match.table} of round {match.round}"
        cube_texts = [desk.cube_state.text(), *(b.cube.reason_label.text() for b in desk.boards)]
        assert not [t for t in cube_texts if any(name in t for name in match.names)]
        shown.append("bye" if match.is_bye else "forfeit" if match.forfeit_by else match.status)
    assert {"bye", "forfeit", "finished", "in progress"} <= {str(s) for s in shown}


def dialogs(ctx: EventContext, parent: QWidget) -> dict[str, Callable[[], QDialog]]:
    """Every dialog the desk and the Rounds page open, on round 2 (a match under way)."""
    round_2 = ctx.read(get_round, 2)
    under_way = next(m for m in round_2.matches if m.status is PlayStatus.IN_PROGRESS)
    finished = next(m for m in round_2.matches if m.games and m.outcome.finished)
    return {
        "record": lambda: RecordGameDialog(ctx, under_way, 1, None, parent),
        "correct": lambda: CorrectGameDialog(ctx, finished, finished.game_ids[-1], parent),
        "no-show": lambda: NoShowDialog(ctx, under_way, parent),
        "edit pairings": lambda: EditPairingsDialog(ctx, round_2, parent),
        "forbidden pairs": lambda: ForbiddenPairsDialog(ctx, parent),
        "audit": lambda: AuditDialog(ctx, parent),
        "results from paper": lambda: ResultGridDialog(ctx, 2, parent),
        "print one match": lambda: ReportChooser("scoresheet", ctx.read(list_rounds), (), parent),
    }


def test_every_dialog_of_the_desk_and_the_rounds_fits_1280_by_720_with_the_longest_names(
    opened: MainWindow,
) -> None:
    assert opened.ctx is not None
    wide = {}
    for name, make in dialogs(opened.ctx, opened).items():
        dialog = make()
        dialog.show()
        QApplication.processEvents()
        least = dialog.minimumSizeHint().expandedTo(dialog.minimumSize())
        if least.width() > SCREEN.width() or least.height() > SCREEN.height():
            wide[name] = (least.width(), least.height())
        dialog.reject()
    assert wide == {}
