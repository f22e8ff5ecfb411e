"""SIGTERM and SIGHUP (logout, shutdown, `kill`, the terminal closed) and SIGINT (Ctrl+C in the
terminal that started it) close the app as the window's close does.

A signal arrives while Qt's event loop, not Python, has control: Python's handler only runs
when Python code next runs. `signal.set_wakeup_fd` writes a byte to a pipe (a socket on
Windows, where it must be one) the moment a signal comes in, and a QSocketNotifier on its
other end wakes the event loop, which then
closes the window: the event is closed cleanly, its lock released, and the next open does not
say "not closed properly".
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Callable

from PySide6.QtCore import QObject, QSocketNotifier

SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGINT") if hasattr(signal, name)
)


class Termination(QObject):
    """Calls `close` on the GUI thread when the process is asked to terminate."""

    def __init__(self, close: Callable[[], object], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.close = close
        self.wake_up = WakeUp()
        signal.set_wakeup_fd(self.wake_up.write_fd, warn_on_full_buffer=False)
        for number in SIGNALS:
            signal.signal(number, lambda *_: None)  # Python-level no-op: the wake-up fd acts
        self.notifier = QSocketNotifier(self.wake_up.read_fd, QSocketNotifier.Type.Read, self)
        self.notifier.activated.connect(self._woken)

    def _woken(self) -> None:
        with contextlib.suppress(OSError):
            data = self.wake_up.take()
            if any(byte in SIGNALS for byte in data):
                self.close()


class WakeUp:
    """The non-blocking pair `signal.set_wakeup_fd` writes to: a pipe on POSIX (the `socket`
    module was 4 ms of the app's start), a socket pair on Windows, where it must be one."""

    def __init__(self) -> None:
        if sys.platform == "win32":
            import socket

            self.sockets = socket.socketpair()
            for end in self.sockets:
                end.setblocking(False)
            self.read_fd, self.write_fd = (end.fileno() for end in self.sockets)
        else:
            self.read_fd, self.write_fd = os.pipe()
            for fd in (self.read_fd, self.write_fd):
                os.set_blocking(fd, False)

    def take(self) -> bytes:
        """The signal numbers written so far (at most 64)."""
        if sys.platform == "win32":
            return self.sockets[0].recv(64)
        return os.read(self.read_fd, 64)


def hold() -> None:
    """From the start of a window's process until `install`: these signals wait (blocked)
    instead of ending the process with its event half open and its lock left behind (the lock
    is taken before the window that can close it exists); `install` lets them in, and one that
    came meanwhile closes the window as soon as the event loop runs."""
    if SIGNALS and hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)


def install(close: Callable[[], object], parent: QObject | None = None) -> Termination | None:
    """On POSIX; Windows ends a GUI app with a window message Qt already turns into a close."""
    if not SIGNALS:
        return None
    termination = Termination(close, parent)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, SIGNALS)  # held since `hold`, if any
    return termination
