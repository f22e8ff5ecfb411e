"""Every report prints every script (#24): an event whose teams and players are named in
Arabic, Hebrew, Chinese, Japanese, Korean, Devanagari, Thai, emoji and markup, after a played
round, prints each report kind without a crash, draws no box (.notdef) for any of their
letters, and keeps every name in the text layer; through the services and the command."""

from __future__ import annotations

import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from director.domain.rules import EventOptions
from director.services.events import create_event
from director.services.reports import KINDS, render
from director.store.engine import EventDatabase, create_database
from tests.reports.conftest import Render
from tests.reports.eventdata import build_event
from tests.reports.pdfcheck import fonts, notdef_drawn, page_texts

EVENT = "كأس القاهرة · 北京 Open 🎲"
SCRIPT_TEAMS = (
    ("فريق القاهرة", ("محمد علي", "أحمد حسن")),  # Arabic
    ("מכבי תל אביב", ("דוד כהן", "שרה לוי")),  # Hebrew
    ("北京队", ("王伟", "李娜")),  # Chinese
    ("東京チーム", ("さくら", "渡辺 蓮")),  # Japanese: kanji, katakana, hiragana
    ("한강 팀", ("김민준", "이서연")),  # Korean
    ("दिल्ली डबल", ("सीता शर्मा", "किशोर")),  # Devanagari, with a reph and an i-matra
    ("สมชาย ใจดี", ("สมศรี", "ใจดี มาก")),  # Thai
    ("Dice 🎲 Club", ("🎯 Ann", "Bob 🐉")),  # emoji
    ("<b>R&D</b>", ("Zoë <i>O'Neill</i>", "A & B")),  # markup
)
TEAMS = tuple(team for team, _ in SCRIPT_TEAMS)
PLAYERS = tuple(player for _, pair in SCRIPT_TEAMS for player in pair)
ROUND_2_TEAMS = TEAMS  # nine teams: eight play, the bye is listed too
# the names each report prints (the event's name heads every page of every report)
NAMES: dict[str, tuple[str, ...]] = {
    "teams": TEAMS + PLAYERS,
    "pairings": TEAMS + PLAYERS,
    "standings": TEAMS,
    "crosstable": TEAMS,
    "boards": TEAMS[1:],  # the Arabic team had the bye, then a forfeit: its boards no game
    "results": ROUND_2_TEAMS,
    "event": TEAMS,
    "met": (),
    "blank-scoresheet": (),
    "bracket": (),
}


@pytest.fixture(scope="module")
def scripts_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The event, built once: round 1 played, round 2 under way (a forfeit, an unfinished
    match)."""
    path = tmp_path_factory.mktemp("scripts") / "scripts.tandem"
    db = create_database(str(path))
    try:
        with db.Session() as session, session.begin():
            create_event(session, EVENT, EventOptions())
            build_event(session, teams=9, rounds=2, names=SCRIPT_TEAMS, name=EVENT)
    finally:
        db.close()
    return path


@pytest.fixture
def scripts_db(db: EventDatabase, scripts_template: Path) -> EventDatabase:
    db.engine.dispose()
    shutil.copy(scripts_template, db.path)
    return db


def text_layers(data: bytes) -> str:
    """The text layer as pypdf and as PDFium read it (PDFium honours /ActualText, pypdf puts
    right-to-left runs back in reading order), NFKC: Arabic's joined forms as letters."""
    document = pdfium.PdfDocument(data)
    try:
        pdfium_text = " ".join(p.get_textpage().get_text_range() for p in document)
    finally:
        document.close()
    both = " ".join([*page_texts(data), pdfium_text])
    return " ".join(unicodedata.normalize("NFKC", both).split())


def expected(kind: str) -> tuple[str, ...]:
    if kind in ("scoresheet", "match-report"):  # round 2's eight teams, not the bye's
        return tuple(t for t in TEAMS if t != "Dice 🎲 Club")
    if kind == "audit":  # the lines name the teams of the forfeited match
        return (TEAMS[0], TEAMS[-1])
    return NAMES[kind]


def check(kind: str, data: bytes) -> None:
    assert notdef_drawn(data) == {}, kind
    layer = text_layers(data)
    # the event's name is one right-to-left paragraph (it starts in Arabic): its words
    missing = [name for name in (*EVENT.split(), *expected(kind)) if name not in layer]
    assert not missing, (kind, missing)


def render_of(db: EventDatabase, kind: str) -> bytes:
    with db.Session() as session:
        return render(session, kind)


@pytest.mark.parametrize("kind", KINDS)
def test_every_report_prints_every_script_through_the_services(
    scripts_db: EventDatabase, kind: str
) -> None:
    check(kind, render_of(scripts_db, kind))


def test_every_report_prints_every_script_through_the_command(
    scripts_template: Path, tmp_path: Path
) -> None:
    exe = str(Path(sys.executable).with_name("tandem-director"))
    path = Path(shutil.copy(scripts_template, tmp_path / "scripts.tandem"))
    for kind in KINDS:
        out = tmp_path / f"{kind}.pdf"
        proc = subprocess.run(
            [exe, "report", kind, str(path), "-o", str(out)],
            check=False, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert proc.returncode == 0, (kind, proc.stderr)
        assert "Traceback" not in proc.stderr
        check(kind, out.read_bytes())


def test_chinese_players_on_the_pairings_print_in_their_font(
    db: EventDatabase, pdf: Render
) -> None:
    """The pairings put a board's number and its player into one word ("1&nbsp;&nbsp;王伟"):
    reportlab shaped the whole word with the number's font, DejaVu, which has no 王 (boxes),
    and an Arabic player's letters became DejaVu glyph numbers that crashed the subsetting."""
    with db.Session() as session, session.begin():
        build_event(session, teams=2, rounds=1, names=SCRIPT_TEAMS[2:4], forfeit=False)
    data = pdf("pairings")
    assert notdef_drawn(data) == {}
    assert all(name in text_layers(data) for name in ("王伟", "李娜", "さくら"))


def test_a_bold_name_stays_bold_in_its_scripts_font(scripts_db: EventDatabase) -> None:
    """`<font face="NotoSansArabic">` inside `<b>` (or a bold style) reset the weight: the
    results' winner, the pairings' team names and the header's event name printed regular."""
    # round 2's results: the Arabic team won by forfeit; the header's name holds 北京
    used = fonts(render_of(scripts_db, "results"))
    assert used.get("NotoSansArabic-Bold") and used.get("NotoSansSC-Bold"), sorted(used)
    used = fonts(render_of(scripts_db, "pairings"))  # the team names' style is bold
    for face in ("NotoSansHebrew-Bold", "NanumSquareB", "NotoSansThai-Bold"):
        assert used.get(face), (face, sorted(used))


def test_a_right_to_left_name_inside_an_english_line_stays_in_its_place(
    scripts_db: EventDatabase,
) -> None:
    """The results' "فريق القاهرة by forfeit" read as one right-to-left paragraph (its first
    letter is Arabic) and printed "by forfeit فريق القاهرة"; the name is isolated in its
    line, which stays left to right."""
    from tests.reports.test_scripts import lefts, positions

    chars = positions(render_of(scripts_db, "results"))
    text = "".join(c for c, _ in chars)
    cell = text.index("by forfeit")  # the result cell: the name is on its line, after it
    line = chars[cell - 20 : text.index("\n", cell)]
    first, second = TEAMS[0].split()
    name = lefts(line, first) + lefts(line, second)
    assert max(name) < min(lefts(line, "forfeit"))
    # inside the name, its first word still stands right of its second
    assert min(lefts(line, first)) > max(lefts(line, second))
