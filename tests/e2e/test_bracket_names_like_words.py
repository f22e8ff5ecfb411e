"""A knockout whose entrants are called "bye" and "…", the words the brackets show for nobody
and for someone not known yet: each is drawn, paired, advanced and shown as the entrant it is,
and a real bye or a match not decided yet still reads as one, on every surface (RULES §11).

The event file is real (reopened for each step); round 1 and the semi-finals are paired and
the results typed by the command line in a subprocess of its own, as a desk without the app
would; the Rounds page's draw is looked at as painted (the colour of each name's ink); the
draw sheet is the PDF `report bracket` writes, read back with the colour of each word; the
phones' brackets are their JSON.
"""

from __future__ import annotations

import ctypes
import sqlite3
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import closing
from dataclasses import replace
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QColor
from pytestqt.qtbot import QtBot

from director.domain.brackets.plan import Bracket, BracketPlan
from director.domain.changes import Area, Changes
from director.domain.rules import PairingSystem
from director.services.brackets import set_plan
from director.services.events import get_event, update_event
from director.services.teams import add_team
from director.store.engine import open_database
from director.ui.bracket_chart import BOX_W, ROW_H, SCORE_W, MatchBox
from director.ui.context import EventContext
from director.ui.public_display import PublicDisplay
from director.ui.rounds_page import RoundsPage
from director.ui.slide_view import SlideView, line_height
from director.web import views
from tests.event_files import read_back
from tests.ui.app_helpers import event_context, shown_page

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")

EXE = str(Path(sys.executable).with_name("tandem-director"))
# seeds 1 to 6 in a bracket of 8: Ann and Bea have byes, "bye" (3) meets Dot (6) and "…" (4)
# meets Cal (5) in round 1
NAMES = ("Ann", "Bea", "bye", "…", "Cal", "Dot")
PLAN = BracketPlan("night", (Bracket("main", (5, 7, 9)),))


