"""A fresh database on the test PostgreSQL server (started by scripts/postgres.sh), per test."""

from __future__ import annotations

import contextlib
import os
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
