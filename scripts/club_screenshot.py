"""The README's Club page picture (docs/screenshots/70-club-page.png): seven club nights of
three rounds published to a club, the page opened on it, "a" typed in the search.

    python scripts/club_screenshot.py FOLDER     # builds the club and the event in FOLDER, once
    python scripts/club_screenshot.py FOLDER     # then: the page on screen for 8 s

and take a picture of the screen while it shows (on an X screen), cropped to 1280x700.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

NIGHTS = (("2026-03-05", "ABAABA"), ("2026-03-12", "AAABBA"), ("2026-03-19", "BABAAA"),
          ("2026-03-26", "ABAAAB"), ("2026-04-02", "AABABA"), ("2026-04-09", "BAAAAB"),
          ("2026-04-16", "AAABAA"))  # fmt: skip
# three rounds a night, 5 points a match: by the seventh night 21 matches, 105 experience, so
# the chart shows the provisional part (dashed) and the rating settled after it


def build(folder: Path) -> None:
    from director.store.club import create_club
    from tests.club_files import club_night, publish_to

    folder.mkdir(parents=True)
    create_club(str(folder / "weekly.club")).close()
    for n, (day, winners) in enumerate(NIGHTS, 1):
        night = club_night(folder / f"n{n}.tandem", day, winners, name=f"Night {n}",
                           rounds_played=3)  # fmt: skip
        publish_to(folder / "weekly.club", night)
    club_night(folder / "new.tandem", "2026-04-23", "BB")


def show(folder: Path) -> int:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from director.store.engine import open_database
    from director.ui.club_page import ClubPage
    from director.ui.context import EventContext
    from director.ui.style import apply_style

    os.chdir(folder)  # the page names the club as it was given: "weekly.club", not a temp path
    app = QApplication(["club_screenshot", "-style", "Fusion"])
    apply_style(app, made_with_fusion=True)
    ctx = EventContext(open_database("new.tandem"))
    page = ClubPage(ctx)
    page.resize(1280, 700)
    page.show()
    page.open_club("weekly.club")
    page.search.setText("a")
    QTimer.singleShot(8000, app.quit)
    return app.exec()


if __name__ == "__main__":
    where = Path(sys.argv[1])
    if not where.exists():
        build(where)
        sys.exit(0)
    sys.exit(show(where))
