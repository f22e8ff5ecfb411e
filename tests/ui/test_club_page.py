"""The Club page: open a club, find a person as you type, their card and chart, publish."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QDialog
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from director.services import club
from director.store.club import create_club, open_club
from director.ui.club_page import ClubPage
from director.ui.context import EventContext
from tests.club_files import club_night, publish_to
from tests.ui.app_helpers import shown_page

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
PLAYERS = (("<b>Ana</b>", "Ben"), ("Cleo", "Dev"), ("Eve", "Finn"), ("Gus", "Hana"))


@pytest.fixture(scope="module")
def sim_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The event on the desk: a finished night of the same players, not yet published."""
    folder = tmp_path_factory.mktemp("club_page")
    return club_night(folder / "april.tandem", "2026-04-02", "AA", players=PLAYERS)


@pytest.fixture
def club_file(tmp_path: Path) -> Path:
    path = tmp_path / "weekly.club"
    create_club(str(path)).close()
    publish_to(path, club_night(tmp_path / "march.tandem", "2026-03-05", "AB", players=PLAYERS))
    cdb = open_club(str(path), make_backup=False)
    with cdb.Session() as s, s.begin():
        club.add_person(s, "Anatol Zed")  # in the register, never rated yet
    cdb.close()
    return path


@pytest.fixture
def page(qtbot: QtBot, ctx: EventContext) -> ClubPage:
    return shown_page(qtbot, ClubPage(ctx))


def names(page: ClubPage) -> list[str]:
    return [page.model.rows[r].name for r in range(page.model.rowCount())]


def test_a_club_opens_into_its_persons_and_the_search_finds_as_you_type(
    page: ClubPage, club_file: Path, qtbot: QtBot, qapp: object
) -> None:
    assert page.open_club(str(club_file))
    ModelTester(None).check(page.model, force_py=True)
    assert len(names(page)) == 9 and names(page)[-1] == "Anatol Zed"  # unrated: last
    assert "9 persons, 8 rated" in page.summary.text()
    qtbot.keyClicks(page.search, "an")
    assert sorted(names(page)) == ["<b>Ana</b>", "Anatol Zed", "Hana"]
    page.search.clear()
    qtbot.keyClicks(page.search, "#2")
    assert names(page) == ["Ben"]
    assert page.name.text() == "Ben"  # the one found is shown at once
    assert page.chart.points[0] == 1500 and len(page.chart.points) == 2
    assert "Rating 15" in page.rating.text() and "provisional" in page.rating.text()
    assert "against Eve: 1-0" in page.details.toPlainText()
    page.search.clear()
    qtbot.keyClicks(page.search, "<b>")
    assert page.name.text() == "<b>Ana</b>"  # plain text: the tags are shown, not applied
    page.search.clear()
    qtbot.keyClicks(page.search, "nobody")
    assert names(page) == [] and page.name.text() == ""


def test_publishing_shows_every_name_matched_before_it_writes(
    page: ClubPage, club_file: Path, qtbot: QtBot
) -> None:
    assert page.open_club(str(club_file))
    dialog = page.publish()
    assert dialog is not None
    assert dialog.lines.toPlainText().splitlines()[:2] == [
        "<b>Ana</b>: person #1 (person)", "Ben: person #2 (person)",
    ]  # fmt: skip
    assert dialog.publish_button.isEnabled()
    dialog.reject()
    assert "8 rated" in page.summary.text()
    dialog = page.publish()
    assert dialog is not None
    with qtbot.waitSignal(dialog.finished):
        dialog.accept()
    assert dialog.result() == QDialog.DialogCode.Accepted
    assert "published 2 results of Club night" in page.summary.text()
    page.search.clear()
    qtbot.keyClicks(page.search, "Ben")
    assert len(page.chart.points) == 3  # March and April rated


def test_a_name_two_persons_carry_blocks_publishing(page: ClubPage, club_file: Path) -> None:
    db = open_club(str(club_file), make_backup=False)
    with db.Session() as s, s.begin():
        club.add_person(s, "Ben")
    db.close()
    assert page.open_club(str(club_file))
    dialog = page.publish()
    assert dialog is not None
    assert "Ben: several persons carry this name (#2, #10)" in dialog.lines.toPlainText()
    assert not dialog.publish_button.isEnabled()
    assert dialog.refusal.isVisibleTo(dialog)
    dialog.reject()


def test_a_file_that_is_no_club_is_refused_beside_the_button(
    page: ClubPage, sim_path: Path
) -> None:
    assert not page.open_club(str(sim_path))
    assert "is not a Tandem Director club" in page.error.text()
    assert not page.search.isEnabled() and not page.publish_button.isEnabled()


def test_seeding_by_club_rating_is_refused_once_round_1_is_paired(
    page: ClubPage, club_file: Path
) -> None:
    assert page.open_club(str(club_file))
    assert page.seed_button.isEnabled()
    page.seed_button.click()
    assert "round 1 is paired" in page.error.text()  # the desk's event has played its night


def test_the_card_names_the_nemesis_and_the_one_beaten_most(page: ClubPage, tmp_path: Path) -> None:
    """RULES §12: the nemesis report gives, for each person, the opponent with the worst record
    against them over at least 3 matches *and* the one they beat most."""
    path = tmp_path / "season.club"
    create_club(str(path)).close()
    for day in ("2026-03-05", "2026-03-12", "2026-03-19"):
        publish_to(path, club_night(tmp_path / f"{day}.tandem", day, "AA", players=PLAYERS))
    assert page.open_club(str(path))

    def rivals(person: str) -> list[str]:
        page.search.setText(person)
        text = page.details.toPlainText()
        return [line for line in text.splitlines() if line.startswith(("Nemesis", "Beats"))]

    # Ana won all three against Eve and Finn: no nemesis (she never lost), Eve beaten most
    assert rivals("<b>Ana") == ["Beats most: Eve (3-0)"]
    assert "2026-03-05  Club night: 1 match" in page.details.toPlainText()
    # Eve lost all three to Ana and Ben: Ana is her nemesis (the lower id of the two)
    assert rivals("Eve") == ["Nemesis: <b>Ana</b> (0-3)"]
