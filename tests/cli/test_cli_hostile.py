"""Bad arguments end in one line and status 2, never a traceback (#27 §5)."""

from __future__ import annotations

import os
import shutil
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


NO_OVERRIDE = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--"]


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("setpriv") is None,
    reason="drops root's right to read any file (CI runs as root); needs setpriv",
)
@pytest.mark.parametrize(
    "command",
    [["check"], ["standings"], ["upgrade"], ["pair"], ["report", "standings"], ["export-teams"],
     ["import-teams"], ["import-match"], ["check-pairings"], ["clock-log"]],
)  # fmt: skip
def test_an_event_file_this_user_may_not_read_is_one_line(
    event_path: Path, tmp_path: Path, command: list[str]
) -> None:
    """As an ordinary user, `chmod 000` on the event ended every command in a PermissionError
    traceback. Root reads any file: the command runs as root without that right (setpriv)."""
    event_path.chmod(0)
    (tmp_path / "t.csv").write_text("team,player1,player2\nA,a1,a2\n", encoding="utf-8")
    example = Path(__file__).parents[1] / "fixtures" / "formats_example.tandem-match.json"
    extra = {
        "export-teams": [str(tmp_path / "out.csv")],
        "report": ["-o", str(tmp_path / "r.pdf")],
        "import-teams": [str(tmp_path / "t.csv")],
        "import-match": [str(example)],
        "clock-log": ["1"],
    }
    extra_args = extra.get(command[0], [])
    args = [*command, str(event_path), *extra_args]
    done = subprocess.run(
        [*NO_OVERRIDE, EXE, *args], check=False, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2, done
    assert done.stderr.strip().endswith("Permission denied"), done.stderr
    assert len(done.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    "args",
    [
        ["export-teams", "{event}", "{long}.csv"],
        ["report", "standings", "{event}", "-o", "{long}.pdf"],
        ["upgrade", "{long}.tandem"],
        ["backups", ""],
    ],
)
def test_a_name_too_long_or_empty_is_one_line(
    event_path: Path, tmp_path: Path, args: list[str]
) -> None:
    long = str(tmp_path / ("n" * 300))
    done = run(*(a.format(event=event_path, long=long) for a in args))
    assert done.returncode == 2, done
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr
    assert len(done.stderr) < 400  # the name is cut


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "{dir}/s.tandem", "--teams", "8", "--rounds", "3",
         "--forbidden-pairs", "2147483647"],
        ["simulate", "{dir}/s.tandem", "--teams", "8", "--rounds", "3", "--forbidden-pairs", "20"],
        ["simulate", "{dir}/s.tandem", "--teams", "8", "--rounds", "3", "--length", "999"],
        ["simulate", "{dir}/s.tandem", "--teams", "2147483647", "--rounds", "3"],
        ["serve", "{event}", "--host", "a" * 64],
        ["serve", "{event}", "--host", "a." * 200],
    ],
)  # fmt: skip
def test_every_number_and_name_has_an_upper_bound(
    event_path: Path, tmp_path: Path, args: list[str]
) -> None:
    """`--forbidden-pairs 2147483647` looped for minutes, `--length 999` took 52 s, and a
    64-character host label ended `serve` in a UnicodeError: refused at once, nothing made."""
    done = run(*(a.format(dir=tmp_path, event=event_path) for a in args))
    assert done.returncode == 2, done
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["event.tandem"]
