"""The club's PDFs: the rating list, a season's standings and a person's card, read back."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from director.domain.errors import UserError
from director.services import club
from director.services.club_reports import club_report
from director.store.club import create_club, open_club
from tests.club_files import club_night, publish_to
from tests.reports.pdfcheck import ink, notdef_drawn, page_sizes, pdf_text

Maker = Callable[..., bytes]
PLAYERS = (("<b>R&D</b>", "Ben"), ("Cleo", "Dev"), ("Eve", "Finn"), ("Gus", "Hana"))


@pytest.fixture(scope="module")
def club_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("club")
    path = folder / "weekly.club"
    create_club(str(path)).close()
    nights = (("2026-03-05", "AB"), ("2026-03-12", "AA"), ("2026-03-19", "BA"))
    for n, (day, winners) in enumerate(nights):
        publish_to(path, club_night(folder / f"n{n}.tandem", day, winners, players=PLAYERS,
                                 name=f"Night {n + 1}"))  # fmt: skip
    db = open_club(str(path), make_backup=False)
    with db.Session() as s, s.begin():
        club.add_season(s, "Spring 2026", "2026-03-01", "2026-05-31")
    db.close()
    return path


@pytest.fixture
def render(club_file: Path, invariant: None) -> Iterator[Maker]:
    db = open_club(str(club_file), lock=False, make_backup=False)
    try:
        with db.Session() as s:
            yield lambda kind, **options: club_report(s, kind, club_name="Weekly", **options)
    finally:
        db.close()


def test_the_rating_list_prints_every_rated_person_best_first(
    render: Maker,
) -> None:
    data = render("ratings")
    text = pdf_text(data)
    assert "Weekly" in text and "Rating list" in text
    assert "<b>R&D</b>" in text  # a name is plain text, never markup
    for heading in ("Place", "Person", "Rating", "Experience", "Matches"):
        assert heading in text
    order = [text.index(n) for n in ("<b>R&D</b>", "Ben", "Gus")]
    assert order == sorted(order)  # Team 1 won twice, Team 4 lost two of three
    assert "provisional" in text
    assert page_sizes(data) == [(595.28, 841.89)]
    assert notdef_drawn(data) == {}


def test_the_season_standings_name_the_season_and_its_places(
    render: Maker,
) -> None:
    text = pdf_text(render("season"))
    assert "Spring 2026" in text and "2026-03-01 to 2026-05-31" in text
    for heading in ("Place", "Person", "Points", "Rating"):
        assert heading in text
    assert "1=" in text  # R&D and Ben share first place
    with pytest.raises(UserError, match="no season called 'Winter'"):
        render("season", season="Winter")


def test_a_persons_card_has_the_rating_chart_events_and_head_to_head(
    render: Maker,
) -> None:
    data = render("person", person="Ben")
    text = pdf_text(data)
    assert "Ben" in text and "#2" in text
    assert "Rating history" in text
    for night in ("Night 1", "Night 2", "Night 3"):
        assert night in text
    assert "Head to head" in text and "Against" in text and "Finn" in text
    assert ink(data) > 0.01  # the chart's lines and axes are drawn
    with pytest.raises(UserError, match="the person report needs --person"):
        render("person")
    with pytest.raises(UserError, match="there is no club report 'nope'"):
        render("nope")
