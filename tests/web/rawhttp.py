"""Raw HTTP over a socket: what urllib cannot send (chunked bodies without an end, a header
line at a time, any Host), for the table service's tests against a real server."""

from __future__ import annotations

import socket
from urllib.parse import urlsplit


def address(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    return str(parts.hostname), int(parts.port or 80)


def connect(url: str, timeout: float = 5.0) -> socket.socket:
    return socket.create_connection(address(url), timeout=timeout)


def head(method: str, path: str, url: str, **headers: str) -> bytes:
    """A request's head; `Host` is the server's address unless given."""
    host, port = address(url)
    fields = {"Host": f"{host}:{port}", **{k.replace("_", "-"): v for k, v in headers.items()}}
    lines = [f"{method} {path} HTTP/1.1", *(f"{k}: {v}" for k, v in fields.items()), "", ""]
    return "\r\n".join(lines).encode("latin-1")


def read_answer(sock: socket.socket) -> tuple[int, bytes, bool]:
    """The status, everything the server sent, and whether it closed the connection (rather
    than going quiet until the socket's timeout)."""
    data, closed = b"", False
    try:
        while chunk := sock.recv(65536):
            data += chunk
        closed = True
    except TimeoutError:
        pass
    except (ConnectionResetError, BrokenPipeError):
        closed = True
    status = int(data[9:12]) if data.startswith(b"HTTP/1.1 ") else 0
    return status, data, closed
