"""FORMATS.md team list: every bad row with its reason; safe export."""

from __future__ import annotations

import pytest

from director.domain.errors import UserError
from director.domain.teamlist import TeamRow, decode, parse_team_list, safe_cell, write_team_list


def test_comma_and_semicolon_with_bom_and_optional_columns() -> None:
    text = "\ufeffteam;player1;player2;seed\nBlue;Ana;Ben;2\nR&D <Team>;Łukasz;Ελένη;1\n"
    parsed = parse_team_list(text)
    assert parsed.bad == ()
    assert [r.team for r in parsed.rows] == ["Blue", "R&D <Team>"]
    assert parsed.rows[1].seed == 1


def test_every_bad_row_reported_with_line_and_reason() -> None:
    text = "team,player1,player2,rating\nBlue,Ana,,\nBlue2,A,B,x\nblue2,C,D,\nOk,E,F,1500\n"
    parsed = parse_team_list(text, existing_names=["Ok"])
    reasons = {b.line: b.reason for b in parsed.bad}
    assert reasons[2] == "player2 is empty"
    assert "rating 'x' is not a whole number" in reasons[3]
    assert reasons[5] == "team 'Ok' is already registered"
    assert len(parsed.rows) == 1 and parsed.rows[0].team == "blue2"


def test_a_bad_row_names_every_reason_not_only_the_first() -> None:
    """Issue #24 point 5: the preview named one reason; fixed, the row failed on the next."""
    text = "team,player1,player2,rating,seed\nOk,,B,high,0\n"
    (bad,) = parse_team_list(text, existing_names=["ok"]).bad
    assert bad.reason.split("; ") == [
        "player1 is empty",
        "team 'Ok' is already registered",
        "rating 'high' is not a whole number",
        "seed must be 1 or more",
    ]


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("", "empty"),
        ("name,a,b\nx,y,z\n", "header row lacks"),
        ("team,player1,player2,x\n", "unknown column"),
    ],
)
def test_bad_headers(text: str, needle: str) -> None:
    with pytest.raises(UserError, match=needle):
        parse_team_list(text)


def test_wrong_encoding_is_a_clear_message() -> None:
    with pytest.raises(UserError, match="not UTF-8"):
        decode("team,player1,player2\nMüller,a,b\n".encode("latin-1"))


@pytest.mark.parametrize("value", ["=cmd", "+1", "-2", "@x", "\tx", "\rx"])
def test_formula_cells_are_quoted_on_export(value: str) -> None:
    assert safe_cell(value) == "'" + value
    assert f"'{value}" in write_team_list([TeamRow(0, value, "a", "b")])


def test_export_round_trips_through_import() -> None:
    rows = [TeamRow(0, "Blue, Bar", 'Ana "A"', "Ben", "Club", 1500, 3)]
    parsed = parse_team_list(write_team_list(rows))
    assert parsed.bad == ()
    got = parsed.rows[0]
    assert (got.team, got.player1, got.club, got.rating, got.seed) == (
        "Blue, Bar",
        'Ana "A"',
        "Club",
        1500,
        3,
    )


def test_teams_without_a_seed_are_seeded_by_rating_after_the_seeds_given() -> None:
    from director.domain.teamlist import seeds_by_rating

    rows = [(1500, None), (None, None), (1900, None), (1700, 1), (1900, None), (None, None)]
    # seed 1 is the file's; then 1900 (first in the file), 1900, 1500, and the unrated in order
    assert seeds_by_rating(rows) == [4, 5, 2, 1, 3, 6]
    assert seeds_by_rating([(1200, None), (1300, None)], top=8) == [10, 9]  # after the event's


def test_a_player_plays_for_one_team_only_names_compared_as_a_reader_would() -> None:
    """FORMATS: a player may not appear twice in one team, nor in two teams of the event."""
    text = (
        "team,player1,player2\n"
        "Blue,Ana Kovač,Ben\n"
        "Red,ana  KOVAČ,Cleo\n"  # Blue's Ana, in other case and spacing
        "Green,Dev,Dev\n"
        "Gold,Eve,Finn Old\n"  # Finn Old plays for a registered team
        "Ok,Gus,Hal\n"
    )
    parsed = parse_team_list(text, ["Registered"], existing_players={"finn old": "Registered"})
    reasons = {b.line: b.reason for b in parsed.bad}
    assert reasons == {
        3: "player 'ana KOVAČ' already plays for team 'Blue' (line 2 of this file)",
        4: "player 'Dev' cannot play both boards of one team",
        5: "player 'Finn Old' already plays for team 'Registered'",
    }
    assert [r.team for r in parsed.rows] == ["Blue", "Ok"]


@pytest.mark.parametrize("one_board", [False, True])
def test_a_name_twice_in_the_file_is_told_apart_from_one_already_registered(
    one_board: bool,
) -> None:
    """#28: the preview said "is already in the list" for a player registered in the event as
    for one written twice in the file; the director looked for the second line in vain."""
    entrant = "player" if one_board else "team"
    text = (
        "player\nAna Kovač\nBen Ode\nANA  kovač\n"
        if one_board
        else "team,player1,player2\nAna Kovač,A,B\nBen Ode,C,D\nANA  kovač,E,F\n"
    )
    parsed = parse_team_list(text, ["Ben Ode"], one_board=one_board)
    assert {b.line: b.reason for b in parsed.bad} == {
        3: f"{entrant} 'Ben Ode' is already registered",
        4: f"{entrant} 'ANA kovač' appears twice in this file (first on line 2)",
    }
