"""The README's knockout Rounds page picture (docs/screenshots/71-rounds-brackets.png): a
24-player individual night with main, consolation and last chance (RULES §11), three pairing
batches played, a fourth paired with one match under way, the main window at 1280x720 on it,
the consolation's tab chosen.

    python scripts/brackets_screenshot.py FOLDER     # builds the event in FOLDER, once
    python scripts/brackets_screenshot.py FOLDER     # then: the page on screen for 8 s

and take a picture of the screen while it shows (on an X screen of 1280x720).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

EVENT = "night.tandem"


def build(folder: Path) -> None:
    from director.cli import main
    from director.domain.rules import End, Level, Side
    from director.domain.scoring import Game
    from director.services import games, rounds
    from director.store.engine import open_database

    folder.mkdir(parents=True)
    path = str(folder / EVENT)
    argv = ["simulate", path, "--format", "knockout", "--plan", "consolation-last-chance",
            "--individual", "--players", "24", "--play", "3", "--seed", "7"]  # fmt: skip
    if main(argv) != 0:
        raise SystemExit("simulate failed")
    db = open_database(path)
    with db.Session() as s, s.begin():
        batch = rounds.pair_next_round(s).value
        played = [m for m in batch.matches if m.team_b is not None]
        games.record_game(
            s, played[0].id, Game(0, 1, Side.A, End.BEAR_OFF, level=Level.SINGLE)
        )  # under way
    db.close()


def show(folder: Path) -> int:
    import tempfile

    from PySide6.QtCore import QSettings, QTimer

    from director.ui.app import create_application
    from director.ui.main_window import MainWindow
    from director.ui.pages import page_index
    from director.ui.rounds_page import RoundsPage

    app = create_application(["brackets_screenshot"])
    with tempfile.TemporaryDirectory() as tmp:
        settings = QSettings(str(Path(tmp) / "settings.ini"), QSettings.Format.IniFormat)
        window = MainWindow(settings)
        window.setGeometry(0, 0, 1280, 720)
        window.show()
        if not window.open_target(str(folder / EVENT)):
            raise SystemExit(window.messages.label.text())
        window.show_page(page_index("rounds"))
        page = window.view.page(page_index("rounds")) if window.view is not None else None
        if isinstance(page, RoundsPage):  # the consolation: matches ready to start
            page.brackets.setCurrentIndex(1)
        QTimer.singleShot(8000, app.quit)
        return app.exec()


if __name__ == "__main__":
    where = Path(sys.argv[1])
    if not where.exists():
        build(where)
        sys.exit(0)
    sys.exit(show(where))
