"""The director's time adjustment for one side of a paused board (RULES §7).

The field starts with the exact remaining time (to the nanosecond, trailing zeros dropped), so
OK without an edit changes nothing; a reason is chosen (and, for "Other", typed) for the audit.
"""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QWidget,
)

from director.domain.clock import NS_PER_SECOND, format_remaining
from director.ui.style import error_label, hint, show_error

# 0-9 only: \d matches "١", which int() reads as 1
TIME = re.compile(
    r"^(?:([0-9]+):)?([0-9]+):([0-9]{1,2})(?:\.([0-9]{1,9}))?$|^([0-9]+)(?:\.([0-9]{1,9}))?$"
)
REASONS = (
    "Clock fault",
    "Wrong key pressed",
    "Time restored after a dispute",
    "Director's time penalty",
    "Other (say why below)",
)
OTHER = REASONS[-1]


def _fraction_ns(digits: str | None) -> int:
    return int((digits or "").ljust(9, "0"))


def exact_time(ns: int) -> str:
    """m:ss (h:mm:ss) with every nanosecond that is there: 24.9995 s is "0:24.9995"."""
    seconds, frac = divmod(ns, NS_PER_SECOND)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    text = f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
    return f"{text}.{frac:09d}".rstrip("0") if frac else text


MAX_NS = 10 * 3600 * NS_PER_SECOND


def parse_time(text: str) -> int:
    """'1:05', '0:19.5', '1:00:00' or plain seconds '75' → ns (up to nine decimals); a
    ValueError says what is wrong."""
    m = TIME.match(text.strip())
    if m is None:
        raise ValueError(f"“{text.strip()}” is not a time: write m:ss, m:ss.t or seconds")
    hours, minutes, seconds, tenth, plain, plain_tenth = m.groups()
    if plain is not None:
        ns = int(plain) * NS_PER_SECOND + _fraction_ns(plain_tenth)
    else:
        if int(seconds) >= 60 or (hours is not None and int(minutes) >= 60):
            raise ValueError("seconds and minutes go up to 59")
        total = int(hours or 0) * 3600 + int(minutes) * 60 + int(seconds)
        ns = total * NS_PER_SECOND + _fraction_ns(tenth)
    if ns > MAX_NS:
        raise ValueError("a remaining time above 10 hours is surely a typing error")
    return ns


class AdjustDialog(QDialog):
    """`remaining_ns` is set when the director saves a valid time."""

    def __init__(self, seat: str, current_ns: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Adjust {seat}'s time")
        self.remaining_ns: int | None = None
        self.current_ns = current_ns
        self.prefill = exact_time(current_ns)
        self.edit = QLineEdit(self.prefill)
        self.edit.setObjectName("remaining")
        self.error = error_label()
        self.error.setObjectName("error-remaining")
        self.edit.textChanged.connect(self.check)
        self.reasons = QComboBox()
        self.reasons.setObjectName("reason")
        self.reasons.addItems(REASONS)
        self.reasons.currentIndexChanged.connect(self.check)
        self.note = QLineEdit()
        self.note.setObjectName("note")
        self.note.setPlaceholderText("what happened (kept in the audit log)")
        self.note.textChanged.connect(self.check)
        self.note_error = error_label()
        self.note_error.setObjectName("error-note")
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow(hint(f"{seat}'s remaining time now: {format_remaining(current_ns)}"))
        form.addRow("New remaining time", self.edit)
        form.addRow("", self.error)
        form.addRow("Reason", self.reasons)
        form.addRow("Note", self.note)
        form.addRow("", self.note_error)
        form.addRow(self.buttons)
        self.edit.setFocus(Qt.FocusReason.OtherFocusReason)

    def reason(self) -> str:
        chosen = self.reasons.currentText()
        note = self.note.text().strip()
        if chosen == OTHER:
            return note
        return f"{chosen}: {note}" if note else chosen

    def check(self) -> int | None:
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        needs_note = self.reasons.currentText() == OTHER and not self.note.text().strip()
        show_error(self.note_error, "say why the time is changed" if needs_note else "")
        if self.edit.text() == self.prefill:  # untouched: exactly the time there is
            show_error(self.error, "")
            ok.setEnabled(not needs_note)
            return None if needs_note else self.current_ns
        try:
            ns = parse_time(self.edit.text())
        except ValueError as exc:
            show_error(self.error, str(exc))
            ok.setEnabled(False)
            return None
        show_error(self.error, "")
        ok.setEnabled(not needs_note)
        return None if needs_note else ns

    def save(self) -> None:
        ns = self.check()
        if ns is not None:
            self.remaining_ns = ns
            self.accept()
