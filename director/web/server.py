"""The table service running: uvicorn in its own thread, and the change watcher.

`TableService(db).start()` binds the socket (a port in use is a clear `UserError`), then runs
the ASGI app on its own event loop in a daemon thread; the GUI thread only starts and stops it.
The watcher polls `services.publish.fingerprint` a few times a second on a worker thread
(a result typed at this desk, at another station or by the command line: all the same), and
on a change publishes the fresh pages' data on the hub. `notify()` wakes it at once; the
phones' writer takes the same look itself once a group of their writes has committed, so a
confirmed result is on the pairings before the phones hear back.
Nothing is bound until `start()`, and `stop()` closes the socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import ipaddress
import logging
import socket
import threading
from collections.abc import Callable

import uvicorn
from starlette.concurrency import run_in_threadpool

from director.domain.changes import Area, Changes
from director.domain.errors import UserError
from director.domain.event import MatchInfo
from director.services.publish import Fingerprint, differences, fingerprint
from director.store.engine import EventDatabase
from director.web import views
from director.web.app import build_app
from director.web.context import WebContext
from director.web.hub import PushHub
from director.web.protocol import Refusals, TimedH11Protocol

log = logging.getLogger(__name__)
WATCH_SECONDS = 0.2
DEFAULT_PORT = 8080
ANY_ADDRESS = "0.0.0.0"


def bind_socket(host: str, port: int) -> socket.socket:
    """Bind now, so a port in use or a wrong address is told before anything runs."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror:
        raise UserError(f"--host {host}: not an address of this computer") from None
    family, _, _, _, address = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(256)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise UserError(f"port {port} is in use: choose another with --port") from None
        if exc.errno in (errno.EACCES, errno.EPERM):
            raise UserError(f"port {port} needs administrator rights: use 1024 or above") from None
        raise UserError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    sock.setblocking(False)
    return sock


# TEST-NET-1 (RFC 5737): connecting a UDP socket to it sends nothing, but the system picks the
# source address its route there would use, the one its default route (the Wi-Fi, the club's
# network) gives a phone on the same network
PROBE = "192.0.2.1"


