"""Where the app's resources (fonts, icons, help pages, sounds) are found.

`resource_path("fonts", "DejaVuSans.ttf")` returns a real file path. It asks
`importlib.resources` first, for a package named `director_resources` (how an installed or
frozen build ships the repository's `resources/` folder: the installer packages it under that
name), and falls back to the source tree's `resources/` folder next to the `director` package,
which is where it lives in a checkout and in an editable install.

Callers never build resource paths themselves, so the packaging can change in one place.
"""

from __future__ import annotations

import importlib.resources
from pathlib import Path

RESOURCE_PACKAGE = "director_resources"


def _packaged_root() -> Path | None:
    try:
        root = importlib.resources.files(RESOURCE_PACKAGE)
    except ModuleNotFoundError:
        return None
    # reportlab and Qt want file names: a package inside a zip file cannot serve them, so only
    # a package on disk (wheel, PyInstaller bundle) counts.
    return root if isinstance(root, Path) else None


def _source_root() -> Path:
    return Path(__file__).resolve().parent.parent / "resources"


def resource_root() -> Path:
    """The folder holding fonts/, icons/, help/ and sounds/."""
    return _packaged_root() or _source_root()


def resource_path(*parts: str) -> Path:
    """The path of one resource file or folder; FileNotFoundError names it when it is missing."""
    path = resource_root().joinpath(*parts)
    if not path.exists():
        raise FileNotFoundError(f"resource {'/'.join(parts)} is missing (looked in {path})")
    return path
