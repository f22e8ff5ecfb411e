"""The club's register through the services: its own file, publishing, names, seasons."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import select

from director.domain.errors import UserError
from director.domain.rating import ClubResult, Outcome, recompute
from director.domain.rules import Side
from director.services import club
from director.store.club import create_club, open_club
from director.store.engine import EventDatabase, open_database
from director.store.lock import EventInUseError
from tests.club_files import club_night, play_round


def results_of(event: Path) -> club.EventResults:
    db = open_database(str(event), read_only=True)
    try:
        with db.Session() as s:
            return club.event_results(s)
    finally:
        db.close()


def publish(club_path: Path, event: Path, mapping: dict[str, int] | None = None) -> club.Published:
    results = results_of(event)
    db = open_club(str(club_path), make_backup=False)
    try:
        with db.Session() as s, s.begin():
            return club.publish(s, results, club.match_event(s, results, mapping))
    finally:
        db.close()


def read(club_path: Path) -> EventDatabase:
    return open_club(str(club_path), lock=False, make_backup=False)


def ratings(club_path: Path) -> dict[str, float]:
    db = read(club_path)
    try:
        with db.Session() as s:
            return {r.name: r.rating for r in club.rating_list(s)}
    finally:
        db.close()


@pytest.fixture
def club_file(tmp_path: Path) -> Path:
    path = tmp_path / "club.club"
    create_club(str(path)).close()
    return path


def test_the_club_is_a_file_of_its_own_with_its_own_revisions(
    club_file: Path, tmp_path: Path
) -> None:
    with sqlite3.connect(club_file) as c:
        tables = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert c.execute("SELECT version_num FROM club_alembic_version").fetchall() == [
            ("club0001",)
        ]
    assert {"person", "alias", "season", "club_event", "club_match", "meta"} <= tables
    assert "alembic_version" not in tables and "event" not in tables
    event = club_night(tmp_path / "night.tandem")
    with pytest.raises(UserError, match="night.tandem is an event, not a club"):
        open_club(str(event))
    with pytest.raises(UserError, match="club.club is a club, not an event"):
        open_database(str(club_file))


def test_the_club_migrations_make_exactly_the_models(club_file: Path) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from sqlalchemy import create_engine

    from director.store.club_models import ClubBase
    from director.store.revisions import CLUB_VERSION_TABLE

    engine = create_engine(f"sqlite:///{club_file}")
    with engine.connect() as c:
        context = MigrationContext.configure(c, opts={"version_table": CLUB_VERSION_TABLE})
        assert compare_metadata(context, ClubBase.metadata) == []
    engine.dispose()


def test_a_club_is_locked_and_backed_up_like_an_event(club_file: Path) -> None:
    db = open_club(str(club_file))
    try:
        with pytest.raises(EventInUseError):
            open_club(str(club_file))
    finally:
        db.close()
    backups = list((club_file.parent / "club.club-backups").glob("*"))
    assert backups, list(club_file.parent.iterdir())


def test_publishing_rates_the_event_as_the_domain_does(club_file: Path, tmp_path: Path) -> None:
    event = club_night(tmp_path / "night.tandem", winners="ABBA", rounds_played=2)
    done = publish(club_file, event)
    assert (done.matches, len(done.created), done.replaced) == (4, 8, False)
    ids = {
        n: i for i, n in enumerate(["Ana", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana"], 1)
    }
    ev, day = results_of(event).identity, results_of(event).event_date

    def r(rnd: int, fin: int, a: str, b: str, outcome: Outcome) -> ClubResult:
        side = lambda t: tuple(ids[n] for n in t.split())  # noqa: E731
        return ClubResult(ev, day, rnd, fin, side(a), side(b), 5, outcome)

    expected = recompute([
        r(1, 1, "Ana Ben", "Eve Finn", Outcome.A_WON),
        r(1, 2, "Cleo Dev", "Gus Hana", Outcome.B_WON),
        r(2, 1, "Ana Ben", "Gus Hana", Outcome.B_WON),
        r(2, 2, "Cleo Dev", "Eve Finn", Outcome.A_WON),
    ])  # fmt: skip
    got = ratings(club_file)
    assert got == {n: expected.rating(i) for n, i in ids.items()}
    assert got["Gus"] > 1500 > got["Finn"]


def test_publishing_again_after_a_correction_equals_publishing_it_corrected(
    tmp_path: Path,
) -> None:
    first, fresh = tmp_path / "first.club", tmp_path / "fresh.club"
    create_club(str(first)).close()
    create_club(str(fresh)).close()
    event = club_night(tmp_path / "night.tandem", winners="AA")
    publish(first, event)
    before = ratings(first)
    db = open_database(str(event))
    with db.Session() as s, s.begin():
        from director.services import games, matches

        m = matches.list_matches(s)[0]
        for game_id in m.game_ids:
            s.flush()
            info = matches.get_match(s, m.id)
            g = info.games[info.game_ids.index(game_id)]
            games.correct_game(s, game_id, type(g)(**{**g.__dict__, "winner": Side.B}), "typo")
    db.close()
    again = publish(first, event)
    assert again.replaced and not again.created
    publish(fresh, event)
    assert ratings(first) == ratings(fresh) != before
    db = read(first)
    with db.Session() as s:
        assert len(club.club_results(s)) == 2
    db.close()


def test_a_later_event_published_first_is_rated_in_date_order(tmp_path: Path) -> None:
    a, b = tmp_path / "a.club", tmp_path / "b.club"
    create_club(str(a)).close()
    create_club(str(b)).close()
    march = club_night(tmp_path / "march.tandem", "2026-03-05", "AB")
    april = club_night(tmp_path / "april.tandem", "2026-04-02", "BB")
    publish(a, march)
    publish(a, april)
    publish(b, april)
    publish(b, march)
    assert ratings(a) == ratings(b)


def test_names_are_matched_by_name_alias_or_mapping_and_never_guessed(
    club_file: Path, tmp_path: Path
) -> None:
    publish(club_file, club_night(tmp_path / "one.tandem"))
    db = open_club(str(club_file), make_backup=False)
    with db.Session() as s, s.begin():
        ana = club.find_person(s, "ana")
        club.add_alias(s, ana, "Ana Lima")  # she changed her name: "Ana" stays an alias
        found = club.match_names(s, ["Ana", " ana  lima ", "BEN", "Zoe"])
    db.close()
    assert [(m.how, m.person) for m in found] == [
        ("alias", ana), ("person", ana), ("person", found[2].person), ("new", None)
    ]  # fmt: skip
    # a second person called Ben: the name is ambiguous, refused until mapped
    db = open_club(str(club_file), make_backup=False)
    with db.Session() as s, s.begin():
        from director.store.club_models import Person

        s.add(Person(name="Ben"))
    db.close()
    second = club_night(tmp_path / "two.tandem", "2026-03-12")
    with pytest.raises(UserError, match="several persons carry this name"):
        publish(club_file, second)
    db = read(club_file)
    with db.Session() as s:
        bens = sorted(s.scalars(select(Person.id).where(Person.name == "Ben")))
    db.close()
    assert publish(club_file, second, {"Ben": bens[0]}).matches == 2


def test_an_unfinished_or_undated_event_is_refused(club_file: Path, tmp_path: Path) -> None:
    event = club_night(tmp_path / "night.tandem", winners="A-")
    with pytest.raises(UserError, match="round 1 table .* is not finished"):
        results_of(event)
    undated = club_night(tmp_path / "undated.tandem", day="")
    with pytest.raises(UserError, match="the event has no date"):
        results_of(undated)


def test_a_person_and_a_season(club_file: Path, tmp_path: Path) -> None:
    publish(club_file, club_night(tmp_path / "m.tandem", "2026-03-05", "AB", rounds_played=1))
    publish(club_file, club_night(tmp_path / "a.tandem", "2026-04-02", "AA"))
    db = open_club(str(club_file), make_backup=False)
    with db.Session() as s, s.begin():
        club.add_season(s, "Spring", "2026-03-01", "2026-03-31")
        with pytest.raises(UserError, match="already has a season"):
            club.add_season(s, "Spring", "2026-03-01", "2026-03-31")
        with pytest.raises(UserError, match="before the first"):
            club.add_season(s, "Odd", "2026-03-31", "2026-03-01")
        season, rows = club.season_table(s, "Spring")
        view = club.person_view(s, club.find_person(s, "Ana"))
    db.close()
    assert season.name == "Spring"
    assert [r.points for r in rows] == [1.0] * 4 + [0.0] * 4
    assert [e.name for e in view.events] == ["Club night", "Club night"]
    assert len(view.history) == 2 and view.standing is not None
    assert view.history[-1].after == view.standing.rating


def test_an_individual_night_rates_each_player_alone(club_file: Path, tmp_path: Path) -> None:
    from director.domain.rules import ClockMode, EventOptions, Format, MatchRules, TimeControl
    from director.services.events import create_event
    from director.services.teams import add_player
    from director.store.engine import create_database

    event = tmp_path / "individual.tandem"
    options = EventOptions(  # the format is chosen before anyone is registered
        match=MatchRules(3, format=Format.INDIVIDUAL),
        time_control=TimeControl(120, 12, ClockMode.DELAY),
    )
    db = create_database(str(event))
    with db.Session() as s, s.begin():
        create_event(s, "Solo night", options, event_date="2026-03-05")
        for name in ("Ana", "Ben"):
            add_player(s, name)
    db.close()
    play_round(event, "A")
    done = publish(club_file, event)
    assert (done.matches, len(done.created)) == (1, 2)
    got = ratings(club_file)
    assert set(got) == {"Ana", "Ben"} and got["Ana"] > 1500 > got["Ben"]
