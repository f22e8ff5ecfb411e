"""Right-to-left and CJK names display correctly: every character is drawn (no missing-glyph
box), the widgets show the names unchanged, and a right-to-left name does not pull the words
after it into its own direction."""

from __future__ import annotations

import os
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QImage, QPainter
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from director.services.matches import create_match
from director.services.teams import add_team
from director.store.engine import open_database
from director.ui.app import register_fonts
from director.ui.context import EventContext
from director.ui.desk.match_desk import MatchDeskPage
from director.ui.desk.match_picker import match_label
from director.ui.team_model import COLUMNS
from director.ui.teams_page import TeamsPage
from tests.ui.app_helpers import OFFSCREEN_NOISE

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)

NAMES = {
    "Arabic": "فريق الشمس",
    "Hebrew": "קבוצת הכוכבים",
    "Korean": "김민준 팀",
    "Japanese": "東京チーム",
    "Chinese": "北京队",
}
PLAYERS = {
    "Arabic": ("ليلى", "عمر"),
    "Hebrew": ("נועה", "איתי"),
    "Korean": ("서연", "도윤"),
    "Japanese": ("さくら", "蓮"),
    "Chinese": ("王芳", "李伟"),
}


def drawn(text: str, font: QFont) -> QImage:
    image = QImage(64, 48, QImage.Format.Format_Grayscale8)
    image.fill(255)
    painter = QPainter(image)
    painter.setFont(font)
    painter.drawText(image.rect(), Qt.AlignmentFlag.AlignCenter, text)
    painter.end()
    return image


def test_every_script_is_drawn_not_as_a_missing_glyph_box(qapp: QApplication) -> None:
    register_fonts()  # as create_application does
    font = QApplication.font()
    box = drawn("\U0010fffd", font)  # a code point no font has: what a missing glyph looks like
    for script, name in NAMES.items():
        for ch in {*name, *"".join(PLAYERS[script])} - {" "}:
            assert drawn(ch, font) != box, f"{script} {ch!r} ({unicodedata.name(ch)})"


def test_names_show_unchanged_and_kept_apart_from_the_words_around_them(
    qtbot: QtBot, event_path: Path
) -> None:
    db = open_database(str(event_path))
    with db.Session() as session, session.begin():
        ids = [add_team(session, name, PLAYERS[script]).value.id for script, name in NAMES.items()]
        match_id = create_match(session, ids[0], ids[2], table=3).value.id  # Arabic v Korean
    db.close()
    ctx = EventContext(open_database(str(event_path)))
    try:
        teams = TeamsPage(ctx)
        qtbot.addWidget(teams)
        teams.show()
        column = [c.title for c in COLUMNS].index("Team")
        shown = {teams.proxy.index(r, column).data() for r in range(teams.proxy.rowCount())}
        assert shown == set(NAMES.values())
        desk = MatchDeskPage(ctx)
        qtbot.addWidget(desk)
        desk.show()
        desk.show_match(match_id)
        arabic, korean = NAMES["Arabic"], NAMES["Korean"]
        # UAX #9: FSI … PDI keeps ": " and " v …" out of the Arabic run; Korean is left to right
        assert desk.heading.text() == f"Match {match_id}: \u2068{arabic}\u2069 v {korean}"
        assert desk.match is not None
        assert match_label(desk.match).startswith(f"Table 3: \u2068{arabic}\u2069 v {korean} · ")
        assert desk.boards[0].players.text().count(PLAYERS["Arabic"][0]) == 1
    finally:
        ctx.close()


FAMILIES = """
import sys
from PySide6.QtGui import QTextLayout
from PySide6.QtWidgets import QApplication
from director.ui.app import register_fonts

app = QApplication([])
register_fonts()
for ch in sys.argv[1]:
    layout = QTextLayout(ch, QApplication.font())
    layout.beginLayout()
    layout.createLine()
    layout.endLayout()
    runs = layout.glyphRuns()
    drawn = all(0 not in run.glyphIndexes() for run in runs)
    print(ch, drawn, *sorted({run.rawFont().familyName() for run in runs}), sep="\\t")
"""


def test_chinese_and_japanese_are_drawn_in_the_shipped_font_on_any_machine(
    tmp_path: Path,
) -> None:
    """#12: Japanese and Chinese names were drawn only by a font of the system: on a machine
    with none (here: fontconfig that knows only DejaVu), simplified Chinese was a box."""
    from director.resources import resource_path

    only = tmp_path / "fonts"
    only.mkdir()
    (only / "DejaVuSans.ttf").write_bytes(resource_path("fonts", "DejaVuSans.ttf").read_bytes())
    config = tmp_path / "fonts.conf"
    config.write_text(
        f"<?xml version='1.0'?><fontconfig><dir>{only}</dir>"
        f"<cachedir>{tmp_path / 'cache'}</cachedir></fontconfig>",
        encoding="utf-8",
    )
    names = "".join({*NAMES["Japanese"], *NAMES["Chinese"], *"".join(PLAYERS["Chinese"])})
    names += "陳大文渡辺さくら"  # traditional Chinese; kanji, hiragana
    env = {**os.environ, "FONTCONFIG_FILE": str(config), "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-c", FAMILIES, names], env=env, capture_output=True, text=True,
        timeout=120, check=True,
    )  # fmt: skip
    shown = dict(line.split("\t", 1) for line in done.stdout.splitlines())
    assert set(shown) == set(names)
    assert {ch: how for ch, how in shown.items() if how != "True\tNoto Sans SC"} == {}
