"""The Club page: open a club, find a person as you type, their card and chart, publish."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QLabel
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from director.domain.rating import START_RATING, recompute
from director.services import club
from director.store.club import create_club, open_club
from director.store.engine import open_database
from director.ui.club_page import ClubPage
from director.ui.context import EventContext
from director.ui.rating_chart import RatingChart
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


def plotted(chart: RatingChart) -> list[tuple[float, float]]:
    """Every (match, rating) the chart's lines hold: the provisional one, then the established
    one from the point after the one they share."""
    provisional = [(p.x(), p.y()) for p in chart.provisional.points()]
    established = [(p.x(), p.y()) for p in chart.established.points()]
    if provisional and established:
        assert provisional[-1] == established[0]  # the lines join
        established = established[1:]
    return provisional + established


def rated_history(club_path: Path, person: int) -> list[float]:
    """The person's start and ratings after each match, recomputed by the domain itself."""
    db = open_club(str(club_path), lock=False, make_backup=False)
    try:
        with db.Session() as s:
            history = recompute(club.club_results(s), history=True).history
    finally:
        db.close()
    mine = [c for c in history if c.person == person]
    return [START_RATING, *(c.after for c in mine)]


def test_one_person_and_one_result_are_counted_in_the_singular(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """ "1 persons, 0 rated" in the header; "1 results" in the publish dialog and its notice."""
    path = tmp_path / "new.club"
    create_club(str(path)).close()
    cdb = open_club(str(path), make_backup=False)
    with cdb.Session() as s, s.begin():
        club.add_person(s, "Anatol Zed")
    cdb.close()
    night = club_night(tmp_path / "final.tandem", "2026-05-07", "A", players=PLAYERS[:2])
    ctx = EventContext(open_database(str(night)))
    try:
        page = shown_page(qtbot, ClubPage(ctx))
        assert page.open_club(str(path))
        assert page.summary.text() == f"{path}: 1 person, 0 rated"
        dialog = page.publish()
        assert dialog is not None
        texts = [label.text() for label in dialog.findChildren(QLabel)]
        assert "Club night (2026-05-07): 1 result. Each name goes to:" in texts
        with qtbot.waitSignal(dialog.finished):
            dialog.accept()
        assert (
            page.summary.text() == f"{path}: 5 persons, 4 rated · published 1 result of Club night"
        )
    finally:
        ctx.close()


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
    assert [y for _x, y in plotted(page.chart)] == rated_history(club_file, 2)
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
    assert plotted(page.chart) == list(enumerate(rated_history(club_file, 2)))
    assert len(plotted(page.chart)) == 3  # March and April rated
    assert page.chart.x_axis.categoriesLabels() == ["5 Mar", "2 Apr"]


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
    assert page.error.text().endswith("sim.tandem is an event, not a club")
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


def test_the_chart_is_the_persons_rating_history_on_axes_that_hold_it(
    page: ClubPage, tmp_path: Path
) -> None:
    """Qt Charts: a line of the rating after each rated match (x: the match, 0 the start), the
    values the domain recomputes; the axes cover every point and mark the events' dates."""
    path = tmp_path / "season.club"
    create_club(str(path)).close()
    days = ("2026-03-05", "2026-03-12", "2026-03-19")
    for day, winners in zip(days, ("AB", "BA", "AA"), strict=True):
        publish_to(path, club_night(tmp_path / f"{day}.tandem", day, winners, players=PLAYERS))
    assert page.open_club(str(path))
    page.search.setText("Ben")
    chart = page.chart
    expected = rated_history(path, 2)
    assert plotted(chart) == [(float(i), r) for i, r in enumerate(expected)]
    assert chart.established.points() == []  # 15 experience: provisional throughout
    assert chart.provisional.pen().style() == Qt.PenStyle.DashLine
    assert -0.5 < chart.x_axis.min() <= 0 and 3 <= chart.x_axis.max() < 3.5
    assert chart.y_axis.min() < min(expected) and max(expected) < chart.y_axis.max()
    marks = ["5 Mar", "12 Mar", "19 Mar"]
    assert chart.x_axis.categoriesLabels() == marks
    assert [chart.x_axis.endValue(d) for d in marks] == [1, 2, 3]  # each night's last match
    assert chart.x_axis.titleText() == "Rated matches, by event date, 2026"
    assert chart.x_axis.isVisible() and chart.chart().title() == ""
    markers = chart.chart().legend().markers()
    assert [(m.label(), m.isVisible()) for m in markers] == [
        ("Provisional (experience under 100)", True), ("Rating", False),
    ]  # fmt: skip
    assert chart.chart().axes() == [chart.x_axis, chart.y_axis]
    page.search.setText("Anatol")  # nobody: no card, an empty chart that says so
    assert plotted(chart) == [] and chart.chart().title() == "No rated match yet"
    assert not chart.x_axis.isVisible()


def test_past_100_experience_the_line_goes_on_solid(qtbot: QtBot) -> None:
    """The provisional part (experience under 100, RULES §12) is dashed up to the match that
    brings 100, the rest solid; with many nights the dates are grouped by month."""
    from datetime import date, timedelta

    from director.domain.rating import ClubResult, Outcome, history_points

    results = [
        ClubResult(f"e{n}", date(2026, 1, 6) + timedelta(7 * n), 1, 1, (1,), (2 + n % 3,), 5,
                   Outcome.A_WON if n % 4 else Outcome.B_WON)
        for n in range(25)
    ]  # fmt: skip
    history = [c for c in recompute(results, history=True).history if c.person == 1]
    chart = shown_page(qtbot, RatingChart())
    chart.set_points(history_points(history))
    provisional = [(p.x(), p.y()) for p in chart.provisional.points()]
    established = [(p.x(), p.y()) for p in chart.established.points()]
    ratings = [START_RATING, *(c.after for c in history)]
    assert provisional == [(float(i), r) for i, r in enumerate(ratings[:21])]  # 20 x 5 = 100
    assert established == [(float(i), r) for i, r in enumerate(ratings) if i >= 20]
    assert chart.established.pen().style() == Qt.PenStyle.SolidLine
    assert chart.x_axis.categoriesLabels() == ["Jan", "Feb", "Mar", "Apr", "May", "Jun"]
    assert chart.x_axis.titleText() == "Rated matches, by month, 2026"
    assert 25 <= chart.x_axis.max() < 26
    assert chart.y_axis.min() < min(ratings) and max(ratings) < chart.y_axis.max()
    # the PDF card's chart (reportlab) plots the very same two lines, dashed the same way
    from reportlab.graphics.charts.lineplots import LinePlot

    from director.reports.club import rating_chart

    drawing = rating_chart(history, 400)
    plot = next(c for c in drawing.contents if isinstance(c, LinePlot))
    assert plot.data == [provisional, established]
    assert plot.lines[0].strokeDashArray and getattr(plot.lines[1], "strokeDashArray", None) is None


def test_the_date_marks_name_the_year_when_the_history_spans_several() -> None:
    from datetime import date

    from director.domain.rating import HistoryPoint
    from director.ui.rating_chart import date_marks

    def points(*days: date) -> list[HistoryPoint]:
        return [HistoryPoint(0, 1500, 0, None)] + [
            HistoryPoint(i, 1500, 5 * i, d) for i, d in enumerate(days, 1)
        ]

    winter = points(date(2025, 12, 18), date(2025, 12, 18), date(2026, 1, 8))
    assert date_marks(winter) == ([("18 Dec 2025", 2), ("8 Jan 2026", 3)],
                                  "Rated matches, by event date")  # fmt: skip
    monthly = points(*(date(2025 + m // 12, m % 12 + 1, 1) for m in range(20)))
    assert date_marks(monthly) == ([("2025", 12), ("2026", 20)], "Rated matches, by year")


def test_the_club_page_restores_a_backup_as_the_events_window_does(
    page: ClubPage, club_file: Path, qtbot: QtBot
) -> None:
    """Restore from backup… on the Club page: the club's backups listed (persons, events, good),
    the club closed, the chosen one put back, the club opened again; the file replaced kept."""
    from director.ui.restore_dialog import COLUMNS

    assert not page.restore_button.isEnabled()  # no club open: nothing to restore
    assert page.open_club(str(club_file))  # backed up at opening: 9 persons, 1 event
    assert page.restore_button.isEnabled()
    assert page.club is not None
    page.club.write(club.add_person, "Late Lou")
    page.reload()
    assert len(names(page)) == 10
    dialog = page.restore_from_backup()
    assert dialog is not None
    qtbot.addWidget(dialog)
    assert COLUMNS[:2] == ("Taken", "Why")
    headers = [
        dialog.table.horizontalHeaderItem(c).text() for c in range(dialog.table.columnCount())
    ]
    assert headers == ["Taken", "Why", "Persons", "Events", "State"]
    assert dialog.table.rowCount() == 1
    cells = [dialog.table.item(0, c).text() for c in range(1, 5)]
    assert cells == ["open", "9", "1", "good"]
    assert any("Restoring closes the club" in w.text() for w in dialog.findChildren(QLabel))
    dialog.reason.clear()
    qtbot.keyClicks(dialog.reason, "Lou was typed by mistake")
    with qtbot.waitSignal(dialog.finished):
        dialog.restore_button.click()
    assert dialog.result() == QDialog.DialogCode.Accepted
    assert page.club is not None and page.club.db.target == str(club_file)  # opened again
    assert len(names(page)) == 9 and "Late Lou" not in names(page)
    [replaced] = club_file.parent.glob("weekly.club.replaced-*")
    db = open_club(str(replaced), lock=False, make_backup=False, mark=False)
    try:
        with db.Session() as s:
            assert "Late Lou" in [r.name for r in club.club_table(s)]  # nothing destroyed
    finally:
        db.close()
    assert str(replaced) in page.notice.text()


def test_a_club_restore_that_fails_says_why_and_keeps_the_club_open(
    page: ClubPage, club_file: Path, qtbot: QtBot
) -> None:
    assert page.open_club(str(club_file))
    dialog = page.restore_from_backup()
    assert dialog is not None
    qtbot.addWidget(dialog)
    chosen = dialog.backups[0].path
    chosen.unlink()  # gone since the list was shown
    dialog.restore_button.click()
    assert dialog.isVisible() and dialog.error.text() == f"Not restored: {chosen} does not exist"
    assert page.club is not None and len(names(page)) == 9  # open again, as it was
    assert not list(club_file.parent.glob("weekly.club.replaced-*"))
