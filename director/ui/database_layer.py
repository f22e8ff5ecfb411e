"""The event's database layer, loaded in the background while the start page is up (or when
the first event opens, whichever comes first), with Python's own import. Pure Python only: Qt
classes are created on the main thread.

PySide6 replaces `__import__` and reads the source of every module imported after it, to learn
whether the module uses PySide's `__feature__` switches (shibokensupport/feature.py,
PYSIDE-2029). SQLAlchemy and our store and services never touch Qt: reading the
source of their some 200 modules took about a fifth of opening an event, so they are imported
here with that hook set aside (another thread importing meanwhile only skips the same
reading). The start page needs none of them, so start-up stays quick.
"""

from __future__ import annotations

import builtins
import importlib

LAYER = (
    "director.store.engine",
    "director.services.events",
    "director.services.teams",
    "director.services.rounds",
    "director.services.standings",
    "director.services.matches",
    "director.services.games",
    "director.services.live_cube",
    "director.services.backups",
    "director.services.audit",
)


def load() -> None:
    """Import the database layer (once; later calls find it loaded)."""
    hooked = builtins.__import__
    plain = getattr(builtins, "__orig_import__", hooked)  # PySide6 keeps Python's import here
    builtins.__import__ = plain
    try:
        for name in LAYER:
            importlib.import_module(name)
    finally:
        builtins.__import__ = hooked
