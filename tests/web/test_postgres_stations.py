"""Two stations serve one PostgreSQL event: a slip sent to one is pending on the other."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from director.domain.rules import EventOptions, Side
from director.services import slips
from director.services.events import create_event
from director.store.engine import create_database, open_event
from director.web.server import TableService
from tests.pg import fresh_database
from tests.web.conftest import hexid, pair_round, request

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg_url() -> Iterator[str]:
    with fresh_database() as url:
        yield url


def test_two_stations_serve_one_event(pg_url: str) -> None:
    first = create_database(pg_url)
    with first.Session() as s, s.begin():
        create_event(s, "Club Open", EventOptions())
    match_id = pair_round(first)[0]
    second = open_event(pg_url)
    one, two = TableService(first, "127.0.0.1", 0), TableService(second, "127.0.0.1", 0)
    url_one, url_two = one.start()[0], two.start()[0]
    try:
        with first.Session() as s, s.begin():
            token = slips.token_for(s, match_id, Side.A)
            token_b = slips.token_for(s, match_id, Side.B)
        uid = hexid()
        game = {"pair": 1, "board": 1, "winner": "A", "end": "bear-off", "level": "single",
                "cube": 1}  # fmt: skip
        sent = request(f"{url_one}api/slip/{token}",
                       {"uid": uid, "side": "A", "device": hexid(), "game": game})  # fmt: skip
        assert sent.status == 200, sent.body
        # the other team's phone is on the other station: it sees and confirms the same slip
        seen = request(f"{url_two}api/slip/{token_b}").json()
        assert [s["uid"] for s in seen["slips"]] == [uid]  # type: ignore[index]
        answer = {"uid": uid, "device": hexid(), "agree": True}
        confirmed = request(f"{url_two}api/slip/{token_b}/answer", answer)
        assert confirmed.status == 200, confirmed.body
        with second.Session() as s, s.begin():
            slips.accept_slip(s, slips.pending_slips(s)[0].id)
        deadline = time.monotonic() + 5  # station one's watcher sees station two's result
        score = None
        while time.monotonic() < deadline and score != {"A": 1, "B": 0}:
            pairings = request(f"{url_one}api/pairings").json()
            score = next(m["score"] for m in pairings["matches"] if m["id"] == match_id)  # type: ignore[index]
            time.sleep(0.05)
        assert score == {"A": 1, "B": 0}
    finally:
        one.stop()
        two.stop()
        first.close()
        second.close()
