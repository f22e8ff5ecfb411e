"""Values an event file holds that the app never writes: refused at opening, named by `check`.

SQLite stores whatever it is given (a team's seed `'abc'`, a game's winner `'C'`, a 50 MB team
name in a `VARCHAR(100)`), and each crashed or stalled a command far from the cause. Every
column's values are checked where they lie, by one SQL scan a table: the type the model
declares, whole numbers in the range every back end stores, text no longer than its column,
dates SQLAlchemy can read, and the words the domain knows for a column that holds one. Opening
stops at the first such value (`first_bad_value`); `check` names every bad row
(`bad_values`). Only SQLite files: PostgreSQL enforces the types and lengths itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from sqlalchemy import BigInteger, Boolean, Column, DateTime, Integer, String, Text

from director.domain.clock import EventKind
from director.domain.rules import (
    ALL_BOARDS,
    ClockMode,
    End,
    LateEntry,
    Level,
    MatchPointScheme,
    PairingSystem,
    Paper,
    RoundOne,
    Scoring,
    Side,
    TieBreak,
)
from director.domain.score import Result
from director.domain.teamlist import name_key
from director.store.models import Base

TEXT_LIMIT = 1_000_000  # a Text column (notes, the audit's before and after): a book's length
INT_LOW, INT_HIGH = -(2**31), 2**31 - 1  # PostgreSQL's INTEGER: the app never writes more
SHOWN = 40  # characters of a bad value a message quotes
LISTED = 200  # bad rows `check` names, then a count


class StoredResult(StrEnum):
    """A match row's result: the domain's results, and the bye the services store for a match
    without a team B (services/matches.py)."""

    A = Result.A.value
    B = Result.B.value
    DRAW = Result.DRAW.value
    UNFINISHED = Result.UNFINISHED.value
    BYE = "bye"


WORDS: dict[tuple[str, str], type[StrEnum]] = {
    ("event", "scoring"): Scoring,
    ("event", "clock_mode"): ClockMode,
    ("event", "pairing_system"): PairingSystem,
    ("event", "round_one"): RoundOne,
    ("event", "late_entry"): LateEntry,
    ("event", "match_points"): MatchPointScheme,
    ("event", "paper"): Paper,
    ("match", "forfeit_by"): Side,
    ("match", "lost_on_time"): Side,
    ("match", "result"): StoredResult,
    **{
        ("pair", f"cube{board}_{column}"): Side
        for board in ALL_BOARDS
        for column in ("owner", "offered_by")
    },
    ("game", "winner"): Side,
    ("game", "end"): End,
    ("game", "level"): Level,
    ("game", "agreed_level"): Level,
    ("clock_event", "kind"): EventKind,
    ("clock_event", "side"): Side,
    ("slip", "entered_side"): Side,
}

_DATE = "[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9]*"


@dataclass(frozen=True)
class _Rule:
    column: str
    sql: str  # true when the value is one the app writes
    expected: str  # in words, for the message


def _rule(table: str, column: Column[Any]) -> _Rule:
    name, kind = f'"{column.name}"', column.type
    if (table, column.name) in WORDS:
        words = [member.value for member in WORDS[(table, column.name)]]
        listed = ", ".join("'" + w.replace("'", "''") + "'" for w in words)
        sql, expected = f"{name} IN ({listed})", "one of " + ", ".join(words)
    elif isinstance(kind, Boolean):
        sql, expected = f"typeof({name}) = 'integer' AND {name} IN (0, 1)", "0 or 1"
    elif isinstance(kind, BigInteger):
        sql, expected = f"typeof({name}) = 'integer'", "a whole number"
    elif isinstance(kind, Integer):
        sql = f"typeof({name}) = 'integer' AND {name} BETWEEN {INT_LOW} AND {INT_HIGH}"
        expected = f"a whole number from {INT_LOW} to {INT_HIGH}"
    elif isinstance(kind, DateTime):
        sql = (
            f"typeof({name}) = 'text' AND length({name}) BETWEEN 19 AND 32 "
            f"AND {name} GLOB '{_DATE}' AND date({name}) = substr({name}, 1, 10)"
        )
        expected = "a date and time"
    elif isinstance(kind, String) and kind.length is not None:
        sql = f"typeof({name}) = 'text' AND length({name}) <= {kind.length}"
        expected = f"text of at most {kind.length} characters"
    elif isinstance(kind, String | Text):
        sql = f"typeof({name}) = 'text' AND length({name}) <= {TEXT_LIMIT}"
        expected = f"text of at most {TEXT_LIMIT:,} characters"
    else:  # a type the models do not use yet: anything SQLAlchemy reads back
        sql, expected = "1", "anything"
    empty = f"{name} IS NULL OR" if column.nullable else f"{name} IS NOT NULL AND"
    # coalesce: a NULL inside (date() of no date) must count as bad, not drop the row
    return _Rule(column.name, f"coalesce({empty} ({sql}), 0)", expected)


def _rules(connection: Any, table: str) -> list[_Rule]:
    """The rules of the table's columns the file has (an older revision lacks some)."""
    present = {r[1] for r in connection.execute(f'PRAGMA table_info("{table}")')}
    columns = Base.metadata.tables[table].columns
    return [_rule(table, column) for column in columns if column.name in present]


