"""Numbers from the network (issue #26.8), against the real server on loopback: each odd one
is one clear 4xx, never a 500 with a traceback in the log."""

from __future__ import annotations

import logging

import pytest

from director.domain.rules import Side
from director.services import slips
from director.web.server import TableService
from tests.web.conftest import hexid, pair_round, request

GAME = {"pair": 1, "board": 1, "winner": "A", "end": "bear-off", "level": "single", "cube": 1}


def test_odd_numbers_are_refused_in_one_sentence(
    served: tuple[TableService, str], caplog: pytest.LogCaptureFixture
) -> None:
    service, url = served
    match_id = pair_round(service.web.db)[0]
    with service.web.db.Session() as s, s.begin():
        token = slips.token_for(s, match_id, Side.A)
    slip = url + f"api/slip/{token}"
    clock = url + f"api/clock/{token}/1/log"
    first_mover = {"kind": "first-mover", "t_ns": "9" * 20, "board": 1, "side": "A", "value": None}
    with caplog.at_level(logging.WARNING):
        answers = {
            "round ²": request(url + "api/pairings?round=%C2%B2"),
            "size ²": request(url + "api/met?size=%C2%B2"),
            "round of 4,300 digits": request(url + "api/pairings?round=" + "9" * 4300),
            "a match of 30 digits": request(url + "api/matches/" + "9" * 30),
            "pair 2^70": request(
                slip, {"uid": hexid(), "device": hexid(), "game": {**GAME, "pair": 2**70}}
            ),  # fmt: skip
            "8,000 nested [": request(slip, b"[" * 8000, method="POST"),
            "a 20-digit t_ns": request(clock, {"first": 0, "events": [first_mover]}),
        }
    for what, answer in answers.items():
        assert 400 <= answer.status < 500, (what, answer.status, answer.body)
        assert "error" in answer.json(), what  # type: ignore[operator]
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


def test_a_digit_of_another_script_is_not_a_round_number(served: tuple[TableService, str]) -> None:
    service, url = served
    pair_round(service.web.db)
    assert request(url + "api/pairings?round=1").status == 200
    assert request(url + "api/pairings?round=%D9%A1").status == 400  # Arabic-Indic one
    # the MET's rates: float() read "٠.٣" as 0.3 and answered a table for it
    assert request(url + "api/met?g=0.3").status == 200
    refused = request(url + "api/met?g=%D9%A0.%D9%A3")
    assert refused.status == 400 and "g must be a number from 0 to 1" in str(refused.json())
    assert request(url + "api/met?b=0_1").status == 400  # float() reads "0_1" as 1


def test_a_number_in_an_address_past_pythons_digit_limit_is_not_found(
    served: tuple[TableService, str], caplog: pytest.LogCaptureFixture
) -> None:
    """A sibling of issue #26.8: a board or a match of 5,000 digits in the address itself
    (Python refuses to read more than 4,300) was a 500 with its traceback logged twice."""
    service, url = served
    match_id = pair_round(service.web.db)[0]
    with service.web.db.Session() as s, s.begin():
        token = slips.token_for(s, match_id, Side.A)
    huge = "9" * 5000
    with caplog.at_level(logging.WARNING):
        answers = {
            "clock page": request(url + f"clock/{token}/{huge}"),
            "clock api": request(url + f"api/clock/{token}/{huge}"),
            "clock log": request(url + f"api/clock/{token}/{huge}/log", {"first": 0, "events": []}),
            "match page": request(url + f"match/{huge}"),
        }
    for what, answer in answers.items():
        assert 400 <= answer.status < 500, (what, answer.status, answer.body)
    assert [r.getMessage()[:80] for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert request(url + f"clock/{token}/1").status == 200
    assert request(url + f"match/{match_id}").status == 200
    assert request(url + f"match/x{match_id}").status == 404
