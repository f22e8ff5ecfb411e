"""Look-alike team names are one name (issue 14, item 15): NFC, invisible characters dropped,
controls refused, case and width ignored when names are compared; a duplicate CSV column is
a bad file."""

from __future__ import annotations

import pytest

from director.domain.errors import UserError
from director.domain.teamlist import clean_name, name_key, name_problem, parse_team_list

LOOK_ALIKES = [
    ("Café", "Cafe\u0301"),  # NFC and NFD
    ("Blue Bar", "Blue\u200b Bar"),  # zero-width space
    ("Blue Bar", "\u202eBlue Bar\u202c"),  # bidi override
    ("Blue Bar", "BLUE BAR"),  # case
    ("Blue Bar", "Ｂｌｕｅ Ｂａｒ"),  # full-width letters
    ("Blue Bar", "Blue  Bar"),  # two spaces
    ("Straße", "STRASSE"),  # case folding, not lower()
]


@pytest.mark.parametrize(("one", "other"), LOOK_ALIKES)
def test_look_alike_names_have_one_key(one: str, other: str) -> None:
    assert name_key(one) == name_key(other)


def test_names_are_stored_in_nfc_without_invisible_characters() -> None:
    assert clean_name("Cafe\u0301") == "Café"
    assert clean_name(" \u202eBlue\u200b  Bar\u202c ") == "Blue Bar"
    assert clean_name("👨\u200d👩\u200d👧") == "👨\u200d👩\u200d👧"  # joiners stay


@pytest.mark.parametrize("value", ["Blue\x85Bar", "Blue\x9bBar", "Blue\x07Bar", "Tab\tBar"])
def test_c0_and_c1_controls_are_refused(value: str) -> None:
    assert name_problem("the team name", value) == "the team name contains a control character"


def test_a_csv_with_look_alike_duplicates_marks_them_bad() -> None:
    text = "team,player1,player2\nCafé,A,B\nCafe\u0301,C,D\nＣＡＦÉ\u200b,E,F\n"
    parsed = parse_team_list(text)
    assert [r.team for r in parsed.rows] == ["Café"]
    assert [b.line for b in parsed.bad] == [3, 4]
    assert all("appears twice in this file (first on line 2)" in b.reason for b in parsed.bad)


def test_a_csv_with_a_duplicate_column_is_a_bad_file() -> None:
    with pytest.raises(UserError, match="column 'team' appears twice"):
        parse_team_list("team,player1,player2,team\nA,B,C,D\n")
