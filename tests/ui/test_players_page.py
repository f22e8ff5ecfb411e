"""The Players page: the Teams page of an individual event (RULES §10), real widgets over a real
event file, checked by reopening it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from director.domain.event import TeamInfo
from director.domain.rules import ClockMode, EventOptions, Format, MatchRules, TimeControl
from director.services.events import update_event
from director.services.matches import get_match
from director.services.teams import add_player
from director.ui.context import EventContext
from director.ui.csv_import_dialog import HEADERS
from director.ui.event_view import EventView
from director.ui.teams_page import TeamsPage
from tests.ui.app_helpers import OFFSCREEN_NOISE, event_context, shown_texts, stored_teams

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)

INDIVIDUAL = EventOptions(
    match=MatchRules(match_length=7, format=Format.INDIVIDUAL),
    time_control=TimeControl(120, 12, ClockMode.DELAY),
)


@pytest.fixture
def ctx(event_path: Path) -> Iterator[EventContext]:
    with event_context(event_path) as context:
        context.change(update_event, options=INDIVIDUAL)
        yield context


@pytest.fixture
def page(qtbot: QtBot, ctx: EventContext) -> TeamsPage:
    widget = TeamsPage(ctx)
    qtbot.addWidget(widget)
    widget.resize(1200, 700)
    widget.show()
    return widget


def alone(entrant: TeamInfo) -> str:
    """The one player an individual entrant has, on board 1 (and nobody on another board)."""
    first, *others = entrant.players
    assert not any(others)
    return first


def shown_headers(page: TeamsPage) -> list[str]:
    model, header = page.proxy, page.table.horizontalHeader()
    return [
        str(model.headerData(c, header.orientation()))
        for c in range(model.columnCount())
        if not page.table.isColumnHidden(c)
    ]


def test_an_individual_event_lists_players_not_teams(qtbot: QtBot, page: TeamsPage) -> None:
    titles = [w.text() for w in page.findChildren(QLabel) if w.isVisibleTo(page)]
    assert "Players" in titles and "No players yet" in titles
    assert any("player, and optionally club, rating, seed" in t for t in titles)
    assert page.add_button.text() == "Add players…"
    page.ctx.change(add_player, "Ana", club="North")
    assert shown_headers(page) == ["Seed", "Player", "Club", "Rating", "Paid", "Present", "Status"]
    assert page.counts.text() == "1 player · 0 present · 0 paid"
    assert "players" in page.search.placeholderText()
    assert page.show_choice.currentText() == "All players" and page.proxy.rowCount() == 1


def test_the_add_dialog_registers_players_one_after_another(
    qtbot: QtBot, page: TeamsPage, event_path: Path
) -> None:
    dialog = page.add_teams()
    assert dialog.windowTitle() == "Add players"
    qtbot.keyClicks(dialog.name, "Ana Kovac")
    qtbot.keyClicks(dialog.club, "North")
    qtbot.keyClicks(dialog.rating, "1650")
    dialog.add_button.click()
    assert not dialog.error.isVisible()
    assert dialog.name.text() == "" and dialog.club.text() == "North"  # the club often repeats
    qtbot.keyClicks(dialog.name, "ana  kovac")
    dialog.add_button.click()
    assert "already registered" in dialog.error.text()
    dialog.name.clear()
    qtbot.keyClicks(dialog.name, "Ben")
    dialog.add_button.click()
    stored = stored_teams(event_path)
    assert [(t.name, alone(t), t.club, t.rating) for t in stored] == [
        ("Ana Kovac", "Ana Kovac", "North", 1650),
        ("Ben", "Ben", "North", None),
    ]
    assert page.proxy.rowCount() == 2


def test_renaming_a_player_renames_the_one_on_the_board(page: TeamsPage, event_path: Path) -> None:
    page.ctx.change(add_player, "Ana")
    name = [str(page.proxy.headerData(c, page.table.horizontalHeader().orientation()))
            for c in range(page.proxy.columnCount())].index("Player")  # fmt: skip
    assert page.proxy.setData(page.proxy.index(0, name), "Ana Kovac")
    (ana,) = stored_teams(event_path)
    assert (ana.name, alone(ana)) == ("Ana Kovac", "Ana Kovac")


def test_a_player_list_is_imported_with_its_preview_in_players(
    qtbot: QtBot, page: TeamsPage, tmp_path: Path, event_path: Path
) -> None:
    path = tmp_path / "players.csv"
    path.write_text("player,club,rating,seed\nAna,North,1650,\nBen,,,\n", encoding="utf-8")
    dialog = page.import_csv(str(path))
    assert dialog is not None
    assert dialog.windowTitle() == "Import players from players.csv"
    assert dialog.import_button.text() == "Import 2 players"
    shown = [
        str(dialog.model.headerData(c, dialog.table.horizontalHeader().orientation()))
        for c in range(len(HEADERS))
        if not dialog.table.isColumnHidden(c)
    ]
    assert shown == ["Line", "Player", "Club", "Rating", "Seed", "Check"]
    with qtbot.waitSignal(dialog.accepted):
        dialog.import_button.click()
    assert page.messages.text == "Imported 2 players."
    assert [alone(t) for t in stored_teams(event_path)] == ["Ana", "Ben"]


def test_the_navigation_says_players_and_the_event_is_individual(
    qtbot: QtBot, ctx: EventContext
) -> None:
    view = EventView(ctx)
    qtbot.addWidget(view)
    assert view.navigation.item(0).text() == "Players"
    assert view.event_summary.text().startswith("Individual · match to 7")
    assert "2:00 a point + 12 s delay" in view.event_summary.text()


def test_rounds_and_standings_name_players(qtbot: QtBot, ctx: EventContext) -> None:
    """#28: the rounds and standings of an individual event name players, with no board
    columns or board statistics (one board: the player is the entrant)."""
    from director.services.rounds import pair_next_round
    from director.ui.rounds_page import RoundsPage
    from director.ui.standings_page import BOARDS_TAB, StandingsPage

    for name in ("Ana", "Ben", "Cleo", "Dev"):
        ctx.change(add_player, name)
    ctx.change(pair_next_round)
    rounds_page = RoundsPage(ctx)
    qtbot.addWidget(rounds_page)
    rounds_page.show()
    horizontal = Qt.Orientation.Horizontal
    headers = [rounds_page.model.headerData(c, horizontal) for c in range(6)]
    assert headers[1] == "Player A" and headers[3] == "Player B"
    standings_page = StandingsPage(ctx)
    qtbot.addWidget(standings_page)
    standings_page.show()
    model, table = standings_page.model, standings_page.table
    shown = [
        model.headerData(c, horizontal)
        for c in range(model.columnCount())
        if not table.isColumnHidden(c)
    ]
    assert shown[:3] == ["Rank", "Player", "MP"]
    assert standings_page.summary.text().endswith("4 players")
    assert not standings_page.tabs.isTabVisible(BOARDS_TAB)


# a Tandem word where an individual event has another (RULES §10: players, one board, games,
# no draws; "no draws" itself says so). To pair players is right: a pair of games is not.
TANDEM_WORDS = re.compile(
    r"\bteam'?s?\b|\bboards? ?2\b|\bboth boards\b|\bpair \d|(?<!no )\bdraws?\b|\bdrawn\b"
    r"|^D$|\bcaptains?\b",
    re.IGNORECASE,
)


def test_no_page_of_an_individual_event_speaks_of_teams_pairs_or_draws(
    qtbot: QtBot, ctx: EventContext
) -> None:
    """#28: the standings' tie-break definitions said "the team's own match points" and
    "among the teams", the match points "draw 1", and the table had a D (drawn) column,
    though an individual match is never drawn. Every page of the event is read as shown."""
    from director.services.rounds import pair_next_round

    for name in ("Ana", "Ben", "Cleo", "Dev"):
        ctx.change(add_player, name)
    ctx.change(pair_next_round)
    view = EventView(ctx)
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    found: dict[str, list[str]] = {}
    for index in range(view.navigation.count()):
        name = view.navigation.item(index).text()
        if view.navigation.item(index).isHidden():
            continue
        view.show_page(index)
        page = view.page(index)
        qtbot.waitUntil(page.isVisible)
        words = [t for t in shown_texts(page) if TANDEM_WORDS.search(t)]
        if words:
            found[name] = words
    assert found == {}, "\n".join(f"{k}: {v}" for k, v in found.items())


def test_the_projector_of_an_individual_event_names_players_and_no_draw(
    qtbot: QtBot, ctx: EventContext
) -> None:
    """#28: the public display headed an individual round "Team A"/"Team B", said "pair 2"
    of a match under way, and the standings "Team" and "W-D-L"."""
    from director.domain.rules import End, Level, Side
    from director.domain.scoring import Game
    from director.services import games
    from director.services.rounds import pair_next_round
    from director.ui.public_display import PublicDisplay

    for name in ("Ana", "Ben", "Cleo", "Dev"):
        ctx.change(add_player, name)
    first, second = ctx.change(pair_next_round).matches
    ctx.change(games.record_game, first.id, Game(1, 1, Side.A, End.BEAR_OFF, level=Level.SINGLE))
    for _ in range(4):  # the other match ends 7-0 with gammons: round 1 counts in the standings
        number = ctx.read(get_match, second.id).outcome.current_pair
        ctx.change(
            games.record_game,
            second.id,
            Game(number, 1, Side.B, End.BEAR_OFF, level=Level.GAMMON),
        )
    display = PublicDisplay(ctx)
    qtbot.addWidget(display)
    display.refresh()
    texts = []
    for slide in display.slides:
        texts += [slide.title, slide.footer, *(c.title for c in slide.columns)]
        texts += [cell for row in slide.rows for cell in row]
    assert any("Player A" in t for t in texts) and any("game 2" in t for t in texts)
    found = [t for t in texts if TANDEM_WORDS.search(t) or "W-D-L" in t]
    assert found == []
