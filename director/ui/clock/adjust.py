"""The director's time adjustment for one side of a paused board (RULES §7)."""

from __future__ import annotations

import re

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLineEdit, QWidget

from director.domain.clock import NS_PER_SECOND, format_remaining
from director.ui.style import error_label, hint, show_error

TIME = re.compile(r"^(?:(\d+):)?(\d+):(\d{1,2})(?:\.(\d))?$|^(\d+)(?:\.(\d))?$")
MAX_NS = 10 * 3600 * NS_PER_SECOND


def parse_time(text: str) -> int:
    """'1:05', '0:19.5', '1:00:00' or plain seconds '75' → ns; ValueError says what is wrong."""
    m = TIME.match(text.strip())
    if m is None:
        raise ValueError(f"“{text.strip()}” is not a time: write m:ss, m:ss.t or seconds")
    hours, minutes, seconds, tenth, plain, plain_tenth = m.groups()
    if plain is not None:
        ns = int(plain) * NS_PER_SECOND + int(plain_tenth or 0) * NS_PER_SECOND // 10
    else:
        if int(seconds) >= 60 or (hours is not None and int(minutes) >= 60):
            raise ValueError("seconds and minutes go up to 59")
        total = int(hours or 0) * 3600 + int(minutes) * 60 + int(seconds)
        ns = total * NS_PER_SECOND + int(tenth or 0) * NS_PER_SECOND // 10
    if ns > MAX_NS:
        raise ValueError("a remaining time above 10 hours is surely a typing error")
    return ns


class AdjustDialog(QDialog):
    """`remaining_ns` is set when the director saves a valid time."""

    def __init__(self, seat: str, current_ns: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Adjust {seat}'s time")
        self.remaining_ns: int | None = None
        self.edit = QLineEdit(format_remaining(current_ns))
        self.edit.setObjectName("remaining")
        self.error = error_label()
        self.error.setObjectName("error-remaining")
        self.edit.textChanged.connect(self.check)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow(hint(f"{seat}'s remaining time now: {format_remaining(current_ns)}"))
        form.addRow("New remaining time", self.edit)
        form.addRow("", self.error)
        form.addRow(self.buttons)

    def check(self) -> int | None:
        try:
            ns = parse_time(self.edit.text())
        except ValueError as exc:
            show_error(self.error, str(exc))
            self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(False)
            return None
        show_error(self.error, "")
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(True)
        return ns

    def save(self) -> None:
        ns = self.check()
        if ns is not None:
            self.remaining_ns = ns
            self.accept()
