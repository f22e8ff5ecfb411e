"""Writes flag.wav, the flag-fall sound: three short 880 Hz beeps (about 0.7 s), 16-bit mono.

Run `python resources/sounds/make_flag_wav.py` to rebuild it; the output is deterministic, and
the file is committed so the app needs no build step.
"""

from __future__ import annotations

import math
import struct
import wave
from pathlib import Path

RATE = 22_050
PITCH = 880.0
BEEP_S, GAP_S, BEEPS = 0.16, 0.08, 3
FADE_S = 0.01  # no click at the edges of a beep
VOLUME = 0.6


def samples() -> list[int]:
    out: list[int] = []
    beep, gap, fade = int(RATE * BEEP_S), int(RATE * GAP_S), int(RATE * FADE_S)
    for _ in range(BEEPS):
        for i in range(beep):
            envelope = min(1.0, i / fade, (beep - i) / fade)
            value = VOLUME * envelope * math.sin(2 * math.pi * PITCH * i / RATE)
            out.append(round(value * 32_767))
        out.extend([0] * gap)
    return out


def write(path: Path) -> None:
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        data = samples()
        out.writeframes(struct.pack(f"<{len(data)}h", *data))


if __name__ == "__main__":
    write(Path(__file__).with_name("flag.wav"))
