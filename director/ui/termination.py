"""SIGTERM and SIGHUP (logout, shutdown, `kill`) close the app as the window's close does.

A signal arrives while Qt's event loop, not Python, has control: Python's handler only runs
when Python code next runs. `signal.set_wakeup_fd` writes a byte to a socket the moment a
signal comes in, and a QSocketNotifier on its other end wakes the event loop, which then
closes the window: the event is closed cleanly, its lock released, and the next open does not
say "not closed properly".
"""

from __future__ import annotations

import contextlib
import signal
import socket
from collections.abc import Callable

from PySide6.QtCore import QObject, QSocketNotifier

SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class Termination(QObject):
    """Calls `close` on the GUI thread when the process is asked to terminate."""

    def __init__(self, close: Callable[[], object], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.close = close
        self.reader, self.writer = socket.socketpair()
        self.reader.setblocking(False)
        self.writer.setblocking(False)
        signal.set_wakeup_fd(self.writer.fileno(), warn_on_full_buffer=False)
        for number in SIGNALS:
            signal.signal(number, lambda *_: None)  # Python-level no-op: the wake-up fd acts
        self.notifier = QSocketNotifier(self.reader.fileno(), QSocketNotifier.Type.Read, self)
        self.notifier.activated.connect(self._woken)

    def _woken(self) -> None:
        with contextlib.suppress(OSError):
            data = self.reader.recv(64)
            if any(byte in SIGNALS for byte in data):
                self.close()


def install(close: Callable[[], object], parent: QObject | None = None) -> Termination | None:
    """On POSIX; Windows ends a GUI app with a window message Qt already turns into a close."""
    if not SIGNALS:
        return None
    return Termination(close, parent)
