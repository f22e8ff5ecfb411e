"""The table service: the players' pages, the JSON API, result slips and server push.

- `app.py` builds the ASGI application from the route modules listed in `ROUTE_MODULES`;
  a feature adds a module with a `routes(web: WebContext) -> list[BaseRoute]` function, and
  its import and one entry there. `responses.py` has the shared refusal and JSON-body helpers.
- `hub.py` is the push hub: named channels, the latest message of each kept for whoever
  connects later, fanned out to every subscriber (Server-Sent Events at `/events`).
- `context.py` is what every route gets: the event database, the hub, the rate limits, the
  devices seen, and `run_db` to do database work on a worker thread.
- `server.py` runs it all in its own thread (uvicorn), off the GUI thread, and watches the
  event for changes (the desk's, another station's, the command line's).
"""
