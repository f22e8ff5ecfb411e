"""Every script a club's names use prints: right-to-left in order and joined, the others in a
font that has them, all of it in the text layer; what no font has is named at import."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from director.reports import fonts as fonts_module
from director.reports.fonts import unprintable
from director.services.teams import add_team, import_teams
from director.store.engine import EventDatabase
from tests.reports.conftest import Render
from tests.reports.pdfcheck import fonts, ink, page_texts, pdf_text

ARABIC = "محمد علي"
HEBREW = "דוד כהן"
DEVANAGARI = "सीता शर्मा"  # र्मा: a conjunct (reph), one glyph for several characters
THAI = "สมชาย ใจดี"
EMOJI = "Dice 🎲 Club"
CJK = ("北京队", "王小明", "陳大文")  # simplified and traditional Chinese
FontFor = Callable[[str], str | None]
JAPANESE = ("東京チーム", "さくら", "渡辺 蓮")  # kanji, hiragana, katakana
KOREAN = ("한강 팀", "김민준", "ㄱㄴ 이서연")  # syllables and compatibility jamo


def positions(data: bytes, page: int = 0) -> list[tuple[str, float]]:
    """Each character of a rendered page's text layer (NFKC) with its left edge."""
    document = pdfium.PdfDocument(data)
    try:
        textpage = document[page].get_textpage()
        out = []
        for i in range(textpage.count_chars()):
            char = textpage.get_text_range(i, 1)
            left = textpage.get_charbox(i)[0]
            out.extend((c, left) for c in unicodedata.normalize("NFKC", char))
        return out
    finally:
        document.close()


def lefts(chars: list[tuple[str, float]], word: str) -> list[float]:
    """The left edges of `word`'s letters, found as a run of its letters in any order."""
    letters = set(word)
    for start in range(len(chars)):
        run = chars[start : start + len(word)]
        if len(run) == len(word) and sorted(c for c, _ in run) == sorted(word):
            return [x for c, x in run if c in letters]
    raise AssertionError(f"{word!r} is not on the page")


def test_arabic_and_hebrew_print_right_to_left_and_joined(db: EventDatabase, pdf: Render) -> None:
    with db.Session() as session, session.begin():
        add_team(session, ARABIC, (HEBREW, "Zoë"))
    data = pdf("teams")
    chars = positions(data)
    for name in (ARABIC, HEBREW):
        first, second = name.split()
        # the first word is read first: it stands to the right of the second
        assert min(lefts(chars, first)) > max(lefts(chars, second)), name
        # and inside a word the first letter is the rightmost
        word = [x for c, x in chars if c in first][: len(first)]
        assert word == sorted(word, reverse=True), name
    # Arabic letters take their joined forms (U+FE70–FEFF), not the isolated letters
    assert any(0xFE70 <= ord(c) <= 0xFEFF for c in "".join(page_texts(data)))
    used = fonts(data)
    # the team's name is bold in the list, as its Latin neighbours are (#24); players regular
    assert used.get("NotoSansArabic-Bold") and used.get("NotoSansHebrew-Regular")


def test_indic_thai_and_emoji_print_in_their_fonts_and_the_text_layer(
    db: EventDatabase, pdf: Render
) -> None:
    with db.Session() as session, session.begin():
        add_team(session, EMOJI, (DEVANAGARI, THAI))
    data = pdf("teams")
    text = pdf_text(data)
    assert EMOJI in text and THAI in text
    # the conjunct's glyph stands for its letters: all of them are in the text layer
    assert sorted(DEVANAGARI.replace(" ", "")) == sorted(
        c for c in text if 0x0900 <= ord(c) <= 0x097F
    )
    used = fonts(data)
    for name in ("NotoSansDevanagari-Regular", "NotoSansThai-Regular", "Symbola"):
        assert used.get(name), (name, used)


def test_korean_prints_in_the_shipped_font_on_any_machine(
    db: EventDatabase, pdf: Render, tmp_path: Path
) -> None:
    csv = tmp_path / "teams.csv"
    csv.write_text(f"team,player1,player2\n{KOREAN[0]},{KOREAN[1]},{KOREAN[2]}\n", "utf-8")
    with db.Session() as session, session.begin():
        result = import_teams(session, csv.read_bytes()).value
    assert result.warnings == ()  # no longer "no font here prints 김"
    data = pdf("teams")
    text = pdf_text(data)
    assert all(name in text for name in KOREAN)
    used = fonts(data)
    assert used.get("NanumSquareR") or used.get("NanumSquare"), used
    assert ink(data) > 0.005


