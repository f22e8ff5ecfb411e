"""Flow: a 24-player knockout night with main, consolation and last chance (#29, RULES §11)
run from the app: New event with the Individual format, Knockout and the club's plan imported
from its JSON (main 7/9/11, consolation 5/7, last chance 5) → 24 players from a player list →
the Rounds page pairs the ready matches again and again as matches finish (the first batch
entered at the desk, the others at other stations), each new match at a free table and to its
bracket round's length → until every bracket is played out; the draw sheets print every
bracket, the phones' brackets give each player their next match, and the independent checker
agrees with the file on disk."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from director.domain.changes import Area, Changes
from director.domain.rules import Format, PairingSystem
from director.domain.simulation import simulate_match
from director.services import rounds
from director.services.bracket_pairing import draw_state
from director.services.games import record_games
from director.services.matches import get_match, list_matches
from director.services.reports import render
from director.store.engine import open_database
from director.ui.desk.match_desk import MatchDeskPage
from director.ui.event_dialog import EventDialog
from director.ui.main_window import MainWindow
from director.ui.round_dialogs import PairRoundDialog
from director.ui.rounds_page import RoundsPage
from director.ui.teams_page import TeamsPage
from director.web import views
from tests.e2e.desk_driver import click, enter_game
from tests.reports.pdfcheck import page_texts
from tests.ui.app_helpers import OFFSCREEN_NOISE, throwaway_settings

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)

PLAN = {
    "name": "club night",
    "brackets": [
        {"name": "main", "lengths": [7, 9, 11]},
        {"name": "consolation", "lengths": [5, 7],
         "feeds": [{"source": "main", "round": 1, "into": 1}]},
        {"name": "last-chance", "lengths": [5],
         "feeds": [{"source": "consolation", "round": 1, "into": 1}]},
    ],
}  # fmt: skip
LENGTHS = {b["name"]: b["lengths"] for b in PLAN["brackets"]}  # type: ignore[index, union-attr]
NAMES = [f"Player {chr(65 + i)}" for i in range(23)] + ["R&D <Kai>"]


def test_a_24_player_night_with_main_consolation_and_last_chance(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = MainWindow(throwaway_settings(tmp_path))
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()

    window.start.new_button.click()
    dialog = window.findChild(EventDialog)
    assert dialog is not None
    qtbot.keyClicks(dialog.name, "Friday Knockout")
    form = dialog.options_form
    form.format.setCurrentIndex(form.format.findData(Format.INDIVIDUAL.value))
    form.pairing_system.setCurrentIndex(form.pairing_system.findData(PairingSystem.KNOCKOUT.value))
    plan_file = tmp_path / "club-night.json"
    plan_file.write_text(json.dumps(PLAN), encoding="utf-8")
    assert dialog.plan_chooser.import_file(str(plan_file))
    dialog.set_path(str(tmp_path / "friday"))
    with qtbot.waitSignal(dialog.finished):
        dialog.ok_button.click()
    event_file = tmp_path / "friday.tandem"
    assert window.view is not None and window.ctx is not None

    players_page = window.view.page(0)
    assert isinstance(players_page, TeamsPage)
    csv = tmp_path / "players.csv"
    rows = "".join(f"{n},Club,{1800 - i}\n" for i, n in enumerate(NAMES))
    csv.write_text("player,club,rating\n" + rows, "utf-8")
    preview = players_page.import_csv(str(csv))
    assert preview is not None and not preview.bad_rows
    with qtbot.waitSignal(preview.finished):
        preview.import_button.click()

    rng = random.Random(29)
    other = open_database(str(event_file))  # the other stations entering results
    batches = 0
    checked_phones = False
    try:
        while True:
            window.show_page(1)
            rounds_page = window.view.page(1)
            assert isinstance(rounds_page, RoundsPage)
            assert rounds_page.pair_button.text() == "Pair ready matches…"
            click(qtbot, rounds_page.pair_button)
            pair_dialog = rounds_page.dialog
            if pair_dialog is None:  # nothing left: the page says why
                assert "every bracket is played out" in rounds_page.messages.text
                break
            assert isinstance(pair_dialog, PairRoundDialog)
            click(qtbot, pair_dialog.publish_button)
            batches += 1
            model = rounds_page.model
            shown = [model.match_at(r) for r in range(model.rowCount())]
            paired = [m for m in shown if m.team_b is not None]
            busy = [m.table for m in paired]
            assert len(busy) == len(set(busy))  # one match per table
            if not checked_phones and len(paired) > 1:  # the phones: my next match
                with other.Session() as s:
                    phones = views.brackets(s)
                for entrant in phones["entrants"]:
                    nxt = entrant["next"]
                    mine = [m for m in paired if entrant["id"] in (m.team_a.id, m.team_b.id)]
                    if mine:
                        assert nxt["table"] == mine[0].table and nxt["ready"]
                checked_phones = batches > 1
            for m in paired:
                lengths = LENGTHS[str(m.bracket)]  # its bracket round's (the last holds)
                assert m.rules.match_length == lengths[min(m.bracket_round or 1, len(lengths)) - 1]
                games = simulate_match(m.rules, rng, 0.5)
                if batches == 1 and m is paired[0]:  # entered at the desk
                    window.ctx.match_requested.emit(m.id)
                    desk = window.view.page(2)
                    assert isinstance(desk, MatchDeskPage) and desk.match_id == m.id
                    for game in games:
                        enter_game(qtbot, desk, game)
                    assert desk.match is not None and desk.match.outcome.finished
                    continue
                with other.Session() as s, s.begin():
                    record_games(s, m.id, games)
                    assert get_match(s, m.id).outcome.finished
            window.ctx.changed.emit(Changes.of(Area.RESULTS))  # as the server watch tells
        window.close()

        with other.Session() as s:
            state = draw_state(s)
            stored = list_matches(s)
            violations = rounds.check_pairings(s)
            sheets = render(s, "bracket")
    finally:
        other.close()
    assert state.progress.complete and violations == []
    assert {m.bracket for m in stored} == {"main", "consolation", "last-chance"}
    assert batches >= 5
    texts = [" ".join(t.split()) for t in page_texts(sheets)]
    assert [t.split(" bracket")[0].split()[-1] for t in texts] == ["Main", "Consolation", "chance"]
    assert all(name in " ".join(texts) for name in NAMES)
    for bracket in ("main", "consolation", "last-chance"):
        places = state.progress.places(bracket)
        assert places.winner is not None and len(places.third) == 2
