"""Start the desktop app (a minimal window until the full GUI lands)."""

from __future__ import annotations

import sys


def run_gui(event_file: str | None, db_url: str | None) -> int:
    from PySide6.QtWidgets import QApplication, QFileDialog, QLabel, QMainWindow

    from director.domain.errors import UserError
    from director.services.events import get_event
    from director.store.engine import open_database

    app = QApplication.instance() or QApplication(sys.argv)
    window = QMainWindow()
    target = db_url or event_file
    if target is None:
        target, _ = QFileDialog.getOpenFileName(window, "Open event", "", "Events (*.tandem)")
    text = "No event open"
    if target:
        try:
            db = open_database(target)
            with db.Session() as session:
                info = get_event(session)
            db.close()
            window.setWindowTitle(f"{info.name} – Tandem Director")
            text = f"{info.name}: match to {info.options.match.match_length}"
        except UserError as exc:
            text = str(exc)
    window.setCentralWidget(QLabel(text))
    window.resize(1000, 700)
    window.show()
    return app.exec()
