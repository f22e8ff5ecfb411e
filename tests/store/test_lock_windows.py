"""The Windows code path of the event lock (`msvcrt.locking` on one byte far into the lock
file), run here: each process imports `director.store.lock` as Windows would, with
`sys.platform` set to "win32" and an `msvcrt` whose `locking` keeps Windows' contract (lock
`nbytes` from the current position, non-blocking, OSError when held) on flock.
The folder has spaces and a user name that is not ASCII, as C:\\Users\\Zoë Ångström has."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

PRELUDE = textwrap.dedent(
    """
    import fcntl, os, sys, types
    msvcrt = types.ModuleType("msvcrt")
    msvcrt.LK_NBLCK, msvcrt.LK_UNLCK = 2, 0
    CALLS = []
    def locking(fd, mode, nbytes):
        here = os.lseek(fd, 0, os.SEEK_CUR)
        CALLS.append((mode, here, nbytes))
        cmd = fcntl.LOCK_EX | fcntl.LOCK_NB if mode == msvcrt.LK_NBLCK else fcntl.LOCK_UN
        try:
            fcntl.flock(fd, cmd)  # Windows locks work on read-only handles: flock does too
        except OSError as exc:
            raise PermissionError(13, "Permission denied") from exc  # what Windows raises
    msvcrt.locking = locking
    sys.modules["msvcrt"] = msvcrt
    real_platform, sys.platform = sys.platform, "win32"
    import director.store.lock as lock
    sys.platform = real_platform
    assert not hasattr(lock, "fcntl"), "the POSIX path was imported"
    """
)


def python(code: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", PRELUDE + textwrap.dedent(code)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        encoding="utf-8",
    )  # fmt: skip


def test_the_windows_lock_refuses_a_second_app_and_frees_on_release(tmp_path: Path) -> None:
    folder = tmp_path / "Zoë Ångström" / "My Events"
    folder.mkdir(parents=True)
    event = folder / "Club night – März.tandem"
    event.write_bytes(b"")
    holder = python(
        f"""
        held = lock.acquire(__import__("pathlib").Path({str(event)!r}))
        print("held", CALLS[-1], flush=True)
        sys.stdin.readline()
        held.release()
        print("released", CALLS[-1], flush=True)
        """
    )
    assert holder.stdout is not None and holder.stdin is not None
    first = holder.stdout.readline().split(maxsplit=1)
    assert first, holder.communicate()
    assert first and first[0] == "held", holder.communicate()
    assert first[1].strip() == f"(2, {1 << 20}, 1)"  # one byte, far from the holder's text
    second = python(
        f"""
        from director.store.lock import EventInUseError
        try:
            lock.acquire(__import__("pathlib").Path({str(event)!r}))
        except EventInUseError as exc:
            print("refused:", exc)
        else:
            print("taken twice")
        """
    ).communicate(timeout=60)
    assert second[0].startswith("refused:"), second
    assert event.name in second[0]
    out, err = holder.communicate("\n", timeout=60)
    assert out.startswith("released"), err
    third = python(
        f"""
        lock.acquire(__import__("pathlib").Path({str(event)!r})).release()
        print("taken")
        """
    ).communicate(timeout=60)
    assert third[0].strip() == "taken", third
