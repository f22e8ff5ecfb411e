"""The JSON API and the guard, against the real server on loopback."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import time
import urllib.request
from typing import Any

import pytest

from director.domain.rules import End, EventOptions, Level, MatchRules, Scoring, Side
from director.domain.scoring import Game
from director.domain.standings import TIE_BREAK_DEFINITIONS, match_points_definition
from director.services import games, slips
from director.services.events import get_event, update_event
from director.web.server import TableService
from tests.web.conftest import HOSTILE, hexid, pair_round, request


def test_standings_equal_the_command_line(served: tuple[TableService, str]) -> None:
    service, url = served
    match_id = pair_round(service.web.db)[0]
    with service.web.db.Session() as s, s.begin():
        games.record_game(s, match_id, Game(0, 1, Side.A, End.BEAR_OFF, level=Level.GAMMON))
    cli = subprocess.run(
        [sys.executable, "-m", "director.cli", "standings", service.web.db.target, "--json"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    answer = request(url + "api/standings")
    assert answer.status == 200
    assert answer.json() == json.loads(cli.stdout)


def test_every_tie_break_is_named_by_the_rows_own_key(served: tuple[TableService, str]) -> None:
    """The standings rows, the tie-break list and the rules name a tie-break the same way."""
    service, url = served
    pair_round(service.web.db)
    with service.web.db.Session() as s:
        options = get_event(s).options
    order = options.tie_breaks
    rows = request(url + "api/standings").json()
    row_keys = [k for k in rows[0] if k not in ("rank", "team", "match_points", "games_played")]  # type: ignore[index]
    assert row_keys and all(k.isidentifier() for k in row_keys)  # snake_case, no "-"
    listed = request(url + "api/tie-breaks").json()["tie_breaks"]  # type: ignore[index]
    rules = request(url + "api/rules").json()["tie_breaks"]  # type: ignore[index]
    for named in (listed, rules):
        assert [t["key"] for t in named] == row_keys  # the event's order, the rows' keys
        assert [t["name"] for t in named] == [tb.value for tb in order]  # the rule book's words
        assert [t["definition"] for t in named] == [TIE_BREAK_DEFINITIONS[tb] for tb in order]
    lines = request(url + "api/rules").json()["lines"]  # type: ignore[index]
    assert [line for line in lines if line.startswith("Match points:")] == [  # type: ignore[union-attr]
        match_points_definition(options.match_points)
    ]


def test_pairings_and_a_match_show_the_live_score(served: tuple[TableService, str]) -> None:
    service, url = served
    match_id = pair_round(service.web.db)[0]
    with service.web.db.Session() as s, s.begin():
        games.record_game(s, match_id, Game(0, 2, Side.B, End.BEAR_OFF, level=Level.SINGLE))
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:  # the watcher publishes within a poll
        pairings = request(url + "api/pairings").json()
        table = next((m for m in pairings["matches"] if m["id"] == match_id), None)  # type: ignore[index]
        if table is not None and table["score"] == {"A": 0, "B": 1}:
            break
        time.sleep(0.05)
    assert table is not None and table["score"] == {"A": 0, "B": 1}
    assert table["away"] == {"A": 5, "B": 4}
    detail = request(url + f"api/matches/{match_id}").json()
    assert detail["games_list"][0]["winner"] == "B"  # type: ignore[index]
    missing = request(url + "api/matches/999")
    assert missing.status == 404 and b"Traceback" not in missing.body


def test_names_travel_as_text(served: tuple[TableService, str]) -> None:
    service, url = served
    pair_round(service.web.db, hostile=True)
    names = {t["team"] for t in request(url + "api/standings").json()}  # type: ignore[union-attr, index]
    assert HOSTILE in names
    page = request(url)
    assert page.status == 200
    assert b"<img" not in page.body  # the shell carries no event data at all
    assert "script-src 'self'" in page.headers["content-security-policy"]


def test_writes_need_our_origin(served: tuple[TableService, str]) -> None:
    service, url = served
    match_id = pair_round(service.web.db)[0]
    with service.web.db.Session() as s, s.begin():
        token = slips.token_for(s, match_id, Side.A)
    slip = {"uid": hexid(), "side": "A", "device": hexid(),
            "game": {"pair": 1, "board": 1, "winner": "A", "end": "bear-off", "level": "single",
                     "cube": 1}}  # fmt: skip
    evil = request(url + f"api/slip/{token}", slip, origin="http://evil.example")
    assert evil.status == 403
    none = request(url + f"api/slip/{token}", slip, origin=None)
    assert none.status == 403
    ours = request(url + f"api/slip/{token}", slip)
    assert ours.status == 200, ours.body
    with service.web.db.Session() as s:
        assert len(slips.slips_of_match(s, str(token))[1]) == 1


def slip_of(service: TableService, url: str, scoring: Scoring) -> tuple[str, str, Any, str]:
    """A paired match of an event under `scoring` (rule 5′ on): its slip API addresses (team
    A's, team B's), the form the phone is given, and the phones' rules page as one text."""
    with service.web.db.Session() as s, s.begin():
        update_event(s, options=EventOptions(match=MatchRules(150, scoring)))
    match_id = pair_round(service.web.db)[0]
    with service.web.db.Session() as s, s.begin():
        api = url + f"api/slip/{slips.token_for(s, match_id, Side.A)}"
        other = url + f"api/slip/{slips.token_for(s, match_id, Side.B)}"
    form = request(api).json()["form"]  # type: ignore[index]
    said = " ".join(request(url + "api/rules").json()["lines"])  # type: ignore[index]
    return api, other, form, said


