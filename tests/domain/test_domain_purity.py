"""STYLE: `director/domain` imports nothing of Qt or SQLAlchemy (the rules stay testable alone).

Checked in a fresh interpreter, because this test process has long since imported both.
"""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import importlib, pkgutil, sys
import director.domain as domain
names = [m.name for m in pkgutil.walk_packages(domain.__path__, "director.domain.")]
for name in names:
    importlib.import_module(name)
print(len(names))
print(" ".join(sorted({m.split(".")[0] for m in sys.modules})))
"""


def test_importing_every_domain_module_loads_neither_qt_nor_sqlalchemy() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=60
    )
    count, loaded = done.stdout.splitlines()
    assert int(count) >= 10  # the walk really found the domain's modules
    top_level = set(loaded.split())
    assert "director" in top_level
    assert not top_level & {"PySide6", "shiboken6", "sqlalchemy", "alembic", "reportlab"}
