"""Result slips through the services: tokens, submit, confirm, the desk's decision, expiry."""

from __future__ import annotations

import contextlib
import re
import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import event

from director.domain.errors import UserError
from director.domain.rules import End, Level, Side
from director.domain.scoring import Game
from director.services import games, matches, rounds, slips
from director.services.slips import Refusal, SlipRefused, SlipStatus
from director.services.teams import add_team
from director.store.engine import EventDatabase, open_database


def hexid() -> str:
    return secrets.token_hex(16)


def paired(db: EventDatabase, teams: int = 4) -> list[int]:
    with db.Session() as s, s.begin():
        for i in range(1, teams + 1):
            add_team(s, f"Team {i}", (f"P{i}a", f"P{i}b"))
        info = rounds.pair_next_round(s).value
    return [m.id for m in info.matches if m.team_b is not None]


def game(board: int = 1, pair: int = 1, **extra: object) -> dict[str, object]:
    return {"pair": pair, "board": board, "winner": "A", "end": "bear-off", "level": "single",
            "cube": 1, **extra}  # fmt: skip


def token_of(db: EventDatabase, match_id: int, side: Side = Side.A) -> str:
    with db.Session() as s, s.begin():
        token = slips.token_for(s, match_id, side)
    assert token is not None
    return token


