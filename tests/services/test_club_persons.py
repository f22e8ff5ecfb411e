"""Players picked from the club: the event stores their person ids and publishes by them."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from director.domain.errors import UserError
from director.domain.rules import EventOptions
from director.services import club, teams
from director.services.events import create_event
from director.store.club import create_club, open_club
from director.store.engine import create_database, open_database
from tests.club_files import club_night, play_round


def persons(club_path: Path, *names: str) -> list[int]:
    db = open_club(str(club_path), make_backup=False)
    try:
        with db.Session() as s, s.begin():
            return [club.add_person(s, n) for n in names]
    finally:
        db.close()


def results_of(event: Path) -> club.EventResults:
    db = open_database(str(event), read_only=True)
    try:
        with db.Session() as s:
            return club.event_results(s)
    finally:
        db.close()


def matched(club_path: Path, event: Path) -> list[club.NameMatch]:
    results = results_of(event)
    db = open_club(str(club_path), make_backup=False)
    try:
        with db.Session() as s, s.begin():
            found = club.match_event(s, results)
            club.publish(s, results, found)
            return found
    finally:
        db.close()


@pytest.fixture
def club_file(tmp_path: Path) -> Path:
    path = tmp_path / "club.club"
    create_club(str(path)).close()
    return path


def test_players_picked_from_the_club_publish_by_their_ids_not_their_names(
    club_file: Path, tmp_path: Path
) -> None:
    # two persons called Ana: by name the club could not tell them apart
    ana1, ana2, ben, cleo, dev = persons(club_file, "Ana", "Ana", "Ben", "Cleo", "Dev")
    event = tmp_path / "night.tandem"
    db = create_database(str(event))
    with db.Session() as s, s.begin():
        create_event(s, "Night", EventOptions(), event_date="2026-03-05")
        teams.add_team(s, "Blue", ("ana", "Ben"), persons=(ana2, ben))
        teams.add_team(s, "Red", ("Cleo", "Dev"), persons=(cleo, dev))
    db.close()
    club_file.rename(tmp_path / "away.club")  # the event runs without the club file
    play_round(event, "A")
    with sqlite3.connect(event) as c:
        stored = dict(c.execute("SELECT name, person_id FROM player").fetchall())
    assert stored == {"ana": ana2, "Ben": ben, "Cleo": cleo, "Dev": dev}
    (tmp_path / "away.club").rename(club_file)
    found = matched(club_file, event)
    assert [(m.name, m.how, m.person) for m in found] == [
        ("ana", "registered", ana2), ("Ben", "registered", ben),
        ("Cleo", "registered", cleo), ("Dev", "registered", dev),
    ]  # fmt: skip
    assert ana1 not in {m.person for m in found}


def test_an_id_the_club_does_not_have_is_refused_not_matched_by_name(
    club_file: Path, tmp_path: Path
) -> None:
    persons(club_file, "Ana", "Ben")
    event = tmp_path / "night.tandem"
    db = create_database(str(event))
    with db.Session() as s, s.begin():
        create_event(s, "Night", EventOptions(), event_date="2026-03-05")
        teams.add_team(s, "Blue", ("Ana", "Ben"), persons=(41, None))
        teams.add_team(s, "Red", ("Cleo", "Dev"))
    db.close()
    play_round(event, "A")
    with pytest.raises(UserError, match="registered as person #41, whom this club"):
        matched(club_file, event)


def test_a_renamed_player_loses_the_person_picked_for_the_old_name(tmp_path: Path) -> None:
    db = create_database(str(tmp_path / "e.tandem"))
    with db.Session() as s, s.begin():
        create_event(s, "Night", EventOptions(), event_date="2026-03-05")
        team = teams.add_team(s, "Blue", ("Ana", "Ben"), persons=(1, 2)).value
        after = teams.edit_team(s, team.id, players=("Ana", "Bea")).value
        assert after.persons == (1, None)
        again = teams.edit_team(s, team.id, persons=(1, 7)).value
        assert again.persons == (1, 7)
        assert teams.list_teams(s)[0].persons == (1, 7)
    db.close()


def test_an_individual_player_keeps_the_person_picked(tmp_path: Path) -> None:
    from director.domain.rules import ClockMode, Format, MatchRules, TimeControl

    options = EventOptions(
        match=MatchRules(format=Format.INDIVIDUAL),
        time_control=TimeControl(120, 12, ClockMode.DELAY),
    )
    db = create_database(str(tmp_path / "e.tandem"))
    with db.Session() as s, s.begin():
        create_event(s, "Solo", options, event_date="2026-03-05")
        player = teams.add_player(s, "Ana", person=5).value
        assert player.persons == (5, None)
        assert teams.edit_team(s, player.id, name="ANA").value.persons == (5, None)
        assert teams.edit_team(s, player.id, name="Anna").value.persons == (None, None)
    db.close()


def test_linking_stores_the_ids_of_an_event_registered_without_the_club(tmp_path: Path) -> None:
    db = create_database(str(tmp_path / "e.tandem"))
    with db.Session() as s, s.begin():
        create_event(s, "Night", EventOptions(), event_date="2026-03-05")
        teams.add_team(s, "Blue", ("Ana", "Ben"))
        teams.link_persons(s, {"ANA": 3})
        assert teams.list_teams(s)[0].persons == (3, None)
        with pytest.raises(UserError, match="no player called 'Zoe'"):
            teams.link_persons(s, {"Zoe": 4})
    db.close()


def test_searching_as_you_type_finds_names_and_aliases_beginnings_first(club_file: Path) -> None:
    ids = persons(club_file, "Mark Olsen", "Anna Marks", "Zoe Lim", "Mara Hart")
    db = open_club(str(club_file), make_backup=False)
    with db.Session() as s, s.begin():
        club.add_alias(s, ids[3], "Bea Hart")  # Mara Hart is now called Bea Hart
        assert club.search_persons(s, "  ") == []
        hits = club.search_persons(s, "MAR")
        assert [(h.name, h.alias) for h in hits] == [
            ("Bea Hart", "Mara Hart"), ("Mark Olsen", ""), ("Anna Marks", ""),
        ]  # fmt: skip
        assert hits[0].describe() == f"Bea Hart #{ids[3]}, once Mara Hart"
        assert [h.id for h in club.search_persons(s, f"#{ids[2]}")] == [ids[2]]
        # digits to str.isdigit but no id: a search, never an error ("²" raised ValueError)
        assert club.search_persons(s, "²") == [] and club.search_persons(s, "#٣") == []
        with pytest.raises(UserError):
            club.find_person(s, "²")
        with pytest.raises(UserError, match="needs a name"):
            club.add_person(s, "   ")
    db.close()


def test_an_event_seeds_by_its_players_club_ratings(club_file: Path, tmp_path: Path) -> None:
    from director.domain.rating import recompute

    march = club_night(tmp_path / "march.tandem", "2026-03-05", "AB")  # Ana+Ben, Gus+Hana won
    db = open_club(str(club_file), make_backup=False)
    with db.Session() as s, s.begin():
        results = results_of(march)
        club.publish(s, results, club.match_event(s, results))
        ratings = club.person_ratings(s)
        ids = {name: pid for pid, name in club.person_names(s).items()}
    db.close()
    assert ratings == {p: st.rating for p, st in recompute(_club(club_file)).standings.items()}
    event = tmp_path / "april.tandem"
    db = create_database(str(event))
    with db.Session() as s, s.begin():
        create_event(s, "April", EventOptions(), event_date="2026-04-02")
        teams.add_team(s, "Losers", ("Cleo", "Dev"), persons=(ids["Cleo"], ids["Dev"]))
        teams.add_team(s, "Unknown", ("Zed", "Ben"), persons=(None, ids["Ben"]), rating=1400)
        teams.add_team(s, "Mixed", ("Ana", "Eve"), persons=(ids["Ana"], ids["Eve"]))
        teams.add_team(s, "Winners", ("Gus", "Hana"), persons=(ids["Gus"], ids["Hana"]))
        seeded = teams.seed_by_club_rating(s, ratings).value
    db.close()
    mean = (ratings[ids["Ana"]] + ratings[ids["Eve"]]) / 2
    assert [(t.name, t.seed) for t in sorted(seeded, key=lambda t: t.seed)] == [
        ("Winners", 1), ("Mixed", 2), ("Losers", 3), ("Unknown", 4),
    ]  # fmt: skip
    by_name = {t.name: t for t in seeded}
    assert by_name["Mixed"].rating == round(mean) == 1500
    assert by_name["Unknown"].rating == 1400  # Zed is no person of the club: rating kept


def _club(club_path: Path) -> list:  # type: ignore[type-arg]
    db = open_club(str(club_path), lock=False, make_backup=False)
    try:
        with db.Session() as s:
            return club.club_results(s)
    finally:
        db.close()
