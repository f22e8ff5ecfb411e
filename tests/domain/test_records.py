"""FORMATS.md: the match record, parsed, validated and replayed exactly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from director.domain.records import RecordError, parse_record, record_json, replay_data

EXAMPLE = Path(__file__).parent.parent / "fixtures" / "formats_example.tandem-match.json"


def example() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE.read_text())
    return data


def problems_of(data: dict[str, Any]) -> list[str]:
    with pytest.raises(RecordError) as info:
        parse_record(json.dumps(data))
    return info.value.problems


def test_formats_worked_example_replays_to_the_documented_output() -> None:
    out = replay_data(parse_record(EXAMPLE.read_text()).outcome())
    assert out == {
        "games": [
            {"pair": 1, "board": 1, "winner": "A", "points": 4, "pip_points": 0, "counted": True,
             "score": {"A": 4, "B": 0}},
            {"pair": 1, "board": 2, "winner": "B", "points": 1, "pip_points": 0, "counted": True,
             "score": {"A": 4, "B": 1}},
            {"pair": 2, "board": 2, "winner": "B", "points": 2, "pip_points": 0, "counted": True,
             "score": {"A": 4, "B": 3}},
        ],
        "score": {"A": 4, "B": 3},
        "pip_points": {"A": 0, "B": 0},
        "extra": {"A": 0, "B": 0},
        "final": {"A": 4, "B": 3},
        "result": "unfinished",
    }  # fmt: skip


def test_record_round_trips_through_its_json() -> None:
    record = parse_record(EXAMPLE.read_text())
    assert parse_record(record_json(record)) == record


def test_unknown_field_value_names_the_game_and_the_field() -> None:
    data = example()
    data["games"][1]["end"] = "walkover"
    [problem] = problems_of(data)
    assert problem.startswith('pair 1, board 2: end "walkover" is not one of')


def test_cube_not_a_power_of_two_is_rejected() -> None:
    data = example()
    data["games"][0]["cube"] = 3
    assert any("pair 1, board 1" in p and "power of two" in p for p in problems_of(data))


def test_both_boards_used_the_cube_in_a_one_cube_pair_names_pair_boards_and_score() -> None:
    data = example()
    data["games"][2] = {"pair": 2, "board": 1, "winner": "A", "end": "bear-off",
                        "level": "single", "cube": 2}  # fmt: skip
    data["games"].append({"pair": 2, "board": 2, "winner": "B", "end": "pass", "cube": 1})
    [problem] = problems_of(data)
    assert "pair 2, board 2" in problem
    assert "both boards (1 and 2)" in problem
    assert "4–1" in problem
    assert "RULES §4" in problem


def test_game_after_the_match_was_decided() -> None:
    data = example()
    data["match_length"] = 1
    data["games"] = [
        {"pair": 1, "board": 1, "winner": "A", "end": "bear-off", "level": "single", "cube": 1},
        {"pair": 1, "board": 2, "winner": "A", "end": "bear-off", "level": "single", "cube": 1},
        {"pair": 2, "board": 1, "winner": "B", "end": "bear-off", "level": "single", "cube": 1},
    ]
    [problem] = problems_of(data)
    assert problem.startswith("pair 2, board 1: the match was already decided")


def test_missing_fields_for_the_scoring() -> None:
    data = example()
    data["scoring"] = "simple-pip-squeeze"
    problems = problems_of(data)
    assert any(p.startswith("pair 1, board 1: missing winner_left") for p in problems)


def test_every_problem_is_reported_not_just_the_first() -> None:
    data = example()
    data["games"][0]["winner"] = "C"
    data["games"][1]["cube"] = "two"
    data["one_cube_threshold"] = 3
    problems = problems_of(data)
    assert len(problems) == 3


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("{", "not valid JSON"),
        ("[]", "JSON object"),
        ('{"format": "tandem-match"}', "missing field 'games'"),
    ],
)
def test_broken_files_give_clear_messages(text: str, needle: str) -> None:
    with pytest.raises(RecordError) as info:
        parse_record(text)
    assert any(needle in p for p in info.value.problems)


def test_unknown_top_level_field_and_version() -> None:
    data = example()
    data["version"] = 2
    data["extra"] = 1
    problems = problems_of(data)
    assert "unknown field 'extra'" in problems
    assert any("version 2 is not supported" in p for p in problems)


def test_booleans_are_not_numbers() -> None:
    data = example()
    data["games"][0]["cube"] = True
    assert any("cube must be a whole number" in p for p in problems_of(data))


def test_rule_4_prime_abandoned_game_is_listed_uncounted() -> None:
    data = example()
    data["match_length"] = 3
    data["winner_required"] = True
    data["games"] = [
        {"pair": 1, "board": 2, "winner": "B", "end": "bear-off", "level": "backgammon", "cube": 1},
        {"pair": 1, "board": 1, "winner": "A", "end": "bear-off", "level": "gammon", "cube": 2},
    ]
    out = replay_data(parse_record(json.dumps(data)).outcome())
    assert out["result"] == "B"
    assert [g["counted"] for g in out["games"]] == [True, False]
    assert out["final"] == {"A": 0, "B": 3}
