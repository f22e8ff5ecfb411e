"""Counts in words: the noun agrees with the number."""

import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

from director.domain.wording import counted


def test_one_is_singular_every_other_count_plural() -> None:
    assert counted(1, "round") == "1 round"
    assert [counted(n, "round") for n in (0, 3)] == ["0 rounds", "3 rounds"]
    assert counted(2, "rematch", "rematches") == "2 rematches"
    assert counted(1, "rematch", "rematches") == "1 rematch"


BY_HAND = re.compile(
    r"""[a-z]\((?:s|es|ies)\)"""  # bye(s), problem(s)
    r"""|['"](?:s|es|y|ies)['"] (?:\*|if)"""  # 's' * (n != 1), 's' if n != 1 else ''
)
CHOSEN = re.compile(
    r"""['"]\w+['"] if \w+(?:\.\w+)* [!=]= 1 else ['"]\w+['"]"""
)  # "page" if n == 1


def _strings(path: Path) -> Iterator[tuple[int, str]]:
    """The text of each string literal (f-strings whole) of a Python file, with its line."""
    with path.open("rb") as source:
        for token in tokenize.tokenize(source.readline):
            if token.type == tokenize.STRING:
                yield token.start[0], token.string


def test_every_count_in_the_product_is_worded_by_counted() -> None:
    """#12: plurals written by hand ("3 round(s)", f"team{'s' if n != 1 else ''}") drift from
    one another; every count goes through `counted()` (the phone pages through app.js's)."""
    root = Path(__file__).resolve().parents[2]
    found = [
        f"{path.relative_to(root)}:{number}: {text}"
        for path in (root / "director").rglob("*.py")
        if path.name != "wording.py"
        for number, text in _strings(path)
        if BY_HAND.search(text)
    ]
    found += [
        f"{path.relative_to(root)}:{number}: {line}"
        for path in (root / "director").rglob("*.py")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if CHOSEN.search(line) and path.name != "wording.py"
    ]
    for path in (root / "resources/web").glob("*.js"):
        lines = path.read_text(encoding="utf-8").splitlines()
        found += [
            f"{path.name}:{n}: {line}" for n, line in enumerate(lines, 1) if BY_HAND.search(line)
        ]
    assert found == [], "\n".join(found)
