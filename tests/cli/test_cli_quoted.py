"""A message names at most a short prefix of a value it quotes from a file or a person (#27 §5):
a record's 30 MB team name was echoed whole into the error line, and so was every other value
a record, a team list, a bracket plan or an argument can hold. Real files, real subprocesses."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from director.domain.teamlist import MAX_NAME
from director.domain.wording import QUOTED, cut, quoted
from director.services.teams import add_team
from director.store.engine import open_database
from tests.club_files import club_night
from tests.event_files import seed_teams

EXE = str(Path(sys.executable).with_name("tandem-director"))
CH = "字"  # a character with no case: a column's name is read case-folded
BIG = CH * 1_000_000  # a million characters (3 MB of UTF-8): the same cut as 200 MB
MID = CH * 100_000  # below the CSV reader's field limit and a plan's 1 MB
ARG = CH * 40_000  # an argument: Linux takes at most 128 KB in one
LINE = 300  # characters a line may take beside the quoted prefix (a list of choices)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([EXE, *args], check=False, capture_output=True, text=True, timeout=120)


def refused_briefly(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode == 2, done.stderr[:500]
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert lines
    longest = max(len(line) for line in lines)
    assert longest < LINE + QUOTED, f"a line of {longest:,} characters: {done.stderr[:300]}"
    assert CH * (QUOTED + 1) not in done.stderr


def test_a_quoted_value_keeps_a_short_prefix_and_says_how_long_it_was() -> None:
    assert quoted("Zed") == "'Zed'" and cut("Zed") == "Zed"
    assert quoted("x" * 100) == f"{'x' * QUOTED!r}… (100 characters)"
    assert cut("x" * 1_000_000) == "x" * QUOTED + "… (1,000,000 characters)"
    assert len(quoted(list(range(10**5)))) < 2 * QUOTED


RECORD_CASES: dict[str, Callable[[dict[str, Any]], None]] = {
    "team name": lambda d: d["teams"]["A"].__setitem__("name", BIG),
    "player name": lambda d: d["teams"]["A"]["players"].__setitem__(0, BIG),
    "format": lambda d: d.__setitem__("format", BIG),
    "unknown field": lambda d: d.__setitem__(BIG, 1),
    "team's unknown field": lambda d: d["teams"]["A"].__setitem__(BIG, 1),
    "scoring": lambda d: d.__setitem__("scoring", BIG),
    "team object": lambda d: d["teams"].__setitem__("A", BIG),
    "players": lambda d: d["teams"]["A"].__setitem__("players", BIG),
    "match length": lambda d: d.__setitem__("match_length", int("9" * 4000)),
    "version": lambda d: d.__setitem__("version", BIG),
    "games": lambda d: d.__setitem__("games", BIG),
    "winner": lambda d: d["games"].append(
        {"pair": 1, "board": 1, "winner": BIG, "end": "single", "cube": 1}
    ),
    "game's field": lambda d: d["games"].append(
        {"pair": 1, "board": 1, "winner": "A", "end": "single", "cube": 1, BIG: 1}
    ),
    "game's number": lambda d: d["games"].append(
        {"pair": 1, "board": 1, "winner": "A", "end": "single", "cube": int("9" * 4000)}
    ),
    "clock kind": lambda d: d.__setitem__(
        "clock", [{"kind": BIG, "t_ns": 1, "board": 1, "side": "A", "value": None}]
    ),
    "clock reason": lambda d: d.__setitem__(
        "clock", [{"kind": "adjust", "t_ns": 1, "board": 1, "side": "A", "value": 1, "reason": 7}]
    ),
    "individual format's field": lambda d: d.update(format="backgammon-match", **{BIG: 1}),
}


@pytest.fixture(scope="module")
def paired_event(tmp_path_factory: pytest.TempPathFactory, template_event: Path) -> Path:
    path = tmp_path_factory.mktemp("quoted") / "event.tandem"
    path.write_bytes(template_event.read_bytes())
    seed_teams(path, 2, pair=True)
    return path


@pytest.fixture(scope="module")
def exported(paired_event: Path) -> dict[str, Any]:
    out = paired_event.with_name("match.json")
    assert run("export-match", str(paired_event), "1", str(out)).returncode == 0
    data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("case", RECORD_CASES)
def test_a_record_s_huge_value_is_quoted_by_a_short_prefix(
    case: str, exported: dict[str, Any], paired_event: Path, tmp_path: Path
) -> None:
    record = copy.deepcopy(exported)
    RECORD_CASES[case](record)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    refused_briefly(run("import-match", str(paired_event), str(path)))
    if case not in ("team name", "player name"):  # replay prints a record's names: its output
        refused_briefly(run("replay", str(path)))


def test_a_record_of_a_30_mb_team_name_is_refused_in_a_short_line(
    exported: dict[str, Any], paired_event: Path, tmp_path: Path
) -> None:
    """The issue's case, as large as a record may be (32 MB)."""
    record = copy.deepcopy(exported)
    record["teams"]["B"]["name"] = CH * 10_000_000
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    refused_briefly(run("import-match", str(paired_event), str(path)))


