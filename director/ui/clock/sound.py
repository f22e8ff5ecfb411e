"""The flag-fall sound: resources/sounds/flag.wav through QtMultimedia, else the system beep.

QtMultimedia is optional at run time (it needs the platform's audio libraries, and there is no
audio offscreen): when it cannot be loaded or cannot play the file, the flag still beeps, and
the reason is logged once, never shown as an error. The visual flag mark does not depend on it.
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QObject, QUrl
from PySide6.QtWidgets import QApplication

from director.resources import resource_path

log = logging.getLogger(__name__)
SILENT_PLATFORMS = ("offscreen", "minimal")


class FlagSound(QObject):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.effect: Any = None  # a QSoundEffect when QtMultimedia works
        self.played = 0  # how often the flag sounded (for the tests and the log)
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
