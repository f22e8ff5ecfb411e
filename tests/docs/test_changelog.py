"""CHANGELOG.md tells the truth about the version (#25): where it is written, that the newest
released section is the version the build says, and one heading of each kind per version."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import director

ROOT = Path(__file__).resolve().parents[2]
CHANGELOG = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")


def test_the_changelog_names_the_one_place_the_version_is_written() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" in pyproject["project"]["dynamic"]
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "director.__version__"}
    header = CHANGELOG.split("\n## ", 1)[0]
    assert "`__version__` in `director/__init__.py`" in header
    assert "project.version" not in header


def test_the_newest_release_is_the_version_the_build_says() -> None:
    released = re.findall(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$", CHANGELOG, re.M)
    assert released, "no released version"
    assert released[0][0] == director.__version__
    assert f"[{director.__version__}]: CHANGELOG.md#" in CHANGELOG


def test_each_version_has_each_kind_of_change_once() -> None:
    for section in re.split(r"^## ", CHANGELOG, flags=re.M)[1:]:
        kinds = re.findall(r"^### (\w+)", section, re.M)
        assert len(kinds) == len(set(kinds)), (section.splitlines()[0], kinds)


def test_the_builds_version_carries_the_standings_key_change() -> None:
    """#25: the build said 0.1.0 while the JSON keys' change (shipped in it) was filed under
    "Unreleased"; the version the build says is the section that lists it."""
    sections = {
        s.split("]", 1)[0].lstrip("["): s for s in re.split(r"^## ", CHANGELOG, flags=re.M)[1:]
    }
    assert "`points_difference`" in sections[director.__version__]


def test_the_notices_name_the_builds_version() -> None:
    notices = ROOT / "resources" / "notices" / "THIRD-PARTY-NOTICES.txt"
    first = notices.read_text(encoding="utf-8").splitlines()[0]
    assert first == f"Tandem Director {director.__version__}: licences"
