"""The main window: start page, opening and closing events, menus, keys, the window's memory."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from director.domain.errors import UserError
from director.domain.rules import End, Level, Side
from director.domain.scoring import Game
from director.services import rounds
from director.services.games import record_game
from director.services.matches import create_match
from director.services.teams import add_team
from director.store.engine import open_event
from director.ui import context
from director.ui.desk.match_desk import MatchDeskPage
from director.ui.help import help_text
from director.ui.main_window import MainWindow
from director.ui.pages import DESK, PAGES
from director.ui.teams_page import TeamsPage
from tests.ui.app_helpers import OFFSCREEN_NOISE, stored_event

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)


def current_page(window: MainWindow) -> QWidget:
    assert window.view is not None
    return window.view.page(window.view.current_index)


def test_without_an_event_the_start_page_shows(window: MainWindow) -> None:
    assert window.stack.currentWidget() is window.start
    assert window.windowTitle() == "Tandem Director"
    assert not window.options_action.isEnabled()
    assert not window.reports_menu.isEnabled()
    assert not any(a.isEnabled() for a in window.page_actions)


def test_opening_an_event_shows_its_name_and_remembers_it(
    window: MainWindow, event_path: Path
) -> None:
    assert window.open_target(str(event_path))
    assert window.windowTitle() == "Template Open – Tandem Director"
    assert isinstance(current_page(window), TeamsPage)
    assert window.options_action.isEnabled()
    assert [e.name for e in window.recent.entries()] == ["Template Open"]
    window.close_event()
    assert window.stack.currentWidget() is window.start
    assert window.windowTitle() == "Tandem Director"
    assert window.start.recent_list.count() == 1


def test_a_file_that_is_no_event_is_refused_and_left_alone(
    window: MainWindow, tmp_path: Path
) -> None:
    notes = tmp_path / "notes.tandem"
    notes.write_bytes(b"shopping list")
    assert not window.open_target(str(notes))
    assert window.messages.kind == "error"
    assert window.messages.isVisible()
    assert "not a Tandem Director event" in window.messages.text
    assert window.stack.currentWidget() is window.start
    assert notes.read_bytes() == b"shopping list"
    assert window.recent.entries() == []


def test_a_club_file_opened_as_an_event_is_named_for_what_it_is(
    window: MainWindow, tmp_path: Path
) -> None:
    """Open event file… on the club's register said only "is not a Tandem Director event"."""
    from director.store.club import create_club

    path = tmp_path / "weekly.club"
    create_club(str(path)).close()
    before = path.read_bytes()
    assert not window.open_target(str(path))
    assert window.messages.kind == "error"
    assert window.messages.text.endswith("weekly.club is a club, not an event")
    assert window.stack.currentWidget() is window.start
    assert path.read_bytes() == before


