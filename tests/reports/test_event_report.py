"""The event report: every report in one PDF, with bookmarks that open the right pages."""

from __future__ import annotations

from director.services.matches import list_matches
from director.store.engine import EventDatabase
from tests.reports.conftest import Render
from tests.reports.eventdata import Built
from tests.reports.pdfcheck import flat, ink, outline_titles, page_texts, pdf_text


def test_the_event_report_holds_every_section_with_bookmarks(
    built: Built, pdf: Render, db: EventDatabase
) -> None:
    data = pdf("event")
    texts = [flat(t) for t in page_texts(data)]
    marks = outline_titles(data)
    titles = [title for title, _ in marks]
    for title in (
        "Event",
        "Standings during round 3 (2 of 3 matches decided)",
        "Crosstable during round 3 (2 of 3 matches decided)",
        "Board statistics",
        "Round 1",
        "Pairings – round 2",
        "Match reports – round 3",
        "Team list",
        "Match equity table",
    ):
        assert title in titles, title
    opens = dict(marks)
    during = "Standings during round 3 (2 of 3 matches decided)"
    assert during in texts[opens[during]]
    assert "Team list and check-in" in texts[opens["Team list"]]
    assert "Tandem match equity table" in texts[opens["Match equity table"]]
    with db.Session() as session:
        matches = list_matches(session)
    for m in matches:
        if m.team_b is None:
            continue
        title = f"Match report – Round {m.round}, table {m.table}"
        assert title in titles
        page = texts[opens[title]]
        assert f"Match report — Round {m.round}, table {m.table}" in page
        assert m.team_a.name in page and m.team_b.name in page
    assert titles.index("Round 1") < titles.index("Round 2") < titles.index("Team list")
    assert "Leader during round 3 (2 of 3 matches decided)" in texts[0]
    assert "6 teams · 3 rounds paired" in texts[0]
    assert ink(data) > 0.005


def test_an_empty_event_still_prints(pdf: Render) -> None:
    data = pdf("event")
    text = pdf_text(data)
    assert "Template Open" in text
    assert "No team is registered yet." in text
    assert "Tandem match equity table" in text
    assert len(page_texts(data)) == 6  # cover, standings, crosstable, boards, teams, MET
