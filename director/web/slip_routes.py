"""Result slips over the network: every route needs a team's token, writes need our Origin.

Each team of a match has its own token (its own QR code): the side a phone writes for is the
token's, never a field the phone sends.

- `GET /api/slip/TOKEN[?device=ID]` – the token's match and team (`side`), what a slip for it
  needs (the scoring's fields and where rule 5′'s agreed level is offered, per end; which
  board may have used the cube) and its slips, newest first
- `POST /api/slip/TOKEN` `{"uid", "device", "game"}` – enter a game (`game` as in a match
  record) for the token's team; the same `uid` again answers with the stored slip
- `POST /api/slip/TOKEN/answer` `{"uid", "device", "agree", "reason"}` – the other team
  confirms (agree: true) or disputes it with its own token; the team that entered it may
  withdraw it

Refusals: 403 a bad, revoked or expired token (or a cross-origin write), 422 a game the rules
refuse (in the desk's words), 409 a slip not in a state for this, 429 too many tries.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from director.domain.changes import Changed
from director.services import slips
from director.services.slips import ID_PATTERN, Refusal, SlipInfo, SlipRefused
from director.web import answers
from director.web.context import WebContext
from director.web.responses import json_body, refusal

STATUS = {Refusal.TOKEN: 403, Refusal.INPUT: 422, Refusal.RULES: 422, Refusal.STATE: 409}
TOO_MANY = "too many wrong slip links from this phone: wait a minute and scan the QR code again"


def _client(request: Request) -> str:
    return request.client.host if request.client else "?"


def routes(web: WebContext) -> list[BaseRoute]:
    def refused(request: Request, problem: SlipRefused) -> Response:
        if problem.code is Refusal.TOKEN:
            web.limits.bad_tokens.allow(_client(request))  # a wrong token costs a try
        return refusal(STATUS[problem.code], str(problem), code=problem.code.value)

    async def guessing(request: Request) -> Response | None:
        """Too many wrong tokens from this address: refused, but for a live token (the phones
        of a club behind one hotspot share an address with whoever mistyped)."""
        if not web.limits.bad_tokens.exhausted(_client(request)):
            return None
        if await web.run_db(slips.token_is_live, request.path_params["token"]):
            return None
        return refusal(429, TOO_MANY, code="rate")

    def seen(request: Request, match_id: int, device: object) -> None:
        if isinstance(device, str) and ID_PATTERN.fullmatch(device):
            agent = request.headers.get("user-agent", "")
            web.devices.saw(match_id, device, _client(request), agent)

    def answer(request: Request, done: Changed[SlipInfo], device: object) -> Response:
        seen(request, done.value.match_id, device)
        web.answers.forget(done.changes.matches | done.changes.slips)  # before the phones ask
        web.on_change(done.changes)  # the slip, and an auto-accepted result with it
        return JSONResponse({"slip": done.value.public()})

    async def show(request: Request) -> Response:
        if (blocked := await guessing(request)) is not None:
            return blocked
        try:
            match_id, body = await web.run_db(
                answers.slip_answer, web.answers, request.path_params["token"]
            )
        except SlipRefused as problem:
            return refused(request, problem)
        seen(request, match_id, request.query_params.get("device"))
        return Response(body, media_type="application/json")

    async def submit(request: Request) -> Response:
        if (blocked := await guessing(request)) is not None:
            return blocked
        body = await json_body(request)
        try:
            done = await web.write_db(
                request.path_params["token"],
                slips.submit_slip,
                request.path_params["token"],
                body.get("uid"),
                body.get("device"),
                body.get("game"),
            )
        except SlipRefused as problem:
            return refused(request, problem)
        return answer(request, done, body.get("device"))

    async def respond(request: Request) -> Response:
        if (blocked := await guessing(request)) is not None:
            return blocked
        body = await json_body(request)
        agree = body.get("agree")
        if not isinstance(agree, bool):
            return refusal(422, "agree must be true or false", code="input")
        try:
            done = await web.write_db(
                request.path_params["token"],
                slips.answer_slip,
                request.path_params["token"],
                body.get("uid"),
                body.get("device"),
                agree,
                body.get("reason", ""),
            )
        except SlipRefused as problem:
            return refused(request, problem)
        return answer(request, done, body.get("device"))

    return [
        Route("/api/slip/{token}", show, methods=["GET"]),
        Route("/api/slip/{token}", submit, methods=["POST"]),
        Route("/api/slip/{token}/answer", respond, methods=["POST"]),
    ]