def _present_tables(connection: Any) -> list[str]:
    names = {r[0] for r in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    return [t.name for t in Base.metadata.sorted_tables if t.name in names]


def first_bad_value(connection: Any) -> str | None:
    """The first value the app never writes, as `team 3: seed`; None when every one is.
    `connection`: DB-API SQLite, on a file whose schema was checked (`schema.differences`)."""
    for table in _present_tables(connection):
        rules = _rules(connection, table)
        where = " AND ".join(rule.sql for rule in rules)
        flags = ", ".join(f"NOT {rule.sql}" for rule in rules)
        row = connection.execute(
            f'SELECT rowid, {flags} FROM "{table}" WHERE NOT ({where}) LIMIT 1'
        ).fetchone()
        if row is not None:
            bad = next(rule for rule, flag in zip(rules, row[1:], strict=True) if flag)
            return f"{table} {row[0]}: {bad.column}"
    return _bad_event(connection)


def _bad_event(connection: Any) -> str | None:
    """The event row: exactly one, its tie-breaks all known (a list in one column)."""
    rows = connection.execute("SELECT rowid, tie_breaks FROM event LIMIT 2").fetchall()
    if len(rows) != 1:
        return f"event: {len(rows)} rows where there is one"
    known = {t.value for t in TieBreak}
    if any(t not in known for t in str(rows[0][1]).split(",") if t):
        return f"event {rows[0][0]}: tie_breaks"
    return None


def bad_values(connection: Any) -> list[str]:
    """Every bad value, one line a row, as `value: team 3: seed is 'abc', not a whole number
    …`; at most LISTED lines and a count of the rest."""
    found: list[str] = []
    more = 0
    for table in _present_tables(connection):
        rules = _rules(connection, table)
        where = " AND ".join(rule.sql for rule in rules)
        shown = ", ".join(
            f"CASE WHEN NOT {rule.sql} THEN typeof(\"{rule.column}\") || ':' || "
            f'substr(CAST("{rule.column}" AS TEXT), 1, {SHOWN + 1}) END'
            for rule in rules
        )
        cursor = connection.execute(f'SELECT rowid, {shown} FROM "{table}" WHERE NOT ({where})')
        for row in cursor:
            if len(found) >= LISTED:
                more += 1
                continue
            for rule, value in zip(rules, row[1:], strict=True):
                if value is not None:
                    found.append(f"value: {table} {row[0]}: {rule.column} {_quoted(value)}, "
                                 f"not {rule.expected}")  # fmt: skip
    if more:
        found.append(f"value: and {more} more rows like these")
    if (event := _bad_event(connection)) is not None:
        found.append(f"value: {event} is not what the app writes")
    return found


def duplicate_names(connection: Any) -> list[str]:
    """Teams sharing a name, or a player in two teams, as a reader compares names
    (`teamlist.name_key`): a file written before the unique indexes (#27 §3) can hold them."""
    found = []
    for what, query in (
        ("team name", "SELECT id, name FROM team ORDER BY id"),
        ("player", "SELECT team_id, name FROM player ORDER BY team_id, board"),
    ):
        first: dict[str, int] = {}
        for owner, name in connection.execute(query):
            key = name_key(str(name))
            if key in first and first[key] != owner:
                cut = str(name)[:SHOWN]
                found.append(
                    f"duplicate: {what} {cut!r} of team {owner} is also team {first[key]}'s"
                )
            first.setdefault(key, owner)
    return found


def _quoted(typed: str) -> str:
    kind, _, text = typed.partition(":")
    if kind == "null":
        return "is empty (NULL)"
    cut = text[:SHOWN] + ("…" if len(text) > SHOWN else "")
    return f"is {cut!r}" if kind == "text" else f"is {cut} ({kind})"


def bad_values_message(shown: str, first: str) -> str:
    return (
        f"{shown} holds a value this app never writes ({first}): it was changed by another "
        f"program; `tandem-director check` lists every such value, and it is not opened"
    )
