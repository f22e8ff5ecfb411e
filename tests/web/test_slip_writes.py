"""Slips sent at the same moment, against the real server on loopback (issue #26.2): phones'
writes wait for each other inside the server, never a 500."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial

from director.domain.rules import End, Level, Side
from director.domain.scoring import Game
from director.services import games, slips
from director.store.work import in_session
from director.web.server import TableService
from tests.web.conftest import Answer, hexid, pair_round, request

TABLES = 8


def at_once(calls: list[Callable[[], Answer]]) -> list[Answer]:
    """Run the calls on their own threads, released together."""
    gate = threading.Barrier(len(calls))
    answers: list[Answer | None] = [None] * len(calls)

    def run(i: int) -> None:
        gate.wait()
        answers[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert all(a is not None for a in answers)
    return [a for a in answers if a is not None]


def game(board: int = 1) -> dict[str, object]:
    return {"pair": 1, "board": board, "winner": "A", "end": "bear-off", "level": "single",
            "cube": 1}  # fmt: skip


def round_with_tokens(service: TableService) -> tuple[list[int], list[str], list[str]]:
    """A round of TABLES matches with automatic accept: its ids, the A and the B tokens."""
    ids = pair_round(service.web.db, teams=2 * TABLES)
    with service.web.db.Session() as s, s.begin():
        slips.set_auto_accept(s, True)
        tokens = [slips.token_for(s, m, Side.A) for m in ids]
        others = [slips.token_for(s, m, Side.B) for m in ids]
    return ids, tokens, others


def confirm_all(url: str, others: list[str], sent: list[dict[str, object]]) -> list[Answer]:
    """The other players agree to every slip sent, all at once, each from its own device."""
    return at_once(
        [
            partial(
                request,
                url + f"api/slip/{t}/answer",
                {"uid": b["uid"], "device": hexid(), "agree": True},
            )
            for t, b in zip(others, sent, strict=True)
        ]
    )


def test_slips_sent_together_are_all_stored(served: tuple[TableService, str]) -> None:
    service, url = served
    ids, tokens, others = round_with_tokens(service)
    sent = [{"uid": hexid(), "side": "A", "device": hexid(), "game": game()} for _ in ids]
    submits = at_once(
        [partial(request, url + f"api/slip/{t}", b) for t, b in zip(tokens, sent, strict=True)]
    )
    assert [a.status for a in submits] == [200] * TABLES, [a.body for a in submits]
    answers = [{"uid": b["uid"], "side": "B", "device": hexid(), "agree": True} for b in sent]
    confirms = at_once(
        [
            partial(request, url + f"api/slip/{t}/answer", b)
            for t, b in zip(others, answers, strict=True)
        ]
    )
    assert [a.status for a in confirms] == [200] * TABLES, [a.body for a in confirms]
    assert {a.json()["slip"]["status"] for a in confirms} == {"accepted"}  # type: ignore[index]


def test_a_refused_slip_among_others_sent_together_refuses_only_itself(
    served: tuple[TableService, str],
) -> None:
    """Writes waiting together are stored in one transaction (one commit): a slip the rules
    refuse, or a confirmation of a slip that is not there, is refused alone."""
    service, url = served
    ids, tokens, others = round_with_tokens(service)
    sent = [{"uid": hexid(), "device": hexid(), "game": game()} for _ in ids]
    for body in sent[::2]:
        body["game"] = {**game(), "pair": 2}  # a pair not being played: refused
    submits = at_once(
        [partial(request, url + f"api/slip/{t}", b) for t, b in zip(tokens, sent, strict=True)]
    )
    assert [a.status for a in submits] == [409, 200] * (TABLES // 2), [a.body for a in submits]
    confirms = confirm_all(url, others, sent)
    assert [a.status for a in confirms] == [409, 200] * (TABLES // 2), [a.body for a in confirms]
    with service.web.db.Session() as s:
        for n, token in enumerate(tokens):
            match, stored = slips.slips_of_match(s, token)
            assert len(stored) == n % 2 and len(match.games) == n % 2, (n, stored)


def test_the_desk_records_results_while_the_phones_write(
    served: tuple[TableService, str],
) -> None:
    """Issue #26.2: the phones' writes are serialised inside the server, and the desk stays
    unaffected: its own writes, made as the app makes them (`store.work.in_session`, the
    service's own transaction), are never refused as "database is locked" meanwhile."""
    service, url = served
    ids = pair_round(service.web.db, teams=2 * TABLES)
    phones, desk = ids[:-2], ids[-2:]
    with service.web.db.Session() as s, s.begin():
        slips.set_auto_accept(s, True)
        tokens = {m: (slips.token_for(s, m, Side.A), slips.token_for(s, m, Side.B)) for m in phones}
    statuses: list[int] = []

    def table(match_id: int) -> None:
        mine, theirs = tokens[match_id]
        for pair, board in ((1, 1), (1, 2), (2, 1), (2, 2)):
            uid = hexid()
            sent = {"uid": uid, "device": hexid(), "game": {**game(board), "pair": pair}}
            statuses.append(request(url + f"api/slip/{mine}", sent).status)
            answer = {"uid": uid, "device": hexid(), "agree": True}
            statuses.append(request(url + f"api/slip/{theirs}/answer", answer).status)

    threads = [threading.Thread(target=table, args=(m,)) for m in phones]
    for t in threads:
        t.start()
    refused: list[str] = []
    try:
        for pair, board in ((1, 1), (1, 2), (2, 1), (2, 2)):
            for match_id in desk:
                won = Game(pair, board, Side.B, End.BEAR_OFF, 1, Level.SINGLE)
                try:
                    in_session(service.web.db, games.record_game, True, match_id, won)
                except Exception as exc:
                    refused.append(f"{type(exc).__name__}: {exc}")
    finally:
        for t in threads:
            t.join(120)
    assert refused == []
    assert statuses == [200] * (8 * len(phones))


def test_confirmed_results_are_published_before_the_phones_hear_back(
    served: tuple[TableService, str],
) -> None:
    """Issue #26's room: the results of a group of confirmations are on the pairings (and
    each match's slips are told changed) once their group has committed, before the phones
    get their answers: not when the change watcher next wakes, reads and publishes, three
    waits for a core later on a busy machine."""
    service, url = served
    ids, tokens, others = round_with_tokens(service)
    sent = [{"uid": hexid(), "device": hexid(), "game": game()} for _ in ids]
    submits = at_once(
        [partial(request, url + f"api/slip/{t}", b) for t, b in zip(tokens, sent, strict=True)]
    )
    assert [a.status for a in submits] == [200] * TABLES
    hub = service.web.hub
    slips_before = {m: hub.latest(f"slips:{m}") for m in ids}
    answered = confirm_all(url, others, sent)
    assert [a.status for a in answered] == [200] * TABLES
    shown = hub.latest("pairings")
    assert shown is not None
    scores = {m["id"]: m["score"] for m in shown.data["matches"]}  # type: ignore[index]
    assert all(scores[m] == {"A": 1, "B": 0} for m in ids), scores
    assert all(hub.latest(f"slips:{m}") is not slips_before[m] for m in ids)
