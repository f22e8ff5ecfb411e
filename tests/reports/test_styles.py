"""The house style: embedded fonts, escaping, determinism, the resource lookup."""

from __future__ import annotations

import pytest

from director.reports.styles import INVARIANT_TIME
from director.resources import resource_path, resource_root
from director.services.reports import KINDS, suggested_file_name
from director.services.teams import add_team
from director.store.engine import EventDatabase
from tests.reports.conftest import Render
from tests.reports.eventdata import Built
from tests.reports.pdfcheck import flat, fonts, ink, page_texts, pdf_text, reader


def test_fonts_ship_with_their_licence() -> None:
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansMono.ttf"):
        assert resource_path("fonts", name).stat().st_size > 100_000
    licence = resource_path("fonts", "LICENSE-DejaVu.txt").read_text(encoding="utf-8")
    assert "Bitstream" in licence and "Permission is hereby granted" in licence
    assert (resource_root() / "fonts").is_dir()
    with pytest.raises(FileNotFoundError, match="fonts/missing.ttf"):
        resource_path("fonts", "missing.ttf")


def test_only_the_embedded_dejavu_fonts_are_used(built: Built, pdf: Render) -> None:
    for kind in ("event", "scoresheet"):
        used = fonts(pdf(kind))
        assert set(used) == {"DejaVuSans", "DejaVuSans-Bold"}, used
        assert all(used.values())  # the TrueType file travels inside the PDF


def test_markup_in_names_prints_literally(db: EventDatabase, pdf: Render) -> None:
    tricky = ("A <b>bold</b> & <font", "</para> &amp; <br/>", "Ωmega <i>")
    with db.Session() as session, session.begin():
        add_team(session, tricky[0], (tricky[1], tricky[2]))
    text = pdf_text(pdf("teams"))
    for name in tricky:
        assert name in text


def test_invariant_mode_gives_the_same_text_twice(
    built: Built, pdf: Render, invariant: None
) -> None:
    for kind in KINDS:
        first, second = pdf(kind), pdf(kind)
        assert page_texts(first) == page_texts(second), kind
        assert "Generated 2000-01-01 00:00" in pdf_text(first)


def test_a_long_event_name_is_shortened_in_the_page_header(db: EventDatabase, pdf: Render) -> None:
    from director.services.events import update_event

    name = "The Very Long Annual International Tandem Backgammon Championship of " + "Ω" * 90
    with db.Session() as session, session.begin():
        update_event(session, name=name[:200])
    header = page_texts(pdf("met"))[0]
    assert "The Very Long Annual" in header and "…" in header


def test_suggested_file_names() -> None:
    assert suggested_file_name("scoresheet", round=3) == "scoresheet-round-3.pdf"
    assert suggested_file_name("match-report", match=12) == "match-report-match-12.pdf"
    assert suggested_file_name("event") == "event.pdf"


def _forms(page: object) -> dict[str, object]:
    """The form XObjects a page draws: name → the indirect object it points to."""
    resources = page.get("/Resources") or {}  # type: ignore[attr-defined]
    xobjects = resources.get("/XObject") or {}
    return {
        str(name): ref.idnum
        for name, ref in xobjects.items()
        if ref.get_object().get("/Subtype") == "/Form"
    }


def test_the_parts_every_scoresheet_shares_are_written_once(built: Built, pdf: Render) -> None:
    """The rules, the game grid and the signature boxes are one form each in the file, drawn
    on every sheet, and read back on every sheet."""
    data = pdf("scoresheet", round=1)
    pages = reader(data).pages
    assert len(pages) >= 3
    forms = [_forms(page) for page in pages]
    assert len(forms[0]) >= 3 and all(f == forms[0] for f in forms), forms
    for page_text in map(flat, page_texts(data)):
        assert "Initials A · B" in page_text and "Team A captain" in page_text
        assert "Time forfeit (rule 5)" in page_text
    assert ink(data, len(pages) - 1) > 0.02  # the grid really is drawn on the last sheet


def test_plain_text_wider_than_its_cell_wraps_as_a_paragraph() -> None:
    from reportlab.lib.units import mm

    from director.domain.rules import Paper
    from director.reports.styles import STYLES, ReportInfo, build_pdf, grid, text

    words = " ".join(f"word{i}" for i in range(30))
    short, long = text("Board 1", "cell"), text(words, "cell")
    assert short.wrap(40 * mm, 100 * mm)[1] == STYLES["cell"].leading
    assert long.wrap(40 * mm, 100 * mm)[1] >= 5 * STYLES["cell"].leading
    info = ReportInfo("Event", "2026-01-01", Paper.A4, INVARIANT_TIME)
    table = grid([["Name"], [text(words, "cell")]], [40 * mm])
    lines = page_texts(build_pdf(info, "Test", [table]))[0].splitlines()
    assert sum(line.startswith("word") for line in lines) >= 5
    assert flat(" ".join(lines)).count("word") == 30