CSV_CASES = {
    "team twice": f"team,player1,player2\n{CH * MAX_NAME},a,b\n{CH * MAX_NAME},c,d\n",
    "team too long": f"team,player1,player2\n{MID},a,b\n{MID},c,d\n",
    "a player twice in a team": f"team,player1,player2\nT,{MID},{MID}\n",
    "rating": f"team,player1,player2,rating\nT,a,b,{MID}\n",
    "seed": f"team,player1,player2,seed\nT,a,b,{MID}\n",
    "unknown column": f"team,player1,player2,{MID}\nT,a,b,c\n",
    "column twice": f"team,player1,player2,{MID},{MID}\nT,a,b,c,c\n",
    "a player of another team": "team,player1,player2\nT,Ann 0,b\n",
}


@pytest.mark.parametrize("case", CSV_CASES)
def test_a_team_list_s_huge_value_is_quoted_by_a_short_prefix(
    case: str, event_path: Path, tmp_path: Path
) -> None:
    text = CSV_CASES[case]
    if case == "a player of another team":  # that team's name is the event's: 100 characters
        db = open_database(str(event_path))
        with db.Session() as session, session.begin():
            add_team(session, CH * MAX_NAME, ("Ann 0", "Bob 0"))
        db.close()
    path = tmp_path / "teams.csv"
    path.write_text(text, encoding="utf-8")
    refused_briefly(run("import-teams", str(event_path), str(path)))


PLAN = {"name": "p", "brackets": [{"name": "main", "lengths": [3]}]}
PLAN_CASES: dict[str, Callable[[dict[str, Any]], None]] = {
    "unknown field": lambda p: p.__setitem__(MID, 1),
    "a number": lambda p: p["brackets"][0]["lengths"].__setitem__(0, MID),
    "a name": lambda p: p["brackets"][0].__setitem__("name", [MID]),
    "third place": lambda p: p["brackets"][0].__setitem__("third_place", MID),
    "a source": lambda p: p["brackets"].append(
        {"name": "c", "lengths": [3], "feeds": [{"source": MID, "round": 1, "into": 1}]}
    ),
    "a bracket's name in a problem": lambda p: p["brackets"].append(
        {"name": MID, "lengths": [-1], "feeds": [{"source": "main", "round": 1, "into": 1}]}
    ),
    "a length": lambda p: p["brackets"][0].__setitem__("lengths", [-int("9" * 4000)]),
}


@pytest.mark.parametrize("case", PLAN_CASES)
def test_a_plan_s_huge_value_is_quoted_by_a_short_prefix(case: str, tmp_path: Path) -> None:
    plan = copy.deepcopy(PLAN)
    PLAN_CASES[case](plan)
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(plan, ensure_ascii=False), encoding="utf-8")
    event = tmp_path / "k.tandem"
    new = ("new", str(event), "--name", "K", "--length", "3", "--format", "knockout")
    refused_briefly(run(*new, "--plan", str(path)))
    assert run(*new).returncode == 0
    refused_briefly(run("plan", str(event), "--set", str(path)))


@pytest.mark.parametrize(
    "args",
    [
        ["new", "{dir}/n.tandem", "--name", "N", "--length", ARG],
        ["new", "{dir}/n.tandem", "--name", "N", "--time", ARG],
        ["simulate", "{dir}/s.tandem", "--dropout", ARG],
        ["new", "{dir}/n.tandem", "--name", "N", "--plan", ARG],
        ["serve", "{event}", "--port", ARG],
        ["serve", "{event}", "--host", ARG],
        ["--db", ARG],
        ["club", "publish", "{event}", "{club}", "--map", ARG],
        ["club", "publish", "{event}", "{club}", "--map", f"{ARG}=1"],
        ["club", "person", "{club}", ARG],
        ["club", "season", "{club}", ARG],
        ["report", ARG, "{event}"],
    ],
)
def test_an_argument_s_huge_value_is_quoted_by_a_short_prefix(
    args: list[str], tmp_path: Path
) -> None:
    event = club_night(tmp_path / "night.tandem", winners="AB")
    club = tmp_path / "c.club"
    assert run("club", "new", str(club)).returncode == 0
    refused_briefly(run(*(a.format(dir=tmp_path, event=event, club=club) for a in args)))
