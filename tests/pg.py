"""A fresh database on the test PostgreSQL server (started by scripts/postgres.sh), per test."""

from __future__ import annotations

import contextlib
import os
import time
import uuid
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, make_url, text


def server_url() -> str:
    url = os.environ.get("TANDEM_TEST_PG_URL")
    if not url:
        pytest.fail(
            "TANDEM_TEST_PG_URL is not set: these tests need a PostgreSQL server; run "
            "`source scripts/postgres.sh; start_test_postgres` first (scripts/test.sh and CI do)"
        )
    return url


@contextlib.contextmanager
def fresh_database(password: str | None = None) -> Iterator[str]:
    """Create an empty database for one test; yield its URL; drop it afterwards."""
    base = server_url()
    name = f"tandem_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(base).set(database=name)
    if password is not None:
        url = url.set(password=password)
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
        admin.dispose()


def connections_to(url: str) -> int:
    """How many connections the server holds open to this database (a slot each)."""
    admin = create_engine(server_url(), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            return connection.execute(
                text("SELECT count(*) FROM pg_stat_activity WHERE datname = :name"),
                {"name": make_url(url).database},
            ).scalar_one()
    finally:
        admin.dispose()


def no_connections_to(url: str, within_s: float = 5.0) -> bool:
    """Whether the server holds no connection to this database within the time (a backend
    leaves pg_stat_activity a moment after its client closed the connection)."""
    deadline = time.monotonic() + within_s
    while connections_to(url) and time.monotonic() < deadline:
        time.sleep(0.05)
    return connections_to(url) == 0
