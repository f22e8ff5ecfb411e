"""Hostile team lists and match records: a clear message or a whole import, never a traceback.

Markup, spreadsheet formulas, right-to-left and invisible characters, emoji, NULs, lone
surrogates, 10 MB lines, deep JSON, huge numbers and files in the wrong encoding. Every import
runs as the app runs it (one transaction, committed when the service returns); the rows are
counted before and after, so a refused import that wrote anything shows.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from director.cli.common import read_text
from director.domain.errors import UserError
from director.domain.records import MAX_RECORD_BYTES, parse_record
from director.domain.rules import EventOptions, MatchRules, Scoring
from director.services.events import create_event
from director.services.matches import create_match
from director.services.records import import_match
from director.services.teams import add_team, import_teams, team_named
from director.store import models
from director.store.engine import EventDatabase, create_database, open_database

EXAMPLE = Path(__file__).parent.parent / "fixtures" / "formats_example.tandem-match.json"
HOSTILE = [
    "=cmd|' /C calc'!A0",
    '=HYPERLINK("http://x")',
    "+1+1",
    "-2",
    "@SUM(A1)",
    "<script>alert(1)</script>",
    "<b>&amp;</b>",
    "\u202eevil.exe",
    "שלום עולם",
    "مرحبا",
    "\u200f\u200e\u2066x\u2069",
    "🎲🐍👨‍👩‍👧",
    "Zoë Ñandú",
    "\x00",
    "\x1b[31m",
    "\ud800",
    '"quoted, with comma"',
    "semi;colon",
    "line\nbreak",
    "\r",
    "\t",
    " ",
    "",
    "x" * 101,
]
CELL = st.one_of(st.sampled_from(HOSTILE), st.text(max_size=20), st.sampled_from(["Ann", "Bo"]))
ENCODINGS = ["utf-8", "utf-8-sig", "utf-16", "utf-32", "latin-1", "cp1252", "shift_jis"]


def counts(db: EventDatabase) -> tuple[int, ...]:
    with db.Session() as session:
        return tuple(
            session.scalar(select(func.count()).select_from(table)) or 0
            for table in (models.Team, models.Player, models.Match, models.Game, models.Pair)
        )


def csv_text(rows: list[list[str]], delimiter: str) -> str:
    lines = [delimiter.join(["team", "player1", "player2", "club"])]
    lines += [delimiter.join(row) for row in rows]
    return "\r\n".join(lines) + "\r\n"


def _import_teams(db: EventDatabase, data: bytes | str, skip: bool) -> None:
    before = counts(db)
    try:
        with db.Session() as session, session.begin():
            result = import_teams(session, data, skip_bad_rows=skip).value
    except UserError as exc:
        assert str(exc).strip(), "a refusal must say why"
        assert counts(db) == before  # nothing of a refused file was written
        return
    after = counts(db)
    assert after[0] == before[0] + len(result.imported)
    assert after[1] == before[1] + 2 * len(result.imported)
    assert skip or not result.skipped


def _encoded(text: str, encoding: str) -> bytes:
    return text.encode(encoding, errors="replace") if encoding != "utf-8" else (
        text.encode("utf-8", errors="surrogatepass")
    )  # fmt: skip


@pytest.fixture
def fuzz_db(event_path: Path) -> EventDatabase:
    return open_database(str(event_path))


def test_hostile_team_lists_import_whole_or_not_at_all(fuzz_db: EventDatabase) -> None:
    @given(
        rows=st.lists(st.lists(CELL, min_size=0, max_size=5), max_size=6),
        delimiter=st.sampled_from([",", ";"]),
        encoding=st.sampled_from(ENCODINGS),
        as_text=st.booleans(),
        skip=st.booleans(),
    )
    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @example(rows=[["Lone \ud800", "Ann", "Bo"]], delimiter=",", encoding="utf-8", as_text=True,
             skip=False)  # fmt: skip
    @example(rows=[["=cmd|' /C calc'!A0", "\u202eAnn", "🎲"]], delimiter=";", encoding="utf-16",
             as_text=False, skip=False)  # fmt: skip
    def check(
        rows: list[list[str]], delimiter: str, encoding: str, as_text: bool, skip: bool
    ) -> None:
        text = csv_text(rows, delimiter)
        _import_teams(fuzz_db, text if as_text else _encoded(text, encoding), skip)

    check()
    fuzz_db.close()


def test_random_bytes_are_no_team_list(fuzz_db: EventDatabase) -> None:
    @given(data=st.binary(max_size=300), skip=st.booleans())
    @settings(max_examples=100, deadline=None)
    def check(data: bytes, skip: bool) -> None:
        _import_teams(fuzz_db, b"team,player1,player2\n" + data, skip)

    check()
    fuzz_db.close()


@pytest.mark.parametrize("as_text", [True, False])
def test_a_10_mb_line_is_refused_clearly(fuzz_db: EventDatabase, as_text: bool) -> None:
    text = "team,player1,player2\n" + "A" * 10_000_000 + ",Ann,Bob\n"
    with pytest.raises(UserError), fuzz_db.Session() as session, session.begin():
        import_teams(session, text if as_text else text.encode())
    assert counts(fuzz_db)[0] == 0
    fuzz_db.close()


def _record(team_a: str, players_a: list[str], games: object = None) -> str:
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    data["teams"]["A"] = {"name": team_a, "players": players_a}
    if games is not None:
        data["games"] = games
    return json.dumps(data, ensure_ascii=False)


def _import_match(db: EventDatabase, text: str, keep: bool = False) -> None:
    """Import as the app does; a good import is checked whole, then undone unless `keep`."""
    before = counts(db)
    with db.Session() as session:
        session.begin()
        try:
            match = import_match(session, text)
        except UserError as exc:
            session.rollback()
            assert str(exc).strip()
            assert counts(db) == before  # nothing of a refused record was written
            return
        games = session.scalar(select(func.count()).select_from(models.Game)) or 0
        assert games == before[3] + len(match.games)
        if keep:
            session.commit()
        else:
            session.rollback()  # each example starts from the same event
    if keep:
        after = counts(db)
        assert after[:3] == before[:3]  # import fills a paired match: no team, no match made
        assert after[3] == before[3] + len(match.games)


@pytest.fixture
def record_db(tmp_path: Path) -> EventDatabase:
    """An event whose rules are the example record's, so good records import."""
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    rules = MatchRules(
        match_length=data["match_length"],
        scoring=Scoring(data["scoring"]),
        winner_required=data["winner_required"],
        one_cube_threshold=data["one_cube_threshold"],
        no_cube_at_one_away=data["no_cube_at_one_away"],
    )
    db = create_database(str(tmp_path / "records.tandem"))
    with db.Session() as session, session.begin():
        create_event(session, "Records", EventOptions(match=rules))
        # FORMATS: a record fills the paired match of two registered teams
        blue = add_team(session, "Blue Bar", ("Ana", "Ben")).value.id
        gammonites = add_team(session, "Gammonites", ("Cleo", "Dev")).value.id
        create_match(session, blue, gammonites, table=1)
    return db


