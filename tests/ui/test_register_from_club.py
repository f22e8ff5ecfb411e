"""Registering players from the club: find a person as you type, the event keeps their id."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from director.domain.event import TeamInfo
from director.domain.rules import EventOptions
from director.services import club
from director.services.events import create_event
from director.services.teams import list_teams
from director.store.club import create_club, open_club
from director.store.engine import create_database
from director.ui.club_context import ClubContext
from director.ui.context import EventContext
from director.ui.team_dialog import AddTeamDialog

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


@pytest.fixture(scope="module")
def sim_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("register") / "empty.tandem"
    db = create_database(str(path))
    with db.Session() as s, s.begin():
        create_event(s, "Club night", EventOptions(), event_date="2026-03-05")
    db.close()
    return path


@pytest.fixture
def with_club(ctx: EventContext, tmp_path: Path) -> Iterator[EventContext]:
    path = tmp_path / "weekly.club"
    create_club(str(path)).close()
    db = open_club(str(path), make_backup=False)
    with db.Session() as s, s.begin():
        for name in ("Mark Olsen", "Anna Marks", "Zoe Lim"):
            club.add_person(s, name)
    db.close()
    ctx.club = ClubContext.open(str(path))
    yield ctx
    ctx.club.close()


def test_a_player_is_picked_from_the_club_as_you_type(
    with_club: EventContext, qtbot: QtBot
) -> None:
    dialog = AddTeamDialog(with_club)
    qtbot.addWidget(dialog)
    dialog.show()
    field = dialog.persons[0]
    qtbot.keyClicks(dialog.player1, "mar")
    assert field.model.stringList() == ["Mark Olsen #1", "Anna Marks #2"]
    field.pick(1)
    assert (dialog.player1.text(), field.person) == ("Anna Marks", 2)
    qtbot.keyClicks(dialog.player2, "Zo")
    dialog.persons[1].pick(0)
    qtbot.keyClicks(dialog.player2, "e")  # typed after the pick: a new name, not Zoe Lim
    assert dialog.persons[1].person is None
    dialog.name.setText("Blue")
    team = dialog.add()
    assert team is not None and team.players == ("Anna Marks", "Zoe Lime")
    assert team.persons[0] == 2 and team.persons[1] == 4  # the new name became person #4
    assert with_club.club is not None
    assert [h.name for h in with_club.club.read(club.search_persons, "#4")] == ["Zoe Lime"]
    assert list_teams_of(with_club)[0].persons == (2, 4)
    assert dialog.player1.text() == "" and dialog.persons[0].person is None  # ready for the next


def list_teams_of(ctx: EventContext) -> list[TeamInfo]:
    return ctx.read(list_teams)


def test_without_a_club_the_fields_are_plain_names(ctx: EventContext, qtbot: QtBot) -> None:
    dialog = AddTeamDialog(ctx)
    qtbot.addWidget(dialog)
    qtbot.keyClicks(dialog.player1, "mar")
    assert dialog.persons[0].model.stringList() == []
    dialog.name.setText("Red")
    dialog.player2.setText("Ben")
    team = dialog.add()
    assert team is not None and team.persons == (None, None)
