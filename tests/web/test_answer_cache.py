"""Each match's answer built once per change and served to every phone (issue #26, the room
reloading one match after a push), against the real server on loopback: never stale, whoever
made the change (a phone's slip, the desk, a rename), and a slip answer stays its team's own."""

from __future__ import annotations

import json
import time
import urllib.request

from director.domain.rules import Side
from director.services import slips
from director.services.matches import get_match
from director.services.teams import edit_team
from director.web import views
from director.web.server import TableService
from tests.web.conftest import hexid, pair_round, request, win_games

GAME = {"pair": 1, "board": 1, "winner": "A", "end": "bear-off", "level": "single", "cube": 1}


def _published(service: TableService, match_id: int) -> None:
    """Wait (at most 10 s) until the watcher has published the round with this match: its
    own forgetting of the round's answers is behind us."""
    end = time.monotonic() + 10
    while time.monotonic() < end:
        latest = service.web.hub.latest("pairings")
        if latest is not None and match_id in {m["id"] for m in latest.data["matches"]}:  # type: ignore[index]
            return
        time.sleep(0.05)
    raise AssertionError("the watcher never published the round")


def _score(answer: object) -> tuple[int, int]:
    score = answer["score"]  # type: ignore[index]
    return score["A"], score["B"]


def test_every_viewer_gets_one_built_answer_until_the_match_changes(
    served: tuple[TableService, str],
) -> None:
    service, url = served
    match_id = pair_round(service.web.db)[0]
    _published(service, match_id)
    first = [request(url + f"api/matches/{match_id}") for _ in range(5)]
    assert {a.status for a in first} == {200}
    assert len({a.body for a in first}) == 1  # the same bytes to every viewer
    built = service.web.answers.built_count
    assert [request(url + f"api/matches/{match_id}").body for _ in range(5)] == [first[0].body] * 5
    assert service.web.answers.built_count == built  # served again, not built again
    # a game typed at the desk, straight into the file (not through this server): the very
    # next read, before any watcher could tell, is the new score, for every viewer
    after = win_games(service.web.db, match_id, count=1)
    again = [request(url + f"api/matches/{match_id}").json() for _ in range(5)]
    assert [_score(a) for a in again] == [(after.a, after.b)] * 5
    assert len(again[0]["games_list"]) == 1  # type: ignore[index]


def test_a_rename_at_the_desk_is_in_the_next_answer(served: tuple[TableService, str]) -> None:
    service, url = served
    match_id = pair_round(service.web.db)[0]
    shown = request(url + f"api/matches/{match_id}").json()
    with service.web.db.Session() as s, s.begin():
        team_id = get_match(s, match_id).team_a.id  # type: ignore[union-attr]
        edit_team(s, team_id, name="Renamed", players=("Ann", "Bob"))
    renamed = request(url + f"api/matches/{match_id}").json()
    assert renamed != shown
    assert "Renamed" in str(renamed) and "Ann" in str(renamed)


def test_a_slip_answer_is_each_teams_own_and_never_stale(
    served: tuple[TableService, str],
) -> None:
    service, url = served
    match_id, other_match = pair_round(service.web.db)[:2]
    with service.web.db.Session() as s, s.begin():
        tokens = {side: slips.token_for(s, match_id, side) for side in Side}
        stranger = slips.token_for(s, other_match, Side.A)

    def shown() -> dict[Side, dict[str, object]]:
        out = {}
        for side, token in tokens.items():
            answer = request(url + f"api/slip/{token}")
            assert answer.status == 200, answer.body
            out[side] = answer.json()
        return out  # type: ignore[return-value]

    for _ in range(3):  # again and again, from the cache: each token its own side
        before = shown()
        assert {side: v["side"] for side, v in before.items()} == {Side.A: "A", Side.B: "B"}
        assert before[Side.A]["slips"] == before[Side.B]["slips"] == []
    uid = hexid()
    sent = request(url + f"api/slip/{tokens[Side.A]}", {"uid": uid, "device": hexid(),
                                                          "game": GAME})  # fmt: skip
    assert sent.status == 200, sent.body
    entered = shown()  # at once: the slip is in both teams' answers, each with its own side
    assert {side: v["side"] for side, v in entered.items()} == {Side.A: "A", Side.B: "B"}
    for answer in entered.values():
        (slip,) = answer["slips"]  # type: ignore[misc]
        assert slip["uid"] == uid and slip["status"] == "unconfirmed"
    answer = request(url + f"api/slip/{tokens[Side.B]}/answer",
                     {"uid": uid, "device": hexid(), "agree": True})  # fmt: skip
    assert answer.status == 200, answer.body
    confirmed = shown()
    assert {side: v["side"] for side, v in confirmed.items()} == {Side.A: "A", Side.B: "B"}
    assert [v["slips"][0]["status"] for v in confirmed.values()] == ["pending"] * 2  # type: ignore[index]
    # another match's token sees its own match, not the one cached before it
    theirs = request(url + f"api/slip/{stranger}").json()
    assert theirs["side"] == "A" and theirs["slips"] == []  # type: ignore[index]
    assert theirs["match"]["id"] == other_match  # type: ignore[index]
    # a revoked token gets nothing from the cache
    with service.web.db.Session() as s, s.begin():
        slips.revoke_token(s, match_id)
    assert {request(url + f"api/slip/{t}").status for t in tokens.values()} == {403}