def test_hostile_names_in_match_records(record_db: EventDatabase) -> None:
    @given(name=CELL, p1=CELL, p2=CELL)
    @settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @example(name="\ud800", p1="Ann", p2="Bo")
    @example(name="<b>Bold</b> & =SUM(A1)", p1="\u202eAnn", p2="👨‍👩‍👧")
    def check(name: str, p1: str, p2: str) -> None:
        _import_match(record_db, _record(name, [p1, p2]))

    check()
    record_db.close()


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from(HOSTILE),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


def test_hostile_match_records(record_db: EventDatabase) -> None:
    good = json.loads(EXAMPLE.read_text(encoding="utf-8"))

    @given(
        key=st.sampled_from([*good, "games.0", "games.1", "teams.A", "extra"]),
        value=JSON_VALUES,
        raw=st.text(max_size=60),
        use_raw=st.booleans(),
    )
    @settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    def check(key: str, value: object, raw: str, use_raw: bool) -> None:
        if use_raw:
            text = raw
        else:
            data = json.loads(json.dumps(good))
            where, _, sub = key.partition(".")
            if sub and isinstance(data.get(where), list | dict):
                container = data[where]
                if isinstance(container, list):
                    container[int(sub) % len(container)] = value
                else:
                    container[sub] = value
            else:
                data[where] = value
            text = json.dumps(data, ensure_ascii=False)
        _import_match(record_db, text)

    check()
    record_db.close()


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000 + "]" * 100_000,  # deeper than Python's recursion limit
        '{"match_length": ' + "9" * 5000 + "}",  # longer than int() accepts
        "{" + '"a": 1, ' * 10 + '"games": [' + '{"pair": 1},' * 200_000 + "{}]}",  # 2.6 MB
        '{"games": "' + "x" * 10_000_000 + '"}',  # a 10 MB line
    ],
    ids=["deep", "long-number", "many-games", "10-MB-line"],
)
def test_monstrous_records_get_a_clear_message(record_db: EventDatabase, text: str) -> None:
    with pytest.raises(UserError):
        parse_record(text)
    _import_match(record_db, text)
    record_db.close()


def test_a_record_naming_a_registered_team_with_non_ascii_capitals(
    record_db: EventDatabase,
) -> None:
    with record_db.Session() as session, session.begin():
        team = add_team(session, "équipe über", ("Ann", "Bo")).value.id
        gammonites = team_named(session, "Gammonites")
        assert gammonites is not None
        create_match(session, team, gammonites, table=2)
    text = _record("ÉQUIPE ÜBER", ["Ann", "Bo"])
    _import_match(record_db, text, keep=True)  # the registered team, whatever its capitals
    with record_db.Session() as session, pytest.raises(UserError, match="already in the event"):
        import_match(session, text)
    record_db.close()


def test_registering_a_team_twice_with_non_ascii_capitals(record_db: EventDatabase) -> None:
    with record_db.Session() as session, session.begin():
        add_team(session, "ÉQUIPE ÜBER", ("Ann", "Bo"))
    with record_db.Session() as session, session.begin(), pytest.raises(UserError) as refused:
        add_team(session, "équipe über", ("Cy", "Di"))
    assert "already registered" in str(refused.value)
    record_db.close()


@pytest.mark.parametrize("encoding", ["utf-16", "utf-32", "latin-1", "cp1252"])
def test_a_record_in_the_wrong_encoding_is_named_so(tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "record.tandem-match.json"
    path.write_bytes(_record("Zoë Ñandú", ["Ann", "Bo"]).encode(encoding))
    with pytest.raises(UserError, match="is not UTF-8 text: not a match record"):
        read_text(str(path), "a match record", MAX_RECORD_BYTES)
