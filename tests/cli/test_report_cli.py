"""`tandem-director report` through real subprocesses: every kind, paper, and bad input."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from director.domain.rules import Side
from director.services.reports import KINDS
from director.store.engine import open_database
from tests.reports.eventdata import SPECIAL_NAMES, Built
from tests.reports.pdfcheck import ink, page_sizes, page_texts, pdf_text

EXE = str(Path(sys.executable).with_name("tandem-director"))


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([EXE, *args], check=False, capture_output=True, text=True, timeout=120)


def one_line_error(proc: subprocess.CompletedProcess[str], needle: str) -> None:
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert needle in lines[0], lines[0]


@pytest.fixture
def event_file(event_path: Path, built_template: tuple[Path, Built]) -> tuple[Path, Built]:
    """A copy of the report tests' usual event."""
    template, built = built_template
    shutil.copy(template, event_path)
    return event_path, built


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_writes_a_readable_pdf(
    event_file: tuple[Path, Built], tmp_path: Path, kind: str
) -> None:
    path, _ = event_file
    out = tmp_path / f"{kind}.pdf"
    proc = run("report", kind, str(path), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert f"wrote {out}" in proc.stdout
    data = out.read_bytes()
    text = pdf_text(data)
    assert "Athens & Kyiv <Open>" in text
    if kind not in ("met", "crosstable", "results", "blank-scoresheet", "bracket", "audit"):
        for name in SPECIAL_NAMES:
            assert name in text
    assert ink(data) > 0.005


def test_round_match_and_paper_options(event_file: tuple[Path, Built], tmp_path: Path) -> None:
    path, built = event_file
    out = tmp_path / "sheets.pdf"
    assert run("report", "scoresheet", str(path), "--round", "1", "-o", str(out)).returncode == 0
    texts = page_texts(out.read_bytes())
    assert len(texts) == 3 and all("Round 1" in t for t in texts)
    proc = run(
        "report", "match-report", str(path), "--match", str(built.match_ids[-1]),
        "--paper", "letter", "-o", str(out),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    data = out.read_bytes()
    assert [(round(w), round(h)) for w, h in page_sizes(data)] == [(612, 792)]
    assert "Round 3, table 3" in pdf_text(data)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("pairings", "--round", "9"), "there is no round 9: the rounds are 1 to 3"),
        (("scoresheet", "--match", "999"), "there is no match 999"),
        (("match-report", "--match", "1", "--round", "2"), "match 1 is not in round 2"),
        (("standings", "--round", "4"), "there is no round 4"),
        (("teams", "--round", "1"), "--round does not apply"),
        (("boards", "--round", "1"), "the boards report covers the whole event"),
        (("pairings", "--match", "1"), "--match does not apply"),
        (("scoresheet", "--round", "0"), "is not a whole number of at least 1"),
        (("scoresheet", "--round", "-2"), "'-2' is not a whole number of at least 1"),
        (("standings", "--paper", "a5"), "invalid choice: 'a5'"),
        (("poster",), "invalid choice: 'poster'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2_and_nothing_written(
    event_file: tuple[Path, Built], tmp_path: Path, args: tuple[str, ...], needle: str
) -> None:
    path, _ = event_file
    out = tmp_path / "out.pdf"
    kind, *rest = args
    one_line_error(run("report", kind, str(path), *rest, "-o", str(out)), needle)
    assert not out.exists()


def test_missing_event_output_and_folder(event_file: tuple[Path, Built], tmp_path: Path) -> None:
    path, _ = event_file
    one_line_error(run("report", "teams", str(path)), "-o/--output")
    missing = tmp_path / "nowhere.tandem"
    proc = run("report", "teams", str(missing), "-o", str(tmp_path / "x.pdf"))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    proc = run("report", "teams", str(path), "-o", str(tmp_path / "no" / "x.pdf"))
    one_line_error(proc, "does not exist")


def test_an_event_without_rounds(event_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "x.pdf"
    one_line_error(
        run("report", "pairings", str(event_path), "-o", str(out)), "no round is paired yet"
    )
    assert run("report", "standings", str(event_path), "-o", str(out)).returncode == 0


def test_scoresheets_print_the_slip_qr_code_for_an_address(
    event_file: tuple[Path, Built], tmp_path: Path
) -> None:
    from director.services.slips import match_for_token
    from tests.reports.pdfcheck import qr_codes

    path, _ = event_file
    out = tmp_path / "sheets.pdf"
    proc = run("report", "scoresheet", str(path), "--slip-address", "http://10.1.2.3:8080/",
               "-o", str(out))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    link = qr_codes(out.read_bytes())[0]
    assert link.startswith("http://10.1.2.3:8080/slip/")
    db = open_database(str(path))  # the token the code carries was stored with the print
    try:
        with db.Session() as session:
            assert match_for_token(session, link.rsplit("/", 1)[1]).round == 3
    finally:
        db.close()
    for args, needle in (
        (("scoresheet", "--slip-address", "192.168.1.20"), "is not the address of the table"),
        (("standings", "--slip-address", "http://10.1.2.3/"), "--slip-address is for the sco"),
    ):
        bad = tmp_path / "bad.pdf"
        proc = run("report", args[0], str(path), *args[1:], "-o", str(bad))
        one_line_error(proc, needle)
        assert not bad.exists()


def test_scoresheets_print_the_codes_the_app_issued_while_it_holds_the_event(
    event_file: tuple[Path, Built], tmp_path: Path
) -> None:
    """A stored address makes a scoresheet print issue tokens (a write); while the app has
    the event open the CLI prints read-only, with the codes the app already issued."""
    from director.services.matches import list_matches
    from director.services.reports import set_slip_address
    from director.services.slips import token_for
    from director.store.engine import open_event
    from tests.reports.pdfcheck import qr_codes

    path, _ = event_file
    app = open_event(str(path), make_backup=False)  # holds the event's lock, as the app does
    try:
        with app.Session() as session, session.begin():
            set_slip_address(session, "http://10.1.2.3:8080/")
            first = list_matches(session, 3)[0]
            tokens = (token_for(session, first.id, Side.A), token_for(session, first.id, Side.B))
        out = tmp_path / "sheets.pdf"
        proc = run("report", "scoresheet", str(path), "--round", "3", "-o", str(out))
    finally:
        app.close()
    assert proc.returncode == 0, proc.stderr
    assert "open in the app" in proc.stderr and "Traceback" not in proc.stderr
    data = out.read_bytes()
    codes = [qr_codes(data, page) for page in range(len(page_texts(data)))]
    assert codes[0] == [f"http://10.1.2.3:8080/slip/{token}" for token in tokens]
    assert all(c == [] for c in codes[1:])  # no token issued for them: no code
