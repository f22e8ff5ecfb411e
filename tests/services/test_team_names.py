"""A look-alike of a registered team is refused by the service too (issue 14, item 15)."""

from __future__ import annotations

import pytest

from director.domain.errors import UserError
from director.services.teams import add_team, edit_team, import_teams
from director.store.engine import EventDatabase


@pytest.mark.parametrize("look_alike", ["Cafe\u0301", "CAFÉ\u200b", "\u202eＣａｆé"])
def test_a_look_alike_team_is_refused(db: EventDatabase, look_alike: str) -> None:
    with db.Session() as session, session.begin():
        add_team(session, "Café", ("Ann", "Al"))
        other = add_team(session, "Bears", ("Bo", "Bea")).value
    for attempt in (
        lambda s: add_team(s, look_alike, ("X", "Y")).value,
        lambda s: edit_team(s, other.id, name=look_alike).value,
        lambda s: import_teams(s, f"team,player1,player2\n{look_alike},X,Y\n").value,
    ):
        with pytest.raises(UserError), db.Session() as session, session.begin():
            attempt(session)


def test_a_name_is_stored_clean(db: EventDatabase) -> None:
    with db.Session() as session, session.begin():
        team = add_team(session, "\u202eCafe\u0301\u200b", ("Ann\u200e", "Al")).value
    assert team.name == "Café"
    assert team.players == ("Ann", "Al")
