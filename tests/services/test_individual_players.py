"""Registering players in an individual event (RULES §10): one player per entrant."""

from __future__ import annotations

import pytest

from director.domain.errors import UserError
from director.domain.rules import ClockMode, EventOptions, Format, MatchRules, TimeControl
from director.services.events import update_event
from director.services.teams import add_player, add_team, edit_team, export_teams, list_teams
from director.store.engine import EventDatabase


def individual(db: EventDatabase) -> None:
    options = EventOptions(
        match=MatchRules(format=Format.INDIVIDUAL),
        time_control=TimeControl(120, 12, ClockMode.DELAY),
    )
    with db.Session() as s, s.begin():
        update_event(s, options=options)


def test_a_player_is_an_entrant_on_the_one_board(db: EventDatabase) -> None:
    individual(db)
    with db.Session() as s, s.begin():
        ana = add_player(s, "  Ana   Kovač ", club="North", rating=1650).value
        add_player(s, "Ben", seed=5)
    assert (ana.name, ana.players, ana.club, ana.rating, ana.seed) == (
        "Ana Kovač", ("Ana Kovač",), "North", 1650, 1,
    )  # fmt: skip
    with db.Session() as s:
        assert [t.name for t in list_teams(s)] == ["Ana Kovač", "Ben"]
        assert export_teams(s).splitlines()[0] == "player,club,rating,seed"


@pytest.mark.parametrize("again", ["ana kovač", "ANA  KOVAČ", " Ana Kovač "])
def test_a_player_is_registered_once_whatever_the_case_and_spaces(
    db: EventDatabase, again: str
) -> None:
    individual(db)
    with db.Session() as s, s.begin():
        add_player(s, "Ana Kovač")
    with db.Session() as s, s.begin(), pytest.raises(UserError, match="already registered"):
        add_player(s, again)


def test_a_tandem_event_registers_teams_not_players(db: EventDatabase) -> None:
    with db.Session() as s, s.begin(), pytest.raises(UserError, match="entrants are teams"):
        add_player(s, "Ana")


@pytest.mark.parametrize(("name", "seed"), [("", None), ("Ana", 0)])
def test_a_bad_player_is_refused_in_words(db: EventDatabase, name: str, seed: int | None) -> None:
    individual(db)
    with db.Session() as s, s.begin(), pytest.raises(UserError):
        add_player(s, name, seed=seed)


def test_an_individual_event_registers_players_not_teams(db: EventDatabase) -> None:
    """#28: a team in an individual event would be an entrant with a board 2 nobody plays."""
    individual(db)
    with (
        db.Session() as s,
        s.begin(),
        pytest.raises(UserError, match="entrants are players: register a player, not a team"),
    ):
        add_team(s, "Blue Bar", ("Ana", "Ben"))
    with db.Session() as s:
        assert list_teams(s) == []


def test_a_players_name_is_its_entrants_name_when_edited(db: EventDatabase) -> None:
    """#28: renaming a player renames the one who plays board 1; the desk, the sheet and the
    record read that name."""
    individual(db)
    with db.Session() as s, s.begin():
        ana = add_player(s, "Ana").value
    with db.Session() as s, s.begin():
        edited = edit_team(s, ana.id, name="Ana Kovač").value
    assert (edited.name, edited.players) == ("Ana Kovač", ("Ana Kovač",))
    with db.Session() as s:
        assert list_teams(s)[0].players == ("Ana Kovač",)


def test_a_player_has_no_team_mates_to_edit(db: EventDatabase) -> None:
    individual(db)
    with db.Session() as s, s.begin():
        ana = add_player(s, "Ana").value
    with (
        db.Session() as s,
        s.begin(),
        pytest.raises(UserError, match="entrants are players: a player is edited by name"),
    ):
        edit_team(s, ana.id, players=("Ana", "Ben"))


def test_a_player_renamed_to_anothers_name_is_told_as_a_player(db: EventDatabase) -> None:
    individual(db)
    with db.Session() as s, s.begin():
        add_player(s, "Ana")
        ben = add_player(s, "Ben").value
    with (
        db.Session() as s,
        s.begin(),
        pytest.raises(UserError, match="a player named 'Ana' is already registered"),
    ):
        edit_team(s, ben.id, name="ana")
    with db.Session() as s, s.begin(), pytest.raises(UserError, match="the player's name"):
        edit_team(s, ben.id, name="  ")
