"""The child side of the upgrade kill test: open an older event file, and die mid-upgrade.

Run: `python upgrade_child.py FILE N [--every]`. Every SQL statement that writes (not a SELECT
or PRAGMA: a kill during a read is the same as a kill after the write before it) and every
rename counts as one step; with `--every`, every statement does. At step N the process SIGKILLs
itself, as a power cut or a killed app would stop it. With N beyond the last step the upgrade
finishes and the child prints how many steps it took.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sqlalchemy import Engine, event

from director.store.engine import open_database

steps = [0]
kill_at = int(sys.argv[2])


every = "--every" in sys.argv


def step(*args: Any) -> None:
    statement = args[2] if len(args) > 2 else ""
    if not every and statement.lstrip().upper().startswith(("SELECT", "PRAGMA")):
        return
    steps[0] += 1
    if steps[0] == kill_at:
        os.kill(os.getpid(), signal.SIGKILL)


event.listen(Engine, "before_cursor_execute", step)
for name in ("replace", "rename"):
    real = getattr(os, name)

    def counted(*args: Any, _real: Any = real, **kwargs: Any) -> Any:
        step()
        return _real(*args, **kwargs)

    setattr(os, name, counted)

db = open_database(sys.argv[1])
db.close()
print(steps[0])