def cli(*args: str) -> str:
    done = subprocess.run([EXE, *args], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture
def night(event_path: Path) -> Path:
    db = open_database(str(event_path))
    try:
        with db.Session() as s, s.begin():
            options = get_event(s).options
            update_event(s, options=replace(options, pairing_system=PairingSystem.KNOCKOUT))
            for i, name in enumerate(NAMES):
                add_team(s, name, (f"{name} one {i}", f"{name} two {i}"))
            set_plan(s, PLAN)
    finally:
        db.close()
    return event_path


@pytest.fixture
def ctx(night: Path) -> Iterator[EventContext]:
    with event_context(night) as context:
        yield context


DARKER = 1.15  # a word in the names' ink against the grey: 213 against 153 below white


def ink(box: MatchBox, row: int) -> int:
    """How much ink a box's name `row` (0 the upper) is painted with: each pixel's darkness
    below the box's fill (the largest of its red, green and blue), summed. The same word in
    the names' ink (#1b2a25) takes more than in the hint's grey (#5b6661) a side nobody holds
    is painted in."""
    image = box.grab().toImage()
    # the row's text, not the line between the rows nor the box's border
    area = QRect(8, 3 + row * ROW_H, BOX_W - 16 - SCORE_W, ROW_H).adjusted(0, 2, 0, -2)
    values = [
        max(QColor(image.pixel(x, y)).getRgb()[:3])
        for x in range(area.left(), area.right() + 1)
        for y in range(area.top(), area.bottom() + 1)
    ]
    fill = Counter(values).most_common(1)[0][0]
    return sum(max(0, fill - v) for v in values)


def drawn(page: RoundsPage) -> dict[tuple[int, int], MatchBox]:
    """The main bracket's boxes by (round, match)."""
    (chart,) = page.brackets.charts
    return {(key.round, key.number): box for key, box in chart.boxes.items()}


def printed_words(pdf: bytes) -> list[tuple[str, bool]]:
    """Each word of the PDF (pdfium's reading) and whether it is printed in grey: every one of
    its characters filled lighter than black."""
    document = pdfium.PdfDocument(pdf)
    out: list[tuple[str, bool]] = []
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    try:
        for page in document:
            chars = page.get_textpage()
            word: list[tuple[str, bool]] = []
            for i in range(chars.count_chars() + 1):
                ch = chr(pdfium_c.FPDFText_GetUnicode(chars, i)) if i < chars.count_chars() else " "
                if not ch.isspace():
                    pdfium_c.FPDFText_GetFillColor(chars, i, r, g, b, a)
                    word.append((ch, min(r.value, g.value, b.value) > 0x40))
                elif word:
                    out.append(("".join(c for c, _ in word), all(grey for _, grey in word)))
                    word = []
    finally:
        document.close()
    return out


def test_entrants_called_bye_and_ellipsis_are_entrants_everywhere(
    qtbot: QtBot, night: Path, ctx: EventContext, tmp_path: Path
) -> None:
    # drawing: byes to the top two seeds, "bye" and "…" each paired at a table
    paired = cli("pair", str(night)).splitlines()
    assert paired == [
        "round 1",
        "bye: Ann (main round 1 match 1)",
        "table 1: … v Cal (main round 1 match 2)",
        "bye: Bea (main round 1 match 3)",
        "table 2: bye v Dot (main round 1 match 4)",
    ]

    # the file: a bye is a match without team B (its result the code 'bye'), never a name
    with closing(sqlite3.connect(night)) as db:
        stored = db.execute(
            "SELECT a.name, b.name, m.result FROM match m JOIN team a ON a.id = m.team_a_id "
            "LEFT JOIN team b ON b.id = m.team_b_id ORDER BY m.slot"
        ).fetchall()
    assert stored == [("Ann", None, "bye"), ("…", "Cal", "unfinished"),
                      ("Bea", None, "bye"), ("bye", "Dot", "unfinished")]  # fmt: skip

    page = shown_page(qtbot, RoundsPage(ctx))
    boxes = drawn(page)
    assert boxes[1, 2].names == ("…", "Cal") and boxes[1, 4].names == ("bye", "Dot")
    assert boxes[1, 1].names == ("Ann", "bye") and boxes[2, 1].names == ("Ann", "…")
    # the two who play round 1 under those words are drawn as players, in the names' ink;
    # Ann's bye and her semi-final opponent, not known yet, as nobody, in the hint's grey
    assert ink(boxes[1, 4], 0) > DARKER * ink(boxes[1, 1], 1)
    assert ink(boxes[1, 2], 0) > DARKER * ink(boxes[2, 1], 1)
    not_known = ink(boxes[2, 1], 1)

    # advancing: "…" and "bye" win their matches and go on to meet Ann and Bea
    cli("result", str(night), "--round", "1", "--table", "1", "--score", "5-2")
    cli("result", str(night), "--round", "1", "--table", "2", "--score", "5-3")
    semis = cli("pair", str(night)).splitlines()
    assert semis == ["round 2", "table 1: Ann v … (main round 2 match 1)",
                     "table 2: Bea v bye (main round 2 match 2)"]  # fmt: skip
    ctx.changed.emit(Changes.of(Area.ROUNDS, Area.RESULTS))
    qtbot.waitUntil(lambda: drawn(page)[2, 1].match_id is not None)
    boxes = drawn(page)
    assert boxes[2, 1].names == ("Ann", "…") and boxes[2, 2].names == ("Bea", "bye")
    assert ink(boxes[2, 1], 1) > DARKER * not_known  # now the player "…"
    assert ink(boxes[2, 2], 1) > DARKER * ink(boxes[1, 3], 1)  # "bye" against Bea's bye
    assert boxes[1, 4].line.winner == "bye" and boxes[1, 4].scores == ("5", "3")
    assert boxes[3, 1].names == ("…", "…")  # the final's players are not known yet

    # the draw sheet: the players' names in black, a bye and a player not known yet in grey
    out = tmp_path / "draw.pdf"
    cli("report", "bracket", str(night), "-o", str(out))
    printed = Counter(w for w in printed_words(out.read_bytes()) if w[0] in ("bye", "…"))
    assert printed == {
        ("bye", False): 2, ("…", False): 2,  # each player's round 1 and semi-final
        ("bye", True): 2,  # Ann's and Bea's byes
        ("…", True): 2,  # the final's two players, not known yet
    }  # fmt: skip

    # the phones: the players by name, a bye as nobody
    data = read_back(night, views.brackets)
    first = data["brackets"][0]["rounds"][0]["matches"]
    assert [[p and p["name"] for p in m["players"]] for m in first] == [
        ["Ann", None], ["…", "Cal"], ["Bea", None], ["bye", "Dot"]]  # fmt: skip
    assert [m["bye"] for m in first] == [True, False, True, False]


def test_on_the_phones_a_bye_and_a_player_to_come_read_apart_from_players_so_called(
    night: Path,
) -> None:
    """In a real browser, the served brackets page: the players called "bye" and "…" in the
    names' type, a bye and a player not known yet in the muted italic no name is set in."""
    from tests.web.browser import Served, phone, text_of, wait_for

    cli("pair", str(night))
    served = Served(night)
    try:
        url = served.start()
        with phone() as driver:
            driver.get(url + "brackets")
            wait_for(driver, lambda d: "Main bracket" in text_of(d, "main"))
            lines = driver.execute_script(
                "return [...document.querySelectorAll('[data-bracket-match] > div')]"
                ".filter((e) => !e.classList.contains('note')).map((e) => "
                "[e.innerText.trim(), getComputedStyle(e).fontStyle === 'italic']);"
            )
    finally:
        served.stop()
    shown = Counter((text, italic) for text, italic in lines if text in ("bye", "…"))
    assert shown == {
        ("bye", False): 1, ("…", False): 1,  # the players, in round 1
        ("bye", True): 2,  # Ann's and Bea's byes
        ("…", True): 4,  # the semi-finals' winners of round 1, the final's two
    }  # fmt: skip


def lightness(view: SlideView, row: int, column: int) -> int:
    """How much light a slide's cell is painted with: each pixel's brightness above the row's
    background (the largest of its red, green and blue), summed. The same word in the text's
    colour (#f1f5f3) gives more than in the quiet one (#9fb3ab) a side nobody holds takes."""
    assert view.slide is not None
    step = line_height(view.height())
    x, w = SlideView._columns(view.slide, step // 2, view.width() - 2 * (step // 2))[column]
    top = int(step * 1.7) + step * (1 + row)
    image = view.grab().toImage()
    values = [
        max(QColor(image.pixel(i, j)).getRgb()[:3])
        for i in range(x, x + w)
        for j in range(top + 2, top + step - 2)
    ]
    background = Counter(values).most_common(1)[0][0]
    return sum(max(0, v - background) for v in values)


def test_on_the_projector_a_player_to_come_reads_apart_from_a_player_so_called(
    qtbot: QtBot, night: Path, ctx: EventContext
) -> None:
    cli("pair", str(night))
    display = PublicDisplay(ctx)
    qtbot.addWidget(display)
    display.resize(1366, 768)
    display.show()
    main = next(s for s in display.slides if s.title == "Main bracket")
    display.index = display.slides.index(main)
    display.show_current()
    rows = [(r[2], r[4]) for r in main.rows]
    assert rows == [("…", "Cal"), ("bye", "Dot"), ("Ann", "…"), ("Bea", "…"), ("…", "…")]
    # the player "…" (A of round 1's first match) in the text's colour; Ann's opponent, not
    # known yet, quieter
    assert lightness(display.view, 0, 2) > DARKER * lightness(display.view, 2, 4)
    assert lightness(display.view, 0, 2) > DARKER * lightness(display.view, 4, 2)
