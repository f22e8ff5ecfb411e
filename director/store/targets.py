"""What names an event: a `.tandem` file (SQLite, one event per file) or a database URL.

Light on purpose: the command line checks a target before it loads SQLAlchemy.
"""

from __future__ import annotations

from director.domain.errors import UserError

EXTENSION = ".tandem"
SERVER_SCHEMES = ("postgresql://", "postgresql+psycopg://")


def is_url(target: str) -> bool:
    return "://" in target


def check_new_target(target: str) -> None:
    """A new event goes into a `.tandem` file or a PostgreSQL URL; anything else is a slip."""
    if is_url(target):
        if not target.startswith(SERVER_SCHEMES):
            raise UserError(f"{target}: a database URL starts with postgresql://")
    elif not target.endswith(EXTENSION):
        raise UserError(f"{target}: an event file name ends in {EXTENSION}")
