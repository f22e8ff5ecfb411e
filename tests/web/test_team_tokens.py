"""Each team's own slip token (issue #26.3), against the real server on loopback: a slip is
confirmed only with the other team's token, whatever side a phone claims."""

from __future__ import annotations

from director.domain.rules import Side
from director.services import slips
from director.web.server import TableService
from tests.web.conftest import hexid, pair_round, request

GAME = {"pair": 1, "board": 1, "winner": "A", "end": "bear-off", "level": "single", "cube": 1}


def test_one_team_cannot_confirm_its_own_slip(served: tuple[TableService, str]) -> None:
    """One player enters a slip as A and confirms it 'as B' from a private tab (another
    device id): refused, with automatic accept on, and nothing is recorded."""
    service, url = served
    match_id = pair_round(service.web.db)[0]
    with service.web.db.Session() as s, s.begin():
        slips.set_auto_accept(s, True)
        token = slips.token_for(s, match_id, Side.A)
    uid = hexid()
    sent = request(url + f"api/slip/{token}", {"uid": uid, "side": "A", "device": hexid(),
                                               "game": GAME})  # fmt: skip
    assert sent.status == 200, sent.body
    forged = {"uid": uid, "side": "B", "device": hexid(), "agree": True}
    answer = request(url + f"api/slip/{token}/answer", forged)
    assert answer.status == 409, answer.body
    with service.web.db.Session() as s:
        (slip,) = slips.slips_of_match(s, str(token))[1]
    assert slip.status is slips.SlipStatus.UNCONFIRMED


def test_the_other_teams_token_confirms(served: tuple[TableService, str]) -> None:
    service, url = served
    match_id = pair_round(service.web.db)[0]
    with service.web.db.Session() as s, s.begin():
        tokens = {side: slips.token_for(s, match_id, side) for side in Side}
    assert tokens[Side.A] != tokens[Side.B]
    shown = {side: request(url + f"api/slip/{t}").json() for side, t in tokens.items()}
    assert {side: v["side"] for side, v in shown.items()} == {Side.A: "A", Side.B: "B"}  # type: ignore[index]
    uid = hexid()
    # the side a phone claims counts for nothing: B's token enters for B
    sent = request(url + f"api/slip/{tokens[Side.B]}",
                   {"uid": uid, "side": "A", "device": hexid(), "game": GAME})  # fmt: skip
    assert sent.status == 200 and sent.json()["slip"]["entered_by"] == "B"  # type: ignore[index]
    answer = request(url + f"api/slip/{tokens[Side.A]}/answer",
                     {"uid": uid, "device": hexid(), "agree": True})  # fmt: skip
    assert answer.status == 200 and answer.json()["slip"]["status"] == "pending"  # type: ignore[index]


def test_revoking_a_table_replaces_both_teams_codes(served: tuple[TableService, str]) -> None:
    service, url = served
    match_id = pair_round(service.web.db)[0]
    with service.web.db.Session() as s, s.begin():
        old = slips.team_tokens(s, match_id)
        new = slips.revoke_token(s, match_id).value
    assert old is not None and new is not None
    assert set(old.values()).isdisjoint(new.values())
    for token in old.values():
        assert request(url + f"api/slip/{token}").status == 403
    for token in new.values():
        assert request(url + f"api/slip/{token}").status == 200


def test_guesses_from_an_address_do_not_lock_out_its_real_tokens(
    served: tuple[TableService, str],
) -> None:
    """Issue #26.10: ten wrong tokens from the club's hotspot address, then a real phone behind
    the same address: it is served; the guesser is still slowed."""
    service, url = served
    match_id = pair_round(service.web.db)[0]
    with service.web.db.Session() as s, s.begin():
        token = slips.token_for(s, match_id, Side.A)
    assert [request(url + f"api/slip/{hexid()}").status for _ in range(10)] == [403] * 10
    assert request(url + f"api/slip/{hexid()}").status == 429
    assert request(url + f"api/slip/{token}").status == 200
    assert request(url + f"api/clock/{token}/1").status == 200
