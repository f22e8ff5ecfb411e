"""The child side of the upgrade kill test: open an older event file, and die mid-upgrade.

Run: `python upgrade_child.py FILE N [--every]`. Every SQL statement that writes (not a SELECT
or PRAGMA: a kill during a read is the same as a kill after the write before it) and every
rename counts as one step; with `--every`, every statement does. At step N the process SIGKILLs
itself, as a power cut or a killed app would stop it. With N beyond the last step the upgrade
finishes and the child prints how many steps it took.

Run as `python upgrade_child.py --serve [--every]`, it imports everything once and serves as a
fork server (as the kill test's writer does), so a kill at each of the upgrade's steps does not
pay an interpreter start each: a line `N FILE` on stdin forks one such child, and the server
prints `X sig9` when it killed itself, else `X exitN` after the child's `S steps`.
"""

from __future__ import annotations

import importlib
import os
import signal
import sys
import traceback
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sqlalchemy import Engine, event

from director.store.engine import open_database

steps = [0]
kill_at = [0]  # 0: never (the fork server itself runs no SQL)
every = "--every" in sys.argv


def step(*args: Any) -> None:
    statement = args[2] if len(args) > 2 else ""
    if not every and statement.lstrip().upper().startswith(("SELECT", "PRAGMA")):
        return
    steps[0] += 1
    if steps[0] == kill_at[0]:
        os.kill(os.getpid(), signal.SIGKILL)


event.listen(Engine, "before_cursor_execute", step)
for name in ("replace", "rename"):
    real = getattr(os, name)

    def counted(*args: Any, _real: Any = real, **kwargs: Any) -> Any:
        step()
        return _real(*args, **kwargs)

    setattr(os, name, counted)


def upgrade(path: str, n: int) -> int:
    """Open the file as the app does (so upgrade it), dying at step `n`; the steps it took."""
    steps[0], kill_at[0] = 0, n
    open_database(path).close()
    return steps[0]


def out(line: str) -> None:
    os.write(1, (line + "\n").encode())


def serve() -> None:
    # what the upgrade imports only when a file needs one (alembic, its autogenerate compare,
    # mako): imported here once, not again in each of the ~100 children (the test's CPU time
    # 43 s -> 30 s). Imports are no step: a kill lands on a statement or a rename all the same.
    for module in ("alembic.autogenerate", "alembic.command", "alembic.runtime.migration"):
        importlib.import_module(module)
    out("READY")
    for line in sys.stdin:
        n, path = line.rstrip("\n").split(" ", 1)
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                out(f"S {upgrade(path, int(n))}")
            except BaseException:
                traceback.print_exc()
                code = 1
            os._exit(code)  # nothing of the server's is flushed or cleaned up twice
        _, status = os.waitpid(pid, 0)
        killed = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
        out("X sig9" if killed else f"X exit{os.waitstatus_to_exitcode(status)}")


if __name__ == "__main__":
    if "--serve" in sys.argv:
        serve()
    else:
        print(upgrade(sys.argv[1], int(sys.argv[2])))
