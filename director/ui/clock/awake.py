"""Keep the screen awake while match clocks run (RULES §7: a dark screen is a stopped clock).

Linux: the freedesktop ScreenSaver `Inhibit` over the session D-Bus, on a private connection
of our own; closing that connection releases the inhibition (GNOME and KDE drop an inhibition
when its holder leaves the bus). Windows:
`SetThreadExecutionState` from the GUI thread. macOS: `caffeinate -d -w PID`, ended on release.

Every failure is logged and otherwise ignored: no inhibitor means a screen that may dim, never
a clock that stops or a crash.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import shutil
import subprocess
import sys
from typing import Any

log = logging.getLogger(__name__)

APP = "Tandem Director"
REASON = "match clocks are running"
SERVICE = "org.freedesktop.ScreenSaver"
PATH = "/org/freedesktop/ScreenSaver"
_names = itertools.count(1)


class ScreenAwake:
    """`hold(True)` while any clock runs, `hold(False)` when none does; `release()` at close."""

    def __init__(self) -> None:
        self.active = False
        self.how = ""  # which mechanism holds the screen now ("" when none)
        self._release: Any = None

    def hold(self, on: bool) -> None:
        if on == self.active:
            return
        self.active = on
        if on:
            try:
                self.how, self._release = _inhibit()
            except Exception:  # never let keeping the screen on cost a clock
                log.exception("keeping the screen awake failed")
                self.how, self._release = "", None
        else:
            self.release()

    def release(self) -> None:
        self.active = False
        release, self._release, self.how = self._release, None, ""
        if release is None:
            return
        try:
            release()
        except Exception:
            log.exception("releasing the screen failed")


def _inhibit() -> tuple[str, Any]:
    if sys.platform == "win32":
        return _windows()
    if sys.platform == "darwin":
        return _macos()
    return _freedesktop()


def _windows() -> tuple[str, Any]:
    import ctypes

    es_continuous, es_system, es_display = 0x80000000, 0x00000001, 0x00000002
    kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined,unused-ignore]
    if not kernel32.SetThreadExecutionState(es_continuous | es_system | es_display):
        log.info("SetThreadExecutionState refused")
        return "", None
    return "SetThreadExecutionState", lambda: kernel32.SetThreadExecutionState(es_continuous)


def _macos() -> tuple[str, Any]:
    path = shutil.which("caffeinate")
    if path is None:
        log.info("caffeinate not found: the screen may sleep")
        return "", None
    process = subprocess.Popen(
        [path, "-d", "-w", str(os.getpid())],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def stop() -> None:
        process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(2)

    return "caffeinate", stop


def _freedesktop() -> tuple[str, Any]:
    """Asynchronous: a slow or absent session bus must not hold up the display thread."""
    from PySide6.QtDBus import QDBusConnection, QDBusMessage, QDBusPendingCallWatcher

    if not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        log.info("no session D-Bus: the screen saver cannot be inhibited")
        return "", None
    name = f"tandem-clock-awake-{next(_names)}"
    bus = QDBusConnection.connectToBus(QDBusConnection.BusType.SessionBus, name)
    if not bus.isConnected():
        log.info("session D-Bus unavailable: %s", bus.lastError().message())
        QDBusConnection.disconnectFromBus(name)
        return "", None
    call = QDBusMessage.createMethodCall(SERVICE, PATH, SERVICE, "Inhibit")
    call.setArguments([APP, REASON])
    watcher = QDBusPendingCallWatcher(bus.asyncCall(call, 2000))
    held: dict[str, Any] = {}

    def answered(done: QDBusPendingCallWatcher) -> None:
        reply = done.reply()
        if reply.type() == QDBusMessage.MessageType.ReplyMessage and reply.arguments():
            held["cookie"] = reply.arguments()[0]
        else:
            log.info("screen saver inhibit refused: %s", reply.errorMessage())

    watcher.finished.connect(answered)
    held["watcher"] = watcher  # alive until the answer comes

    def stop() -> None:
        # Closing our own connection ends the inhibition (the service watches its holders).
        # UnInhibit is not sent: its cookie is a D-Bus uint32 and PySide marshals a Python int
        # as a signed integer, which the service would refuse.
        held.clear()
        QDBusConnection.disconnectFromBus(name)

    return "org.freedesktop.ScreenSaver", stop
