"""Every key and click meant for a match's clocks reaches them, once, charged when it happened
(RULES §7).

Why an application-wide event filter and not `keyPressEvent`:

- A game entry, the adjust dialog or the help page of the clock window may have the keyboard
  (a flag opens the forfeit entry while the other board plays on). The clock keys must still
  end moves and pause, and must not open a combo box or press a button there. So the filter sees
  every key event of the clock window's *family* (the window, its board-2 screen and the dialogs
  it opened) before any widget does.
- But a text field owns its keys: a note typed in the adjust dialog is that note, and "phone
  help" presses no clock, running or not (issue #24). Only a field that takes digits alone
  (`DIGITS_ONLY`: the game entries' counts and cube) lets the clock keys through, since no clock
  key is a key typed there (`keys.TYPING`).
- A key that arrives while an entry is being saved may be delivered after the entry closed,
  to a window that is hidden by then: the filter still takes it for the clocks.
- A key counts once per physical down. The platform's auto-repeat flag is not enough: with
  mixed input (one player holds a key while another presses or clicks) X11 stops marking the
  repeats. A key is *held* from its press to its release, and a press of a held key does
  nothing; a release immediately followed by a press with the same timestamp is X's
  auto-repeat without detectable repeat.

Timestamps: an input event carries the platform's time of the key-down in milliseconds
(`QInputEvent.timestamp()`, the X server's clock on X11). `EventTime` maps it to the monotonic
source by the smallest observed (now − timestamp): that offset is never below the true one, so
a mapped instant is never before the key really went down, and it converges to within a
millisecond at the first event handled promptly. A press is charged at its key-down even when
the event loop was stalled (a slow save, a busy disk).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QGuiApplication, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)

from director.domain.clock import TimeSource
from director.ui.clock.keys import KeyMap, key_code

MS = 1_000_000
TRUSTED_LAG_NS = 30_000 * MS  # an older timestamp than this is from another clock: use now
DIGITS_ONLY = "digitsOnly"  # a widget property: a field typed with keys.TYPING alone


STAMPING_PLATFORMS = ("xcb", "wayland", "windows", "cocoa")  # key-down times from the system


class EventTime:
    """The monotonic instant of an input event, from its millisecond timestamp.

    Only the windowing systems' own timestamps are trusted (`STAMPING_PLATFORMS`): elsewhere
    (offscreen, synthesised test input) a timestamp is a counter, and an event is timed when it
    is handled."""

    def __init__(self, source: TimeSource, trusted: bool | None = None) -> None:
        self.source = source
        self.offset: int | None = None  # the smallest now − timestamp seen
        if trusted is None:
            trusted = QGuiApplication.platformName() in STAMPING_PLATFORMS
        self.trusted = trusted

    def at(self, timestamp_ms: int, now: int | None = None) -> int:
        now = self.source() if now is None else now
        if timestamp_ms <= 0 or not self.trusted:
            return now  # the platform gives no time: now is all we know
        stamp = timestamp_ms * MS
        lag = now - stamp
        if self.offset is None or lag < self.offset or lag - self.offset > TRUSTED_LAG_NS:
            self.offset = lag
        return min(now, stamp + self.offset)


def types_text(widget: QWidget) -> bool:
    """A field the director types text into: it owns every key, the clock keys too."""
    field: QWidget | None = widget
    while field is not None and not field.isWindow():
        if field.property(DIGITS_ONLY):
            return False  # its keys are never clock keys
        if isinstance(field, QLineEdit | QAbstractSpinBox):
            return not field.isReadOnly()
        if isinstance(field, QTextEdit | QPlainTextEdit):
            return not field.isReadOnly()
        field = field.parentWidget()
    return False


RECORD_KEYS = {Qt.Key.Key_1: 1, Qt.Key.Key_2: 2}  # Alt+1 / Alt+2, as at the match desk


class ClockInput(QObject):
    """The application event filter of one clock window's family.

    `perform(action, t_ns)` does a key's action at its key-down instant; `record(board)`
    opens the record entry (Alt+1, Alt+2); `other(key)` handles the window's own keys (F1, Esc)
    and returns True when it used the key.
    """

    def __init__(
        self,
        members: Callable[[], tuple[QWidget, ...]],
        keymap: Callable[[], KeyMap],
        perform: Callable[[str, int], None],
        record: Callable[[int], None],
        other: Callable[[int], bool],
        source: TimeSource,
    ) -> None:
        super().__init__()
        self.members, self.keymap, self.perform = members, keymap, perform
        self.record, self.other = record, other
        self.time = EventTime(source)
        self.held: set[int] = set()  # keys down now (pressed, not yet released)
        self.released: dict[int, int] = {}  # key → timestamp of its last release
        self.active = True
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self)

    def stop(self) -> None:
        self.active = False
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self)

    def owner(self, widget: QWidget) -> QWidget | None:
        """The family member `widget` belongs to (its window, or a dialog a member opened)."""
        members = self.members()
        window: QWidget | None = widget.window()
        while window is not None:
            if window in members:
                return window
            if window.property("takesKeys"):  # the key-map editor records keys itself
                return None
            parent = window.parentWidget()
            window = parent.window() if parent is not None else None
        return None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.ApplicationDeactivate:
            self.held.clear()  # releases go to another program now: never leave a key dead
            return False
        if kind not in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease) or not self.active:
            return False
        if not isinstance(event, QKeyEvent) or not isinstance(watched, QWidget):
            return False
        key = event.key()
        if kind == QEvent.Type.KeyRelease:
            if not event.isAutoRepeat() and key in self.held:
                self.held.discard(key)
                self.released[key] = event.timestamp()
            return False
        owner = self.owner(watched)
        if owner is None:
            return False
        return self.key_down(owner, watched, event)

    def key_down(self, owner: QWidget, target: QWidget, event: QKeyEvent) -> bool:
        key = event.key()
        alt = event.modifiers() & Qt.KeyboardModifier.AltModifier
        if alt and key in RECORD_KEYS:
            if not event.isAutoRepeat():
                self.record(RECORD_KEYS[Qt.Key(key)])
            return True
        keypad = bool(event.modifiers() & Qt.KeyboardModifier.KeypadModifier)
        action = self.keymap().action(key_code(key, keypad))
        in_clock_window = owner is target.window()
        if action is None or event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            return in_clock_window and not event.isAutoRepeat() and self.other(key)
        clock_key = action.startswith(("press-", "pause-"))
        if not (clock_key or in_clock_window):
            return False  # Return saves an entry, F11 is for the window itself
        if types_text(target):
            return False  # a note, a reason, a time: typed, not pressed
        stamp = event.timestamp()
        repeat = event.isAutoRepeat() or key in self.held
        repeat = repeat or (stamp > 0 and self.released.get(key) == stamp)
        self.held.add(key)
        if not repeat:
            self.perform(action, self.time.at(stamp))
        return True
