"""Where reports are saved: the folder used last (remembered in the settings), else the
event file's folder; and the Save dialog, offering the report's usual file name there."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog, QWidget

from director.store.engine import EventDatabase

FOLDER_KEY = "reports/folder"


def report_folder(settings: QSettings, db: EventDatabase) -> Path:
    remembered = settings.value(FOLDER_KEY, "")
    if isinstance(remembered, str) and remembered and Path(remembered).is_dir():
        return Path(remembered)
    if db.is_sqlite and db.path.parent.is_dir():
        return db.path.parent
    return Path.home()


def remember_folder(settings: QSettings, folder: Path) -> None:
    settings.setValue(FOLDER_KEY, str(folder))


def save_dialog(parent: QWidget, suggested: Path) -> QFileDialog:
    """A Save dialog for a PDF (not yet shown: the caller connects `fileSelected`)."""
    dialog = QFileDialog(parent, "Save the report as PDF", str(suggested))
    dialog.setNameFilter("PDF files (*.pdf)")
    dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    dialog.setDefaultSuffix("pdf")
    dialog.finished.connect(dialog.deleteLater)
    return dialog
