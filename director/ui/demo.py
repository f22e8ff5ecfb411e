"""The demo event: a simulated club night a newcomer can open and change freely.

It lives in the user data folder and is built afresh each time it is opened; old copies are
cleared after a week. `director.services.simulate.build_demo` builds it through the services.
"""

from __future__ import annotations

import contextlib
import time
from datetime import datetime
from pathlib import Path

import platformdirs

from director.domain.errors import UserError
from director.services import simulate
from director.store.targets import EXTENSION

DEMO_FILE = "Demo club night"
KEEP_DAYS = 7


def demo_folder() -> Path:
    return Path(platformdirs.user_data_dir("tandem-director", appauthor=False)) / "demo"


def _fresh_path(folder: Path) -> Path:
    """A new file name each time: a demo still open (in this or another window) is never
    deleted under its connection, which would take its journal with it. Demos older than a
    week are cleared away."""
    folder.mkdir(parents=True, exist_ok=True)
    week_ago = time.time() - KEEP_DAYS * 86400
    for old in folder.glob(f"{DEMO_FILE} *{EXTENSION}*"):
        with contextlib.suppress(OSError):
            if old.stat().st_mtime < week_ago:
                old.unlink()
    stamp = datetime.now().strftime("%Y-%m-%d %H.%M.%S")
    path = folder / f"{DEMO_FILE} {stamp}{EXTENSION}"
    number = 1
    while path.exists():  # twice within a second
        number += 1
        path = folder / f"{DEMO_FILE} {stamp} ({number}){EXTENSION}"
    return path


def build_demo_event(folder: Path | None = None) -> Path:
    """Build a fresh demo event file and return its path."""
    path = _fresh_path(folder or demo_folder())
    simulate.build_demo(str(path))
    if not path.is_file():
        raise UserError(f"the demo event could not be built in {path.parent}")
    return path
