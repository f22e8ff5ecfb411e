"""The scoreline with a right-to-left team (#24): each name is its own bidi paragraph inside
the desk's left-to-right lines, and team A's name stands beside the score, whatever its
script."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QImage, QTextDocument
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from director.domain.event import MatchInfo
from director.domain.rules import Side
from director.domain.scoring import Game
from director.services.games import record_game, set_forfeit
from director.services.matches import create_match, get_match
from director.services.teams import add_team
from director.store.engine import open_database
from director.ui.app import register_fonts
from director.ui.desk.scoreline import Scoreline
from director.ui.desk.words import board_sides
from director.ui.models.round_model import result_words
from tests.ui.app_helpers import OFFSCREEN_NOISE

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)

ARABIC = "فريق القاهرة"
HEBREW = "מכבי תל אביב"


def a_match(path: Path, a: str, b: str, *games: Game) -> MatchInfo:
    db = open_database(str(path))
    try:
        with db.Session() as session, session.begin():
            ids = [add_team(session, name, (f"{name} 1", f"{name} 2")).value.id for name in (a, b)]
            match_id = create_match(session, *ids, table=1).value.id
            for game in games:
                record_game(session, match_id, game)
        with db.Session() as session:
            return get_match(session, match_id)
    finally:
        db.close()


def x_of(document: QTextDocument, position: int) -> float:
    """Where the character at `position` of a laid-out document starts (a cursor's x)."""
    block = document.findBlock(position)
    layout = block.layout()
    at = position - block.position()
    line = layout.lineForTextPosition(at)
    assert line.isValid()
    return float(line.cursorToX(at)[0])


def laid_out(html: str) -> tuple[QTextDocument, str]:
    document = QTextDocument()
    document.setHtml(html)
    document.setTextWidth(2000)
    document.size()  # lays it out
    return document, document.toPlainText()


def test_the_met_line_puts_the_percentage_after_a_right_to_left_name(
    qtbot: QtBot, event_path: Path
) -> None:
    """It read "57.3 فريق القاهرة%": the number ran into the Arabic name's paragraph."""
    register_fonts()
    match = a_match(event_path, ARABIC, HEBREW)
    document, plain = laid_out(Scoreline.equity_text(match, match.names))
    for name in (ARABIC, HEBREW):
        start = plain.index(name)
        percent = plain.index("%", start)
        number = plain.rindex(" ", start, percent) + 1  # "50.0%" starts after the name
        letters = [x_of(document, i) for i in range(start, start + len(name))]
        assert all(x < x_of(document, number) for x in letters), name


def ink_columns(label: QLabel) -> tuple[int, int]:
    """The leftmost and rightmost columns of a label's rendering that hold any ink."""
    image = label.grab().toImage().convertToFormat(QImage.Format.Format_Grayscale8)
    background = image.pixelColor(0, 0).lightness()
    columns = [
        x
        for x in range(image.width())
        if any(abs(image.pixelColor(x, y).lightness() - background) > 60
               for y in range(image.height()))
    ]  # fmt: skip
    return min(columns), max(columns)


def test_team_as_right_to_left_name_stands_beside_the_score(qtbot: QtBot, event_path: Path) -> None:
    """Team A's name is set at the right of its cell, next to the score; a right-to-left name
    was mirrored to the far left edge (Qt reads AlignRight as "trailing" for such text)."""
    register_fonts()
    match = a_match(event_path, ARABIC, "Blue")
    line = Scoreline()
    qtbot.addWidget(line)
    line.resize(900, 120)
    line.show()
    line.show_match(match)
    qtbot.waitExposed(line)
    left, right = ink_columns(line.name_a)
    assert line.name_a.width() - right < 12, (left, right, line.name_a.width())
    left, right = ink_columns(line.name_b)  # team B's name at the left of its cell
    assert left < 12, (left, right)


def test_the_desks_sentences_keep_each_name_apart(event_path: Path) -> None:
    """ "Won by forfeit: فريق القاهرة did not play" was read with the name's direction running
    into the words after it; each name is isolated (FSI … PDI) in its sentence."""
    match = a_match(event_path, ARABIC, "Blue")
    a, b = board_sides(match, 1)
    assert a == f"\u2068{ARABIC} 1\u2069 (\u2068{ARABIC}\u2069)"
    db = open_database(str(event_path))
    try:
        with db.Session() as session, session.begin():
            set_forfeit(session, match.id, Side.A, "did not show")
        with db.Session() as session:
            match = get_match(session, match.id)
    finally:
        db.close()
    assert (
        Scoreline.result_line(match, match.names)
        == f"Won by forfeit: \u2068{ARABIC}\u2069 did not play"
    )
    other = a_match(event_path, "فريق الشمس", "Red")
    db = open_database(str(event_path))
    try:
        with db.Session() as session, session.begin():
            set_forfeit(session, other.id, Side.B, "did not show")
        with db.Session() as session:
            other = get_match(session, other.id)
    finally:
        db.close()
    # the round table's result column
    assert result_words(other) == "\u2068فريق الشمس\u2069 wins by forfeit"
