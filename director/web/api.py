"""The public JSON API (read-only) and the push stream.

- `GET /api/event` – the event's name, venue, date, match length and scoring
- `GET /api/pairings[?round=N]` – a round's tables with live scores (default: the current)
- `GET /api/matches/N` – one match with every game
- `GET /api/standings` – exactly `tandem-director standings --json`
- `GET /api/tie-breaks` – the standings' tie-breaks in order: each one's key in the rows
  (snake_case, as `standings --json`), its name and its definition
- `GET /api/brackets` – a knockout's brackets (rounds, lengths, names, scores, byes, places)
  and each entrant's next match and where a loss sends them (RULES §11)
- `GET /api/crosstable`, `GET /api/rules`, `GET /api/met[?g=0.28&b=0&size=6]`
- `GET /events?ch=pairings&ch=match:12` – Server-Sent Events: the latest message of each
  channel at once, then every change (`event:` is the channel, `data:` its JSON)
- `GET /api/latest?ch=pairings&ch=match:12` – the same channels' latest messages in one read
  (`{channel: data}`): what a page shows while its push stream is refused or down
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from director.domain.errors import UserError
from director.domain.met import MetError
from director.domain.numbers import ASCII_NUMBER, typed_decimal
from director.web import answers, views
from director.web.context import WebContext
from director.web.hub import END
from director.web.protocol import DirectBody, direct_body

KEEPALIVE_SECONDS = 15.0
# push connections at once: a room of 3,000 viewers and room to spare (the server raises its
# open-file limit to match), and per client address: one machine cannot lock new phones out,
# while a club's phones behind one hotspot (one address) still fit
MAX_STREAMS = 4000
MAX_STREAMS_PER_ADDRESS = 400
MAX_CHANNELS = 20
CHANNEL_LENGTH = 40
CHANNEL_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789:-_*")


def _int(text: str | None, name: str, low: int, high: int) -> int | None:
    if text is None:
        return None
    if not ASCII_NUMBER.fullmatch(text) or not low <= int(text) <= high:
        raise HTTPException(400, f"{name} must be a whole number from {low} to {high}")
    return int(text)


def _float(text: str | None, name: str, default: float) -> float:
    if text is None:
        return default
    value = typed_decimal(text)  # float() read "٠.٣" as 0.3
    if value is None or not 0.0 <= value <= 1.0:
        raise HTTPException(400, f"{name} must be a number from 0 to 1")
    return value


def routes(web: WebContext) -> list[BaseRoute]:
    async def event(_request: Request) -> Response:
        data = await web.run_db(views.rules)
        return JSONResponse({k: data[k] for k in ("event", "venue", "date", "entrant", "met")})

    async def pairings(request: Request) -> Response:
        number = _int(request.query_params.get("round"), "round", 1, 10_000)
        if number is None:
            latest = web.hub.latest("pairings")
            if latest is not None:
                return Response(latest.body, media_type="application/json")
        return JSONResponse(await web.run_db(views.pairings, number))

    async def match(request: Request) -> Response:
        text = request.path_params["match_id"]
        if not ASCII_NUMBER.fullmatch(text):
            raise HTTPException(404, f"there is no match {text[:12]}")
        match_id = int(text)
        body = await web.run_db(answers.match_answer, web.answers, match_id)
        if body is None:
            raise HTTPException(404, f"there is no match {match_id}")
        return Response(body, media_type="application/json")

    async def standings(_request: Request) -> Response:
        return JSONResponse(await web.run_db(views.standings))

    async def tie_breaks(_request: Request) -> Response:
        data = await web.run_db(views.standings_page)
        return JSONResponse({"tie_breaks": data["tie_breaks"], "definitions": data["definitions"]})

    async def brackets(_request: Request) -> Response:
        return JSONResponse(await web.run_db(views.brackets))

    async def crosstable(_request: Request) -> Response:
        return JSONResponse(await web.run_db(views.crosstable))

    async def rules(_request: Request) -> Response:
        return JSONResponse(await web.run_db(views.rules))

    async def met(request: Request) -> Response:
        q = request.query_params
        size = _int(q.get("size"), "size", 1, 25) or 6
        try:
            data = views.met(_float(q.get("g"), "g", 0.28), _float(q.get("b"), "b", 0.0), size)
        except MetError as problem:
            raise HTTPException(400, str(problem)) from None
        return JSONResponse(data)

    async def latest(request: Request) -> Response:
        channels = request.query_params.getlist("ch")
        _check_channels(channels)
        out: dict[str, bytes] = {}  # each channel's data as JSON: the hub's encoded once
        for channel in channels:
            message = web.hub.latest(channel)
            if message is not None:
                out[channel] = message.body
            elif (match_id := _match_of(channel)) is not None:
                body = await web.run_db(answers.match_answer, web.answers, match_id)
                if body is not None:  # the match's answer, built once per change
                    out[channel] = body
            elif channel in views.CHANNEL_VIEWS:  # nobody watches it: read, kept for the next
                forgotten = web.hub.forgotten(channel)
                data = await web.run_db(views.CHANNEL_VIEWS[channel])
                web.hub.publish_first(channel, data, forgotten)
                out[channel] = _json(data)
            elif channel.startswith("slips:"):
                out[channel] = _json({"changed": True})  # the page asks its slips again
        body = b",".join(_json(channel) + b":" + data for channel, data in out.items())
        return Response(b"{" + body + b"}", media_type="application/json")

    async def club(_request: Request) -> Response:
        from director.services.club import public_club

        data = await web.run_club(public_club)
        if data is None:
            raise HTTPException(404, "this table service serves no club")
        return JSONResponse(data)

    async def events(request: Request) -> Response:
        channels = request.query_params.getlist("ch")
        _check_channels(channels)
        address = request.client.host if request.client else "?"
        if web.hub.streams_of(address) >= MAX_STREAMS_PER_ADDRESS:
            raise HTTPException(429, "too many live pages from this address; try again later")
        if web.hub.subscriber_count >= MAX_STREAMS:
            raise HTTPException(503, "too many phones are connected; try again in a minute")
        body = direct_body(request.scope) if request.method == "GET" else None
        return StreamingResponse(
            _stream(web, channels, address, body),
            media_type="text/event-stream",
            headers={"X-Accel-Buffering": "no"},
        )

    return [
        Route("/api/event", event),
        Route("/api/pairings", pairings),
        Route("/api/matches/{match_id}", match),
        Route("/api/standings", standings),
        Route("/api/tie-breaks", tie_breaks),
        Route("/api/crosstable", crosstable),
        Route("/api/brackets", brackets),
        Route("/api/rules", rules),
        Route("/api/met", met),
        Route("/api/club", club),
        Route("/events", events),
        Route("/api/latest", latest),
    ]


def _json(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def _check_channels(channels: list[str]) -> None:
    if not channels or len(channels) > MAX_CHANNELS:
        raise HTTPException(400, f"ask for 1 to {MAX_CHANNELS} channels with ?ch=NAME")
    if any(not c or len(c) > CHANNEL_LENGTH for c in channels):
        raise HTTPException(400, f"a channel name is at most {CHANNEL_LENGTH} characters")
    if any(set(c) - CHANNEL_CHARS for c in channels):
        raise HTTPException(400, "a channel name is letters, digits, ':' and '-'")


def _match_of(channel: str) -> int | None:
    """The match of a "match:N" channel, or None."""
    number = channel.removeprefix("match:")
    return int(number) if number != channel and ASCII_NUMBER.fullmatch(number) else None


async def _read_now(web: WebContext, channel: str) -> object | None:
    """A channel's data read now, or None: no such match, or not a channel read from the
    event (a match's slips, its clocks: published by what changes them)."""
    if channel in views.CHANNEL_VIEWS:
        return await web.run_db(views.CHANNEL_VIEWS[channel])
    if (match_id := _match_of(channel)) is not None:
        with contextlib.suppress(UserError):
            return await web.run_db(views.match_detail, match_id)
    return None


async def _stream(
    web: WebContext, channels: list[str], address: str, body: DirectBody | None
) -> AsyncIterator[bytes]:
    """One phone's push stream: reconnect after 1 s when dropped; a comment keeps it alive.
    A channel nobody watched has no kept message (the change watcher builds only what is
    watched): it is read once the stream is subscribed, so no change falls between the two.
    Once the answer's head has gone out (at the first yield), the hub may write a message
    straight to the connection (`body`) instead of waking this stream for it."""
    yield b"retry: 1000\n\n"
    direct = None if body is None else (lambda m: body.write(m.sse, m.chunk))
    with web.hub.subscription(channels, address, direct) as sub:
        for channel in channels:
            if web.hub.latest(channel) is None:
                forgotten = web.hub.forgotten(channel)
                data = await _read_now(web, channel)
                if data is not None:
                    web.hub.publish_first(channel, data, forgotten)
        while (message := await sub.next(KEEPALIVE_SECONDS)) is not END:
            yield b": keep-alive\n\n" if message is None else message.sse
