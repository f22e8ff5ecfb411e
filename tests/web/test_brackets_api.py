"""The brackets on the phones (#29, RULES §11): `/api/brackets` and its push channel give every
bracket with its rounds, lengths, names, scores and byes, and each entrant's next match and
where a loss sends them; the `/brackets` page shows them."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.orm import Session

from director.domain.brackets.draw import MatchKey, Status
from director.domain.brackets.plan import PLANS, ready_made
from director.domain.errors import UserError
from director.domain.rules import EventOptions, PairingSystem, Side
from director.services import games, rounds
from director.services.bracket_pairing import draw_state
from director.services.brackets import set_plan
from director.services.events import create_event, get_event, update_event
from director.services.teams import add_team
from director.store.engine import EventDatabase, create_database, open_database
from director.web import views
from director.web.server import TableService
from tests.web.conftest import HOSTILE, request
from tests.web.test_clock_page import wait_for


def knockout_night(db: EventDatabase) -> list[int]:
    with db.Session() as s, s.begin():
        options = get_event(s).options
        update_event(s, options=replace(options, pairing_system=PairingSystem.KNOCKOUT))
        ids = [add_team(s, HOSTILE if i == 1 else f"Team {i}", (f"P{i}a", f"P{i}b")).value.id
               for i in range(1, 6)]  # fmt: skip
        set_plan(s, ready_made("consolation"))
        first = rounds.pair_next_round(s).value
        match = next(m for m in first.matches if m.team_b is not None)
        games.set_forfeit(s, match.id, Side.B, "did not show")
    return ids


def test_the_brackets_answer_every_bracket_and_each_players_next_match(
    served: tuple[TableService, str],
) -> None:
    """5 players: seeds 1-3 have byes; 4 beats 5 by forfeit; seeds 2 and 3 meet at once (at
    table 2, paired with round 1)."""
    service, url = served
    ids = knockout_night(service.web.db)
    answer = request(url + "api/brackets")
    assert answer.status == 200
    data: Any = answer.json()
    assert data["knockout"] is True
    assert [b["name"] for b in data["brackets"]] == ["main", "consolation"]
    main = data["brackets"][0]
    assert [(r["round"], r["title"], r["length"]) for r in main["rounds"]] == [
        (1, "Quarter-final", 7), (2, "Semi-final", 7), (3, "Final", 9),
    ]  # fmt: skip
    first = main["rounds"][0]["matches"]
    assert first[0]["players"][0]["name"] == HOSTILE and first[0]["bye"]  # as typed, in JSON
    played = first[1]
    assert [p["id"] for p in played["players"]] == [ids[3], ids[4]]
    assert played["winner"] == ids[3] and played["forfeit"] and played["status"] == "done"
    nxt = {e["id"]: e["next"] for e in data["entrants"]}
    assert nxt[ids[1]] == {
        "match": "main round 2 match 2", "ready": True, "table": 2,
        "opponent": "Team 3", "if_lost": "consolation round 1 match 2",
        "if_lost_opponent": None,  # who meets them there is not known yet
    }  # fmt: skip
    assert nxt[ids[4]]["match"] == "consolation round 1 match 1" and not nxt[ids[4]]["ready"]
    # both players known, not paired yet: no table until the director pairs it
    assert nxt[ids[0]] == {
        "match": "main round 2 match 1", "ready": True, "table": None,
        "opponent": "Team 4", "if_lost": "consolation round 1 match 1",
        "if_lost_opponent": "Team 5",  # lost by forfeit: already waits there
    }  # fmt: skip
    service.notify()  # as the desk does after a change: the hub pushes the brackets channel
    wait_for(lambda: request(url + "api/latest?ch=brackets").json()["brackets"]["brackets"])  # type: ignore[index]
    latest: Any = request(url + "api/latest?ch=brackets").json()
    assert latest["brackets"] == request(url + "api/brackets").json()


def test_a_swiss_event_has_no_brackets(served: tuple[TableService, str]) -> None:
    _, url = served
    data: Any = request(url + "api/brackets").json()
    assert data == {"event": data["event"], "knockout": False, "brackets": [], "entrants": []}


def test_the_brackets_page_is_served(served: tuple[TableService, str]) -> None:
    _, url = served
    page = request(url + "brackets")
    assert page.status == 200 and b'data-page="brackets"' in page.body


def test_the_brackets_page_shows_each_bracket_and_my_next_match(
    event_path: Path, tmp_path: Path
) -> None:
    """In a real browser: the main bracket's columns with their lengths, a name typed as it was
    (markup shown as text), and, once a player finds themself, their next match and where a
    loss sends them."""
    from selenium.webdriver.common.by import By

    from tests.web.browser import Served, phone, text_of, wait_for

    db = open_database(str(event_path))
    try:
        knockout_night(db)
    finally:
        db.close()
    served = Served(event_path)
    try:
        url = served.start()
        with phone() as driver:
            driver.get(url + "brackets")
            wait_for(driver, lambda d: "Main bracket" in text_of(d, "main"))
            page = text_of(driver, "main")
            assert "Quarter-final · to 7" in page and "Final · to 9" in page
            assert HOSTILE in page  # as typed: no element made of it
            assert not driver.execute_script("return window.pwned === 1")
            box = driver.find_element(By.ID, "find")
            box.send_keys("Team 2")
            wait_for(driver, lambda d: "Next:" in text_of(d, "p.next"))
            assert text_of(driver, "p.next") == (
                "Team 2: Next: main round 2 match 2, table 2 against Team 3, now. "
                "If you lose: consolation round 1 match 2 "
                "(opponent to be decided, maybe a bye)."
            )
            box.clear()
            box.send_keys("R&D")  # seed 1: a bye, then a round-one loser's slot where 5 waits
            wait_for(driver, lambda d: "Next:" in text_of(d, "p.next"))
            assert text_of(driver, "p.next") == (
                f"{HOSTILE}: Next: main round 2 match 1 against Team 4, next, when the director "
                "pairs it. If you lose: consolation round 1 match 1 against Team 5."
            )
            driver.save_screenshot(str(tmp_path / "brackets.png"))
    finally:
        served.stop()


@pytest.mark.parametrize("plan", [p.name for p in PLANS])
def test_the_phones_next_match_and_where_a_loss_sends_hold_for_every_plan(
    plan: str, tmp_path: Path
) -> None:
    """#29 point 5: the phones' "my next match" and "if I lose" (`/api/brackets`) for each
    ready-made plan on a field of 11 (five byes), the night paired and played through the event
    file as the desk does: each match a player is told is theirs is the one they are paired in,
    and a loser's next match is the one the phones named before the result (none when they
    said a loss ends the night)."""
    db = create_database(str(tmp_path / "night.tandem"))
    rng = random.Random(plan)
    with db.Session() as s, s.begin():
        create_event(s, "Night", EventOptions(pairing_system=PairingSystem.KNOCKOUT))
        for i in range(1, 12):
            add_team(s, f"Team {i}", (f"P{i}a", f"P{i}b"))
        set_plan(s, ready_made(plan))
    played = byes = 0
    while True:
        with db.Session() as s, s.begin():
            try:
                batch = rounds.pair_next_round(s).value
            except UserError as done:
                assert "every bracket is played out" in str(done)
                break
            told = {e["id"]: e["next"] for e in views.brackets(s)["entrants"]}
            for m in batch.matches:
                if m.team_b is None:
                    byes += 1
                    continue
                a, b = m.team_a.id, m.team_b.id
                key = f"{m.bracket} round {m.bracket_round} match {m.slot}"
                assert told[a]["match"] == told[b]["match"] == key
                assert told[a]["ready"] and told[a]["table"] == m.table
                assert (told[a]["opponent"], told[b]["opponent"]) == (m.team_b.name, m.team_a.name)
            for m in batch.matches:
                if m.team_b is None:
                    continue
                side = rng.choice(list(Side))  # the loser did not show: a win for the other
                loser = m.team_a.id if side is Side.A else m.team_b.id
                promised = {e["id"]: e["next"] for e in views.brackets(s)["entrants"]}[loser]
                games.set_forfeit(s, m.id, side, "did not show")
                played += 1
                now = {e["id"]: e["next"] for e in views.brackets(s)["entrants"]}[loser]
                expected = through_byes(s, promised["if_lost"], loser)
                assert now["match"] == expected, (plan, loser, promised, now)
    db.close()
    assert played >= 10 and byes >= 5


def through_byes(s: Session, named: str | None, player: int) -> str | None:
    """The match `player` plays next from the slot the phones named: that slot, or where its
    bye takes them when nobody came to meet them there (the other feeder had a bye too)."""
    if named is None:
        return None
    bracket, _, rnd, _, number = named.split()
    state = draw_state(s)
    key: MatchKey | None = MatchKey(bracket, int(rnd), int(number))
    while key is not None:
        status, players, winner = state.progress.of(key)
        assert player in players, (named, key, players)
        if status is not Status.BYE or winner != player:
            return str(key)
        parent = state.draw.nodes[state.draw.index[key]].parent
        key = state.draw.nodes[parent].key if parent is not None else None
    return None
