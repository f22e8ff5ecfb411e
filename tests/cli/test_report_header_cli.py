"""The event header from `new` to every page; the MET's model, a round's start, a club logo."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from director.store.engine import open_database
from tests.cli.test_report_cli import one_line_error, run
from tests.reports.eventdata import build_event
from tests.reports.pdfcheck import page_texts, pdf_text


def new_event(tmp_path: Path, *extra: str) -> Path:
    path = tmp_path / "club.tandem"
    proc = run("new", str(path), "--name", "Spring Tandem", "--length", "5", *extra)
    assert proc.returncode == 0, proc.stderr
    return path


def test_new_takes_venue_dates_organiser_and_director_for_every_page(tmp_path: Path) -> None:
    path = new_event(
        tmp_path, "--venue", "Hall Ω", "--date", "2026-03-14", "--end-date", "2026-03-15",
        "--organiser", "Athens BG Club", "--director", "Eva Director",
    )  # fmt: skip
    db = open_database(str(path))
    with db.Session() as session, session.begin():
        build_event(session, teams=4, rounds=2, forfeit=False, unfinished=False,
                    name="Spring Tandem")  # fmt: skip
    db.close()
    for kind in ("standings", "teams", "pairings", "results"):
        out = tmp_path / f"{kind}.pdf"
        assert run("report", kind, str(path), "-o", str(out), "--start", "19:30").returncode == 0
        for page in page_texts(out.read_bytes()):
            for fact in ("Spring Tandem", "Hall Ω", "2025-03-14", "Organiser: Athens BG Club",
                         "Director: Eva Director"):  # fmt: skip
                assert fact in page, (kind, fact)
        if kind in ("pairings", "results"):
            assert "Round 2 of 2 · starts 19:30" in pdf_text(out.read_bytes())


def test_bad_header_values_are_one_line_and_leave_no_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.tandem"
    one_line_error(
        run("new", str(path), "--name", "X", "--length", "5", "--date", "14.3.2026"),
        "is not a date",
    )
    one_line_error(
        run(
            "new",
            str(path),
            "--name",
            "X",
            "--length",
            "5",
            "--date",
            "2026-03-14",
            "--end-date",
            "2026-03-01",
        ),
        "is before the date",
    )
    assert not path.exists()


def test_met_takes_gammon_rate_backgammon_rate_and_size(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    out = tmp_path / "met.pdf"
    proc = run("report", "met", str(path), "-o", str(out), "--gammon-rate", "0.2",
               "--backgammon-rate", "0.05", "--size", "9")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    text = pdf_text(out.read_bytes())
    assert "g = 0.2" in text and "b = 0.05" in text and "9 × 9" in text
    one_line_error(run("report", "met", str(path), "-o", str(out), "--gammon-rate", "1.5"),
                   "--gammon-rate: '1.5' must be between 0 and 1")  # fmt: skip
    one_line_error(run("report", "teams", str(path), "-o", str(out), "--size", "9"),
                   "are for the MET")  # fmt: skip


def test_a_club_logo_prints_on_every_page_and_a_bad_one_is_refused(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    logo = tmp_path / "logo.png"
    Image.new("RGB", (40, 40), (200, 20, 20)).save(logo)
    out = tmp_path / "teams.pdf"
    assert run("report", "teams", str(path), "-o", str(out), "--logo", str(logo)).returncode == 0
    import pypdfium2 as pdfium

    page = pdfium.PdfDocument(out.read_bytes())[0].render(scale=1).to_pil().convert("RGB")
    reds = sum(1 for p in page.get_flattened_data() if p[0] > 150 and p[1] < 80 and p[2] < 80)
    assert reds > 200  # the logo's red square in the header
    bad = tmp_path / "logo.txt"
    bad.write_text("not a picture")
    one_line_error(run("report", "teams", str(path), "-o", str(out), "--logo", str(bad)),
                   "not a picture")  # fmt: skip
    one_line_error(run("report", "pairings", str(path), "-o", str(out), "--start", "25:00"),
                   "not a time of day")  # fmt: skip
