"""Database failures are told apart by their codes, never by the words of a message.

Each failure is made for real (a real SQLite file, the real PostgreSQL server of the test run);
the decoys are failures whose *message* contains the words the old text matching looked for.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import DBAPIError

from director.store import errors
from director.store.errors import classify
from tests.pg import fresh_database


def _sqlite_failure(path: Path, sql: str) -> DBAPIError:
    engine = create_engine(f"sqlite:///{path}")
    try:
        with engine.connect() as connection:
            connection.execute(text(sql))
    except DBAPIError as exc:
        return exc
    finally:
        engine.dispose()
    raise AssertionError(f"{sql!r} did not fail")


def test_a_missing_table_named_like_a_full_disk_is_a_bug_not_a_full_disk(tmp_path: Path) -> None:
    failure = _sqlite_failure(tmp_path / "ev.db", 'SELECT * FROM "database or disk is full"')
    assert "disk is full" in str(failure)  # the words are there ...
    assert classify(failure) is None  # ... but SQLITE_ERROR is a bug, not the environment


def test_sqlite_failures_are_classified_by_their_result_code(tmp_path: Path) -> None:
    junk = tmp_path / "junk.tandem"
    junk.write_bytes(b"this is no database, just some bytes " * 200)
    assert (
        classify(_sqlite_failure(junk, "SELECT * FROM sqlite_master"))
        is errors.SQLITE_CODES[sqlite3.SQLITE_NOTADB]
    )
    busy_file = tmp_path / "busy.db"
    holder = sqlite3.connect(busy_file, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        engine = create_engine(f"sqlite:///{busy_file}", connect_args={"timeout": 0})
        with pytest.raises(DBAPIError) as busy, engine.connect() as connection:
            connection.execute(text("SELECT * FROM t"))
        engine.dispose()
    finally:
        holder.close()
    assert classify(busy.value) is errors.SQLITE_CODES[sqlite3.SQLITE_BUSY]


def test_a_read_only_connection_refusing_a_write_is_read_only(tmp_path: Path) -> None:
    ev = tmp_path / "ro.db"
    made = sqlite3.connect(ev)
    made.execute("CREATE TABLE t (x)")
    made.commit()
    made.close()
    engine = create_engine(f"sqlite:///file:{ev}?mode=ro&uri=true", connect_args={"uri": True})
    with pytest.raises(DBAPIError) as refused, engine.connect() as connection:
        connection.execute(text("INSERT INTO t VALUES (1)"))
    engine.dispose()
    assert classify(refused.value) is errors.FILE_READ_ONLY


@pytest.mark.postgres
def test_postgres_failures_are_classified_by_sqlstate() -> None:
    with fresh_database() as url:
        engine = create_engine(url)
        try:
            with engine.begin() as connection:
                connection.execute(text("CREATE TABLE t (x int PRIMARY KEY)"))
                connection.execute(text('CREATE TABLE "could not serialize access" (x int)'))
                connection.execute(text("INSERT INTO t VALUES (1)"))
            with pytest.raises(DBAPIError) as duplicate, engine.begin() as connection:
                connection.execute(text("INSERT INTO t VALUES (1)"))
            assert classify(duplicate.value) is errors.SQLSTATES["23505"]
            assert classify(duplicate.value).conflict  # type: ignore[union-attr]
            with pytest.raises(DBAPIError) as read_only, engine.begin() as connection:
                connection.execute(text("SET TRANSACTION READ ONLY"))
                connection.execute(text("INSERT INTO t VALUES (2)"))
            assert classify(read_only.value) is errors.SQLSTATES["25006"]
            # a bug whose message quotes the words of a lost race is still a bug
            with pytest.raises(DBAPIError) as decoy, engine.begin() as connection:
                connection.execute(text("INSERT INTO \"could not serialize access\" VALUES ('x')"))
            assert "could not serialize access" in str(decoy.value)
            assert classify(decoy.value) is None
        finally:
            engine.dispose()


@pytest.mark.postgres
def test_a_server_that_cannot_be_reached_or_refuses_the_user_is_said_so(tmp_path: Path) -> None:
    with fresh_database() as url:
        nobody = url.replace("tandem@", "nobody_here@", 1)
        for target, expected in (
            (f"postgresql+psycopg://x@/db?host={tmp_path}", errors.UNREACHABLE),
            (nobody, errors.SQLSTATES["3D000"]),
        ):
            engine = create_engine(target)
            with pytest.raises(DBAPIError) as failed:
                engine.connect()
            engine.dispose()
            assert classify(failed.value) is expected, str(failed.value)
