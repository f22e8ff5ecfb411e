"""The clock window's keys: one per side and board, remappable, kept in the settings (RULES §7).

Defaults put each board's two keys at one edge of the keyboard and on different rows, so a
player cannot end the opponent's move by a near miss: board 1 `Z` (A1) and `Q` (B1) at the
left, board 2 `M` (A2) and `P` (B2) at the right. Qt reports letters by the key's meaning in
the active layout (on AZERTY the `Z` key is where QWERTY has `W`); the faces show the key names.
Left and right Shift are the same key to Qt on most systems, so they are not offered.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QKeyCombination, QSettings, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QKeySequenceEdit,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from director.domain.rules import Side
from director.ui.style import error_label, hint, show_error

K = Qt.Key


@dataclass(frozen=True)
class KeyAction:
    name: str  # the settings key
    label: str
    default: K


ACTIONS: tuple[KeyAction, ...] = (
    KeyAction("press-1-A", "Board 1, A1 ends the move", K.Key_Z),
    KeyAction("press-1-B", "Board 1, B1 ends the move", K.Key_Q),
    KeyAction("press-2-A", "Board 2, A2 ends the move", K.Key_M),
    KeyAction("press-2-B", "Board 2, B2 ends the move", K.Key_P),
    KeyAction("pause-1", "Pause or resume board 1", K.Key_1),
    KeyAction("pause-2", "Pause or resume board 2", K.Key_2),
    KeyAction("pause-all", "Pause or resume both boards", K.Key_Space),
    KeyAction("start", "Start both boards", K.Key_Return),
    KeyAction("full-screen", "Full screen on or off", K.Key_F11),
)
BY_NAME = {a.name: a for a in ACTIONS}
RESERVED = {K.Key_Escape: "Esc leaves full screen", K.Key_F1: "F1 opens the help"}
SETTINGS_GROUP = "clock-keys"


def press_action(board: int, side: Side) -> str:
    return f"press-{board}-{side.value}"


def first_key(seq: QKeySequence) -> QKeyCombination:
    """The sequence's first key (PySide's stubs lack QKeySequence's indexing)."""
    combo: QKeyCombination = seq[0]  # type: ignore[index]
    return combo


def plain_key(combo: QKeyCombination) -> bool:
    """A known key without Ctrl, Alt, Shift or Meta (the keypad's digits count as plain)."""
    modifiers = combo.keyboardModifiers() & ~Qt.KeyboardModifier.KeypadModifier
    return combo.key() != K.Key_unknown and modifiers == Qt.KeyboardModifier.NoModifier


def key_name(key: int) -> str:
    return QKeySequence(key).toString(QKeySequence.SequenceFormat.NativeText) or "?"


class KeyMap:
    """Which key does what; `action(key)` is the one lookup a key-down needs."""

    def __init__(self, keys: dict[str, int] | None = None) -> None:
        self.keys = {a.name: int(a.default.value) for a in ACTIONS}
        self.keys.update(keys or {})
        self._by_key = {key: name for name, key in self.keys.items()}
        self._by_key.setdefault(int(K.Key_Enter.value), "start")  # the keypad's Enter too

    def action(self, key: int) -> str | None:
        return self._by_key.get(key)

    def key(self, action: str) -> int:
        return self.keys[action]

    def name(self, action: str) -> str:
        return key_name(self.keys[action])

    @classmethod
    def load(cls, settings: QSettings) -> KeyMap:
        """The saved keys; a missing, unreadable or clashing entry falls back to the defaults."""
        keys: dict[str, int] = {}
        for a in ACTIONS:
            text = settings.value(f"{SETTINGS_GROUP}/{a.name}", "", str)
            seq = QKeySequence.fromString(str(text), QKeySequence.SequenceFormat.PortableText)
            combo = first_key(seq) if seq.count() == 1 else None
            if combo is not None and plain_key(combo):
                keys[a.name] = int(combo.key().value)
        if problems(keys | {a.name: int(a.default.value) for a in ACTIONS if a.name not in keys}):
            return cls()
        return cls(keys)

    def save(self, settings: QSettings) -> None:
        for name, key in self.keys.items():
            text = QKeySequence(key).toString(QKeySequence.SequenceFormat.PortableText)
            settings.setValue(f"{SETTINGS_GROUP}/{name}", text)
        settings.sync()


def problems(keys: dict[str, int]) -> dict[str, str]:
    """What is wrong with a mapping, by action: a key used twice, or one the window keeps."""
    out: dict[str, str] = {}
    seen: dict[int, str] = {}
    for name, key in keys.items():
        if key in RESERVED:
            out[name] = f"{RESERVED[K(key)]}: choose another key"
        elif key in seen:
            out[name] = f"{key_name(key)} is already “{BY_NAME[seen[key]].label}”"
        else:
            seen[key] = name
    return out


class KeyMapDialog(QDialog):
    """One key per action; a clash is named beside the field and nothing is saved."""

    def __init__(self, keymap: KeyMap, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Clock keys")
        self.result_map: KeyMap | None = None
        self.edits: dict[str, QKeySequenceEdit] = {}
        self.errors: dict[str, QLabel] = {}
        form = QFormLayout()
        for a in ACTIONS:
            edit = QKeySequenceEdit(QKeySequence(keymap.key(a.name)))
            edit.setObjectName(a.name)
            edit.setMaximumSequenceLength(1)
            edit.keySequenceChanged.connect(self.check)
            error = error_label()
            error.setObjectName(f"error-{a.name}")
            box = QWidget()
            column = QVBoxLayout(box)
            column.setContentsMargins(0, 0, 0, 0)
            column.addWidget(edit)
            column.addWidget(error)
            form.addRow(a.label, box)
            self.edits[a.name], self.errors[a.name] = edit, error
        defaults = QPushButton("Restore defaults")
        defaults.clicked.connect(self.restore_defaults)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.addButton(defaults, QDialogButtonBox.ButtonRole.ResetRole)
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(hint("Click a field, then press the key. One key each, no modifiers."))
        layout.addLayout(form)
        layout.addWidget(self.buttons)

    def chosen(self) -> tuple[dict[str, int], dict[str, str]]:
        keys: dict[str, int] = {}
        out: dict[str, str] = {}
        for name, edit in self.edits.items():
            seq = edit.keySequence()
            if seq.count() != 1:
                out[name] = "press a key for this"
                continue
            combo = first_key(seq)
            if not plain_key(combo):
                out[name] = "a single key without Ctrl, Alt or Shift"
                continue
            keys[name] = int(combo.key().value)
        return keys, out | {k: v for k, v in problems(keys).items() if k not in out}

    def check(self) -> bool:
        _, out = self.chosen()
        for name, label in self.errors.items():
            show_error(label, out.get(name, ""))
        self.buttons.button(QDialogButtonBox.StandardButton.Save).setEnabled(not out)
        return not out

    def restore_defaults(self) -> None:
        for a in ACTIONS:
            self.edits[a.name].setKeySequence(QKeySequence(a.default))
        self.check()

    def save(self) -> None:
        if not self.check():
            return
        keys, _ = self.chosen()
        self.result_map = KeyMap(keys)
        self.accept()
