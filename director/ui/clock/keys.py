"""The clock window's keys: one per side and board, remappable, kept in the settings (RULES §7).

The default layout is for four players around one laptop that lies between the two boards,
team A at the near edge of the keyboard and team B at the far edge, board 1 to the left: each
player's key is in their own corner, A1 `Z` (near left), B1 `Q` (far left), A2 `/` (near
right), B2 `P` (far right). The arbiter's keys are in the middle, out of reach of play: `G`
pauses board 1, `H` board 2, Space both; Return starts. Qt reports keys by their meaning in the
active layout (on AZERTY the `Z` key is where QWERTY has `W`); the faces show the key names.

Keys that the game entries need for typing (digits, `.`, `:`, the editing and arrow keys) are
not allowed for presses and pauses, since those keys reach the clocks even while an entry is
open. A numeric keypad's keys are their own keys (`Num+1` is not `1`), so a keypad or a foot
switch that sends ordinary keys can be given to each board. Left and right Shift are the same
key to Qt on most systems, so they are not offered.
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
    one_board: str = ""  # its label when the match has one board (RULES §10); "" = not shown


ACTIONS: tuple[KeyAction, ...] = (
    KeyAction("press-1-A", "Board 1, A1 ends the move", K.Key_Z, "A ends the move"),
    KeyAction("press-1-B", "Board 1, B1 ends the move", K.Key_Q, "B ends the move"),
    KeyAction("press-2-A", "Board 2, A2 ends the move", K.Key_Slash),
    KeyAction("press-2-B", "Board 2, B2 ends the move", K.Key_P),
    KeyAction("pause-1", "Pause or resume board 1", K.Key_G, "Pause or resume (a second key)"),
    KeyAction("pause-2", "Pause or resume board 2", K.Key_H),
    KeyAction("pause-all", "Pause or resume both boards", K.Key_Space, "Pause or resume"),
    KeyAction("start", "Start both boards", K.Key_Return, "Start the clock"),
    KeyAction("full-screen", "Full screen on or off", K.Key_F11, "Full screen on or off"),
)
BY_NAME = {a.name: a for a in ACTIONS}
RESERVED = {K.Key_Escape: "Esc leaves full screen", K.Key_F1: "F1 opens the help"}
KEYPAD = int(Qt.KeyboardModifier.KeypadModifier.value)
# typed into the game entries' fields, which the press and pause keys reach too
TYPING = frozenset(
    int(k.value)
    for k in (
        *(K(K.Key_0.value + d) for d in range(10)),
        K.Key_Period,
        K.Key_Colon,
        K.Key_Comma,
        K.Key_Minus,
        K.Key_Backspace,
        K.Key_Delete,
        K.Key_Tab,
        K.Key_Backtab,
        K.Key_Left,
        K.Key_Right,
        K.Key_Up,
        K.Key_Down,
        K.Key_Home,
        K.Key_End,
    )
)
SETTINGS_GROUP = "clock-keys"


def press_action(board: int, side: Side) -> str:
    return f"press-{board}-{side.value}"


def first_key(seq: QKeySequence) -> QKeyCombination:
    """The sequence's first key (PySide's stubs lack QKeySequence's indexing)."""
    combo: QKeyCombination = seq[0]  # type: ignore[index]
    return combo


def plain_key(combo: QKeyCombination) -> bool:
    """A known key without Ctrl, Alt, Shift or Meta (the keypad's keys count as plain)."""
    modifiers = combo.keyboardModifiers() & ~Qt.KeyboardModifier.KeypadModifier
    return combo.key() != K.Key_unknown and modifiers == Qt.KeyboardModifier.NoModifier


def key_code(key: int, keypad: bool) -> int:
    """A key as the map stores it: the keypad's keys carry the keypad bit (Num+1 is not 1)."""
    return key | KEYPAD if keypad else key


def combo_code(combo: QKeyCombination) -> int:
    keypad = bool(combo.keyboardModifiers() & Qt.KeyboardModifier.KeypadModifier)
    return key_code(int(combo.key().value), keypad)


def key_name(key: int) -> str:
    text = QKeySequence(key).toString(QKeySequence.SequenceFormat.NativeText)
    return text.replace("Num+", "Keypad ") or "?"


class KeyMap:
    """Which key does what; `action(key)` is the one lookup a key-down needs."""

    def __init__(self, keys: dict[str, int] | None = None) -> None:
        self.keys = {a.name: int(a.default.value) for a in ACTIONS}
        self.keys.update(keys or {})
        self._by_key = {key: name for name, key in self.keys.items()}
        for enter in (int(K.Key_Enter.value), int(K.Key_Enter.value) | KEYPAD):
            self._by_key.setdefault(enter, "start")  # the keypad's Enter too

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
                keys[a.name] = combo_code(combo)
        if problems(keys | {a.name: int(a.default.value) for a in ACTIONS if a.name not in keys}):
            return cls()
        return cls(keys)

    def save(self, settings: QSettings) -> None:
        for name, key in self.keys.items():
            text = QKeySequence(key).toString(QKeySequence.SequenceFormat.PortableText)
            settings.setValue(f"{SETTINGS_GROUP}/{name}", text)
        settings.sync()


def problems(keys: dict[str, int]) -> dict[str, str]:
    """What is wrong with a mapping, by action: a key used twice, one the window keeps, or a
    typing key for a press or a pause."""
    out: dict[str, str] = {}
    seen: dict[int, str] = {}
    for name, key in keys.items():
        if key in RESERVED:
            out[name] = f"{RESERVED[K(key)]}: choose another key"
        elif key in TYPING and name.startswith(("press-", "pause-")):
            out[name] = (
                f"{key_name(key)} is typed into the game entries: choose a letter, a keypad "
                "or a function key"
            )
        elif key in seen:
            out[name] = f"{key_name(key)} is already “{BY_NAME[seen[key]].label}”"
        else:
            seen[key] = name
    return out


class KeyMapDialog(QDialog):
    """One key per action; a clash is named beside the field and nothing is saved."""

    def __init__(
        self, keymap: KeyMap, parent: QWidget | None = None, one_board: bool = False
    ) -> None:
        """`one_board`: a match of one board (RULES §10) is shown its keys alone; the other
        board's keys are kept as they are (they stay in the map, unseen)."""
        super().__init__(parent)
        self.setWindowTitle("Clock keys")
        self.setProperty("takesKeys", True)  # the clocks leave this window's keys alone
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
            form.addRow(a.one_board if one_board else a.label, box)
            form.setRowVisible(box, bool(a.one_board) or not one_board)
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
            keys[name] = combo_code(combo)
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
