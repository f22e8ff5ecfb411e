"""The pairing preview: each team's score, seed and float; check-in drives who is paired and
the preview names who is left out (RULES §8); a late arrival is paired once checked in."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from director.domain.rules import End, Level, Side
from director.domain.scoring import Game
from director.services import games, matches, rounds
from director.services.teams import add_team, edit_team, list_teams
from director.ui.context import EventContext
from director.ui.round_dialogs import PREVIEW_HEADERS, PairRoundDialog
from director.ui.rounds_page import RoundsPage
from tests.event_files import seed_teams
from tests.ui.app_helpers import event_context, shown_page

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


@pytest.fixture
def ctx(event_path: Path) -> Iterator[EventContext]:
    seed_teams(event_path, 6)
    with event_context(event_path) as context:
        yield context


@pytest.fixture
def page(qtbot: QtBot, ctx: EventContext) -> RoundsPage:
    return shown_page(qtbot, RoundsPage(ctx))


def open_preview(qtbot: QtBot, page: RoundsPage) -> PairRoundDialog:
    qtbot.mouseClick(page.pair_button, Qt.MouseButton.LeftButton)
    dialog = page.dialog
    assert isinstance(dialog, PairRoundDialog)
    return dialog


def cells(dialog: PairRoundDialog) -> list[dict[str, str]]:
    table = dialog.table
    out = []
    for row in range(table.rowCount()):
        values = [table.item(row, c).text() for c in range(table.columnCount())]
        out.append(
            dict(
                zip(
                    ["Table", "A", "MP A", "Seed A", "B", "MP B", "Seed B", "Float"],
                    values,
                    strict=True,
                )
            )
        )
    return out


def set_present(ctx: EventContext, *names: str) -> None:
    for team in ctx.read(list_teams):
        if team.name in names:
            ctx.change(edit_team, team.id, present=True)


def test_only_checked_in_teams_are_paired_and_the_others_are_named(
    qtbot: QtBot, page: RoundsPage, ctx: EventContext
) -> None:
    set_present(ctx, "Team 1", "Team 2", "Team 3", "Team 4")
    dialog = open_preview(qtbot, page)
    paired = {c["A"] for c in cells(dialog)} | {c["B"] for c in cells(dialog)}
    assert paired == {"Team 1", "Team 2", "Team 3", "Team 4"}
    assert dialog.left_out.isVisible()
    assert dialog.left_out.text() == "Not paired, not checked in (2): Team 5, Team 6"
    qtbot.mouseClick(dialog.publish_button, Qt.MouseButton.LeftButton)
    stored = ctx.read(rounds.get_round, 1)
    assert {t for m in stored.matches for t in (m.team_a.name, m.names[1])} == paired


def test_the_preview_shows_score_seed_and_float(
    qtbot: QtBot, page: RoundsPage, ctx: EventContext
) -> None:
    ctx.change(rounds.pair_next_round)
    for match in ctx.read(matches.list_matches, 1):  # team A wins every table 8-0
        for board in (1, 2):
            game = Game(1, board, Side.A, End.BEAR_OFF, cube=4, level=Level.SINGLE)
            ctx.change(games.record_game, match.id, game)
    # a late arrival in round 2: checked in with the others, so paired
    ctx.change(add_team, "Late Team", ("Lia", "Leo"))
    set_present(ctx, *[t.name for t in ctx.read(list_teams)])
    dialog = open_preview(qtbot, page)
    assert [dialog.table.horizontalHeaderItem(c).text() for c in range(8)] == list(PREVIEW_HEADERS)
    lines = cells(dialog)
    seeds = {t.name: str(t.seed) for t in ctx.read(list_teams)}
    names = [name for line in lines for name in (line["A"], line["B"])]
    assert "Late Team" in names and not dialog.left_out.isVisible()
    for line in lines:
        assert line["Seed A"] == seeds[line["A"]]
        if line["B"] != "bye":
            assert line["Seed B"] == seeds[line["B"]]
        if line["B"] != "bye" and line["MP A"] != line["MP B"]:
            down = "A" if float(line["MP A"]) > float(line["MP B"]) else "B"
            assert line["Float"].startswith(f"{down} floats down")
        else:
            assert line["Float"] == ""
    assert any(line["Float"] for line in lines)  # 3 winners, 4 others: someone floats
