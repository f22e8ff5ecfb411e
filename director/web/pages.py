"""The players' pages: one HTML shell per page, filled in by `app.js` from the JSON API.

The shell holds no event data at all: names reach the page only through the script, which
puts them on screen with `textContent`, so a team called `<b>R&D</b>` shows as typed.
"""

from __future__ import annotations

import html

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from director.domain.numbers import ASCII_NUMBER
from director.resources import resource_path
from director.web.context import WebContext

# path -> (page name for app.js, title); the navigation lists NAV, and the club's page last
# when `serve --club` serves one (`navigation`)
PAGES = {
    "/": ("pairings", "Pairings"),
    "/team": ("team", "My team"),
    "/standings": ("standings", "Standings"),
    "/crosstable": ("crosstable", "Crosstable"),
    "/rules": ("rules", "Rules"),
    "/met": ("met", "Match equity"),
    "/brackets": ("brackets", "Brackets"),
    "/club": ("club", "Club"),  # the club's ratings and season, when `serve --club` serves one
}
NAV = ("/", "/team", "/standings", "/crosstable", "/rules", "/met", "/brackets")


def navigation(web: WebContext) -> tuple[str, ...]:
    """The pages the phones' navigation links to: the club's only when it is served."""
    return (*NAV, "/club") if web.club is not None else NAV


def shell(page: str, title: str, nav: tuple[str, ...], active: str = "") -> str:
    links = "".join(
        f'<a href="{path}"{" aria-current=page" if path == active else ""}>'
        f"{html.escape(PAGES[path][1])}</a>"
        for path in nav
    )
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>{html.escape(title)}</title>
<link rel="stylesheet" href="/static/style.css">
<script src="/static/app.js" defer></script>
</head>
<body data-page="{html.escape(page)}">
<header><h1 id="event-name">Tandem</h1><span id="live" class="live" role="status">…</span></header>
<nav>{links}</nav>
<main id="main"><p class="muted">Loading…</p></main>
</body>
</html>
"""


def routes(web: WebContext) -> list[BaseRoute]:
    nav = navigation(web)

    def page(path: str) -> Route:
        name, title = PAGES[path]
        body = shell(name, title, nav, path)

        async def endpoint(_request: Request) -> Response:
            return HTMLResponse(body)

        return Route(path, endpoint, name=name)

    slip_body = shell("slip", "Result slip", nav)
    match_body = shell("match", "Match", nav)

    async def slip_page(_request: Request) -> Response:
        return HTMLResponse(slip_body)

    async def match_page(request: Request) -> Response:
        if not ASCII_NUMBER.fullmatch(request.path_params["match_id"]):  # 5,000 digits: no 500
            return Response("404: there is no such match\n", 404, media_type="text/plain")
        return HTMLResponse(match_body)

    async def no_icon(_request: Request) -> Response:
        return Response(status_code=204)

    return [
        *(page(path) for path in PAGES),
        Route("/favicon.ico", no_icon),
        Route("/slip/{token}", slip_page),
        Route("/match/{match_id}", match_page),
        Mount("/static", app=StaticFiles(directory=resource_path("web")), name="static"),
    ]
