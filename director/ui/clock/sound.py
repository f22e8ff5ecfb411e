"""The flag-fall sound and alarm: resources/sounds/flag.wav through QtMultimedia, else the
system beep.

QtMultimedia is optional at run time (it needs the platform's audio libraries, and there is no
audio offscreen): when it cannot be loaded or cannot play the file, the flag still beeps, and
the reason is logged once, never shown as an error. The visual flag mark does not depend on it.
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QObject, QTimer, QUrl, Signal
from PySide6.QtWidgets import QApplication

from director.resources import resource_path

log = logging.getLogger(__name__)
SILENT_PLATFORMS = ("offscreen", "minimal")


class FlagSound(QObject):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.effect: Any = None  # a QSoundEffect when QtMultimedia works
        self.played = 0  # how often the flag sounded (for the tests and the log)
        self.warnings = 0  # low-time warnings sounded
        self.how = "beep"
        if QApplication.platformName() in SILENT_PLATFORMS:
            return  # no audio device offscreen: QtMultimedia would only warn
        try:
            from PySide6.QtMultimedia import QSoundEffect
        except ImportError as exc:
            log.info("flag sound: QtMultimedia unavailable (%s); using the system beep", exc)
            return
        try:
            source = QUrl.fromLocalFile(str(resource_path("sounds", "flag.wav")))
        except FileNotFoundError as exc:
            log.info("flag sound: %s; using the system beep", exc)
            return
        effect = QSoundEffect(self)
        effect.setSource(source)
        effect.setVolume(1.0)
        self.effect, self.how = effect, "wav"

    def play(self) -> None:
        self.played += 1
        effect = self.effect
        if effect is not None and effect.status() != effect.Status.Error:
            effect.play()
            return
        QApplication.beep()

    def warn(self) -> None:
        """The low-time warning: one short beep (quieter than the flag where there is sound)."""
        self.warnings += 1
        QApplication.beep()


ALARM_STEP_MS = 500  # the flash's half period; the sound repeats every other step


class FlagAlarm(QObject):
    """A flag's alarm: the sound again every second and the flagged face flashing, until the
    arbiter acknowledges it (the board's "Silence" button, recording the game, lifting the
    flag). Without a sound system it still flashes; the sound falls back to the beep.

    An optional low-time warning sounds once when a running side passes below `low_ns`.
    """

    changed = Signal()

    def __init__(self, sound: FlagSound, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.sound = sound
        self.sounding: set[int] = set()  # boards whose alarm is not acknowledged yet
        self.flash_on = False
        self.steps = 0
        self.low_ns = 0  # 0: no low-time warning
        self.warned: set[tuple[int, str]] = set()  # (board, side) warned while under low_ns
        self.timer = QTimer(self)
        self.timer.setInterval(ALARM_STEP_MS)
        self.timer.timeout.connect(self._step)

    def raise_flag(self, board: int) -> None:
        self.sounding.add(board)
        self.sound.play()
        self.flash_on, self.steps = True, 0
        self.timer.start()
        self.changed.emit()

    def acknowledge(self, board: int | None = None) -> None:
        if board is None:
            self.sounding.clear()
        else:
            self.sounding.discard(board)
        if not self.sounding:
            self.timer.stop()
            self.flash_on = False
        self.changed.emit()

    def flashing(self, board: int) -> bool:
        return board in self.sounding and self.flash_on

    def _step(self) -> None:
        self.steps += 1
        self.flash_on = not self.flash_on
        if self.steps % 2 == 0:
            self.sound.play()
        self.changed.emit()

    def low_time(self, board: int, side: str, remaining_ns: int, running: bool) -> None:
        """Called with the running side's time each frame: one warning per crossing."""
        key = (board, side)
        if not self.low_ns or remaining_ns >= self.low_ns:
            self.warned.discard(key)
        elif running and key not in self.warned and remaining_ns > 0:
            self.warned.add(key)
            self.sound.warn()
