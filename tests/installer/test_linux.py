"""installer/linux: the desktop entry, the `.tandem` MIME type and install.sh, on a stand-in
app folder laid out by build.py exactly as the real bundle is (the real one is tested by
scripts/smoke_frozen.sh)."""

from __future__ import annotations

import configparser
import os
import stat
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.installer.helpers import INSTALLER, load_script

build = load_script("build")
MIME = "application/x-tandem-event"
NS = {"m": "http://www.freedesktop.org/standards/shared-mime-info"}


def desktop_entry(path: Path) -> dict[str, str]:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read(path, encoding="utf-8")
    return dict(parser["Desktop Entry"])


def test_the_desktop_entry_opens_tandem_files_with_the_app() -> None:
    entry = desktop_entry(INSTALLER / "linux" / "tandem-director.desktop")
    assert entry["Type"] == "Application"
    assert entry["Exec"] == "tandem-director %f"  # %f: the double-clicked file's path
    assert entry["MimeType"] == f"{MIME};"
    assert entry["Icon"] == "tandem-director"
    assert entry["Terminal"] == "false"
    # Qt names the window class and the Wayland app id after the program and the desktop file
    assert entry["StartupWMClass"] == "tandem-director"


def test_the_mime_type_claims_the_tandem_extension_over_sqlite_magic() -> None:
    root = ET.parse(INSTALLER / "linux" / "tandem-director.xml").getroot()
    (mime,) = root.findall("m:mime-type", NS)
    assert mime.get("type") == MIME
    assert [g.get("pattern") for g in mime.findall("m:glob", NS)] == ["*.tandem"]
    parents = [s.get("type") for s in mime.findall("m:sub-class-of", NS)]
    assert parents == ["application/vnd.sqlite3"]


@pytest.fixture
def app_folder(tmp_path: Path, icon_dir: Path) -> Path:
    """A stand-in for dist/tandem-director: a program that prints a version, and everything
    build.py adds on Linux."""
    app = tmp_path / "unpacked" / "tandem-director"
    (app / "_internal").mkdir(parents=True)
    program = app / "tandem-director"
    program.write_text('#!/bin/sh\necho "tandem-director 9.9 $*"\n')
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    build.add_linux_integration(app, icon_dir)
    return app


def run_install(script: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"HOME": str(home), "PATH": os.environ["PATH"], "XDG_DATA_HOME": str(home / "share")}
    command = ["sh", str(script), *args]
    return subprocess.run(command, check=False, env=env, capture_output=True, text=True, timeout=60)


def test_install_for_one_user_registers_menu_icon_and_file_type(
    app_folder: Path, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    done = run_install(app_folder / "install.sh", home, "--user")
    assert done.returncode == 0, done.stderr
    installed = home / ".local" / "opt" / "tandem-director"
    program = installed / "tandem-director"
    launcher = home / ".local" / "bin" / "tandem-director"
    started = subprocess.run([launcher, "x.tandem"], check=True, capture_output=True, text=True)
    assert started.stdout == "tandem-director 9.9 x.tandem\n"
    entry = desktop_entry(home / "share" / "applications" / "tandem-director.desktop")
    assert entry["Exec"] == f'"{program}" %f'  # the menu may not search ~/.local/bin
    assert entry["TryExec"] == str(program)
    assert (home / "share" / "mime" / "packages" / "tandem-director.xml").read_bytes() == (
        INSTALLER / "linux" / "tandem-director.xml"
    ).read_bytes()
    hicolor = home / "share" / "icons" / "hicolor"
    for size in build.LINUX_ICON_SIZES:
        assert (hicolor / f"{size}x{size}" / "apps" / "tandem-director.png").is_file()
        assert (hicolor / f"{size}x{size}" / "mimetypes" / f"{build.MIME_ICON}.png").is_file()
    assert (hicolor / "scalable" / "apps" / "tandem-director.svg").is_file()
    assert str(installed) in done.stdout


def test_installing_again_replaces_the_old_copy_and_uninstall_keeps_the_events(
    app_folder: Path, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    assert run_install(app_folder / "install.sh", home, "--user").returncode == 0
    installed = home / ".local" / "opt" / "tandem-director"
    (installed / "_internal" / "left-from-old-version").write_text("old")
    assert run_install(app_folder / "install.sh", home, "--user").returncode == 0
    assert not (installed / "_internal" / "left-from-old-version").exists()
    event = home / "Club night.tandem"
    event.write_bytes(b"SQLite format 3\x00")
    removed = run_install(installed / "install.sh", home, "--uninstall", "--user")
    assert removed.returncode == 0, removed.stderr
    assert not installed.exists()
    left = [p for p in home.rglob("*tandem-director*")] + list(home.rglob(f"{build.MIME_ICON}*"))
    assert left == []
    assert event.read_bytes() == b"SQLite format 3\x00"


def test_install_refuses_an_unknown_option(app_folder: Path, tmp_path: Path) -> None:
    done = run_install(app_folder / "install.sh", tmp_path, "--everywhere")
    assert done.returncode == 2
    assert done.stderr == "install.sh: unknown option --everywhere (see --help)\n"
    assert not (tmp_path / ".local").exists()


def test_help_shows_the_usage_and_nothing_of_the_script() -> None:
    done = subprocess.run(
        ["sh", str(INSTALLER / "linux" / "install.sh"), "--help"],
        check=False, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0
    assert "--uninstall" in done.stdout and "--user" in done.stdout
    assert "set -eu" not in done.stdout
    assert not any(line.startswith("#") for line in done.stdout.splitlines())


def test_uninstall_from_a_user_install_removes_that_one_even_as_root(
    app_folder: Path, tmp_path: Path
) -> None:
    # `sudo ~/.local/opt/tandem-director/install.sh --uninstall` meant the user install (the
    # script it ran), not /opt; the copy it runs from says which install it belongs to
    home = tmp_path / "home"
    assert run_install(app_folder / "install.sh", home, "--user").returncode == 0
    installed = home / ".local" / "opt" / "tandem-director"
    removed = run_install(installed / "install.sh", home, "--uninstall")
    assert removed.returncode == 0, removed.stderr
    assert not installed.exists()
    assert not (home / ".local" / "bin" / "tandem-director").exists()
    assert not (home / "share" / "applications" / "tandem-director.desktop").exists()
    assert str(installed) in removed.stdout


def test_uninstall_with_sudo_finds_the_home_the_install_belongs_to(
    app_folder: Path, tmp_path: Path
) -> None:
    # sudo may set HOME to root's: the install's own path says whose it is
    home, root_home = tmp_path / "ana", tmp_path / "root"
    path = os.environ["PATH"]
    env = {"HOME": str(home), "PATH": path}
    subprocess.run(["sh", str(app_folder / "install.sh"), "--user"], env=env, check=True,
                   capture_output=True, timeout=60)  # fmt: skip
    installed = home / ".local" / "opt" / "tandem-director"
    removed = subprocess.run(
        ["sh", str(installed / "install.sh"), "--uninstall"],
        env={"HOME": str(root_home), "PATH": path},
        check=False, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert removed.returncode == 0, removed.stderr
    assert not installed.exists()
    assert list(home.rglob("*tandem-director*")) == []
    assert not root_home.exists()
