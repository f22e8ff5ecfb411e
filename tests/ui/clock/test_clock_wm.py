"""Focus and timing on a real X server with a window manager (issue defects 1, 2, 3, 5, 6).

The clock windows run in a child process on Xvfb with openbox (scripts/xvfb.sh starts them
for scripts/test.sh and exports TANDEM_WM_DISPLAY; without it this module starts its own).
Keys are typed with xdotool through the X server, exactly as a keyboard's would be: they go
to whichever window the window manager focused, with the server's own timestamps.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from director.domain.rules import ClockMode, EventOptions, TimeControl
from director.services import matches
from director.services.teams import add_team
from director.store.engine import open_database
from tests.ui.app_helpers import seed_match

pytestmark = pytest.mark.wm

NS = 1_000_000_000
ROOT = Path(__file__).resolve().parents[3]
BASE_S = 6
SHORT = EventOptions(time_control=TimeControl(BASE_S, 0, ClockMode.FISCHER))  # a quick flag


@pytest.fixture(scope="module")
def display() -> Iterator[str]:
    """TANDEM_WM_DISPLAY, or an Xvfb with openbox of our own on :13 (or the next free one)."""
    given = os.environ.get("TANDEM_WM_DISPLAY")
    if given:
        yield given
        return
    for tool in ("Xvfb", "openbox", "xdotool"):
        assert shutil.which(tool), f"{tool} is missing: run `source scripts/xvfb.sh` first"
    n = 13
    while Path(f"/tmp/.X{n}-lock").exists() or Path(f"/tmp/.X11-unix/X{n}").exists():
        n += 1
    server = subprocess.Popen(
        ["Xvfb", f":{n}", "-screen", "0", "1366x768x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(100):
        if Path(f"/tmp/.X11-unix/X{n}").exists():
            break
        time.sleep(0.05)
    wm = subprocess.Popen(
        ["openbox"],
        env={**os.environ, "DISPLAY": f":{n}"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield f":{n}"
    finally:
        wm.terminate()
        server.terminate()
        wm.wait(5)
        server.wait(5)


def until(state: Callable[[], Any], ready: Callable[[Any], bool]) -> Any:
    """The child's state once `ready` says so: keys and clicks reach its windows through the X
    server after xdotool returns, and a window waits for the window manager's focus. The
    deadline is generous, for a starved machine; a ready state returns at once."""
    deadline = time.monotonic() + 60
    while True:
        now = state()
        if ready(now):
            return now
        if time.monotonic() > deadline:
            raise AssertionError(f"never ready: {now}")
        time.sleep(0.05)


def activated(display: str, winid: int) -> bool:
    """Whether the window manager gave `winid` the keyboard (False while it is not mapped)."""
    env = {**os.environ, "DISPLAY": display}
    args = ["xdotool", "windowactivate", "--sync", str(winid)]
    done = subprocess.run(args, check=False, env=env, capture_output=True, timeout=30)
    return done.returncode == 0


class WmProcess:
    """A child process of windows on `display` (commands on its stdin, a JSON answer a line on
    its stdout) and the keyboard and mouse (xdotool) on the same display."""

    def __init__(self, display: str, module: str, *args: str) -> None:
        self.display = display
        env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb"}
        env.pop("WAYLAND_DISPLAY", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", module, *args],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.read() == {"ready": True}

    def read(self) -> Any:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, "the child process died"
        return json.loads(line)

    def ask(self, cmd: str, **args: object) -> Any:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"cmd": cmd, **args}) + "\n")
        self.proc.stdin.flush()
        return self.read()

    def state(self) -> Any:
        return self.ask("state")

    def until(self, ready: Callable[[Any], bool]) -> Any:
        return until(self.state, ready)

    def settled(self, where: Callable[[Any], Any]) -> Any:
        """The state once `where` (a place on the screen) reads the same twice running: the
        window manager places a new window after it is mapped, and a click before that
        misses."""
        seen: list[Any] = []

        def still(state: Any) -> bool:
            seen.append(where(state))
            return len(seen) > 1 and seen[-1] == seen[-2]

        return self.until(still)

    def xdo(self, *args: str | int) -> None:
        env = {**os.environ, "DISPLAY": self.display}
        subprocess.run(["xdotool", *map(str, args)], env=env, check=True, timeout=10)

    def key(self, *keys: str) -> None:
        for k in keys:
            self.xdo("key", "--delay", "30", k)

    def click(self, point: list[int]) -> None:
        self.xdo("mousemove", point[0], point[1], "click", "1")

    def close(self) -> None:
        if self.proc.poll() is None:
            self.ask("quit")
            self.proc.wait(10)
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                pipe.close()


class Child(WmProcess):
    """The clock windows' process."""

    def __init__(self, display: str, path: Path, match_ids: list[int]) -> None:
        super().__init__(display, "tests.ui.clock.wm_child", str(path), *map(str, match_ids))

    def activate(self, winid: int) -> None:
        """Give `winid` the keyboard, once the window manager has mapped it."""
        self.until(lambda _state: activated(self.display, winid))
        self.until(lambda state: state["active"] == title_of(state, winid))


