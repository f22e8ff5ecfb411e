"""Is this file's schema ours? Objects the models do not define are refused before anything runs.

An event file is a database anyone can edit: a view named like one of our tables can recurse
forever, a trigger can change a winner after the app wrote it or swallow an insert. Nothing in
an event needs a view or a trigger, so a file holding one (or a table or index we never made)
is refused with a clear message; only SQLite's own objects (`sqlite_…`) are allowed besides.
`sqlite_master` is read as plain rows: reading it runs none of those objects.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from director.store.models import Base

MIGRATION_TABLE = "alembic_version"


@cache
def known_objects() -> frozenset[tuple[str, str]]:
    """(type, name) of every table and named index the models (at any revision) define."""
    found = {("table", MIGRATION_TABLE)}
    for table in Base.metadata.tables.values():
        found.add(("table", table.name))
        found.update(("index", str(index.name)) for index in table.indexes)
    return frozenset(found)


def foreign_objects(connection: Any) -> list[str]:
    """What the file holds that the schema does not define, as `view "meta"` etc.; [] if none.

    `connection` is a DB-API SQLite connection (sqlite3 or SQLAlchemy's raw one).
    """
    known = known_objects()
    strange = []
    for kind, name in connection.execute("SELECT type, name FROM sqlite_master").fetchall():
        if (kind, name) in known or (kind in ("table", "index") and name.startswith("sqlite_")):
            continue
        strange.append(f'{kind} "{name}"')
    return sorted(strange)


def foreign_objects_message(shown: str, strange: list[str]) -> str:
    listed = ", ".join(strange[:3]) + (f" and {len(strange) - 3} more" if len(strange) > 3 else "")
    return (
        f"{shown} holds things a Tandem Director event never has ({listed}): it was not made "
        "by this app or was changed by another program, so it is not opened"
    )
