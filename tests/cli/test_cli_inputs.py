"""Inputs are checked before they are read whole (#27 §4): what is not a regular file is
refused, at most the limit is read whatever size a file claims, a match record holds at most
what a match can, and clock numbers fit the store's 64-bit integers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from director.domain.records import MAX_CLOCK_EVENTS, MAX_GAMES

EXE = str(Path(sys.executable).with_name("tandem-director"))


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([EXE, *args], check=False, capture_output=True, text=True, timeout=60)


def one_line(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode == 2, done
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr, done.stderr


@pytest.mark.parametrize("kind", ["fifo", "zero", "sparse"])
@pytest.mark.parametrize("command", ["import-teams", "import-match", "replay"])
def test_no_input_is_read_whole_before_it_is_checked(
    event_path: Path, tmp_path: Path, kind: str, command: str
) -> None:
    """/dev/zero or a 20 GB sparse file ran out of memory; a FIFO waited forever."""
    source = tmp_path / "input"
    if kind == "fifo":
        os.mkfifo(source)
    elif kind == "zero":
        source = Path("/dev/zero")
    else:
        with source.open("wb") as handle:
            handle.truncate(20 * 10**9)
    args = (
        [command, str(source)] if command == "replay" else [command, str(event_path), str(source)]
    )
    started = time.monotonic()
    done = run(*args)
    one_line(done)
    assert ("regular file" in done.stderr) == (kind != "sparse"), done.stderr
    assert time.monotonic() - started < 30


def record(games: int, clock: list[dict[str, object]]) -> str:
    game = {"pair": 1, "board": 1, "winner": "A", "end": "pass", "cube": 1, "level": "single"}
    return json.dumps(
        {
            "format": "tandem-match-record",
            "version": 1,
            "match_length": 5,
            "teams": {},
            "games": [game] * games,
            "clock": clock,
        }
    )


@pytest.mark.parametrize(
    ("games", "clock"),
    [
        (MAX_GAMES + 1, []),
        (1, [{"kind": "press", "t_ns": 1, "board": 1, "side": "A", "value": None}]
         * (MAX_CLOCK_EVENTS + 1)),
    ],
)  # fmt: skip
def test_a_record_holds_at_most_what_a_match_can(
    tmp_path: Path, games: int, clock: list[dict[str, object]]
) -> None:
    """10**6 games were refused after 62 s (replay); 10**6 clock events were stored."""
    path = tmp_path / "big.json"
    path.write_text(record(games, clock), encoding="utf-8")
    done = run("replay", str(path))
    one_line(done)
    assert "a match holds at most" in done.stderr


@pytest.mark.parametrize("field", ["t_ns", "value"])
def test_clock_numbers_of_2_63_are_refused(tmp_path: Path, field: str) -> None:
    """2**63 in `value` or `t_ns` ended import-match in an OverflowError."""
    event = {"kind": "adjust", "t_ns": 1, "board": 1, "side": "A", "value": 5}
    event[field] = 2**63
    path = tmp_path / "r.json"
    path.write_text(record(1, [event]), encoding="utf-8")
    done = run("replay", str(path))
    assert done.returncode == 2 and "out of range" in done.stderr, done