def second_match(path: Path, n: int) -> int:
    """Another match of the same event (two tables' clocks on one laptop)."""
    db = open_database(str(path))
    try:
        with db.Session() as session, session.begin():
            a = add_team(session, f"Table {n} Home", (f"Eve {n}", f"Finn {n}")).value.id
            b = add_team(session, f"Table {n} Away", (f"Gus {n}", f"Hana {n}")).value.id
            return matches.create_match(session, a, b, table=3 + n).value.id
    finally:
        db.close()


@pytest.fixture
def child_of(display: str, event_path: Path) -> Iterator[Any]:
    children: list[Child] = []

    def make(count: int = 1, options: EventOptions | None = None) -> tuple[Child, list[int]]:
        ids = [seed_match(event_path, options)]
        ids += [second_match(event_path, n) for n in range(1, count)]
        child = Child(display, event_path, ids)
        children.append(child)
        return child, ids

    yield make
    for child in children:
        child.close()


def window_of(state: Any, match_id: int) -> Any:
    return state["windows"][str(match_id)]


def title_of(state: Any, winid: int) -> str:
    """The title of the clock window `winid`, or the desk's ("Desk…") when it is the desk."""
    titles = [w["title"] for w in state["windows"].values() if w["winid"] == winid]
    return str(titles[0]) if titles else str(state["desk_title"])


def kinds(window: Any, board: int | None = None) -> list[tuple[str, int, str | None]]:
    return [(k, b, s) for k, b, s, _t in window["events"] if board in (None, b)]


def started(child: Child, match_id: int) -> None:
    child.activate(window_of(child.state(), match_id)["winid"])
    child.key("z", "p", "Return")  # A1 and B2 won the opening rolls; start
    child.until(lambda state: window_of(state, match_id)["phases"] == ["running", "running"])


# -- defect 1: an open forfeit entry does not take the keyboard from the clocks ---------------


def test_wm_space_pauses_board_2_while_board_1_forfeit_entry_is_open(child_of: Any) -> None:
    child, (match,) = child_of(options=SHORT)
    started(child, match)
    time.sleep(BASE_S / 2)
    child.key("p")  # B2 moves: A2 thinks now
    state = child.until(lambda state: "1" in window_of(state, match)["entries"])  # A1 flagged
    assert state["active"].startswith("Clocks:")  # the flag did not take the keyboard
    child.key("space")
    state = child.until(lambda state: window_of(state, match)["phases"][1] == "paused")
    assert not state["popup"]
    # the director clicks into the entry (its Winner list) and a player presses Space again
    child.click(window_of(state, match)["entries"]["1"]["winner"])
    child.until(lambda state: state["popup"])
    child.key("Escape")  # close the list the click opened
    child.until(lambda state: not state["popup"])
    child.key("space")
    state = child.until(lambda state: window_of(state, match)["phases"][1] == "running")
    assert not state["popup"]


# -- defect 2: a press while an entry is being saved is not lost ------------------------------


