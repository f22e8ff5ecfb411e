"""Registering players in an individual event (RULES §10): one player per entrant."""

from __future__ import annotations

import pytest

from director.domain.errors import UserError
from director.domain.rules import ClockMode, EventOptions, Format, MatchRules, TimeControl
from director.services.events import update_event
from director.services.teams import add_player, export_teams, list_teams
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