def test_an_event_whose_first_read_fails_is_closed_again_and_the_refusal_shown(
    window: MainWindow, event_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The event's first read (a server gone since it was opened, a drive unplugged) is
    refused: the event is closed again, its lock and connections given back, not left open
    behind a window that shows no event."""

    def refused(_session: object) -> object:
        raise UserError("the database server cannot be reached")

    with monkeypatch.context() as patched:
        patched.setattr(rounds, "progress", refused)  # the context reads it first
        assert not window.open_target(str(event_path))
    assert window.ctx is None and window.stack.currentWidget() is window.start
    assert window.messages.text == "Cannot open the event: the database server cannot be reached"
    assert window.findChildren(context.EventContext) == []
    again = open_event(str(event_path), make_backup=False)  # the lock was released
    again.close()


def test_the_window_keeps_running_while_the_demo_is_built(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Building the demo (a simulated club night, seconds on a slow computer) runs off the GUI
    thread: the window's timer runs while no demo file exists yet."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    folder = tmp_path / "data" / "tandem-director" / "demo"
    seen: list[bool] = []  # at each tick of the window's timer: is the demo built yet
    timer = QTimer(window)
    timer.setInterval(20)
    timer.timeout.connect(lambda: seen.append(any(folder.glob("*.tandem"))))
    timer.start()
    try:
        assert window.open_demo()
    finally:
        timer.stop()
    assert False in seen  # the timer ran while the demo was being built
    assert window.ctx is not None and window.ctx.db.path.parent == folder


def test_the_page_keys_switch_pages(qtbot: QtBot, window: MainWindow, event_path: Path) -> None:
    window.open_target(str(event_path))
    for number, spec in enumerate(PAGES, start=1):
        action = window.page_actions[number - 1]
        assert action.shortcut() == QKeySequence(f"Ctrl+{number}")
        action.trigger()
        assert window.view is not None
        assert window.view.current_index == number - 1
        assert window.view.navigation.currentItem().text() == spec.title


def test_a_request_to_show_a_match_opens_the_desk(window: MainWindow, event_path: Path) -> None:
    window.open_target(str(event_path))
    assert window.ctx is not None
    a = window.ctx.change(add_team, "A", ("a1", "a2"))
    b = window.ctx.change(add_team, "B", ("b1", "b2"))
    match = window.ctx.change(create_match, a.id, b.id)
    game = Game(1, 1, Side.A, End.BEAR_OFF, 1, Level.GAMMON)
    window.ctx.change(record_game, match.id, game)
    window.ctx.match_requested.emit(match.id)
    assert window.view is not None and window.view.current_index == DESK
    desk = current_page(window)
    assert isinstance(desk, MatchDeskPage)
    assert desk.match_id == match.id


def test_new_event_through_the_dialog_opens_it_on_the_teams_page(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    dialog = window.new_event()
    qtbot.keyClicks(dialog.name, "Friday Tandem")
    dialog.set_path(str(tmp_path / "friday.tandem"))
    with qtbot.waitSignal(dialog.finished):
        dialog.ok_button.click()
    assert window.windowTitle() == "Friday Tandem – Tandem Director"
    assert isinstance(current_page(window), TeamsPage)
    assert stored_event(tmp_path / "friday.tandem").name == "Friday Tandem"


def test_renaming_the_event_updates_the_title_and_the_recent_list(
    qtbot: QtBot, window: MainWindow, event_path: Path
) -> None:
    window.open_target(str(event_path))
    dialog = window.edit_options()
    assert dialog is not None
    dialog.name.clear()
    qtbot.keyClicks(dialog.name, "Renamed Open")
    with qtbot.waitSignal(dialog.finished):
        dialog.ok_button.click()
    assert window.windowTitle() == "Renamed Open – Tandem Director"
    assert window.view is not None and window.view.event_name.text() == "Renamed Open"
    assert window.recent.entries()[0].name == "Renamed Open"
    assert stored_event(event_path).name == "Renamed Open"


def test_the_window_remembers_its_size_and_page(
    qtbot: QtBot, settings: QSettings, event_path: Path
) -> None:
    first = MainWindow(settings)
    qtbot.addWidget(first)
    first.setWindowState(Qt.WindowState.WindowNoState)
    first.show()
    first.open_target(str(event_path))
    first.show_page(3)
    first.close_event()
    first.resize(770, 650)  # the offscreen screen is 800x800
    first.close()
    second = MainWindow(settings)
    qtbot.addWidget(second)
    assert (second.width(), second.height()) == (770, 650)
    second.open_target(str(event_path))
    assert second.view is not None and second.view.current_index == 3
    second.close()


@pytest.mark.parametrize("saved", ["²", "٣"], ids=["sup2", "arabic3"])
def test_a_remembered_page_that_is_no_number_opens_the_first_page(
    qtbot: QtBot, settings: QSettings, event_path: Path, saved: str
) -> None:
    """A settings file with "²" for the page (str.isdigit passed it) stopped the event from
    opening in int(); "٣" opened the fourth page."""
    settings.setValue("window/page", saved)
    window = MainWindow(settings)
    qtbot.addWidget(window)
    window.show()
    assert window.open_target(str(event_path))
    assert window.view is not None and window.view.current_index == 0
    assert isinstance(current_page(window), TeamsPage)


def test_every_menu_key_is_listed_on_the_keys_help_page(window: MainWindow) -> None:
    keys = help_text("keys")
    shortcuts = [a.shortcut().toString() for a in window.actions() if not a.shortcut().isEmpty()]
    assert len(shortcuts) >= 12
    for shortcut in shortcuts:
        assert f"| {shortcut} |" in keys, shortcut


def test_help_opens_on_the_topic_asked_for(qtbot: QtBot, window: MainWindow) -> None:
    help_window = window.show_help("rules")
    qtbot.addWidget(help_window)
    assert help_window.isVisible()
    assert help_window.topic == "rules"
    window.help_actions["keys"].trigger()
    assert help_window.topic == "keys"


def test_the_demo_opens_without_joining_the_recent_list(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert window.open_demo()
    assert window.ctx is not None
    assert window.ctx.db.path.is_relative_to(tmp_path / "data")
    assert window.windowTitle().startswith("Demo club night")
    assert window.recent.entries() == []


def test_the_public_display_opens_and_closes_with_the_event(
    qtbot: QtBot, window: MainWindow, event_path: Path
) -> None:
    window.open_target(str(event_path))
    display = window.show_public_display()
    assert display is not None
    qtbot.addWidget(display)
    assert display.isVisible()
    assert window.show_public_display() is display  # one display, not a new one each time
    window.close_event()
    assert not display.isVisible()


def test_about_names_the_version(qtbot: QtBot, window: MainWindow) -> None:
    from director import __version__

    box = window.show_about()
    assert box.isVisible()
    assert __version__ in box.text()
    box.close()


def test_about_says_the_app_runs_every_kind_of_night(qtbot: QtBot, window: MainWindow) -> None:
    """It said "Runs Tandem backgammon team events" once individual events, knockout brackets
    and the club had come."""
    box = window.show_about()
    about = box.informativeText().lower()
    box.close()
    assert all(kind in about for kind in ("tandem", "individual", "knockout", "club"))


def test_about_shows_the_licence_and_every_third_party_notice(
    qtbot: QtBot, window: MainWindow
) -> None:
    import importlib.metadata

    from packaging.requirements import Requirement

    box = window.show_about()
    assert "MIT" in box.informativeText()
    notices = box.detailedText()  # "Show Details...": plain text, the shipped notices file
    assert "Permission is hereby granted, free of charge" in notices  # our LICENSE
    assert "GNU LESSER GENERAL PUBLIC LICENSE" in notices  # Qt's, which PySide6 omits
    for text in importlib.metadata.requires("tandem-director") or []:
        req = Requirement(text)
        if req.marker is None:  # every runtime dependency names itself and its licence
            assert f"\n  {req.name} " in notices.replace("_", "-"), (
                f"{req.name} is not in the notices: run python installer/notices.py"
            )
    box.close()


def test_full_screen_toggles(window: MainWindow) -> None:
    window.full_screen_action.trigger()
    assert window.isFullScreen()
    assert window.full_screen_action.isChecked()
    window.full_screen_action.trigger()
    assert not window.isFullScreen()


def test_a_server_password_never_shows() -> None:
    from director.ui.window_parts import shown_target

    assert shown_target("postgresql://director:secret@club/spring") == (
        "postgresql://director:•••@club/spring"
    )
    assert shown_target("/events/spring.tandem") == "/events/spring.tandem"
