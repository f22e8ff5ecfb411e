"""ARCHITECTURE.md's arrows hold in the code: which layer imports which (issue 17, point 8).

Read from the source (every import, those inside functions too), not from a running process,
so an import a test never reaches counts all the same.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DIRECTOR = ROOT / "director"
LAYERS = ("domain", "store", "reports", "services", "web", "ui", "cli")

# the arrows of ARCHITECTURE.md: what each layer may import of the others
ARROWS = {
    "domain": set(),
    "store": {"domain"},
    "reports": {"domain"},
    "services": {"store", "reports", "domain"},
    "web": {"services", "store", "domain"},
    "ui": {"services", "store", "domain", "web"},
    "cli": {"services", "store", "domain", "ui", "web"},
}
# what the front ends must never use of the store: its rows and its schema
STORE_INSIDES = {"models", "convert", "schema", "migrations"}


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def _uses(layer: str) -> dict[str, set[str]]:
    """Each `director.*` module (two levels deep) the layer imports -> the files that do."""
    found: dict[str, set[str]] = {}
    for path in sorted((DIRECTOR / layer).rglob("*.py")):
        for name in _imports(path):
            parts = name.split(".")
            if parts[0] == "director" and len(parts) > 2 and parts[1] in LAYERS:
                key = ".".join(parts[1:3])
                found.setdefault(key, set()).add(str(path.relative_to(ROOT)))
    return found


def test_every_layer_imports_only_what_its_arrows_allow() -> None:
    wrong = {
        f"{layer} -> {used}: {sorted(files)}"
        for layer in LAYERS
        for used, files in _uses(layer).items()
        if used.split(".")[0] not in ARROWS[layer] | {layer}
    }
    assert wrong == set()


def test_the_front_ends_use_only_what_architecture_md_names_of_the_store() -> None:
    arrows = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8").split("## Arrows")[1]
    arrows = arrows.split("\n## ")[0]
    named = set(re.findall(r"`store[./](\w+)(?:\.py)?`", arrows))
    used = {
        used.split(".")[1]
        for layer in ("ui", "cli", "web")
        for used in _uses(layer)
        if used.startswith("store.")
    }
    assert used & STORE_INSIDES == set()
    assert used - named == set(), "used of the store but not named in ARCHITECTURE.md's Arrows"


def test_qt_is_imported_only_by_the_gui_and_the_clock_command() -> None:
    qt = {
        str(path.relative_to(DIRECTOR))
        for path in DIRECTOR.rglob("*.py")
        if any(name.split(".")[0] in ("PySide6", "shiboken6") for name in _imports(path))
    }
    assert {p for p in qt if not p.startswith("ui/")} == {"cli/clocks.py"}


IRREGULAR_PAST = {"told", "chosen", "shown", "sent", "found", "lost", "begun", "done"}


def _signals() -> dict[str, str]:
    """Each Qt signal declared under director/ -> where (`name = Signal(...)` in a class)."""
    found = {}
    for path in DIRECTOR.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name)
                and node.value.func.id == "Signal"
            ):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        found[target.id] = f"{path.relative_to(ROOT)}:{node.lineno}"
    return found


def test_signals_are_named_in_the_past_tense_or_requested() -> None:
    signals = _signals()
    assert len(signals) > 10  # the walk found them
    wrong = {
        name: where
        for name, where in signals.items()
        if not (name.endswith(("ed", "_requested")) or name.split("_")[-1] in IRREGULAR_PAST)
    }
    assert wrong == {}


def test_every_slot_on_the_events_changes_is_on_event_changed() -> None:
    slots = set()
    for path in DIRECTOR.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "connect"
                and ast.unparse(node.func.value).endswith("ctx.changed")
            ):
                slots.add(ast.unparse(node.args[0]))
    assert slots == {"self.on_event_changed"}


def test_pages_are_named_by_their_key_never_by_their_place() -> None:
    """`ui/pages.py` `PAGES` is the one list of pages: code that shows or reaches a page asks
    `page_index(key)`, so a page added or moved cannot turn "the teams page" into another."""
    by_place = []
    for path in (DIRECTOR / "ui").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("show_page", "page")
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                by_place.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert by_place == []
