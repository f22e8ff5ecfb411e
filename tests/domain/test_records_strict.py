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


LENGTH = "match_length must be a whole number of points from 1 to 999, not"


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("version", True, "version true is not supported"),
        ("version", 1.0, "version 1.0 is not supported"),
        ("version", None, "version null is not supported"),
        ("one_cube_threshold", 2.0, "one_cube_threshold must be 1 or 2, not 2.0"),
        ("one_cube_threshold", True, "one_cube_threshold must be 1 or 2, not true"),
        ("match_length", 5.0, f"{LENGTH} 5.0"),
        ("match_length", True, f"{LENGTH} true"),
        ("match_length", 1000, LENGTH),
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


# -- keys (FORMATS: "Keys are strict too"; issue #25 point 2) --------------------------------


@pytest.mark.parametrize(
    ("game", "key", "value", "words"),
    [
        (0, "agreed_level", "single", "agreed_level applies only to a time forfeit"),
        (0, "loser_borne_off", 0, "loser_borne_off does not belong to a bear-off game"),
        (1, "level", "gammon", "level does not belong to a pass game in standard"),
        (2, "level", "gammon", "level does not belong to a time game in standard"),
        (0, "loser_pips", 40, "loser_pips does not belong to a bear-off game in standard"),
        (1, "winner_left", 3, "winner_left does not belong to a pass game in standard"),
        (0, "colour", "red", "unknown field 'colour'"),
    ],
)  # fmt: skip
def test_formats_a_key_that_does_not_belong_to_the_end_and_scoring_is_a_problem(
    game: int, key: str, value: object, words: str
) -> None:
    data = example()
    data["games"][game][key] = value
    problems = problems_of(data)
    assert len(problems) == 1 and words in problems[0], problems
    assert problems[0].startswith(("pair 1, board 1", "pair 1, board 2", "pair 2, board 2"))


def test_formats_clock_is_the_one_optional_top_level_key() -> None:
    data = example()
    data["clock"] = []
    data["notes"] = "x"
    assert problems_of(data) == ["unknown field 'notes'"]


@pytest.mark.parametrize(
    ("team", "words"),
    [
        ({"name": "Blue", "players": ["Ana", "Ben"], "club": "X"}, "team A: unknown field 'club'"),
        ({"name": "", "players": ["Ana", "Ben"]}, "team A: name is empty"),
        ({"name": "   ", "players": ["Ana", "Ben"]}, "team A: name is empty"),
        ({"players": ["Ana", "Ben"]}, "team A: missing field 'name'"),
        ({"name": "Blue"}, "team A: missing field 'players'"),
        ({"name": 7, "players": ["Ana", "Ben"]}, "team A: name must be text, not 7"),
        ({"name": "Blue", "players": ["Ana"]}, "team A: players must be a list of two names"),
        ({"name": "Blue", "players": ["Ana", " "]}, "team A: player 2's name is empty"),
        ({"name": "Blue", "players": ["Ana", None]}, "team A: player 2's name must be text, not"),
        ("Blue", "team A: must be an object with name and players"),
    ],
)  # fmt: skip
def test_formats_a_team_object_has_exactly_name_and_players_and_says_what_is_wrong(
    team: object, words: str
) -> None:
    data = example()
    data["teams"]["A"] = team
    problems = problems_of(data)
    assert len(problems) == 1 and problems[0].startswith(words), problems


def test_formats_teams_with_a_third_side_names_it() -> None:
    data = example()
    data["teams"]["C"] = {"name": "Green", "players": ["Eve", "Fay"]}
    assert problems_of(data) == ["teams: unknown field 'C'"]


# -- messages that name what is actually wrong (issue #25 point 2) ----------------------------


def test_pair_0_is_named_as_a_pair_number_below_1_not_as_out_of_order() -> None:
    data = example()
    data["games"][0]["pair"] = 0
    problems = problems_of(data)
    assert problems[0] == "pair 0, board 1: pair must be 1 or more, not 0", problems
    assert not any("pair 0 cannot follow" in p for p in problems)


def test_board_3_is_named_as_a_board_not_as_out_of_order() -> None:
    data = example()
    data["games"][1]["board"] = 3
    problems = problems_of(data)
    assert problems[0] == "pair 1, board 3: board must be 1 or 2, not 3", problems


def test_the_loser_pips_range_starts_at_1() -> None:
    data = example()
    data["scoring"] = "pin-game"
    data["games"] = [{"pair": 1, "board": 1, "winner": "A", "end": "resign", "level": "single",
                      "cube": 1, "loser_pips": 400}]  # fmt: skip
    assert problems_of(data) == [
        "pair 1, board 1: loser_pips must be a pip count from 1 to 375, not 400"
    ]
