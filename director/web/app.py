"""The table service's ASGI application: route modules, security, errors.

Every feature is a module with `routes(web: WebContext) -> list[BaseRoute]`, listed in
`ROUTE_MODULES`; adding one (the phone clocks, say) touches that module and one line here.
`Guard` wraps the whole application: security headers on every answer, the address check on
every request and the same-origin check on every write, the read rate limit, a body size limit
counted as the body arrives, and a plain sentence instead of a stack trace when something
fails.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from types import ModuleType

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from director.web import api, clock_routes, pages, slip_routes
from director.web.context import WebContext
from director.web.responses import BODY_LIMIT, FAILED, refusal
from director.web.security import SECURITY_HEADERS, our_host, same_origin

log = logging.getLogger(__name__)

# each: a module of director.web with `routes(web) -> list[BaseRoute]` (imported here, not by
# name, so the frozen app's analysis sees every one of them)
ROUTE_MODULES: tuple[ModuleType, ...] = (
    api,
    slip_routes,
    clock_routes,
    pages,  # last: its static files are mounted under /static
)
WRITE_METHODS = frozenset(("POST", "PUT", "PATCH", "DELETE"))


TOO_LARGE = "the request is too large"


class TooLarge(HTTPException):
    """A request's body went past `BODY_LIMIT` while arriving: answered 413 by the routes'
    error handler, which closes the connection (the rest of the body is never read)."""

    def __init__(self) -> None:
        super().__init__(413, TOO_LARGE)


class Guard:
    """Pure ASGI middleware (it must not buffer the push stream)."""

    def __init__(self, app: ASGIApp, web: WebContext) -> None:
        self.app = app
        self.web = web

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        client = scope.get("client")
        address = client[0] if client else "?"
        method = scope["method"]
        writes = method in WRITE_METHODS
        limit = self.web.limits.writes if writes else self.web.limits.reads
        length = headers.get("content-length") or "0"
        problem: Response | None = None
        if not our_host(headers.get("host"), scope.get("server")):
            problem = refusal(421, "this server answers only at its own address")
        elif writes and not same_origin(headers.get("origin"), headers.get("host")):
            problem = refusal(403, "refused: this request did not come from this server's pages")
        elif not limit.allow(address):
            problem = refusal(429, "too many requests: wait a minute and try again")
        elif not length.isdigit() or int(length) > BODY_LIMIT:
            problem = _closing(refusal(413, TOO_LARGE))
        if problem is not None:
            await self._secured(problem, scope, receive, send)
            return
        started = False
        received = 0

        async def receive_limited() -> Message:
            """The body counted as it arrives (a chunked body has no Content-Length): past
            the limit the request is refused and the connection closed, nothing more read."""
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > BODY_LIMIT:
                    raise TooLarge()
            return message

        async def send_secured(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                present = {k.lower() for k, _ in message.get("headers", [])}
                message.setdefault("headers", [])
                message["headers"] = list(message["headers"]) + [
                    (k.lower().encode(), v.encode())
                    for k, v in SECURITY_HEADERS.items()
                    if k.lower().encode() not in present
                ]
            await send(message)

        try:
            await self.app(scope, receive_limited, send_secured)
        except TooLarge:
            if not started:
                await self._secured(_closing(refusal(413, TOO_LARGE)), scope, receive, send)
        except Exception:
            log.exception("table service: %s %s failed", method, scope.get("path"))
            if not started:
                await self._secured(refusal(500, FAILED), scope, receive, send)

    async def _secured(
        self, response: Response, scope: Scope, receive: Receive, send: Send
    ) -> None:
        response.headers.update(SECURITY_HEADERS)
        await response(scope, receive, send)


def _closing(response: Response) -> Response:
    """The connection closes after this answer: a body left unread is never read."""
    response.headers["Connection"] = "close"
    return response


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    detail = exc.detail if exc.status_code < 500 else FAILED
    if isinstance(exc, TooLarge):
        return _closing(refusal(exc.status_code, str(detail)))
    if request.url.path.startswith("/api/") or request.method != "GET":
        return refusal(exc.status_code, str(detail))
    return Response(f"{exc.status_code}: {detail}\n", exc.status_code, media_type="text/plain")


async def _failure(request: Request, exc: Exception) -> Response:
    log.error("table service: %s failed", request.url.path, exc_info=exc)
    return refusal(500, FAILED)


def collect_routes(
    web: WebContext, modules: Sequence[ModuleType] = ROUTE_MODULES
) -> list[BaseRoute]:
    routes: list[BaseRoute] = []
    for module in modules:
        routes.extend(module.routes(web))
    return routes


def build_app(web: WebContext) -> ASGIApp:
    app = Starlette(
        debug=False,
        routes=collect_routes(web),
        exception_handlers={HTTPException: _http_error, Exception: _failure},
    )
    app.state.web = web
    return Guard(app, web)