def flagged(**extra: object) -> dict[str, object]:
    """A phone's slip, as the page sends it (the cube is always there): B1 flagged with
    nothing borne off."""
    game = {"pair": 1, "board": 1, "winner": "A", "end": "time", "cube": 1, "loser_borne_off": 0}
    return {"uid": hexid(), "side": "A", "device": hexid(), "game": {**game, **extra}}


def test_rules_6_4_a_pin_game_slip_offers_and_takes_rule_5_prime(
    served: tuple[TableService, str],
) -> None:
    service, url = served
    api, other, form, said = slip_of(service, url, Scoring.PIN_GAME)
    assert form["agreed_level"] == {end.value: end is End.TIME for end in End}
    assert {"loser_borne_off", "loser_pips"} <= set(form["fields"]["time"])
    assert (
        "the opponent scores 3 × pip count when the flagged player has borne off no checker, "
        "1 × pip count otherwise. When both players agree, the director may score a gammon or "
        "a single instead (rule 5′)."
    ) in said
    sent = flagged(loser_pips=40, agreed_level="gammon")
    assert request(api, sent).status == 200
    answer = {"uid": sent["uid"], "device": hexid(), "agree": True}
    assert request(other + "/answer", answer).status == 200
    with service.web.db.Session() as s, s.begin():
        (pending,) = slips.pending_slips(s)
        match = slips.accept_slip(s, pending.id).value
    assert match.games[0].agreed_level is Level.GAMMON
    assert match.outcome.score.a == 80  # 2 × pip count (RULES §6.4), not the rule's 3 ×


def test_rules_6_5_a_chasing_the_girls_slip_has_no_rule_5_prime(
    served: tuple[TableService, str],
) -> None:
    service, url = served
    api, _other, form, said = slip_of(service, url, Scoring.CHASING_THE_GIRLS)
    assert not any(form["agreed_level"].values())
    assert "each game won scores 1 point" in said and "rule 5′" not in said
    refused = request(api, flagged(agreed_level="single"))
    assert refused.status == 422 and "rule 5′ does not apply" in refused.body.decode()


def test_guessed_tokens_are_refused_then_slowed(served: tuple[TableService, str]) -> None:
    _service, url = served
    statuses = [request(url + f"api/slip/{hexid()}").status for _ in range(12)]
    assert statuses[:10] == [403] * 10
    assert statuses[10:] == [429, 429]


def test_failures_never_show_a_stack_trace(served: tuple[TableService, str]) -> None:
    _service, url = served
    for answer in (
        request(url + "api/met?g=2"),
        request(url + "api/pairings?round=x"),
        request(url + "events"),
        request(url + f"api/slip/{hexid()}", b"not json", method="POST"),
        request(url + "nothing-here"),
    ):
        assert 400 <= answer.status < 500
        assert b"Traceback" not in answer.body and b'File "' not in answer.body


def test_nothing_listens_until_started(event_path: object) -> None:
    from director.store.engine import open_event

    db = open_event(str(event_path), make_backup=False)
    service = TableService(db, "127.0.0.1", 0)
    assert not service.running and service.urls == ["http://127.0.0.1:0/"]
    url = service.start()[0]
    assert request(url + "api/event").status == 200
    service.stop()
    db.close()
    try:
        request(url + "api/event")
    except OSError:
        return
    raise AssertionError("the server still answers after stop()")


def test_stopping_with_phones_listening_ends_their_streams_without_an_error(
    served: tuple[TableService, str], caplog: pytest.LogCaptureFixture
) -> None:
    """The desk turns the table service off while phones hold push streams (and the clock
    pages do, all evening): each stream ends, the phone reconnects later, and nothing is
    logged as an error (uvicorn's "Exception in ASGI application" with a CancelledError was,
    for every open stream)."""
    service, url = served
    streams = [urllib.request.urlopen(f"{url}events?ch=pairings", timeout=10) for _ in range(3)]
    for stream in streams:
        assert stream.readline() == b"retry: 1000\n"
    started = time.monotonic()
    service.stop()
    assert time.monotonic() - started < 5
    for stream in streams:
        rest = stream.read()  # to the end of the stream: the server closed it
        assert b"Traceback" not in rest
        stream.close()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], [r.getMessage() for r in errors]


def test_the_rules_page_of_an_individual_event_says_players_games_and_the_match_clock(
    served: tuple[TableService, str],
) -> None:
    """#28: the phones' rules page of an individual event read the Tandem rules (two boards per
    team, pairs, draws, one-cube pairs, a clock per game); RULES §10 instead."""
    from director.domain.rules import ClockMode, Format, TimeControl

    service, url = served
    options = EventOptions(
        match=MatchRules(match_length=5, format=Format.INDIVIDUAL),
        time_control=TimeControl(120, 12, ClockMode.DELAY),
    )
    with service.web.db.Session() as s, s.begin():
        update_event(s, options=options)
    said = " ".join(request(url + "api/rules").json()["lines"])  # type: ignore[index]
    assert "player against player, one game at a time" in said
    assert "the match ends the moment a game brings a player to 5; no draws" in said
    assert "Crawford rule: nobody doubles in the game after a player first reaches 4" in said
    assert "2 min per match point (10 min for this match) + 12 s Simple delay" in said
    assert "a flag loses the match" in said
    for tandem in ("team", "board", "pair", "draw,", "One-cube", "rule 5"):
        assert tandem not in said, tandem
