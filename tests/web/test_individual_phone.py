"""An individual match (RULES §10) on the players' phones: the result slip for its one board
and the pairings' game and Crawford words, in headless Chromium against the real `serve`."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from director.domain.rules import (
    ClockMode,
    End,
    EventOptions,
    Format,
    Level,
    MatchRules,
    Side,
    TimeControl,
)
from director.domain.scoring import Game
from director.services import games, matches, rounds, slips
from director.services.events import update_event
from director.services.teams import add_player
from director.store.engine import EventDatabase, open_database
from tests.web.browser import Served, click, phone, text_of, wait_for

A, B = Side.A, Side.B


@pytest.fixture
def desk(event_path: Path) -> Iterator[EventDatabase]:
    db = open_database(str(event_path))
    yield db
    db.close()


@pytest.fixture
def server(event_path: Path) -> Iterator[Served]:
    served = Served(event_path)
    yield served
    served.stop()


def crawford_match(db: EventDatabase) -> int:
    """Ana v Cleo, a match to 5 at 4–2: the next game is the Crawford game."""
    options = EventOptions(
        match=MatchRules(match_length=5, format=Format.INDIVIDUAL),
        time_control=TimeControl(120, 12, ClockMode.DELAY),
    )
    with db.Session() as s, s.begin():
        update_event(s, options=options)
        add_player(s, "Ana")
        add_player(s, "Cleo")
        (match,) = rounds.pair_next_round(s).value.matches
    for winner in (A, B, A, B, A, A):
        with db.Session() as s, s.begin():
            number = matches.get_match(s, match.id).outcome.current_pair
            game = Game(number, 1, winner, End.BEAR_OFF, level=Level.SINGLE)
            games.record_game(s, match.id, game)
    return match.id


def token_of(db: EventDatabase, match_id: int, side: Side) -> str:
    with db.Session() as s, s.begin():
        token = slips.token_for(s, match_id, side)
    assert token is not None
    return token


def test_a_slip_for_the_crawford_game_of_an_individual_match(
    desk: EventDatabase, server: Served
) -> None:
    match_id = crawford_match(desk)
    base = server.start()
    with desk.Session() as s:
        a, b = matches.get_match(s, match_id).names
    leader = a if a == "Ana" else b
    with phone() as player_a, phone() as player_b:
        player_a.get(base + f"slip/{token_of(desk, match_id, A)}")
        wait_for(player_a, lambda d: d.find_elements(By.ID, "send-slip"))
        page = text_of(player_a, "main")
        assert "Enter game 7" in page
        assert f"Crawford game: {leader} is 1-away" in page and "Board 1:" not in page
        assert not player_a.find_elements(By.CSS_SELECTOR, "input[name=board]")
        assert "null" not in text_of(player_a, "#slip-form")
        # the Crawford game: no double to pass, the cube stays at 1
        assert not player_a.find_element(
            By.CSS_SELECTOR, "input[name=end][value=pass]"
        ).is_enabled()
        # read in one step each: the page redraws on every push, and an element found in one
        # WebDriver call may be gone by the next (a stale element, seen under load)
        options = player_a.execute_script(
            "return [...document.querySelectorAll('#cube option')].map(o => o.value);"
        )
        assert options == ["1"]
        links = player_a.execute_script(
            "return [...document.querySelectorAll('#clock-links a')].map(a => a.innerText);"
        )
        assert links == ["Match clock"]
        assert "Send to the other player" in text_of(player_a, "#send-slip")
        player_a.execute_script(
            "document.querySelector(`input[name=winner][value='B']`).click();"
            "document.querySelector(`input[name=level][value='single']`).click();"
        )
        click(player_a, "#send-slip")
        wait_for(player_a, lambda d: "waiting for the other player" in d.page_source, timeout=20)
        assert "game 7:" in text_of(player_a, "article.slip")
        player_b.get(base + f"slip/{token_of(desk, match_id, B)}")
        wait_for(player_b, lambda d: d.find_elements(By.CSS_SELECTOR, "button.confirm"))
        click(player_b, "button.confirm")
        wait_for(player_b, lambda d: "waiting for the director" in d.page_source, timeout=20)
        with desk.Session() as s, s.begin():
            (pending,) = slips.pending_slips(s)
            slips.accept_slip(s, pending.id)
        # no figure is measured here (test_browser times the push): room for a busy machine
        wait_for(player_a, lambda d: "Enter game 8" in text_of(d, "main"), timeout=20)
        player_a.get(base)  # the pairings: the game being played, post-Crawford
        shown = f'article[data-match="{match_id}"]'
        wait_for(player_a, lambda d: "game 8" in text_of(d, shown), timeout=20)
    with desk.Session() as s:
        assert matches.get_match(s, match_id).outcome.score.b == 3


def test_the_phone_pages_of_an_individual_event_say_player_not_team(
    desk: EventDatabase, server: Served
) -> None:
    """#28: the navigation, the find-me page, the standings and the crosstable of an individual
    event said "My team", "Find my team", "Type your team's name" and headed their column
    Team; each says player words instead (the Tandem pages are unchanged: test_browser)."""
    crawford_match(desk)
    base = server.start()
    with phone() as ana:
        ana.get(base + "team")
        wait_for(ana, lambda d: "Find me" in text_of(d, "nav"))
        assert "team" not in text_of(ana, "nav").lower()
        assert "Find me" in text_of(ana, "label[for=find]")
        assert ana.find_element(By.ID, "find").get_attribute("placeholder") == "your name"
        assert "Type your name." in text_of(ana, "main")
        for page, table in (("standings", "#standings"), ("crosstable", "#crosstable")):
            ana.get(base + page)
            wait_for(ana, lambda d, t=table: d.find_elements(By.CSS_SELECTOR, f"{t} th"))
            heads = [h.text for h in ana.find_elements(By.CSS_SELECTOR, f"{table} th")]
            assert "Player" in heads and "Team" not in heads, (page, heads)


# a Tandem word where an individual event has another: its entrants, its second board, its
# pairs and draws (RULES §10: one board, game after game, no draws)
TANDEM_WORDS = re.compile(
    r"\bteam'?s?\b|\bboards?\b|\bpairs?\b|(?<!no )\bdraws?\b|(?-i:\bD\b)|\bboth\b",
    re.IGNORECASE,
)


def test_no_phone_page_of_an_individual_event_speaks_of_teams_boards_pairs_or_draws(
    desk: EventDatabase, server: Served
) -> None:
    """#28: the standings' tie-break definitions said "the team's own match points" and
    "among the teams", the match points "draw 1", the crosstable's legend "D draw", the match
    equity page "Tandem match equity table", a match's page headed its games "pair" and
    "board". Every page of an individual event is read as a player sees it."""
    match_id = crawford_match(desk)
    base = server.start()
    found: dict[str, list[str]] = {}
    with phone() as ana:
        for path, ready in (
            ("", "article[data-match]"),
            ("standings", "#standings td"),
            ("crosstable", "#crosstable td"),
            ("rules", "main li"),
            ("met", "#no-met, #met td"),
            (f"match/{match_id}", "main table td"),
        ):
            ana.get(base + path)
            wait_for(ana, lambda d, r=ready: d.find_elements(By.CSS_SELECTOR, r), timeout=20)
            text = text_of(ana, "main")
            words = TANDEM_WORDS.findall(text)
            if words:
                found[path or "pairings"] = [
                    line for line in text.splitlines() if TANDEM_WORDS.search(line)
                ]
        # the match equity table models Tandem pairs (RULES §9): not offered to players
        assert not ana.find_element(By.CSS_SELECTOR, 'nav a[href="/met"]').is_displayed()
    assert found == {}, "\n".join(f"{k}: {v}" for k, v in found.items())