def test_wm_a_press_during_the_save_of_an_entry_counts(child_of: Any) -> None:
    child, (match,) = child_of(options=SHORT)
    started(child, match)
    time.sleep(BASE_S / 2)
    child.key("p")  # B2 moves: A2 thinks now
    child.until(lambda state: "1" in window_of(state, match)["entries"])  # A1 flags
    state = child.settled(lambda state: window_of(state, match)["entries"]["1"]["save"])
    entry = window_of(state, match)["entries"]["1"]
    child.ask("slow-save", s=0.4)
    before = [e for e in kinds(window_of(state, match), 2) if e[0] == "press"]
    child.xdo("mousemove", entry["save"][0], entry["save"][1], "click", "1")
    time.sleep(0.1)  # the save is committing now
    child.xdo("key", "slash")  # A2 ends the move
    state = child.until(
        lambda state: (
            "1" not in window_of(state, match)["entries"]  # the game was saved
            and len([e for e in kinds(window_of(state, match), 2) if e[0] == "press"]) > len(before)
        )
    )
    after = [e for e in kinds(window_of(state, match), 2) if e[0] == "press"]
    assert after == [*before, ("press", 2, "A")]


# -- defect 3: which window hears the keys is unmistakable ------------------------------------


def test_wm_only_the_focused_clock_window_hears_keys_and_the_others_say_so(
    child_of: Any,
) -> None:
    child, (first, second) = child_of(count=2)
    state = child.state()
    child.activate(window_of(state, first)["winid"])
    child.key("z")
    state = child.until(lambda state: kinds(window_of(state, first)))
    assert kinds(window_of(state, first)) == [("first-mover", 1, "A")]
    assert kinds(window_of(state, second)) == []
    assert not window_of(state, first)["no_keys"]
    assert window_of(state, second)["no_keys"]
    assert window_of(state, first)["title"] in window_of(state, second)["no_keys_text"]
    child.activate(state["desk"])  # the director's desk has the keyboard now
    state = child.until(lambda state: window_of(state, first)["no_keys"])
    assert window_of(state, first)["no_keys"] and window_of(state, second)["no_keys"]
    assert "Desk" in window_of(state, first)["no_keys_text"]


# -- defect 5: a press is charged at its key-down, not when a stalled loop gets to it ----------


def test_wm_a_press_in_a_stalled_process_is_charged_at_the_key_down(child_of: Any) -> None:
    child, (match,) = child_of()
    started(child, match)
    time.sleep(0.3)
    stall = child.ask("stall", s=1.5)["stall_from"]
    time.sleep(0.2)
    pressed_at = time.monotonic_ns()
    child.xdo("key", "z")  # A1 ends the move while the clock process is stalled
    state = child.until(
        lambda state: any(
            (k, b) == ("press", 1) for k, b, _s, _t in window_of(state, match)["events"]
        )
    )
    press = [t for k, b, _s, t in window_of(state, match)["events"] if (k, b) == ("press", 1)]
    assert len(press) == 1
    assert stall < press[0] < stall + NS  # well before the stall ended (1.5 s)
    assert abs(press[0] - pressed_at) < NS // 5


# -- defect 6: a held key with mixed input is one press ---------------------------------------


def test_wm_holding_a_key_while_the_opponent_taps_is_one_press(child_of: Any) -> None:
    child, (match,) = child_of()
    started(child, match)
    child.xdo("keydown", "z")  # A1 presses and keeps the key down (the server repeats it)
    time.sleep(0.2)
    b1 = window_of(child.state(), match)["faces"][1]
    child.click(b1)  # B1 taps their face
    time.sleep(1.0)  # the server's auto-repeat keeps sending Z
    child.xdo("keyup", "z")
    child.key("g")  # board 1 pauses: once it has, every Z before it was handled
    state = child.until(lambda state: window_of(state, match)["phases"][0] == "paused")
    presses = [e for e in kinds(window_of(state, match), 1) if e[0] == "press"]
    assert presses == [("press", 1, "A"), ("press", 1, "B")]


# -- issue 24 point 3: a text field of the clock window's dialogs owns its keys ----------------


def actions(window: Any) -> list[tuple[str, int, str | None]]:
    """What the keys and clicks did (the running clocks' periodic checkpoints left out)."""
    return [e for e in kinds(window) if e[0] != "checkpoint"]


