"""`tandem-director serve FILE`: the players' pages without the app (a second computer, a Pi)."""

from __future__ import annotations

import argparse
import signal
import threading
from types import FrameType

from director.cli.common import Parser
from director.domain.numbers import typed_number
from director.domain.wording import quoted


def _port(text: str) -> int:
    port = typed_number(text)  # "²" raised ValueError, "٣" was port 3
    if port is None or not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a port number from 0 to 65535")
    return port


def _host(text: str) -> str:
    """An address or a host name the network can carry: a label over 63 characters or a name
    over 253 ended `serve` in a UnicodeError from the IDNA codec."""
    try:
        encoded = text.encode("idna")
    except UnicodeError:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a host name or address") from None
    if not text or len(encoded) > 253:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a host name or address")
    return text


def cmd_serve(args: argparse.Namespace) -> int:
    from director.store.engine import open_event
    from director.web.server import TableService

    stop = threading.Event()

    def ask_stop(_signum: int, _frame: FrameType | None) -> None:
        stop.set()

    # before the event is opened and anything printed: a signal sent as soon as "serving" is
    # read (a script, a service manager) found the default action still in place and killed
    # the process with the event's lock held
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):  # Ctrl+C, shutdown, terminal closed
        if hasattr(signal, name):  # Windows has no SIGHUP
            signal.signal(getattr(signal, name), ask_stop)
    from director.web.server import bind_socket

    sock = bind_socket(args.host, args.port)  # a port in use is refused before a byte is written
    try:
        db = open_event(args.file)  # the app's lock: one writer per event file
    except BaseException:
        sock.close()
        raise
    club = None
    try:
        if args.club is not None:
            from director.store.club import open_club

            try:
                club = open_club(args.club, lock=False, make_backup=False)  # read only
            except BaseException:
                sock.close()
                raise
        service = TableService(db, args.host, args.port, club=club)
        urls = service.start(sock)
        try:
            print(urls[0], flush=True)  # the first line: the address, for people and scripts
            for url in urls[1:]:
                print(f"also at {url}", flush=True)
            print(f"serving {db.title}; stop with Ctrl+C", flush=True)
            if club is not None:
                print(f"the club's ratings at {urls[0]}club", flush=True)
            while not stop.wait(0.5):
                if not service.running:
                    print("tandem-director: the table service stopped", flush=True)
                    return 1
        finally:
            service.stop()
    finally:
        if club is not None:
            club.close()
        db.close()
    return 0


def register(sub: argparse._SubParsersAction[Parser]) -> None:
    serve = sub.add_parser(
        "serve", help="serve the players' pages and result slips (prints the address first)"
    )
    serve.add_argument("file", help="the event file (or a PostgreSQL URL)")
    serve.add_argument(
        "--host", type=_host, default="0.0.0.0", help="address to listen on (default: all)"
    )
    serve.add_argument(
        "--club", metavar="CLUB", help="also serve this club's ratings and season at /club"
    )
    serve.add_argument("--port", type=_port, default=8080, help="port (default 8080; 0: any)")
    serve.set_defaults(func=cmd_serve)
