"""Speed of entry at the desk, typed on a real X server with a window manager (#24 point 5): a
queue of players waits while the director types, so each common entry takes few keys and a
slip is one key to take back. Keys go through the X server with xdotool, as a keyboard's do."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from director.domain.rules import End, Level, Side
from director.domain.scoring import Game
from tests.ui.app_helpers import seed_match
from tests.ui.clock.test_clock_wm import WmProcess, activated, display
from tests.ui.desk.desk_helpers import record_behind_the_desk

pytestmark = pytest.mark.wm
__all__ = ["display"]  # the module-scoped X server fixture


class Desk(WmProcess):
    """The desk's process."""

    def __init__(self, display: str, path: Path, match_id: int) -> None:
        super().__init__(display, "tests.ui.desk.desk_wm_child", str(path), str(match_id))
        # the window manager maps the window, then gives it the keyboard
        winid = self.state()["winid"]
        self.until(lambda _state: activated(display, winid))
        self.until(lambda state: state["active"] == "Desk" and state["focus"] is not None)

    def dialog_keys(self, opener: str, *keys: str) -> None:
        """Open a dialog with `opener`, and once it has the keyboard, type `keys`."""
        self.until(lambda state: not state["dialog"] and state["active"] == "Desk")
        self.key(opener)
        self.until(lambda state: state["dialog"] and state["active"] != "Desk")
        self.key(*keys)

    def type(self, text: str) -> None:
        self.xdo("type", "--delay", "30", text)


@pytest.fixture
def desk_on(display: str, event_path: Path) -> Iterator[Any]:
    desks: list[Desk] = []

    def make(*games: Game) -> Desk:
        match_id = seed_match(event_path)
        record_behind_the_desk(event_path, match_id, *games)
        desk = Desk(display, event_path, match_id)
        desks.append(desk)
        return desk

    yield make
    for desk in desks:
        desk.close()


def stored(state: Any) -> list[tuple[str, str, int, str | None]]:
    """Each game's winner, end, cube and level."""
    return [(winner, end, cube, level) for _p, _b, winner, end, cube, level in state["games"]]


def test_wm_a_gammon_on_a_2_cube_is_five_keys(desk_on: Any) -> None:
    """It was seven (Level three Tabs away from the winner, no key of its own): now Alt+1, the
    winner's letter, the level's, the cube's and Enter."""
    desk = desk_on()
    desk.dialog_keys("alt+1", "a", "g", "2", "Return")
    state = desk.until(lambda state: not state["dialog"] and state["games"])
    assert stored(state) == [("A", "bear-off", 2, "gammon")]


def test_wm_each_level_and_common_cube_has_its_key(desk_on: Any) -> None:
    desk = desk_on()
    desk.dialog_keys("alt+2", "b", "k", "2", "Return")  # a backgammon on a 2-cube, team B
    desk.dialog_keys("alt+1", "a", "g", "8", "s", "4", "1", "Return")  # typed over: a 1-cube single
    state = desk.until(lambda state: not state["dialog"] and len(state["games"]) == 2)
    assert stored(state) == [
        ("B", "bear-off", 2, "backgammon"),
        ("A", "bear-off", 1, "single"),
    ]


def test_wm_a_mis_clicked_pass_is_one_key_to_take_back(desk_on: Any) -> None:
    """Pass records at once (a queue waits); a mis-click is undone by one key, no question."""
    desk = desk_on()
    desk.click(desk.state()["offer_a_1"])
    desk.click(desk.until(lambda state: state["pass_1_ready"])["pass_1"])
    state = desk.until(lambda state: state["games"])
    assert [game[:3] for game in stored(state)] == [("A", "pass", 1)]
    assert "Ctrl+Z" in state["message"]
    desk.key("ctrl+z")
    state = desk.until(lambda state: not state["games"])
    assert not state["question"]
    desk.key("ctrl+z")  # nothing more to take back with it: the next game needs the question
    desk.key("alt+1")  # a key after it: once this one's dialog is open, the Ctrl+Z was handled
    state = desk.until(lambda state: state["dialog"])
    assert state["games"] == []


def test_wm_a_correction_starts_at_the_winner(desk_on: Any) -> None:
    """It started in the reason, six Shift+Tab from the winner: now at the winner, the level's
    key corrects the level, and Alt+R reaches the reason."""
    desk = desk_on(Game(1, 1, Side.A, End.BEAR_OFF, cube=1, level=Level.SINGLE))
    desk.click(desk.state()["games_row_0"])
    desk.key("F2")
    state = desk.until(lambda state: state["dialog"] and state["active"] != "Desk")
    assert state["dialog"] and state["focus"] == "winner"
    desk.key("g", "alt+r")
    desk.until(lambda state: state["focus"] == "reason")
    desk.type("the sheet says gammon")
    desk.key("Return")
    state = desk.until(lambda state: not state["dialog"] and state["games"][0][5] == "gammon")
    assert stored(state) == [("A", "bear-off", 1, "gammon")]