def test_wm_typing_a_note_in_the_adjust_dialog_presses_no_clock(child_of: Any) -> None:
    """Board 1 paused, board 2 running: "phone help" typed in the note is the note, and B2's
    P, board 2's H and Space stay letters there; the keys are the clocks' again after it."""
    child, (match,) = child_of()
    started(child, match)
    child.key("g")  # the arbiter pauses board 1
    state = child.until(lambda state: window_of(state, match)["phases"] == ["paused", "running"])
    before = actions(window_of(state, match))
    child.ask("adjust", match=match, board=1, side="A")
    state = child.until(  # the dialog is mapped and focused
        lambda state: (
            "AdjustDialog/note" in window_of(state, match)["fields"]
            and state["active"] not in (None, window_of(state, match)["title"])
        )
    )
    note = window_of(state, match)["fields"]["AdjustDialog/note"]
    child.click(note["at"])
    child.xdo("type", "--delay", "40", "phone help")
    state = child.until(
        lambda state: window_of(state, match)["fields"]["AdjustDialog/note"]["text"] == "phone help"
    )
    assert window_of(state, match)["fields"]["AdjustDialog/note"]["text"] == "phone help"
    assert actions(window_of(state, match)) == before
    assert window_of(state, match)["phases"] == ["paused", "running"]
    remaining = window_of(state, match)["fields"]["AdjustDialog/remaining"]
    child.click(remaining["at"])
    child.key("ctrl+a")
    child.xdo("type", "--delay", "40", "1:05")
    state = child.until(
        lambda state: window_of(state, match)["fields"]["AdjustDialog/remaining"]["text"] == "1:05"
    )
    assert actions(window_of(state, match)) == before
    child.key("Escape")  # the dialog closes without a change
    child.until(
        lambda state: (
            "AdjustDialog/note" not in window_of(state, match)["fields"]
            and state["active"] == window_of(state, match)["title"]
        )
    )
    child.key("p")  # the clock window has the keys again: B2 ends the move
    child.until(lambda state: kinds(window_of(state, match), 2)[-1] == ("press", 2, "B"))


def test_wm_the_clock_log_and_the_forfeit_entry_leave_the_clock_keys_to_the_clocks(
    child_of: Any,
) -> None:
    """A read-only log takes no typing, and a forfeit entry's count field takes only digits,
    which are never clock keys: there the players' keys still reach the clocks."""
    child, (match,) = child_of(options=SHORT)
    started(child, match)
    time.sleep(BASE_S / 2)
    child.key("p")  # B2 moves: A2 thinks now
    state = child.until(  # A1's flag falls; the forfeit entry opens
        lambda state: any(k.endswith("/loser_borne_off") for k in window_of(state, match)["fields"])
    )
    state = child.settled(
        lambda state: [v["at"] for k, v in window_of(state, match)["fields"].items()]
    )
    entry_fields = window_of(state, match)["fields"]
    count = next(v for k, v in entry_fields.items() if k.endswith("/loser_borne_off"))
    child.click(count["at"])
    # the entry is a window of its own: the window manager gives it the keyboard on the click,
    # after the click has reached it (a digit typed before that went to the clock window)
    child.until(lambda state: state["focus"] == "QLineEdit")
    child.xdo("type", "--delay", "40", "2")
    child.key("slash")  # A2 ends the move from inside the entry
    state = child.until(lambda state: kinds(window_of(state, match), 2)[-1][0] == "press")
    typed = next(v for k, v in window_of(state, match)["fields"].items() if "borne_off" in k)
    assert typed["text"].endswith("2")
    assert kinds(window_of(state, match), 2)[-1] == ("press", 2, "A")
    child.ask("log", match=match)
    state = child.until(
        lambda state: any(k.endswith("/log") for k in window_of(state, match)["fields"])
    )
    view = next(v for k, v in window_of(state, match)["fields"].items() if k.endswith("/log"))
    child.click(view["at"])
    child.key("p")  # B2 ends the move while the director reads the log
    state = child.until(lambda state: kinds(window_of(state, match), 2)[-1] == ("press", 2, "B"))
    assert kinds(window_of(state, match), 2)[-1] == ("press", 2, "B")
