"""The revisions of the event's (and the club's) migrations, read from their scripts with
`ast`, without alembic or SQLAlchemy: what the schema check, the first look and the open
compare a file's stamped revision with."""

from __future__ import annotations

import ast
import functools
from importlib import resources

CLUB_VERSION_TABLE = "club_alembic_version"  # never the event file's alembic_version


@functools.cache
def migration_revisions(chain: str = "migrations") -> dict[str, tuple[str, ...]]:
    """Each migration script's `revision` and the revisions it follows (`down_revision`);
    `chain`: the scripts' folder in director.store (`club_migrations`: the club's)."""
    out: dict[str, tuple[str, ...]] = {}
    folder = resources.files("director.store") / chain / "versions"
    for script in folder.iterdir():
        if not script.name.endswith(".py") or script.name == "__init__.py":
            continue
        values = {
            target.id: ast.literal_eval(node.value)
            for node in ast.parse(script.read_text(encoding="utf-8")).body
            if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
            if isinstance(target, ast.Name) and target.id in ("revision", "down_revision")
        }
        down = values.get("down_revision")
        out[values["revision"]] = () if down is None else (down,) if isinstance(down, str) else down
    return out


def head_revision() -> str:
    revisions = migration_revisions()
    heads = set(revisions) - {parent for parents in revisions.values() for parent in parents}
    assert len(heads) == 1, f"the migrations have {len(heads)} heads"
    return heads.pop()