@contextlib.contextmanager
def statements(db: EventDatabase) -> Iterator[list[str]]:
    """The SQL statements sent to the file meanwhile, each on one line."""
    seen: list[str] = []

    def sent(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(" ".join(statement.split()))

    event.listen(db.engine, "before_cursor_execute", sent)
    try:
        yield seen
    finally:
        event.remove(db.engine, "before_cursor_execute", sent)


def test_tokens_are_random_per_team_and_long(db: EventDatabase) -> None:
    first, second = paired(db)
    with db.Session() as s, s.begin():
        tokens = slips.round_tokens(s)
    assert set(tokens) == {first, second}
    every = [t for m in (first, second) for t in tokens[m].values()]
    assert len(set(every)) == 4  # each team of each match its own
    assert all(len(t) >= 32 for t in every)  # 24 bytes urlsafe: 192 bits
    assert token_of(db, first, Side.B) == tokens[first][Side.B]  # stable until revoked
    with db.Session() as s:
        assert slips.side_of_token(s, tokens[first][Side.B]) is Side.B


def test_slip_confirmed_by_the_other_team_waits_then_is_accepted(db: EventDatabase) -> None:
    match_id = paired(db)[0]
    token, uid, phone_a, phone_b = token_of(db, match_id), hexid(), hexid(), hexid()
    token_b = token_of(db, match_id, Side.B)
    with db.Session() as s, s.begin():
        slip = slips.submit_slip(s, token, uid, phone_a, game(level="gammon", cube=2)).value
    assert slip.status is SlipStatus.UNCONFIRMED
    with db.Session() as s, s.begin():
        again = slips.submit_slip(s, token, uid, phone_a, game(level="gammon", cube=2)).value
        assert again.id == slip.id  # a retry is the same slip
        with pytest.raises(SlipRefused, match="the other team confirms"):
            slips.answer_slip(s, token, uid, phone_a, agree=True)
    with db.Session() as s, s.begin():
        slips.answer_slip(s, token_b, uid, phone_b, agree=True)
    with db.Session() as s:
        pending = slips.pending_slips(s)
        assert [p.uid for p in pending] == [uid]
        assert "pair 1, board 1" in pending[0].describe()
        assert matches.get_match(s, match_id).games == ()  # not recorded until accepted
    with db.Session() as s, s.begin():
        match = slips.accept_slip(s, pending[0].id).value
    assert match.outcome.score.a == 4
    db2 = open_database(db.target)  # reopened from disk: the slip is stored as accepted
    with db2.Session() as s:
        _, seen = slips.slips_of_match(s, token)
    db2.close()
    assert seen[0].status is SlipStatus.ACCEPTED


def test_a_slip_is_refused_with_the_desks_words(db: EventDatabase) -> None:
    match_id = paired(db)[0]
    token = token_of(db, match_id)
    bad = Game(1, 1, Side.A, End.BEAR_OFF, cube=3, level=Level.SINGLE)
    with db.Session() as s, pytest.raises(UserError) as desk:
        games.record_game(s, match_id, bad)
    with db.Session() as s, pytest.raises(SlipRefused) as phone:
        slips.submit_slip(s, token, hexid(), hexid(), game(cube=3))
    assert str(phone.value) == str(desk.value)
    assert phone.value.code is Refusal.RULES


def test_malformed_fields_are_refused_like_a_match_record(db: EventDatabase) -> None:
    token = token_of(db, paired(db)[0])
    for fields, words in (
        (game(cube=True), "cube must be a whole number"),
        (game(winner="C"), "winner 'C' is not one of A | B"),
        (game(colour="red"), "unknown field 'colour'"),
    ):
        with db.Session() as s, pytest.raises(SlipRefused, match=words):
            slips.submit_slip(s, token, hexid(), hexid(), fields)
    with db.Session() as s, pytest.raises(SlipRefused, match="32 hexadecimal"):
        slips.submit_slip(s, token, "1' OR 1=1", hexid(), game())


def test_guessed_revoked_and_expired_tokens_are_refused(db: EventDatabase) -> None:
    first, second = paired(db)
    old = token_of(db, first)
    with db.Session() as s, pytest.raises(SlipRefused) as guessed:
        slips.submit_slip(s, secrets.token_urlsafe(24), hexid(), hexid(), game())
    assert guessed.value.code is Refusal.TOKEN
    with db.Session() as s, s.begin():
        new = slips.revoke_token(s, first).value
    assert new is not None and old not in new.values()
    with db.Session() as s, pytest.raises(SlipRefused, match="not valid"):
        slips.match_for_token(s, old)
    # the round ends: every match finished (both boards A backgammon, 6-0 in a match to 5)
    with db.Session() as s, s.begin():
        for match_id in (first, second):
            for board in (1, 2):
                games.record_game(s, match_id, Game(0, board, Side.A, End.BEAR_OFF,
                                                      level=Level.BACKGAMMON))  # fmt: skip
    with db.Session() as s, pytest.raises(SlipRefused) as expired:
        slips.match_for_token(s, new[Side.A])
    assert expired.value.code is Refusal.TOKEN


def test_a_stale_slip_never_becomes_the_next_pairs_game(db: EventDatabase) -> None:
    match_id = paired(db)[0]
    token, token_b = token_of(db, match_id), token_of(db, match_id, Side.B)
    uid = hexid()
    with db.Session() as s, s.begin():
        slips.submit_slip(s, token, uid, hexid(), game(board=1))
    with db.Session() as s, s.begin():  # meanwhile the desk typed the same game itself
        games.record_game(s, match_id, Game(0, 1, Side.A, End.BEAR_OFF, level=Level.SINGLE))
    with db.Session() as s, pytest.raises(SlipRefused, match="already recorded at the desk"):
        slips.answer_slip(s, token_b, uid, hexid(), agree=True)


def test_one_open_slip_per_board_and_a_dispute_closes_it(db: EventDatabase) -> None:
    match_id = paired(db)[0]
    token, token_b = token_of(db, match_id), token_of(db, match_id, Side.B)
    uid = hexid()
    with db.Session() as s, s.begin():
        slips.submit_slip(s, token, uid, hexid(), game())
    with db.Session() as s, pytest.raises(SlipRefused, match="already unconfirmed"):
        slips.submit_slip(s, token_b, hexid(), hexid(), game())
    with db.Session() as s, s.begin():
        disputed = slips.answer_slip(s, token_b, uid, hexid(), agree=False, reason="B won").value
    assert disputed.status is SlipStatus.DISPUTED and disputed.reason == "B won"
    with db.Session() as s, s.begin():
        slips.submit_slip(s, token_b, hexid(), hexid(), game())  # entered again


def test_auto_accept_records_a_confirmed_slip_at_once(db: EventDatabase) -> None:
    match_id = paired(db)[0]
    token, token_b, uid = token_of(db, match_id), token_of(db, match_id, Side.B), hexid()
    with db.Session() as s, s.begin():
        slips.set_auto_accept(s, True)
        slips.submit_slip(s, token, uid, hexid(), game())
    with db.Session() as s, s.begin():
        slip = slips.answer_slip(s, token_b, uid, hexid(), agree=True).value
    assert slip.status is SlipStatus.ACCEPTED
    with db.Session() as s:
        assert matches.get_match(s, match_id).outcome.score.a == 1
        assert slips.pending_slips(s) == []


def test_a_slip_changes_only_its_own_match(db: EventDatabase) -> None:
    first, second = paired(db)
    token, token_b = token_of(db, first), token_of(db, first, Side.B)
    uid = hexid()
    with db.Session() as s, s.begin():
        slips.submit_slip(s, token, uid, hexid(), game())
        slips.answer_slip(s, token_b, uid, hexid(), agree=True)
        slips.accept_slip(s, slips.pending_slips(s)[0].id)
    with db.Session() as s:
        assert matches.get_match(s, second).games == ()
        assert len(matches.get_match(s, first).games) == 1


def test_the_director_refuses_a_pending_slip(db: EventDatabase) -> None:
    match_id = paired(db)[0]
    token, token_b = token_of(db, match_id), token_of(db, match_id, Side.B)
    uid = hexid()
    with db.Session() as s, s.begin():
        slips.submit_slip(s, token, uid, hexid(), game())
        slips.answer_slip(s, token_b, uid, hexid(), agree=True)
        slips.refuse_slip(s, slips.pending_slips(s)[0].id, "wrong board")
    with db.Session() as s:
        _, seen = slips.slips_of_match(s, token)
    assert seen[0].status is SlipStatus.REFUSED and seen[0].reason == "wrong board"


def test_a_slip_for_a_pair_not_yet_played_says_so(db: EventDatabase) -> None:
    """Issue #26.10: not "board 1's game of pair 5 is already recorded"."""
    token = token_of(db, paired(db)[0])
    with db.Session() as s, pytest.raises(SlipRefused) as refused:
        slips.submit_slip(s, token, hexid(), hexid(), game(pair=5))
    assert str(refused.value) == "pair 5 is not being played yet: the match is at pair 1"


def test_a_confirmation_sent_again_after_auto_accept_is_answered_as_before(
    db: EventDatabase,
) -> None:
    """Issue #26.10: the phone resent its confirmation (its answer lost); the slip was
    auto-accepted meanwhile: the same answer, not "this slip is already accepted"."""
    match_id = paired(db)[0]
    token, token_b, uid, phone_b = (
        token_of(db, match_id), token_of(db, match_id, Side.B), hexid(), hexid()
    )  # fmt: skip
    with db.Session() as s, s.begin():
        slips.set_auto_accept(s, True)
        slips.submit_slip(s, token, uid, hexid(), game())
    for _ in range(2):
        with db.Session() as s, s.begin():
            slip = slips.answer_slip(s, token_b, uid, phone_b, agree=True).value
        assert slip.status is SlipStatus.ACCEPTED
    with db.Session() as s:
        assert matches.get_match(s, match_id).outcome.score.a == 1  # counted once


def test_a_slip_is_checked_without_writing_the_match(db: EventDatabase) -> None:
    """Issue #26's room: the desk's checks of a slip ran as the game recorded and rolled back
    (the match claimed, its pair and game inserted, then undone) in a write group that 16
    phones' slips share; the same checks (`games.check_game`) now write nothing but the slip,
    and a slip the rules refuse still gets the desk's words (above)."""
    token = token_of(db, paired(db)[0])
    with statements(db) as seen, db.Session() as s, s.begin():
        slips.submit_slip(s, token, hexid(), hexid(), game())
    writes = [q.split()[:3] for q in seen if q.startswith(("INSERT", "UPDATE", "DELETE"))]
    assert writes == [["INSERT", "INTO", "slip"]]


def test_a_confirmation_accepted_at_once_reads_its_match_once(db: EventDatabase) -> None:
    """Issue #26's room: a confirmation recorded at once read the match three times (the
    match row and its games twice, the highest game number once more), 43 % of the write;
    now once. The match it answers with is the match as read again from the file."""
    match_id = paired(db)[0]
    token, token_b, uid = token_of(db, match_id), token_of(db, match_id, Side.B), hexid()
    with db.Session() as s, s.begin():
        slips.set_auto_accept(s, True)
        slips.submit_slip(s, token, uid, hexid(), game())
    with statements(db) as seen, db.Session() as s, s.begin():
        slip = slips.answer_slip(s, token_b, uid, hexid(), agree=True).value
    assert slip.status is SlipStatus.ACCEPTED
    assert len([q for q in seen if re.search(r'FROM "?match"? WHERE "?match"?\.id', q)]) == 1
    assert len([q for q in seen if re.search(r"\bFROM game\b", q)]) == 1
    reopened = open_database(db.target)
    with reopened.Session() as s:
        assert slip.match == matches.get_match(s, match_id)
    reopened.close()
