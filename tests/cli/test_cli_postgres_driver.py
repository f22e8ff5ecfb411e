"""A machine installed by the README's first line has no PostgreSQL driver (psycopg is the
`postgres` extra): a server address then gets one line saying how to add it, status 2, never
a traceback (#25 point 3). The driver is made absent in a real subprocess: `None` in
`sys.modules` is how Python itself marks a module that cannot be imported."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

WITHOUT_PSYCOPG = (
    "import sys; sys.modules['psycopg'] = None; "
    "from director.cli import main; sys.exit(main(sys.argv[1:]))"
)
URL = "postgresql://director@127.0.0.1:1/tandem"


@pytest.mark.parametrize(
    "args",
    [("--db", URL), (f"--db={URL}",), ("check", URL), ("standings", URL), ("new", URL,
     "--name", "E", "--length", "5")],
)  # fmt: skip
def test_a_server_address_without_the_driver_says_how_to_install_it(
    args: tuple[str, ...], tmp_path: Path
) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", WITHOUT_PSYCOPG, *args],
        capture_output=True, text=True, timeout=60, check=False,
        env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert "pip install 'tandem-director[postgres]'" in lines[0]
