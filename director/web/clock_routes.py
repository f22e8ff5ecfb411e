"""A board's clock on a phone: its page and its API, opened by the match's token.

- `GET /clock/TOKEN/N` – the clock page of board N (1 or 2) of the token's match
- `GET /api/clock/TOKEN/N` – the board's players, time control, pair, stored log, the start
  and the director's commands (as on the push channel `clock:MATCH`), and the server's time
- `POST /api/clock/TOKEN/N/log` `{"first": K, "events": [...]}` – the board's events from its
  K-th on; answers `{"stored": count}`; an event the desk has is not stored twice
- `POST /api/clock/TOKEN/start` – both boards start together (each needs its first mover)
- `GET /api/clock-time` – the server's monotonic time, for a phone to line its clock up

Refusals as for slips: 403 a bad token (or a cross-origin write), 422 malformed or a log the
engine cannot replay, 409 a gap or a log that differs (with `stored`, to resend from).
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from director.domain.clock import BOARDS
from director.domain.numbers import ASCII_NUMBER
from director.resources import resource_path
from director.services import phone_clocks, slips
from director.services.phone_clocks import ClockRefused
from director.services.slips import ID_PATTERN, Refusal, SlipRefused
from director.web.context import WebContext
from director.web.responses import json_body, refusal

STATUS = {Refusal.TOKEN: 403, Refusal.INPUT: 422, Refusal.RULES: 422, Refusal.STATE: 409}
WRITE_TRIES = 5
TOO_MANY = "too many wrong clock links from this phone: wait a minute and scan the QR code again"


def _client(request: Request) -> str:
    return request.client.host if request.client else "?"


def routes(web: WebContext) -> list[BaseRoute]:
    room = web.clocks
    replays = phone_clocks.Replays()  # each board's state, so an append replays only its own

    def refused(request: Request, problem: SlipRefused) -> Response:
        if problem.code is Refusal.TOKEN:
            web.limits.bad_tokens.allow(_client(request))  # a wrong token costs a try
        extra: dict[str, Any] = {"code": problem.code.value}
        if isinstance(problem, ClockRefused) and problem.stored is not None:
            extra["stored"] = problem.stored
        return refusal(STATUS[problem.code], str(problem), **extra)

    async def guessing(request: Request) -> Response | None:
        """Too many wrong tokens from this address: refused, but for a live token (the phones
        of a club behind one hotspot share an address with whoever mistyped)."""
        if not web.limits.bad_tokens.exhausted(_client(request)):
            return None
        if await web.run_db(slips.token_is_live, request.path_params["token"]):
            return None
        return refusal(429, TOO_MANY, code="rate")

    async def append(
        token: str, board: int, first: object, events: object
    ) -> phone_clocks.Appended:
        """One board's events into the match's log. The two phones of a match write to one
        log: one at a time (the phones' writer queue), and another station's write taking the
        same seq first is retried (the unique seq refuses the second). The board's stored log
        is replayed first, outside the writers' line: a long one holds up no other match."""
        async with web.writes.turn(token):
            await web.run_db(phone_clocks.replay_board, token, board, replays)
            for attempt in range(WRITE_TRIES):
                try:
                    return await web.queued_write(
                        phone_clocks.append_board_log, token, board, first, events, replays
                    )
                except IntegrityError:
                    if attempt == WRITE_TRIES - 1:
                        raise
        raise AssertionError("unreachable")

    def start_by_token(session: Session, token: str) -> dict[str, Any]:
        return room.schedule_start(session, phone_clocks.match_of_token(session, token)).value

    def board_of(request: Request) -> int:
        """The board in the address; 0 (no board) for anything but a short number: Python
        reads no more than 4,300 digits, and a longer one was a 500."""
        text = request.path_params["board"]
        return int(text) if ASCII_NUMBER.fullmatch(text) else 0

    shell = resource_path("web", "clock.html").read_text(encoding="utf-8")

    async def page(request: Request) -> Response:
        if board_of(request) not in BOARDS:
            return Response("404: a match has boards 1 and 2\n", 404, media_type="text/plain")
        return HTMLResponse(shell)

    async def now(_request: Request) -> Response:
        return JSONResponse({"server_ns": str(time.monotonic_ns())})

    async def show(request: Request) -> Response:
        if (blocked := await guessing(request)) is not None:
            return blocked
        try:
            view = await web.run_db(
                phone_clocks.clock_view, request.path_params["token"], board_of(request)
            )
        except SlipRefused as problem:
            return refused(request, problem)
        view["channel"] = f"clock:{view['match_id']}"
        view["server_ns"] = str(time.monotonic_ns())
        return JSONResponse(view)

    async def log(request: Request) -> Response:
        if (blocked := await guessing(request)) is not None:
            return blocked
        body = await json_body(request)
        token = request.path_params["token"]
        try:
            done = await append(token, board_of(request), body.get("first"), body.get("events"))
        except SlipRefused as problem:
            return refused(request, problem)
        room.heard(done)
        phone = body.get("phone")
        other = (
            isinstance(phone, str)
            and ID_PATTERN.fullmatch(phone) is not None
            and (room.another_phone(done.match_id, done.board, phone))
        )
        return JSONResponse({"stored": done.stored, "other_phone": other})

    async def start(request: Request) -> Response:
        if (blocked := await guessing(request)) is not None:
            return blocked
        try:
            token = request.path_params["token"]
            start = await web.write_db(token, start_by_token, token)
        except SlipRefused as problem:
            return refused(request, problem)
        return JSONResponse({"start": start})

    return [
        Route("/clock/{token}/{board}", page, methods=["GET"]),
        Route("/api/clock-time", now, methods=["GET"]),
        Route("/api/clock/{token}/{board}", show, methods=["GET"]),
        Route("/api/clock/{token}/{board}/log", log, methods=["POST"]),
        Route("/api/clock/{token}/start", start, methods=["POST"]),
    ]
