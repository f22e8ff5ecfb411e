"""The macOS code paths, run here.

- keeping the screen awake while clocks run: `caffeinate -d -w PID`, ended on release (a
  stand-in `caffeinate` on PATH records how it was started and runs until it is ended);
- the folders platformdirs gives on macOS (~/Library/Application Support, ~/Library/Logs:
  a space in every path) under a home folder with a non-ASCII user name: the demo event is
  built, reopened and locked there, the crash log is written there;
- `installer/macos/make_dmg.sh` with stand-ins for macOS' `ditto` and `hdiutil`: what goes
  into the disk image (the app, copied whole, and the Applications link), paths with spaces.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from director.ui.clock import awake
from tests.installer.helpers import ROOT

USER_HOME = "Zoë Ångström"


def stand_in(folder: Path, name: str, script: str) -> Path:
    """An executable `name` in `folder`: a shell script standing in for a macOS tool."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("#!/bin/sh\n" + textwrap.dedent(script), encoding="utf-8")
    path.chmod(0o755)
    return path


def running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a finished child that nobody waited for yet is a zombie: not running
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        return stat.read().rsplit(")", 1)[1].split()[0] != "Z"


def test_the_screen_is_kept_awake_by_caffeinate_until_released(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = tmp_path / "caffeinate.args"
    tools = tmp_path / "bin"
    stand_in(tools, "caffeinate", f'echo "$$ $*" > "{record}"\nexec sleep 60\n')
    monkeypatch.setenv("PATH", f"{tools}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr(sys, "platform", "darwin")
    screen = awake.ScreenAwake()
    screen.hold(True)
    assert screen.how == "caffeinate"
    deadline = time.monotonic() + 10
    while not record.exists() or not record.read_text():
        assert time.monotonic() < deadline, "caffeinate was not started"
        time.sleep(0.02)
    pid, *args = record.read_text().split()
    # -d: the display stays on; -w: caffeinate ends by itself when this app does
    assert args == ["-d", "-w", str(os.getpid())]
    assert running(int(pid))
    screen.hold(False)
    assert screen.how == "" and not screen.active
    assert not running(int(pid))


def test_without_caffeinate_the_clocks_run_and_nothing_is_held(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no caffeinate anywhere
    monkeypatch.setattr(sys, "platform", "darwin")
    screen = awake.ScreenAwake()
    screen.hold(True)
    assert screen.active and screen.how == ""
    screen.release()
    assert not screen.active


# platformdirs chooses its macOS folders when it is imported with sys.platform "darwin"
MACOS_FOLDERS = textwrap.dedent(
    """
    import sys
    real_platform, sys.platform = sys.platform, "darwin"
    import platformdirs
    sys.platform = real_platform
    from director.ui import crash, demo
    from director.store.engine import open_event
    from director.store.lock import EventInUseError

    path = demo.build_demo_event()
    print("demo", path)
    db = open_event(str(path), make_backup=False)
    try:
        open_event(str(path), make_backup=False)
    except EventInUseError as exc:
        print("second open refused:", exc)
    db.close()
    reopened = open_event(str(path), make_backup=False)
    with reopened.Session() as s:
        from director.services.teams import list_teams
        print("teams", len(list_teams(s)))
    reopened.close()
    try:
        raise RuntimeError("a bug")
    except RuntimeError as exc:
        print("crash log", crash.write_crash_log(type(exc), exc, exc.__traceback__))
    """
)


def test_the_demo_event_and_the_crash_log_live_in_the_macos_folders(tmp_path: Path) -> None:
    home = tmp_path / "Users" / USER_HOME
    home.mkdir(parents=True)
    env = {**os.environ, "HOME": str(home), "QT_QPA_PLATFORM": "offscreen"}
    env.pop("XDG_DATA_HOME", None)
    env.pop("XDG_STATE_HOME", None)
    done = subprocess.run(
        [sys.executable, "-c", MACOS_FOLDERS],
        capture_output=True, text=True, encoding="utf-8", env=env, timeout=300, cwd=tmp_path,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = dict(line.split(" ", 1) for line in done.stdout.splitlines() if " " in line)
    support = home / "Library" / "Application Support" / "tandem-director" / "demo"
    demo = Path(lines["demo"])
    assert demo.parent == support and demo.is_file()
    assert demo.name in lines["second"]  # the lock works there and names the file
    assert int(lines["teams"]) > 0
    log = Path(lines["crash"].removeprefix("log "))
    assert log.parent == home / "Library" / "Logs" / "tandem-director"
    assert "RuntimeError: a bug" in log.read_text(encoding="utf-8")


# macOS' ditto copies a bundle whole; hdiutil makes and checks the image. The stand-ins
# record what they were given; the image is a listing of the folder hdiutil was handed.
DITTO = 'cp -a "$1" "$2"\n'
HDIUTIL = """\
case "$1" in
  create)
    while [ $# -gt 1 ]; do
      case "$1" in -srcfolder) src=$2 ;; -volname) vol=$2 ;; esac
      shift
    done
    out=$1
    { echo "volume: $vol"; cd "$src" && find . -print | sort;
      echo "link: $(readlink Applications)"; } > "$out" ;;
  verify) [ -s "$2" ] ;;
  *) exit 1 ;;
esac
"""


def make_app(folder: Path) -> Path:
    app = folder / "Tandem Director.app"
    macos = app / "Contents" / "MacOS"
    macos.mkdir(parents=True)
    (macos / "tandem-director").write_text("#!/bin/sh\n", encoding="utf-8")
    (macos / "tandem-director").chmod(0o755)
    (app / "Contents" / "Resources").mkdir()
    (app / "Contents" / "Resources" / "libQt.dylib").symlink_to("../MacOS/tandem-director")
    return app


def make_dmg(app: Path, out: Path, tools: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}"}
    script = ROOT / "installer" / "macos" / "make_dmg.sh"
    return subprocess.run(
        ["bash", str(script), str(app), str(out)],
        capture_output=True, text=True, encoding="utf-8", env=env, timeout=60, check=False,
    )  # fmt: skip


def test_the_disk_image_holds_the_whole_app_and_the_applications_link(tmp_path: Path) -> None:
    tools = tmp_path / "bin"
    stand_in(tools, "ditto", DITTO)
    stand_in(tools, "hdiutil", HDIUTIL)
    app = make_app(tmp_path / "dist folder")
    out = tmp_path / USER_HOME / "Tandem Director 0.1.0.dmg"
    out.parent.mkdir()
    done = make_dmg(app, out, tools)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(out)
    listing = out.read_text(encoding="utf-8").splitlines()
    assert listing[0] == "volume: Tandem Director"
    assert "./Tandem Director.app/Contents/MacOS/tandem-director" in listing
    assert "./Tandem Director.app/Contents/Resources/libQt.dylib" in listing  # links kept
    assert "./Applications" in listing
    assert listing[-1] == "link: /Applications"


def test_make_dmg_refuses_what_is_not_an_app_bundle_or_not_macos(tmp_path: Path) -> None:
    tools = tmp_path / "bin"
    stand_in(tools, "ditto", DITTO)
    not_app = tmp_path / "Tandem Director.app"
    not_app.mkdir()
    refused = make_dmg(not_app, tmp_path / "x.dmg", tools)
    assert refused.returncode == 2
    assert refused.stderr.strip().splitlines() == [f"make_dmg.sh: {not_app} is not an app bundle"]
    app = make_app(tmp_path / "dist")
    no_hdiutil = make_dmg(app, tmp_path / "x.dmg", tools)  # Linux has no hdiutil
    assert no_hdiutil.returncode == 2
    assert no_hdiutil.stderr.strip() == "make_dmg.sh: hdiutil is macOS only"
    assert not (tmp_path / "x.dmg").exists()
