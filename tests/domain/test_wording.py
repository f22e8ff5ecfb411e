"""Counts in words: the noun agrees with the number."""

import ast
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

from director.domain.wording import BYE_WORD, NOT_KNOWN_WORD, counted


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


def _compared_to(node: ast.Compare, words: set[str]) -> bool:
    """Whether `node` compares something to one of `words` (alone, or in a tuple, list or set)."""
    for side in (node.left, *node.comparators):
        items = side.elts if isinstance(side, ast.Tuple | ast.List | ast.Set) else [side]
        if any(isinstance(x, ast.Constant) and x.value in words for x in items):
            return True
    return False


def test_no_name_is_compared_with_the_words_for_nobody() -> None:
    """A player may be called "bye" or "…": a name compared with the words a draw shows for a
    side nobody holds was taken for a bye or a player not known yet (the knockout draw drew
    such a player greyed out). Code tells nobody apart by type (`brackets.draw.Vacant`, None),
    and the words are only shown."""
    root = Path(__file__).resolve().parents[2]
    words = {BYE_WORD, NOT_KNOWN_WORD}
    found = [
        f"{path.relative_to(root)}:{node.lineno}: {ast.unparse(node)}"
        for path in (root / "director").rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Compare) and _compared_to(node, words)
    ]
    assert found == [], "\n".join(found)