def routed_address() -> str | None:
    """The address this computer sends from to the network beyond it (None: no route)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect((PROBE, 9))
        return str(probe.getsockname()[0])
    return None


def raise_file_limit() -> None:
    """As many open connections as the system lets this process have: a room of 3,000 viewers
    needs more than the usual soft limit of 1,024 files."""
    try:
        import resource
    except ImportError:  # Windows: no such limit to raise
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 65_536
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def local_addresses() -> list[str]:
    """This computer's IPv4 addresses, from its interfaces that are up: first the one a phone
    on the same network reaches (the routed one), then the private, the other and the
    link-local ones; loopback last. getaddrinfo(gethostname()) gave only 127.0.1.1 on stock
    Debian and Ubuntu, whose /etc/hosts names the host so."""
    import psutil  # only when serving: the app's start-up does not pay for it

    stats = psutil.net_if_stats()
    found: list[ipaddress.IPv4Address] = []
    for name, addresses in psutil.net_if_addrs().items():
        if name in stats and not stats[name].isup:
            continue
        for entry in addresses:
            if entry.family != socket.AF_INET:
                continue
            address = ipaddress.IPv4Address(entry.address)
            if not address.is_loopback and address not in found:
                found.append(address)
    routed = routed_address()
    found.sort(
        key=lambda a: (str(a) != routed, a.is_link_local, not a.is_private)
    )  # stable: the system's order within each kind
    return [*(str(a) for a in found), "127.0.0.1"]


def _url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def _watched(hub: PushHub, channel: str) -> bool:
    """Whether a changed channel is worth building now; if not, its kept message is dropped.
    Asked again after the drop: a stream that subscribed meanwhile found the old message kept
    and read nothing afresh, so it is built for that stream."""
    if hub.listened(channel):
        return True
    hub.forget(channel)
    return hub.listened(channel)


class TableService:
    """The players' pages for one open event."""

    def __init__(
        self,
        db: EventDatabase,
        host: str = ANY_ADDRESS,
        port: int = DEFAULT_PORT,
        *,
        on_change: Callable[[Changes], None] | None = None,
        club: EventDatabase | None = None,
    ) -> None:
        self.web = WebContext(db, club=club)
        self.web.on_change = self._changed_by_slip
        self.web.after_writes = self._refresh_now
        self.host, self.port = host, port
        self.external_change = on_change or (lambda _changes: None)
        self._thread: threading.Thread | None = None
        self._server: uvicorn.Server | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._ready = threading.Event()
        self._seen: Fingerprint | None = None
        self._refreshing = threading.Lock()  # one look at the event at a time (`_refresh_now`)

    # --- the director's side ----------------------------------------------------------

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def urls(self) -> list[str]:
        """Where phones reach the pages: every address when bound to all of them."""
        if self.host in (ANY_ADDRESS, "", "::"):
            return [_url(a, self.port) for a in local_addresses()]
        return [_url(self.host, self.port)]

    def start(self, sock: socket.socket | None = None) -> list[str]:
        """Serve on `sock` (bound by `bind_socket` to this host and port), else bind now."""
        if self.running:
            if sock is not None:
                sock.close()
            return self.urls
        raise_file_limit()
        sock = bind_socket(self.host, self.port) if sock is None else sock
        self.port = sock.getsockname()[1]  # port 0: the one the system chose
        config = uvicorn.Config(
            build_app(self.web),
            log_level="warning",
            loop="asyncio",  # named, not "auto": no optional accelerators looked up at run time
            http=TimedH11Protocol,  # h11, with a deadline for a request to arrive whole
            lifespan="off",
            access_log=False,
            server_header=False,
            timeout_graceful_shutdown=1,
        )
        self._server = uvicorn.Server(config)
        self._ready.clear()
        self._thread = threading.Thread(
            target=self._run, args=(sock,), name="table-service", daemon=True
        )
        self._thread.start()
        self._ready.wait(10)
        return self.urls

    def stop(self) -> None:
        """Close the socket and every connection; returns when the thread has ended.

        The push streams are ended first, so that uvicorn's graceful shutdown finds every
        response finished (an answer being written still goes out) instead of cancelling the
        streams under the phones, which it logs as an error with a traceback for each. What
        is still running after `timeout_graceful_shutdown` (1 s) is cancelled all the same."""
        if self._server is not None:
            self.web.hub.end_streams()
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(10)
        self._thread = None
        self._server = None

    def notify(self) -> None:
        """Something changed at the desk: look now instead of at the next poll."""
        loop, wake = self._loop, self._wake
        if loop is not None and wake is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(wake.set)

    # --- the server thread ------------------------------------------------------------

    def _changed_by_slip(self, changes: Changes) -> None:
        """A slip route changed something (published already: the phones' writer runs
        `_refresh_now` once its group has committed); an auto-accepted result is a change of
        the match the desk's pages must show (the watcher tells them about the slips)."""
        if changes.matches:
            self.external_change(changes)

    def _run(self, sock: socket.socket) -> None:
        asyncio.run(self._main(sock))

    async def _main(self, sock: socket.socket) -> None:
        try:
            self._loop = asyncio.get_running_loop()
            self._loop.set_exception_handler(Refusals())
            self._wake = asyncio.Event()
            self.web.hub.bind(self._loop)
            assert self._server is not None
            try:
                await self._refresh()  # the pages' data is ready before the first phone asks
            except Exception:
                log.exception("table service: reading the event failed")
            watcher = asyncio.create_task(self._watch())
            self._ready.set()
            try:
                await self._server.serve(sockets=[sock])
            finally:
                watcher.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await watcher
        finally:
            sock.close()
            self._ready.set()

    async def _watch(self) -> None:
        assert self._wake is not None
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), WATCH_SECONDS)
            self._wake.clear()
            try:
                await self._refresh()
            except Exception:  # a locked or unreachable database: try again at the next poll
                log.exception("table service: reading the event failed")

    async def _refresh(self) -> None:
        await run_in_threadpool(self._refresh_now)

    def _refresh_now(self) -> None:
        """On a worker thread (the watcher's, or the phones' writer's once its group has
        committed): what changed since the last look, published."""
        with self._refreshing:
            new = self.web.session_run(fingerprint)
            changes = differences(self._seen, new)
            self._seen = new
            if changes:
                self._publish(changes)

    def _publish(self, changes: Changes) -> None:
        """Runs on a worker thread: read what changed, publish it on the hub. The pairings go
        first (the room watches them), and the changed matches of their round are built from
        the pairings' own read; the other pages follow. A page nobody has open is not built
        (a room of 3,000 on the pairings made the standings, the crosstable, the brackets and
        each match's page at every result, with the fan-out waiting for the interpreter): its
        kept message is dropped, and a stream that asks for it later has it read then."""
        matches, slips = sorted(changes.matches), sorted(changes.slips)
        if changes.structure():  # names and rules in every answer
            self.web.answers.forget_all()
        else:
            self.web.answers.forget(changes.matches | changes.slips)
        channels: set[str] = set()
        if matches or changes.structure():
            channels |= {"standings", "crosstable", "brackets"}
        if changes.touches(Area.EVENT):
            channels.add("rules")
        hub = self.web.hub
        with self.web.db.Session() as session:
            shown: dict[int, MatchInfo] = {}
            if matches or changes.structure():
                board, listed = views.round_pairings(session)
                hub.publish("pairings", board)
                shown = {m.id: m for m in listed}
            for match_id in matches:
                if not _watched(hub, f"match:{match_id}"):
                    continue
                with contextlib.suppress(UserError):  # a match deleted meanwhile
                    match = shown.get(match_id)
                    detail = (
                        views.match_detail_of(match)
                        if match is not None
                        else views.match_detail(session, match_id)
                    )
                    hub.publish(f"match:{match_id}", detail)
            for channel in sorted(channels):
                if _watched(hub, channel):
                    hub.publish(channel, views.CHANNEL_VIEWS[channel](session))
        for match_id in slips:
            # no slip content on a public channel: the phones holding the token ask again
            self.web.hub.publish(f"slips:{match_id}", {"changed": True})
        if slips:
            self.external_change(Changes.of(Area.SLIPS, slips=slips))
