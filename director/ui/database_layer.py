"""The event's database layer, loaded in the background while the start page is up (or when
the first event opens, whichever comes first), with Python's own import. Pure Python only: Qt
classes are created on the main thread.

PySide6 replaces `__import__` and reads the source of every module imported after it, to learn
whether the module uses PySide's `__feature__` switches (shibokensupport/feature.py,
PYSIDE-2029). SQLAlchemy and our store and services never touch Qt: reading the
source of their some 200 modules took about a fifth of opening an event, so they are imported
here with that hook set aside (another thread importing meanwhile only skips the same
reading); so are the window's own modules (`python_import`: none of ours uses a feature
switch). The start page needs none of the layer, so start-up stays quick.
"""

from __future__ import annotations

import builtins
import contextlib
import importlib
import threading
from collections.abc import Iterator
from typing import Any

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


class _Importers:
    lock = threading.Lock()
    count = 0  # threads importing with Python's own import now
    hooked: Any = None  # PySide6's import, put back when the last of them is done


@contextlib.contextmanager
def python_import() -> Iterator[None]:
    """Imports in this block (and in other threads meanwhile) use Python's own import, past
    PySide6's hook; safe when several threads do so at once (the warm-up, the open, the
    window's own modules): the hook is put back once the last of them is done."""
    with _Importers.lock:
        if _Importers.count == 0:
            _Importers.hooked = builtins.__import__
            builtins.__import__ = getattr(builtins, "__orig_import__", _Importers.hooked)
        _Importers.count += 1
    try:
        yield
    finally:
        with _Importers.lock:
            _Importers.count -= 1
            if _Importers.count == 0:
                builtins.__import__ = _Importers.hooked


def load() -> None:
    """Import the database layer (once; later calls find it loaded), its mapped classes
    configured: the first query would configure them, on the way to the event's first page."""
    with python_import():
        for name in LAYER:
            importlib.import_module(name)
        from sqlalchemy.orm import configure_mappers

        configure_mappers()


class _WarmUp:
    lock = threading.Lock()
    thread: threading.Thread | None = None


def start_loading() -> None:
    """`load` on a thread of its own, started once: the app on an event file starts it before
    Qt loads (`director.cli.main`), so the layer's import runs while Qt starts."""
    with _WarmUp.lock:
        if _WarmUp.thread is None:
            _WarmUp.thread = threading.Thread(target=load, name="warm-up", daemon=True)
            _WarmUp.thread.start()
