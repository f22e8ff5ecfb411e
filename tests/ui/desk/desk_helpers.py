"""Helpers for the match-desk tests: seed a match, read it back from disk, answer a question."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QMessageBox

from director.domain.rules import EventOptions, MatchRules
from director.domain.scoring import Game
from director.services.games import record_game
from director.store.engine import open_database
from director.ui.desk.match_desk import MatchDeskPage
from director.ui.desk.record_dialog import RecordGameDialog
from tests.ui.app_helpers import seed_match as seed_event_match

MakeDesk = Callable[..., MatchDeskPage]


def record_behind_the_desk(path: Path, match_id: int, *games: Game) -> None:
    """Another station records games (its own connection)."""
    db = open_database(str(path))
    try:
        for game in games:
            with db.Session() as session, session.begin():
                record_game(session, match_id, game)
    finally:
        db.close()


def seed_match(path: Path, rules: MatchRules) -> int:
    return seed_event_match(path, EventOptions(match=rules))


def open_dialog(page: MatchDeskPage, board: int, winner: str | None = "A") -> RecordGameDialog:
    """Open the board's record dialog; the director then picks `winner` (None: nobody yet)."""
    page.open_record_dialog(board)
    assert page.dialog is not None
    if winner is not None:
        combo = page.dialog.form.winner
        combo.setCurrentIndex(combo.findData(winner))
    return page.dialog


def click_answer(box: QMessageBox | None, text: str) -> None:
    """Click the button labelled `text` in an open question box, as the person would."""
    assert box is not None and box.isVisible()
    (button,) = [b for b in box.buttons() if b.text() == text]
    button.click()
