"""`tandem-director result` (#24 point 5): a table's final score typed from its paper
scoresheet, through the real command; a bad score is one clear line, status 2, nothing
written."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from director.domain.score import Result, Score
from tests.event_files import seed_teams, stored_match

EXE = str(Path(sys.executable).with_name("tandem-director"))


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([EXE, *args], check=False, capture_output=True, text=True, timeout=120)


@pytest.fixture
def first(event_path: Path) -> int:
    """Round 1 of four teams paired; the match at table 1."""
    return seed_teams(event_path, 4, pair=True)[0]


def test_a_score_from_paper_is_saved_and_said(event_path: Path, first: int) -> None:
    done = run("result", str(event_path), "--round", "1", "--table", "1", "--score", "2-5")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "round 1, table 1: Team 1 2-5 Team 3, Team 3 wins (from paper)\n"
    match = stored_match(event_path, first)
    assert match.outcome.from_paper and match.outcome.result is Result.B
    assert match.outcome.final == Score(2, 5)
    cleared = run("result", str(event_path), "--round", "1", "--table", "1", "--clear")
    assert cleared.returncode == 0, cleared.stderr
    assert not stored_match(event_path, first).outcome.finished


@pytest.mark.parametrize(
    ("score", "said"),
    [
        ("4-3", "not over: a match to 5 ends when a team reaches 5"),
        ("5-5x", "'5-5x' is not a score: give team A's points, then team B's, e.g. 7-4"),
        # digits to a regular expression's \d, not to a scoresheet: read as 5-3 and saved before
        ("٥-٣", "is not a score: give team A's points, then team B's, e.g. 7-4"),
        ("4-200", "no match to 5 ends 4–200"),
    ],
)
def test_a_bad_score_is_one_clear_line_and_writes_nothing(
    event_path: Path, first: int, score: str, said: str
) -> None:
    before = event_path.read_bytes()
    done = run("result", str(event_path), "--round", "1", "--table", "1", "--score", score)
    assert done.returncode == 2, done
    assert len(done.stderr.splitlines()) == 1 and said in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert event_path.read_bytes() == before


def test_a_table_the_round_does_not_have_is_said_so(event_path: Path, first: int) -> None:
    done = run("result", str(event_path), "--round", "1", "--table", "9", "--score", "5-0")
    assert done.returncode == 2
    assert done.stderr.strip() == "tandem-director: round 1 has no match at table 9"
