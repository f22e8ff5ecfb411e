"""The GUI's one door for changes: commit, tell the pages, back up at round milestones."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from director.domain.changes import Area, Changes
from director.domain.errors import ConflictError, UserError
from director.domain.rules import End, Level, Side
from director.domain.scoring import Game
from director.services import games, rounds
from director.services.backups import list_backups
from director.services.teams import add_team, edit_team
from director.store.engine import open_event
from director.ui.context import EventContext


def test_changes_commit_signal_and_back_up_when_a_round_is_paired_and_finished(
    qtbot: QtBot, event_path: Path
) -> None:
    ctx = EventContext(open_event(str(event_path), make_backup=False))
    for i in range(2):
        ctx.change(add_team, f"Team {i}", (f"a{i}", f"b{i}"))
    with qtbot.waitSignal(ctx.changed) as signal:
        info = ctx.change(rounds.pair_next_round)
    assert signal.args == [Changes.of(Area.ROUNDS)]
    assert [b.reason for b in list_backups(event_path)] == ["round 1 paired"]
    match = info.matches[0].id
    win = Game(0, 1, Side.A, End.BEAR_OFF, level=Level.BACKGAMMON, cube=2)
    ctx.change(games.record_game, match, win)
    assert len(list_backups(event_path)) == 1  # the round is not finished yet
    loss = Game(0, 2, Side.B, End.RESIGN, level=Level.SINGLE)
    ctx.change(games.record_game, match, loss)
    assert [b.reason for b in list_backups(event_path)] == ["round 1 finished", "round 1 paired"]
    ctx.close()


def test_a_refused_change_raises_and_emits_nothing(qtbot: QtBot, event_path: Path) -> None:
    ctx = EventContext(open_event(str(event_path), make_backup=False))
    ctx.change(add_team, "Blue", ("a", "b"))
    with qtbot.assertNotEmitted(ctx.changed), pytest.raises(UserError, match="already"):
        ctx.change(add_team, "blue", ("c", "d"))
    ctx.close()


def test_the_pages_hear_what_the_service_says_it_changed(qtbot: QtBot, event_path: Path) -> None:
    """The caller names nothing: an accepted team edit tells the teams, and a refusal because
    another station edited the team first tells them too, so the page shows that edit."""
    ctx = EventContext(open_event(str(event_path), make_backup=False))
    team = ctx.change(add_team, "Blue", ("a", "b"))
    with qtbot.waitSignal(ctx.changed) as signal:
        ctx.change(edit_team, team.id, version=team.version, club="Elsewhere")
    assert signal.args == [Changes.of(Area.TEAMS)]
    with (
        qtbot.waitSignal(ctx.changed) as signal,
        pytest.raises(ConflictError, match="another station"),
    ):
        ctx.change(edit_team, team.id, version=team.version, club="Stale view")
    assert signal.args == [Changes.of(Area.TEAMS)]
    ctx.close()
