"""Every report of an individual event (RULES §10, #28): players, not teams; games, not pairs
and boards; the Crawford game named in the match report. Read back from the PDFs' text."""

from __future__ import annotations

import random
import re

import pytest

from director.domain.errors import UserError
from director.domain.rules import ClockMode, EventOptions, Format, MatchRules, TimeControl
from director.domain.simulation import simulate_match
from director.services.events import update_event
from director.services.games import record_games
from director.services.rounds import pair_next_round
from director.services.teams import add_player
from director.store.engine import EventDatabase
from tests.reports.conftest import Render
from tests.reports.pdfcheck import flat, page_texts

PLAYERS = ("Ana Kovač", "Ben Ode", "Cleo Varga", "Dev Rao", "Eva Holm", "Finn Dahl")
# a Tandem word where an individual event has another: its entrants, its boards, its pairs,
# its draws and the standings' D column (RULES §10: no draws; "no draws" says so)
TANDEM_WORDS = re.compile(
    r"\bteams?\b|\bboard ?[12]\b|\bpairs?\b|\bcaptains?\b|(?<!no )\bdraws?\b|\bdrawn\b|(?-i:\bD\b)",
    re.IGNORECASE,
)


def individual_event(db: EventDatabase, rounds: int = 2) -> None:
    """Six players, `rounds` Swiss rounds played out to 5 points with the Crawford rule."""
    options = EventOptions(
        match=MatchRules(match_length=5, format=Format.INDIVIDUAL),
        time_control=TimeControl(120, 12, ClockMode.DELAY),
        rounds=3,
    )
    rng = random.Random(28)
    with db.Session() as s, s.begin():
        update_event(s, name="Thursday Individual", options=options)
        for name in PLAYERS:
            add_player(s, name)
    for _ in range(rounds):
        with db.Session() as s, s.begin():
            matches = pair_next_round(s).value.matches
            for match in matches:
                if not match.is_bye:
                    record_games(s, match.id, simulate_match(match.rules, rng, 0.5))


def texts(pdf: Render, kind: str, **options: object) -> str:
    return " ".join(flat(t) for t in page_texts(pdf(kind, **options)))


@pytest.mark.parametrize(
    "kind",
    [
        "standings",
        "crosstable",
        "pairings",
        "results",
        "teams",
        "match-report",
        "event",
        "blank-scoresheet",
    ],
)
def test_an_individual_events_reports_name_players_and_games(
    db: EventDatabase, pdf: Render, kind: str
) -> None:
    individual_event(db)
    text = texts(pdf, kind)
    assert kind == "blank-scoresheet" or any(name in text for name in PLAYERS), kind
    assert TANDEM_WORDS.findall(text) == [], kind
    if kind in ("standings", "crosstable", "teams"):
        assert "Player" in text


def test_the_standings_print_a_players_name_once(db: EventDatabase, pdf: Render) -> None:
    individual_event(db)
    text = texts(pdf, "standings")
    assert "Players equal on match points are ranked by the tie-breaks" in text
    for name in PLAYERS:
        assert text.count(name) == 1, name  # not again as the entrant's players under it


def test_the_match_report_numbers_games_and_names_the_crawford_game(
    db: EventDatabase, pdf: Render
) -> None:
    """The game table has no pair and board columns; the Crawford game (the first game after
    a player reaches 4 of 5) is named, and every game after it is post-Crawford."""
    individual_event(db, rounds=3)
    text = texts(pdf, "match-report")
    assert "# Winner End Level Cube Points" in text
    assert text.count("Crawford game: no doubling") >= 1
    assert "post-Crawford" in text or text.count("Crawford game: no doubling") >= 1


def test_board_statistics_are_refused_for_one_board(db: EventDatabase, pdf: Render) -> None:
    individual_event(db)
    with pytest.raises(UserError, match="an individual event has one board"):
        pdf("boards")