@pytest.fixture
def font_on_a_bare_machine(
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[Callable[[str], str | None]]:
    """`font_for` on a computer without any Chinese, Japanese or Korean font of its own."""

    def forget() -> None:
        for cached in (fonts_module.system_fonts, fonts_module.font_for, fonts_module.markup):
            cached.cache_clear()

    monkeypatch.setattr(fonts_module, "KNOWN_SYSTEM_FONTS", ())
    monkeypatch.setattr(fonts_module, "_fontconfig_files", lambda: iter(()))
    forget()
    yield fonts_module.font_for
    monkeypatch.undo()
    forget()


def test_chinese_and_japanese_print_in_the_shipped_font_on_any_machine(
    db: EventDatabase,
    pdf: Render,
    tmp_path: Path,
    font_on_a_bare_machine: FontFor,
) -> None:
    """#12: Chinese and Japanese names printed only where the system had a CJK font; here
    the import warned "no font here prints 王" and the PDF showed empty boxes."""
    assert {font_on_a_bare_machine(c) for c in "".join(CJK + JAPANESE) if c != " "} == {
        "NotoSansSC"
    }
    csv = tmp_path / "teams.csv"
    rows = [f"{CJK[0]},{CJK[1]},{CJK[2]}", f"{JAPANESE[0]},{JAPANESE[1]},{JAPANESE[2]}"]
    csv.write_text("team,player1,player2\n" + "\n".join(rows) + "\n", encoding="utf-8")
    with db.Session() as session, session.begin():
        result = import_teams(session, csv.read_bytes()).value
    assert result.warnings == ()
    data = pdf("teams")
    text = pdf_text(data)
    assert all(name in text for name in (*CJK, *JAPANESE))
    used = fonts(data)
    assert any(name.startswith("NotoSansSC") and embedded for name, embedded in used.items()), used
    assert not any(name.startswith("SystemCJK") for name in used), used
    assert ink(data) > 0.005


def test_a_name_no_font_prints_is_warned_about_at_import(db: EventDatabase) -> None:
    hieroglyph = "𓀀"  # Egyptian hieroglyphs: no shipped font has them
    assert unprintable(f"Ra {hieroglyph} team") == hieroglyph
    assert unprintable(f"{ARABIC} {HEBREW} {DEVANAGARI} {THAI} {EMOJI}") == ""
    csv = f"team,player1,player2\nRa {hieroglyph},Ann,Bob\nPlain,Cy,Di\n"
    with db.Session() as session, session.begin():
        result = import_teams(session, csv.encode()).value
    assert len(result.imported) == 2
    assert len(result.warnings) == 1
    assert "U+13000" in result.warnings[0] and "Ra" in result.warnings[0]


def test_the_page_header_prints_the_event_name_in_its_script(
    db: EventDatabase, pdf: Render
) -> None:
    from director.services.events import update_event

    with db.Session() as session, session.begin():
        update_event(session, name=f"{ARABIC} Open")
        add_team(session, "Blue", ("Ann", "Bob"))
    data = pdf("teams")
    chars = positions(data)
    first, second = ARABIC.split()
    assert min(lefts(chars, first)) > max(lefts(chars, second))
    assert fonts(data).get("NotoSansArabic-Bold")  # the header's event name is bold (#24)


def test_devanagari_reads_back_in_the_order_it_was_typed(db: EventDatabase, pdf: Render) -> None:
    """HarfBuzz draws the reph of शर्मा after its consonant and the i-matra of किशोर before
    it; each such word carries its typed letters as /ActualText, which PDFium (as Acrobat)
    reads back, so copying or searching the name finds it."""
    names = ("शर्मा किशोर", ("सीता शर्मा", "दिल्ली डबल"))
    with db.Session() as session, session.begin():
        add_team(session, names[0], names[1])
    data = pdf("teams")
    document = pdfium.PdfDocument(data)
    try:
        page = document[0].get_textpage()
        text = page.get_text_range()
    finally:
        document.close()
    for name in (names[0], *names[1]):
        assert name in text, (name, text)
    assert "शमार्" not in text  # the glyph order, as the text layer gave it before


LONG_HEBREW = "אגודת השש בש הגדולה של תל אביב יפו והסביבה הקרובה לים"


def tops(data: bytes, word: str) -> float:
    """The top of `word` on the first page (its letters found as a run, in any order)."""
    document = pdfium.PdfDocument(data)
    try:
        textpage = document[0].get_textpage()
        text = textpage.get_text_range()
        boxes = [textpage.get_charbox(i) for i in range(textpage.count_chars())]
    finally:
        document.close()
    for start in range(len(text)):
        if sorted(text[start : start + len(word)]) == sorted(word):
            return max(box[3] for box in boxes[start : start + len(word)])
    raise AssertionError(f"{word!r} is not on the page")


def test_a_right_to_left_name_that_wraps_starts_on_its_first_line(
    db: EventDatabase, pdf: Render
) -> None:
    """Each wrapped line is put in right-to-left order by itself: the name's first words are
    on the first line (reordering the whole name first put its last words there)."""
    with db.Session() as session, session.begin():
        add_team(session, LONG_HEBREW, ("דוד כהן", "שרה לוי"))
    data = pdf("teams")
    words = LONG_HEBREW.split()
    first, last = tops(data, words[0]), tops(data, words[-1])
    assert first > last + 5  # wrapped, and the first word is on a higher line
    assert tops(data, words[1]) > last + 5
    chars = positions(data)
    # on its line the first word still stands right of the second
    assert min(lefts(chars, words[0])) > max(lefts(chars, words[1]))
