"""Keys typed while a database call waits are held back until it answers (`ui.background`),
on a real X server: xdotool types through the X server as a keyboard would, so the key comes
as a window-system event, which is what the waiting loop holds back (issue 14, point 5)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ui.clock.test_clock_wm import ROOT, display

pytestmark = pytest.mark.wm
__all__ = ["display"]  # the module-scoped X server fixture


def test_a_key_typed_while_a_call_waits_arrives_after_the_answer(
    display: str, event_path: Path, tmp_path: Path
) -> None:
    release = tmp_path / "release"
    env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb"}
    env.pop("WAYLAND_DISPLAY", None)
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.ui.background_wm_child", str(event_path), str(release)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    try:
        ready = json.loads(child.stdout.readline())
        assert json.loads(child.stdout.readline()) == {"waiting": True}

        def xdo(*args: str | int) -> None:
            subprocess.run(["xdotool", *map(str, args)], env=env, check=True, timeout=10)

        xdo("windowactivate", "--sync", ready["window"])
        xdo("type", "--delay", "30", "xy")
        subprocess.run(["sleep", "0.5"], check=True)  # the waiting loop runs on meanwhile
        release.touch()
        seen = json.loads(child.stdout.readline())
        assert child.wait(20) == 0
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(5)
        child.stdout.close()
    assert seen["ticks"] >= 5  # the window's timer ran while the call waited
    assert seen["during"] == [""]  # the keys were not delivered meanwhile
    assert seen["at_return"] == ""
    assert seen["after"] == "xy"  # and were, in order, once the call had answered
