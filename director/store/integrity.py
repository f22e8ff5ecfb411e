"""SQLite's own checks of an event file: page structure and foreign keys."""

from __future__ import annotations

from sqlalchemy import text

from director.store.engine import EventDatabase


def integrity_problems(db: EventDatabase) -> list[str]:
    """`integrity_check` and `foreign_key_check`; empty when the file is sound."""
    if not db.is_sqlite:
        return []
    problems: list[str] = []
    with db.engine.connect() as connection:
        for (line,) in connection.execute(text("PRAGMA integrity_check")):
            if line != "ok":
                problems.append(f"integrity: {line}")
        for row in connection.execute(text("PRAGMA foreign_key_check")):
            problems.append(
                f"foreign key: table {row[0]} row {row[1]} points to a missing {row[2]}"
            )
    return problems
