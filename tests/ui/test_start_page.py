"""The start page and the recent-events list behind it."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QEnterEvent
from PySide6.QtWidgets import QApplication, QLabel
from pytestqt.qtbot import QtBot

from director.ui.recent import LIMIT, RecentEvents
from director.ui.start_page import PATH_ROLE, StartPage
from tests.ui.app_helpers import OFFSCREEN_NOISE, throwaway_settings

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)


def test_recent_events_are_newest_first_without_duplicates(tmp_path: Path) -> None:
    recent = RecentEvents(throwaway_settings(tmp_path))
    recent.add(str(tmp_path / "a.tandem"), "A")
    recent.add(str(tmp_path / "b.tandem"), "B")
    recent.add(str(tmp_path / "a.tandem"), "A renamed")
    assert [(Path(e.path).name, e.name) for e in recent.entries()] == [
        ("a.tandem", "A renamed"),
        ("b.tandem", "B"),
    ]


def test_recent_events_survive_a_restart_and_are_capped(tmp_path: Path) -> None:
    recent = RecentEvents(throwaway_settings(tmp_path))
    for i in range(LIMIT + 3):
        recent.add(str(tmp_path / f"{i}.tandem"), f"Event {i}")
    recent.settings.sync()
    again = RecentEvents(throwaway_settings(tmp_path))
    names = [e.name for e in again.entries()]
    assert len(names) == LIMIT
    assert names[0] == f"Event {LIMIT + 2}"


def test_a_damaged_setting_is_forgotten(tmp_path: Path) -> None:
    settings = throwaway_settings(tmp_path)
    settings.setValue("recent/events", "{not json")
    assert RecentEvents(settings).entries() == []


def test_the_page_lists_recent_events_and_opens_one(qtbot: QtBot, tmp_path: Path) -> None:
    there = tmp_path / "club night.tandem"
    there.write_bytes(b"")
    recent = RecentEvents(throwaway_settings(tmp_path))
    recent.add(str(tmp_path / "gone.tandem"), "Gone")
    recent.add(str(there), "Club night")
    page = StartPage(recent)
    qtbot.addWidget(page)
    page.show()
    assert page.recent_list.count() == 2
    assert not page.no_recent.isVisible()
    gone = page.recent_list.itemWidget(page.recent_list.item(1))
    assert not gone.isEnabled()
    item = page.recent_list.item(0)
    with qtbot.waitSignal(page.recent_chosen) as chosen:
        page.recent_list.itemActivated.emit(item)
    assert chosen.args == [str(there.resolve())]
    assert item.data(PATH_ROLE) == str(there.resolve())


def test_an_empty_list_says_what_will_appear(qtbot: QtBot, tmp_path: Path) -> None:
    page = StartPage(RecentEvents(throwaway_settings(tmp_path)))
    qtbot.addWidget(page)
    page.show()
    assert page.no_recent.isVisible()
    assert not page.recent_list.isVisible()


@pytest.mark.parametrize(
    ("button", "signal"),
    [
        ("new_button", "new_requested"),
        ("open_button", "open_requested"),
        ("demo_button", "demo_requested"),
        ("connect_button", "connect_requested"),
    ],
)
def test_each_start_button_asks_for_its_action(
    qtbot: QtBot, tmp_path: Path, button: str, signal: str
) -> None:
    page = StartPage(RecentEvents(throwaway_settings(tmp_path)))
    qtbot.addWidget(page)
    with qtbot.waitSignal(getattr(page, signal)):
        getattr(page, button).click()


def test_a_click_anywhere_on_a_big_button_presses_it(qtbot: QtBot, tmp_path: Path) -> None:
    """On its picture, its title or its line of words: the labels inside let it through."""
    page = StartPage(RecentEvents(throwaway_settings(tmp_path)))
    qtbot.addWidget(page)
    page.show()
    for button, signal in (
        (page.new_button, page.new_requested),
        (page.open_button, page.open_requested),
        (page.demo_button, page.demo_requested),
    ):
        labels = button.findChildren(QLabel)
        assert len(labels) == 3
        for label in labels:
            with qtbot.waitSignal(signal, timeout=1000):
                qtbot.mouseClick(label, Qt.MouseButton.LeftButton, pos=label.rect().center())


def test_the_buttons_show_the_pointing_hand_once_the_pointer_comes(
    qtbot: QtBot, tmp_path: Path
) -> None:
    page = StartPage(RecentEvents(throwaway_settings(tmp_path)))
    qtbot.addWidget(page)
    page.show()
    QApplication.sendEvent(page, QEnterEvent(QPointF(5, 5), QPointF(5, 5), QPointF(5, 5)))
    buttons = (page.new_button, page.open_button, page.demo_button, page.connect_button)
    assert {b.cursor().shape() for b in buttons} == {Qt.CursorShape.PointingHandCursor}


def test_a_recent_events_name_and_file_are_shown_as_typed(qtbot: QtBot, tmp_path: Path) -> None:
    there = tmp_path / "R&D <b>night.tandem"
    there.write_bytes(b"")
    recent = RecentEvents(throwaway_settings(tmp_path))
    recent.add(str(there), "Zq <b>Night</b> & Day")
    page = StartPage(recent)
    qtbot.addWidget(page)
    labels = page.recent_list.itemWidget(page.recent_list.item(0)).findChildren(QLabel)
    assert [label.textFormat() for label in labels] == [Qt.TextFormat.PlainText] * 2
    assert labels[0].text() == "Zq <b>Night</b> & Day"
    assert "R&D <b>night.tandem" in labels[1].text()


def test_the_first_screen_says_the_app_runs_every_kind_of_night(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """It said "Run a Tandem backgammon team event" and "then add teams" after the app had
    learned individual events, knockout brackets and the club: a director running an
    individual night read that this was the wrong program."""
    page = StartPage(RecentEvents(throwaway_settings(tmp_path)))
    qtbot.addWidget(page)
    words = " ".join(label.text() for label in page.findChildren(QLabel)).lower()
    for kind in ("tandem", "individual", "knockout", "club"):
        assert kind in words
    assert "add teams" not in words
