"""The individual match record (FORMATS.md, RULES §10): parse, validate, replay (#28)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from director.domain.individual_record import FORMAT_NAME
from director.domain.records import RecordError, parse_record, record_json, replay_data
from director.domain.rules import Format, Side

EXE = str(Path(sys.executable).with_name("tandem-director"))


def record(**changes: Any) -> dict[str, Any]:
    """FORMATS.md's example: Ana leads 4–0, Ben wins the Crawford game with a gammon."""
    data: dict[str, Any] = {
        "format": FORMAT_NAME,
        "version": 1,
        "match_length": 5,
        "scoring": "standard",
        "players": {"A": {"name": "Ana"}, "B": {"name": "Ben"}},
        "games": [
            {"winner": "A", "end": "bear-off", "level": "single", "cube": 2},
            {"winner": "A", "end": "pass", "cube": 2},
            {"winner": "B", "end": "bear-off", "level": "gammon", "cube": 1},
        ],
    }
    data.update(changes)
    return data


def parsed(data: dict[str, Any]) -> Any:
    return parse_record(json.dumps(data))


def problems(data: dict[str, Any]) -> list[str]:
    with pytest.raises(RecordError) as raised:
        parsed(data)
    return raised.value.problems


def test_the_formats_example_replays_with_its_crawford_game() -> None:
    rec = parsed(record())
    assert rec.rules.format is Format.INDIVIDUAL and rec.rules.match_length == 5
    data = replay_data(rec.outcome())
    assert [g["game"] for g in data["games"]] == [1, 2, 3]
    assert [g["crawford"] for g in data["games"]] == [False, False, True]
    assert "pair" not in data["games"][0] and "board" not in data["games"][0]
    assert data["score"] == {"A": 4, "B": 2} and data["result"] == "unfinished"


def test_the_record_written_reads_back_the_same() -> None:
    rec = parsed(record(lost_on_time="B"))
    again = parse_record(record_json(rec))
    assert again == rec
    assert json.loads(record_json(rec)) == record(lost_on_time="B")


def test_a_match_lost_on_time_ends_with_the_winner_raised_to_n() -> None:
    data = replay_data(parsed(record(lost_on_time="B")).outcome())
    assert data["score"] == {"A": 5, "B": 2} and data["result"] == "A"


def test_a_crawford_game_on_a_cube_is_refused_naming_the_game_and_score() -> None:
    games = record()["games"]
    games[2] = {"winner": "B", "end": "bear-off", "level": "gammon", "cube": 2}
    assert problems(record(games=games)) == [
        "game 3: the cube was used in the Crawford game: Ana is 1-away "
        "(the game started at 4–0; RULES §10)"
    ]


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (
            {"games": [{"pair": 1, "winner": "A", "end": "pass", "cube": 1}]},
            "game 1: unknown field 'pair'",
        ),
        (
            {"games": [{"winner": "A", "end": "time", "cube": 1, "loser_borne_off": 0}]},
            "a flag loses the match",
        ),
        ({"players": {"A": {"name": "Ana"}}}, 'players must be an object with exactly "A" and "B"'),
        (
            {"players": {"A": {"name": ""}, "B": {"name": "Ben"}}},
            "player A: needs a non-empty name",
        ),
        ({"lost_on_time": None}, "lost_on_time null is not one of A | B"),
        ({"match_length": 2.0}, "match_length must be a whole number"),
        ({"teams": {}}, "unknown field 'teams'"),
        (
            {"games": [{"winner": "A", "end": "bear-off", "cube": 3, "level": "single"}]},
            "game 1: cube 3 is not a power of two",
        ),
    ],
)
def test_each_bad_field_is_named(change: dict[str, Any], words: str) -> None:
    found = problems(record(**change))
    assert any(words in p for p in found), found


def test_players_may_share_a_name() -> None:
    rec = parsed(record(players={"A": {"name": "Sam"}, "B": {"name": "Sam"}}))
    assert rec.teams[Side.A].name == rec.teams[Side.B].name == "Sam"


def test_replay_prints_the_games_by_number_with_the_crawford_game(tmp_path: Path) -> None:
    path = tmp_path / "m.backgammon-match.json"
    path.write_text(json.dumps(record(lost_on_time="B")), encoding="utf-8")
    shown = subprocess.run([EXE, "replay", str(path)], capture_output=True, text=True, check=True)
    lines = shown.stdout.splitlines()
    assert lines[1].split()[:2] == ["game", "winner"]
    assert lines[4].split()[0] == "3" and lines[4].endswith("Crawford game (RULES §10)")
    assert "Ben lost the match on time (RULES §10)" in lines
    assert "result: Ana wins" in lines
    as_json = subprocess.run(
        [EXE, "replay", str(path), "--json"], capture_output=True, text=True, check=True
    )
    assert json.loads(as_json.stdout)["games"][2]["crawford"] is True


def test_replay_refuses_a_bad_record_in_one_line_per_problem(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record(lost_on_time=None)), encoding="utf-8")
    shown = subprocess.run([EXE, "replay", str(path)], check=False, capture_output=True, text=True)
    assert shown.returncode == 2 and "Traceback" not in shown.stderr
    assert "lost_on_time null is not one of A | B" in shown.stderr
