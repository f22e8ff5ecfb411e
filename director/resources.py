"""Where the app's resources (fonts, icons, help pages, sounds, notices) are found.

The repository's top-level `resources/` folder is the package `director_resources` wherever
the app runs: an editable install, a wheel (pyproject.toml maps the name onto the folder and
ships it as package data) and the frozen app (the PyInstaller spec does the same). It is read
here, and nowhere else: callers never build resource paths.

The package is found by importing it and taking its folder, not through `importlib.resources`:
Qt and reportlab want file names, so a package anywhere but in a folder on disk could not
serve them anyway, and `importlib.resources` (with its readers) was 3 ms of the app's start.
"""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path

from director.domain.errors import UserError

RESOURCE_PACKAGE = "director_resources"


@cache
def resource_root() -> Path:
    """The folder holding fonts/, icons/, help/, sounds/ and notices/."""
    try:
        package = importlib.import_module(RESOURCE_PACKAGE)
    except ModuleNotFoundError:
        raise UserError(
            f"the app's resources ({RESOURCE_PACKAGE}) are not installed: install the app "
            "(pip install . or pip install -e .) instead of running it from a bare source tree"
        ) from None
    # reportlab and Qt want file names: a package inside a zip file cannot serve them
    where = getattr(package, "__file__", None)
    root = Path(where).parent if where else None
    if root is None or not root.is_dir():
        raise UserError(f"the app's resources are not a folder on disk ({where})")
    return root


def resource_path(*parts: str) -> Path:
    """The path of one resource file or folder; FileNotFoundError names it when it is missing."""
    path = resource_root().joinpath(*parts)
    if not path.exists():
        raise FileNotFoundError(f"resource {'/'.join(parts)} is missing (looked in {path})")
    return path
