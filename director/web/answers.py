"""Each match's answer built once per change, the same bytes for every phone that asks.

A room of phones reloads one match after a push: without this, each read ran `get_match`
(about six statements) and serialised the match again. An answer is kept with the stamp it
was built from (`services.publish.match_stamp`: the match's version, its event's, its teams'
and players' names; for a slip answer the match's slips too), read again cheaply on every
request: a change made anywhere (this server, the desk, another station) moves the stamp, so
nothing stale is served however the change arrived. The watcher and the slip routes also
drop a changed match's answers at once (`forget`), so memory holds current answers only.

Keyed by match id only, never by token: the cache cannot grow with what a client sends. A slip
answer's shared part (the match, its form, its slips: the same for both teams) is cached; the
token's own part (`side`) is added per request, so one team never gets the other's answer.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from director.domain.event import MatchInfo
from director.domain.rules import End
from director.domain.scoring import agreed_level_offered, required_fields
from director.services import publish, slips
from director.web import views

MATCH = "match"  # `/api/matches/N`
SLIP = "slip"  # the shared part of `/api/slip/TOKEN`


@dataclass
class Answers:
    """Built answers per (kind, match id), each with its stamp; thread-safe."""

    _lock: threading.Lock = field(default_factory=threading.Lock)
    _built: dict[tuple[str, int], tuple[object, bytes]] = field(default_factory=dict)
    built_count: int = 0  # answers built (not served from the cache), for tests and benches

    def get_or_build(
        self, kind: str, match_id: int, stamp: object, build: Callable[[], bytes]
    ) -> bytes:
        """The answer built for this stamp, or `build()` kept for it (call on a worker thread
        inside the transaction that read the stamp, so the answer is of that stamp)."""
        key = (kind, match_id)
        with self._lock:
            kept = self._built.get(key)
        if kept is not None and kept[0] == stamp:
            return kept[1]
        body = build()
        with self._lock:
            self._built[key] = (stamp, body)
            self.built_count += 1
        return body

    def forget(self, match_ids: Iterable[int]) -> None:
        """These matches changed: their answers are built again at the next read."""
        with self._lock:
            for match_id in match_ids:
                self._built.pop((MATCH, match_id), None)
                self._built.pop((SLIP, match_id), None)

    def forget_all(self) -> None:
        with self._lock:
            self._built.clear()


def slip_form(match: MatchInfo) -> dict[str, Any]:
    """What the phone's form needs, asked of the domain: the fields per end, where rule 5′'s
    agreed level is offered, the cube per board."""
    rules = match.rules
    cube = {}
    for board in rules.event_format.boards:
        allowed, reason = match.may_double(board)
        cube[str(board)] = {"allowed": allowed, "reason": reason}
    return {
        "scoring": rules.scoring.value,
        "scoring_label": rules.scoring.variant.label,
        "has_cube": rules.scoring.variant.has_cube,
        "fields": {end.value: list(required_fields(rules.scoring, end)) for end in End},
        "agreed_level": {end.value: agreed_level_offered(rules, end) for end in End},
        "boards_done": sorted(match.outcome.boards_done),
        "boards": list(rules.event_format.boards),  # the match's boards: its format's
        "entrant": rules.event_format.entrant,
        "cube": cube,
    }


def _json(value: object) -> bytes:
    """As Starlette's JSONResponse encodes it."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


def match_answer(session: Session, answers: Answers, match_id: int) -> bytes | None:
    """`/api/matches/N`'s body, or None: no such match. The stamp is read before the answer
    is built, so an answer is never older than the stamp it is kept with."""
    stamp = publish.match_stamp(session, match_id)
    if stamp is None:
        return None
    return answers.get_or_build(
        MATCH, match_id, stamp, lambda: _json(views.match_detail(session, match_id))
    )


def slip_answer(session: Session, answers: Answers, token: str) -> tuple[int, bytes]:
    """`/api/slip/TOKEN`'s match id and body: the match's shared part (built once per change
    of the match or its slips) with this token's own team put in front; `SlipRefused` for a
    token that opens nothing (checked on every request, before anything is read)."""
    match_id, side = slips.token_match(session, token)
    stamp = (publish.match_stamp(session, match_id), publish.slips_stamp(session, match_id))

    def build() -> bytes:
        match, found = slips.slips_of_match(session, token)
        return _json(
            {
                "match": views.match_summary(match),
                "form": slip_form(match),
                "slips": [s.public() for s in found],
            }
        )

    shared = answers.get_or_build(SLIP, match_id, stamp, build)
    return match_id, b'{"side":' + _json(side.value) + b"," + shared[1:]
