"""The repository's documents stand on their own: every link in every Markdown file points at
a file (and heading) inside the repository, and no file names a place outside it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
OUTSIDE = re.compile(r"\.\./shared|/wo[r]k/shared|/wo[r]k/notes")  # [r]: not matching itself


def tracked(pattern: str) -> list[Path]:
    """The files git tracks (a fresh clone has exactly these), or every file when no git."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-co", "--exclude-standard", pattern],
            cwd=ROOT, capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return sorted(ROOT.rglob(pattern))
    return sorted(ROOT / line for line in out.splitlines() if (ROOT / line).is_file())


def anchors(markdown: str) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens."""
    out = set()
    for line in markdown.splitlines():
        if line.startswith("#"):
            text = line.lstrip("#").strip().lower()
            out.add(re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", text)))
    return out


DOCUMENTS = tracked("*.md")


def test_the_documents_the_readme_needs_are_in_the_repository() -> None:
    for name in ("README.md", "LICENSE", "CHANGELOG.md", "CONTRIBUTING.md", "ARCHITECTURE.md",
                 "docs/RULES.md", "docs/FORMATS.md", "resources/help/rules.md"):  # fmt: skip
        assert (ROOT / name).is_file(), name


@pytest.mark.parametrize("doc", DOCUMENTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_link_stays_inside_the_repository_and_resolves(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    for target in LINK.findall(text):
        assert "://" not in target and not target.startswith(("mailto:", "/")), (
            f"{doc.name}: {target} leaves the repository"
        )
        path, _, anchor = target.partition("#")
        file = (doc.parent / path).resolve() if path else doc
        assert file.is_relative_to(ROOT), f"{doc.name}: {target} is outside the repository"
        assert file.exists(), f"{doc.name}: {target} does not exist"
        if anchor and file.suffix == ".md":
            assert anchor in anchors(file.read_text(encoding="utf-8")), f"{doc.name}: {target}"


def test_no_file_names_a_place_outside_the_repository() -> None:
    for path in tracked("*"):
        if path.suffix in {".png", ".ttf", ".wav", ".ico", ".icns", ".pdf"}:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        assert not OUTSIDE.search(text), f"{path.relative_to(ROOT)} names {OUTSIDE.search(text)}"
