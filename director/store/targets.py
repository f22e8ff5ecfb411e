"""What names an event: a `.tandem` file (SQLite, one event per file) or a database URL.

Light on purpose: the command line checks a target before it loads SQLAlchemy.
"""

from __future__ import annotations

from importlib.util import find_spec

from director.domain.errors import UserError

EXTENSION = ".tandem"
SERVER_SCHEMES = ("postgresql://", "postgresql+psycopg://")


def is_url(target: str) -> bool:
    return "://" in target


DRIVER = "psycopg"  # the `postgres` extra (pyproject.toml); the README's install has no driver
NO_DRIVER = (
    "a PostgreSQL server needs its driver, which this installation lacks: "
    "pip install 'tandem-director[postgres]'"
)


def check_server_driver(target: str) -> None:
    """A server address on an installation without the PostgreSQL driver: say how to add it
    (one line), before SQLAlchemy fails with the import's traceback. Files need nothing."""
    if is_url(target) and find_spec(DRIVER) is None:
        raise UserError(NO_DRIVER)


def check_new_target(target: str) -> None:
    """A new event goes into a `.tandem` file or a PostgreSQL URL; anything else is a slip."""
    if is_url(target):
        if not target.startswith(SERVER_SCHEMES):
            raise UserError(f"{target}: a database URL starts with postgresql://")
    elif not target.endswith(EXTENSION):
        raise UserError(f"{target}: an event file name ends in {EXTENSION}")
