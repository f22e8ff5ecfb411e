"""The child of test_app_kill_slips.py: the desktop app with the phones' table service on.

Usage: python app_slips_child.py EVENT_FILE PORT

It opens the event in the real main window (offscreen, settings in a temporary folder), opens
Phones at the tables and turns the service on at PORT (on loopback only), prints its address
on one line and runs until it is killed.
"""

from __future__ import annotations

import os
import sys
import tempfile

os.environ["QT_QPA_PLATFORM"] = "offscreen"

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from director.ui.main_window import MainWindow


def main() -> None:
    path, port = sys.argv[1], int(sys.argv[2])
    app = QApplication([])
    settings = QSettings(os.path.join(tempfile.mkdtemp(), "app.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings)
    if not window.open_target(path, remember=False):
        sys.exit("the event did not open")
    phones = window.show_table_service()
    assert phones is not None
    phones.host = "127.0.0.1"
    phones.port.setValue(port)
    phones.toggle.setChecked(True)  # Turn on, as the director does
    if phones.service is None:
        sys.exit(phones.addresses.text())
    print(phones.address(), flush=True)
    app.exec()


if __name__ == "__main__":
    main()
