"""What failed or killed runs leave behind (#27 §6): a full disk during `new` left its hidden
working file, and a killed `simulate` or `upgrade` left hidden working sets of ~170 KB that
nothing removed. The next run clears what a run that is gone left; a live run's are kept."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.reliability.media import IS_ROOT, fill, small_disk
from tests.reliability.upgrade_kill import older_event

EXE = str(Path(sys.executable).with_name("tandem-director"))


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([EXE, *args], check=False, capture_output=True, text=True, timeout=120)


def gone_pid() -> int:
    """The id of a process that has ended (and was reaped)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def plant(folder: Path, stem: str) -> list[Path]:
    planted = [folder / stem, folder / f"{stem}-wal", folder / f"{stem}-shm"]
    for path in planted:
        path.write_bytes(b"x" * 1000)
    return planted


def test_new_and_simulate_clear_what_a_killed_run_left(tmp_path: Path) -> None:
    dead, alive = gone_pid(), 1  # pid 1 lives as long as the machine
    stale = plant(tmp_path, f".cup.tandem.new-{dead}-123.tmp")
    live = plant(tmp_path, f".cup.tandem.new-{alive}-456.tmp")
    done = run("simulate", str(tmp_path / "cup.tandem"), "--teams", "4", "--rounds", "1")
    assert done.returncode == 0, done
    assert not any(p.exists() for p in stale)
    assert all(p.exists() for p in live)


def test_upgrade_clears_what_a_killed_upgrade_left(tmp_path: Path) -> None:
    path = older_event(tmp_path / "old.tandem", teams=2)
    dead = gone_pid()
    stale = [
        *plant(tmp_path, f".old.tandem.upgrade-{dead}-99.tmp"),
        *plant(tmp_path, f".old.tandem.upgrade-keep-{dead}.tmp"),
    ]
    stale[0].unlink()  # a set whose main file is gone already: its companions still go
    done = run("upgrade", str(path))
    assert done.returncode == 0, done
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.skipif(not IS_ROOT, reason="a real small disk needs root (a tmpfs)")
def test_new_on_a_full_disk_leaves_nothing(tmp_path: Path) -> None:
    with small_disk(tmp_path / "stick", size="1m") as stick:
        fill(stick, leave=4096)
        done = run("new", str(stick / "cup.tandem"), "--name", "Cup", "--length", "5")
        assert done.returncode == 2, done
        assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1
        assert sorted(p.name for p in stick.iterdir()) == ["filler.bin"]
