"""Bad arguments end in one line and status 2, never a traceback (#27 §5)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXE = str(Path(sys.executable).with_name("tandem-director"))


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([EXE, *args], check=False, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(
    "target", ["sqlite:///x", "mysql://u@h/db", "postgresql://director:secret@[::1/x"]
)
def test_an_address_of_another_database_is_refused_in_one_line(target: str) -> None:
    """`sqlite:///x` ended in a TypeError, `mysql://` in ModuleNotFoundError."""
    done = run("check", target)
    assert done.returncode == 2, done
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr
    assert "secret" not in done.stderr
