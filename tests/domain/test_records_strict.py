"""FORMATS "Types are strict": a null, a boolean, a float or a string where a value belongs is
a problem, one line each, naming the game; a game is never dropped (issue defect 1)."""

from __future__ import annotations

import json

import pytest

from tests.domain.test_records import example, problems_of


@pytest.mark.parametrize("key", ["winner", "end"])
def test_formats_a_game_whose_winner_or_end_is_null_is_a_problem_not_a_dropped_game(
    key: str,
) -> None:
    data = example()
    data["games"][1][key] = None
    [problem] = problems_of(data)
    assert problem.startswith(f"pair 1, board 2: {key} null is not one of")


@pytest.mark.parametrize("key", ["level", "agreed_level"])
def test_formats_a_null_level_is_a_problem(key: str) -> None:
    data = example()
    data["games"][2][key] = None
    [problem] = problems_of(data)
    assert problem.startswith(f"pair 2, board 2: {key} null is not one of")


@pytest.mark.parametrize(
    ("key", "value"),
    [("cube", None), ("cube", True), ("cube", 2.0), ("cube", "2"), ("loser_borne_off", None),
     ("loser_borne_off", False), ("pair", 1.0), ("board", True)],
)  # fmt: skip
def test_formats_a_number_field_must_be_a_whole_number(key: str, value: object) -> None:
    data = example()
    data["games"][2][key] = value
    problems = problems_of(data)
    assert any(f"{key} must be a whole number, not {json.dumps(value)}" in p for p in problems)
    assert len(problems) == 1


def test_formats_games_null_is_not_an_empty_match() -> None:
    data = example()
    data["games"] = None
    assert problems_of(data) == ["games must be a list, not null"]


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("version", True, "version true is not supported"),
        ("version", 1.0, "version 1.0 is not supported"),
        ("version", None, "version null is not supported"),
        ("one_cube_threshold", 2.0, "one_cube_threshold must be 1 or 2, not 2.0"),
        ("one_cube_threshold", True, "one_cube_threshold must be 1 or 2, not true"),
        ("match_length", 5.0, "match_length must be a whole number of points, at least 1, not 5.0"),
        ("match_length", True, "match_length must be a whole number of points, at least 1, not tr"),
        ("winner_required", 0, "winner_required must be true or false, not 0"),
        ("no_cube_at_one_away", None, "no_cube_at_one_away must be true or false, not null"),
        ("scoring", None, "scoring null is not one of"),
        ("format", None, "format must be 'tandem-match', not null"),
    ],
)  # fmt: skip
def test_formats_header_types_are_strict(key: str, value: object, words: str) -> None:
    data = example()
    data[key] = value
    problems = problems_of(data)
    assert any(p.startswith(words) for p in problems), problems


def test_formats_teams_null_is_a_problem() -> None:
    data = example()
    data["teams"] = None
    assert problems_of(data) == ['teams must be an object with exactly "A" and "B"']


def test_formats_every_problem_is_reported_one_line_each() -> None:
    data = example()
    data["version"] = True
    data["games"][0]["winner"] = None
    data["games"][1]["cube"] = 1.0
    data["games"][2]["end"] = None
    problems = problems_of(data)
    assert len(problems) == 4
    assert [p.split(":")[0] for p in problems[1:]] == [
        "pair 1, board 1",
        "pair 1, board 2",
        "pair 2, board 2",
    ]
