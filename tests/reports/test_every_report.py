"""Every report, on both papers: names print, pages are not blank, every page is labelled."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import pytest

from director.domain.rules import Paper
from director.services.events import get_event, update_event
from director.services.reports import KINDS
from director.store.engine import EventDatabase
from tests.reports.conftest import Render
from tests.reports.eventdata import SPECIAL_NAMES, Built
from tests.reports.pdfcheck import A4, LETTER, flat, ink, page_sizes, page_texts, pdf_text

# which of the four names each report prints: crosstable lists teams only, met no one
NAMES = {
    "crosstable": ("R&D <Team>", "Дмитрий"),
    "met": (),
    "results": ("R&D <Team>", "Дмитрий"),
    "blank-scoresheet": (),
    "bracket": (),  # a Swiss event has no bracket: the page says so
    "audit": (),  # names only the teams of the matches changed (tests/reports/test_audit.py)
}
EVENT = "Athens & Kyiv <Open> Ελληνικό Кубок"
AT = datetime(2025, 3, 14, 18, 5)


@pytest.mark.parametrize("paper", [Paper.A4, Paper.LETTER])
@pytest.mark.parametrize("kind", KINDS)
def test_report_prints_names_on_every_labelled_page(
    built: Built, pdf: Render, kind: str, paper: Paper
) -> None:
    data = pdf(kind, paper=paper, generated=AT)
    texts = [flat(t) for t in page_texts(data)]
    whole = " ".join(texts)
    for name in NAMES.get(kind, SPECIAL_NAMES):
        assert name in whole, (kind, name)
    for number, text in enumerate(texts, start=1):
        assert EVENT in text
        assert "2025-03-14" in text  # the event's date
        assert f"Page {number} of {len(texts)}" in text
        assert "Generated 2025-03-14 18:05" in text
    assert ink(data) > 0.01  # the first page is not blank
    expected = A4 if paper is Paper.A4 else LETTER
    assert {(round(w), round(h)) for w, h in page_sizes(data)} <= {
        (round(expected[0]), round(expected[1])),
        (round(expected[1]), round(expected[0])),  # a landscape crosstable
    }


def test_the_event_paper_option_is_the_default(
    built: Built, pdf: Render, db: EventDatabase
) -> None:
    with db.Session() as session, session.begin():
        options = get_event(session).options
        update_event(session, options=replace(options, paper=Paper.LETTER))
    sizes = page_sizes(pdf("teams"))
    assert [(round(w), round(h)) for w, h in sizes] == [(612, 792)]
    sizes = page_sizes(pdf("teams", paper="a4"))
    assert [(round(w), round(h)) for w, h in sizes] == [(595, 842)]


@pytest.mark.parametrize(
    ("kind", "pages"),
    [
        ("pairings", 1),
        ("standings", 1),
        ("crosstable", 1),
        ("boards", 1),
        ("teams", 1),
        ("met", 1),
        ("scoresheet", 3),  # round 3: three tables, one sheet each
        ("match-report", 3),
    ],
)
def test_page_counts(built: Built, pdf: Render, kind: str, pages: int) -> None:
    assert len(page_texts(pdf(kind))) == pages


def test_generation_time_defaults_to_now(built: Built, pdf: Render) -> None:
    before = datetime.now()
    text = pdf_text(pdf("teams"))
    stamps = {before.strftime("%Y-%m-%d %H:%M"), datetime.now().strftime("%Y-%m-%d %H:%M")}
    assert any(f"Generated {s}" in text for s in stamps)