def test_a_desk_decision_reaches_both_teams_slip_answers(
    served: tuple[TableService, str],
) -> None:
    """The director accepts a slip at the desk (not through this server): both teams' next
    reads say so, and the match's score moved in its answer."""
    service, url = served
    match_id = pair_round(service.web.db)[0]
    with service.web.db.Session() as s, s.begin():
        tokens = {side: slips.token_for(s, match_id, side) for side in Side}
    uid = hexid()
    assert request(url + f"api/slip/{tokens[Side.A]}",
                   {"uid": uid, "device": hexid(), "game": GAME}).status == 200  # fmt: skip
    assert request(url + f"api/slip/{tokens[Side.B]}/answer",
                   {"uid": uid, "device": hexid(), "agree": True}).status == 200  # fmt: skip
    before = request(url + f"api/matches/{match_id}").json()
    assert _score(before) == (0, 0)
    with service.web.db.Session() as s, s.begin():
        (pending,) = slips.pending_slips(s)
        slips.accept_slip(s, pending.id)
    after = request(url + f"api/matches/{match_id}").json()
    assert _score(after) != (0, 0)
    for token in tokens.values():
        assert request(url + f"api/slip/{token}").json()["slips"][0]["status"] == "accepted"  # type: ignore[index]


def test_the_fallback_read_of_a_match_is_its_answer_never_stale(
    served: tuple[TableService, str],
) -> None:
    """`/api/latest?ch=match:N` (what a page reads while its stream is down) is the match's
    built answer: the same bytes as `/api/matches/N`, built once for every reader, and a game
    typed at the desk is in the very next read, before the change watcher could tell."""
    service, url = served
    match_id = pair_round(service.web.db)[0]
    _published(service, match_id)
    channel = f"match:{match_id}"

    def fallback() -> bytes:
        answer = request(url + f"api/latest?ch={channel}")
        assert answer.status == 200, answer.body
        return json.dumps(answer.json()[channel]).encode()  # type: ignore[index]

    assert fallback() == json.dumps(request(url + f"api/matches/{match_id}").json()).encode()
    built = service.web.answers.built_count
    assert len({fallback() for _ in range(5)}) == 1
    assert service.web.answers.built_count == built  # served again, not built again
    after = win_games(service.web.db, match_id, count=1)
    assert _score(json.loads(fallback())) == (after.a, after.b)


def test_a_page_nobody_watches_is_read_when_a_stream_asks_for_it(
    served: tuple[TableService, str],
) -> None:
    """A result with nobody on the standings or the match's page: the change watcher builds
    neither (it keeps no message of them), and a stream opened afterwards gets both as they
    are now, as its first messages."""
    service, url = served
    match_id = pair_round(service.web.db)[0]
    _published(service, match_id)
    after = win_games(service.web.db, match_id, count=1)
    channel = f"match:{match_id}"
    end = time.monotonic() + 10
    while _pairings_score(service, match_id) != (after.a, after.b):
        assert time.monotonic() < end, "the watcher never published the result"
        time.sleep(0.05)
    assert service.web.hub.latest("standings") is None
    assert service.web.hub.latest(channel) is None
    with urllib.request.urlopen(f"{url}events?ch=standings&ch={channel}", timeout=10) as stream:
        first: dict[str, object] = {}
        event = ""
        while len(first) < 2:
            line = stream.readline().decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                first.setdefault(event, json.loads(line[6:]))
    assert _score(first[channel]) == (after.a, after.b)
    now = service.web.session_run(views.standings_page)
    assert first["standings"] == json.loads(json.dumps(now))  # as read now, the result in


def _pairings_score(service: TableService, match_id: int) -> tuple[int, int] | None:
    latest = service.web.hub.latest("pairings")
    if latest is None:
        return None
    for match in latest.data["matches"]:  # type: ignore[index]
        if match["id"] == match_id:
            return _score(match)
    return None


def test_a_fallback_read_of_a_page_nobody_watches_is_kept_until_the_next_change(
    served: tuple[TableService, str],
) -> None:
    """Phones whose streams are refused read `/api/latest` again and again: the standings read
    for the first of them is kept for the others, and a result recorded afterwards is in the
    reads that follow it, not the kept standings."""
    service, url = served
    match_id = pair_round(service.web.db)[0]
    _published(service, match_id)

    def fallback() -> object:
        answer = request(url + "api/latest?ch=standings")
        assert answer.status == 200, answer.body
        return answer.json()["standings"]  # type: ignore[index]

    before = fallback()
    assert service.web.hub.latest("standings") is not None  # kept for the next readers
    assert fallback() == before
    win_games(service.web.db, match_id)  # the match is over: the standings change
    now = json.loads(json.dumps(service.web.session_run(views.standings_page)))
    assert now != before
    end = time.monotonic() + 10
    while fallback() != now:
        assert time.monotonic() < end, "the standings read stayed as kept before the result"
        time.sleep(0.05)
