"""Render the clock window's set-ups for the help page and the README (offscreen, 1366×768).

    python -m tests.ui.clock.clock_screenshots

Writes docs/screenshots/5x-clock-*.png and the same pictures to resources/help/images/.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QWidget

from director.domain.rules import EventOptions
from director.services.events import create_event
from director.store.engine import create_database, open_database
from director.ui.clock.launch import open_clock_window
from director.ui.context import EventContext
from director.ui.style import apply_style
from tests.ui.app_helpers import seed_match
from tests.ui.clock.clock_helpers import FakeTime, key_down

ROOT = Path(__file__).resolve().parents[3]
SHOTS = (ROOT / "docs" / "screenshots", ROOT / "resources" / "help" / "images")


def save(app: QApplication, widget: QWidget, name: str) -> None:
    for _ in range(5):
        app.processEvents()
    picture = widget.grab()
    for folder in SHOTS:
        folder.mkdir(parents=True, exist_ok=True)
        if not picture.save(str(folder / name)):
            raise OSError(f"cannot write {folder / name}")
    print(f"wrote {name}")


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    apply_style(app)
    work = Path(tempfile.mkdtemp())
    try:
        path = work / "shots.tandem"
        db = create_database(str(path))
        with db.Session() as s, s.begin():
            create_event(s, "Club Tandem Night", EventOptions())
        db.close()
        match_id = seed_match(path)
        ctx = EventContext(open_database(str(path)))
        settings = QSettings(str(work / "s.ini"), QSettings.Format.IniFormat)
        now = FakeTime()
        window = open_clock_window(ctx, match_id, source=now, settings=settings)
        window.resize(1366, 768)
        window.toggle_key_test()
        for key in (Qt.Key.Key_Z, Qt.Key.Key_Slash, Qt.Key.Key_P):
            key_down(window, key)
        window.refresh()
        save(app, window, "50-clock-key-test.png")
        window.toggle_key_test()
        for key in (Qt.Key.Key_Z, Qt.Key.Key_P, Qt.Key.Key_Return):
            key_down(window, key)
        now.wait(38)
        key_down(window, Qt.Key.Key_Z)
        now.wait(11)
        window.set_flat(True)
        window.refresh()
        save(app, window, "51-clock-flat-split-view.png")
        window.set_flat(False)
        window.refresh()
        save(app, window, "52-clock-side-by-side.png")
        window.close()
        ctx.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
