"""Every field of `EventOptions` as an editor with a one-line explanation and its default.

The form only turns widgets into an `EventOptions` and back; whether the options are valid is
the domain's call (`EventOptions.problems()`), shown on the tab the problem belongs to.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGridLayout,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from director.domain.errors import UserError
from director.domain.match_reserve import DELAY_S, RESERVE_PER_POINT_S, match_time_control
from director.domain.rules import (
    MAX_MATCH_LENGTH,
    TIME_CONTROL_PRESETS,
    ClockMode,
    CubeRule,
    EventOptions,
    Format,
    LateEntry,
    MatchPointScheme,
    MatchRules,
    PairingSystem,
    Paper,
    RoundOne,
    Scoring,
    TimeControl,
)
from director.ui.option_texts import (
    EXPLANATIONS,
    MATCH_CLOCK_TEXTS,
    NO_DRAW_MATCH_POINTS,
    choice_label,
    match_points_label,
)
from director.ui.option_widgets import DurationBox, TieBreakList
from director.ui.plain import tooltip
from director.ui.style import error_label, hint, show_error

if TYPE_CHECKING:  # the database layer loads when an event is first opened
    from director.services.events import OptionLocks

CUSTOM = "Custom"
MATCH_KEYS = (
    "match_length",
    "scoring",
    "winner_required",
    "one_cube_threshold",
    "no_cube_at_one_away",
    "agreed_lower_forfeit",
)
CLOCK_KEYS = ("preset", "base", "increment", "clock_mode")
# an individual event's clock as the form first offers it: 2 min a match point + 12 s delay
MATCH_CLOCK_DEFAULT = TimeControl(RESERVE_PER_POINT_S, DELAY_S, ClockMode.DELAY)
# OptionLocks' groups and the fields each one holds
LOCKED_FIELDS = {
    "format": ("format",),
    "match": MATCH_KEYS,
    "time_control": CLOCK_KEYS,
    "pairing_system": ("pairing_system",),
    "schedule": ("double_round_robin",),
}


@dataclass
class Tab:
    title: str
    widget: QWidget
    grid: QGridLayout
    error: QLabel


def combo(values: list[str], labels: list[str], parent: QWidget) -> QComboBox:
    box = QComboBox(parent)
    for value, label in zip(values, labels, strict=True):
        box.addItem(label, value)
    return box


def enum_combo(kind: type, parent: QWidget) -> QComboBox:
    values = [member.value for member in kind]  # type: ignore[attr-defined]
    return combo(values, [choice_label(kind, v) for v in values], parent)


def select(box: QComboBox, value: object) -> None:
    box.setCurrentIndex(max(0, box.findData(value)))


class OptionsForm(QWidget):
    """The option tabs; `tabs` are added to the dialog's tab widget."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tabs: list[Tab] = []
        self.locked: set[str] = set()  # fields `lock` disabled
        self.labels: dict[str, QLabel] = {}  # each field's label and note, as `_row` made them
        self.notes: dict[str, QLabel] = {}
        self._build_format()
        self._build_match_rules()
        self._build_clock()
        self._build_pairings()
        self._build_standings()
        self._announce_changes()
        self.set_options(EventOptions())

    # -- building ------------------------------------------------------------------------------

    def _tab(self, title: str) -> Tab:
        widget = QWidget(self)
        outer = QVBoxLayout(widget)
        outer.setContentsMargins(18, 16, 18, 12)
        error = error_label(widget)
        grid = QGridLayout()
        grid.setHorizontalSpacing(16)
        grid.setVerticalSpacing(2)
        grid.setColumnStretch(1, 1)
        grid.setColumnMinimumWidth(0, 170)
        outer.addWidget(error)
        outer.addLayout(grid)
        outer.addStretch(1)
        tab = Tab(title, widget, grid, error)
        self.tabs.append(tab)
        return tab

    def _row(self, tab: Tab, key: str, editor: QWidget) -> None:
        """Label, editor, and under the editor its explanation and default."""
        label, explanation, default = EXPLANATIONS[key]
        row = tab.grid.rowCount()
        if isinstance(editor, QCheckBox):
            editor.setText(label)
        else:
            self.labels[key] = QLabel(label, tab.widget)
            tab.grid.addWidget(self.labels[key], row, 0)
        tab.grid.addWidget(editor, row, 1)
        note = hint(f"{explanation} Default: {default}.", tab.widget)
        self.notes[key] = note
        note.setContentsMargins(0, 0, 0, 10)
        tab.grid.addWidget(note, row + 1, 1)
        editor.setToolTip(explanation)
        editor.setObjectName(key)

    def _build_format(self) -> None:
        """The format's editor, label and note: the event dialog shows them on its first tab
        (a format is the first thing a new event is), so they belong to no tab here."""
        label, explanation, default = EXPLANATIONS["format"]
        self.format = enum_combo(Format, self)
        self.format.setObjectName("format")
        self.format.setToolTip(explanation)
        self.format_label = QLabel(label, self)
        self.format_note = hint(f"{explanation} Default: {default}.", self)
        self.format_note.setContentsMargins(0, 0, 0, 10)
        for widget in (self.format, self.format_label, self.format_note):
            widget.hide()  # until a dialog lays them out
        self.format.currentIndexChanged.connect(self._format_chosen)
        self.format.currentIndexChanged.connect(lambda *_: self.changed.emit())

    def _build_match_rules(self) -> None:
        tab = self._tab("Match rules")
        self.match_length = QSpinBox(tab.widget)
        self.match_length.setRange(1, MAX_MATCH_LENGTH)
        self.match_length.setSuffix(" points")
        self.scoring = enum_combo(Scoring, tab.widget)
        self.winner_required = QCheckBox(tab.widget)
        self.one_cube_threshold = combo(["2", "1"], ["2-away or closer", "1-away only"], tab.widget)
        self.no_cube_at_one_away = QCheckBox(tab.widget)
        self.agreed_lower_forfeit = QCheckBox(tab.widget)
        for key in MATCH_KEYS:
            self._row(tab, key, getattr(self, key))
        self.scoring.currentIndexChanged.connect(self._scoring_changed)

    def _build_clock(self) -> None:
        tab = self._tab("Clock")
        names = [CUSTOM, *TIME_CONTROL_PRESETS]
        self.preset = combo(names, names, tab.widget)
        self.base = DurationBox(tab.widget)
        self.increment = QSpinBox(tab.widget)
        self.increment.setRange(0, 600)
        self.increment.setSuffix(" s")
        self.clock_mode = enum_combo(ClockMode, tab.widget)
        for key in CLOCK_KEYS:
            self._row(tab, key, getattr(self, key))
        self.reserve_example = hint("", tab.widget)
        self.reserve_example.setObjectName("reserve_example")
        tab.grid.addWidget(self.reserve_example, tab.grid.rowCount(), 1)
        self.match_length.valueChanged.connect(self._show_reserve)
        self.preset.currentIndexChanged.connect(self._preset_chosen)
        for box in (self.base, self.increment):
            box.valueChanged.connect(self._clock_edited)
        self.clock_mode.currentIndexChanged.connect(self._clock_edited)

    def _build_pairings(self) -> None:
        tab = self._tab("Pairings")
        self.pairing_system = enum_combo(PairingSystem, tab.widget)
        self.rounds = QSpinBox(tab.widget)
        self.rounds.setRange(0, 99)
        self.rounds.setSpecialValueText("Until one team is clear")
        self.round_one = enum_combo(RoundOne, tab.widget)
        self.late_entry = enum_combo(LateEntry, tab.widget)
        self.avoid_same_club = QCheckBox(tab.widget)
        self.double_round_robin = QCheckBox(tab.widget)
        # a knockout's brackets are its bracket plan's (the event dialog's chooser): the old
        # consolation switch is kept as the file holds it, and follows the plan when stored
        self.kept_consolation = False
        for key in (
            "pairing_system",
            "rounds",
            "round_one",
            "late_entry",
            "avoid_same_club",
            "double_round_robin",
        ):
            self._row(tab, key, getattr(self, key))

    def _build_standings(self) -> None:
        tab = self._tab("Standings & reports")
        self.match_points = enum_combo(MatchPointScheme, tab.widget)
        self.tie_breaks = TieBreakList(tab.widget)
        self.paper = enum_combo(Paper, tab.widget)
        for key in ("match_points", "tie_breaks", "paper"):
            self._row(tab, key, getattr(self, key))

    def _announce_changes(self) -> None:
        """Any edit emits `changed`, so the dialog can re-check the options as they are typed."""
        for tab in self.tabs:
            for child in tab.widget.findChildren(QWidget):
                signal = {
                    QSpinBox: "valueChanged",
                    DurationBox: "valueChanged",
                    QComboBox: "currentIndexChanged",
                    QCheckBox: "toggled",
                    TieBreakList: "changed",
                }.get(type(child))
                if signal:
                    getattr(child, signal).connect(lambda *_: self.changed.emit())

    # -- values --------------------------------------------------------------------------------

    def set_options(self, options: EventOptions) -> None:
        match, clock = options.match, options.time_control
        self.format.blockSignals(True)  # its defaults are for a director's switch, not a load
        select(self.format, match.format.value)
        self.format.blockSignals(False)
        self.match_length.setValue(match.match_length)
        select(self.scoring, match.scoring.value)
        self.winner_required.setChecked(match.winner_required)
        select(self.one_cube_threshold, str(match.one_cube_threshold))
        self.no_cube_at_one_away.setChecked(match.no_cube_at_one_away)
        self.agreed_lower_forfeit.setChecked(match.agreed_lower_forfeit)
        self.base.setValue(clock.base_seconds)
        self.increment.setValue(clock.increment_seconds)
        select(self.clock_mode, clock.mode.value)
        select(self.pairing_system, options.pairing_system.value)
        self.rounds.setValue(options.rounds)
        select(self.round_one, options.round_one.value)
        select(self.late_entry, options.late_entry.value)
        self.avoid_same_club.setChecked(options.avoid_same_club)
        self.double_round_robin.setChecked(options.double_round_robin)
        self.kept_consolation = options.consolation
        select(self.match_points, options.match_points.value)
        self.tie_breaks.set_tie_breaks(options.tie_breaks)
        select(self.paper, options.paper.value)
        self._clock_edited()
        self._show_format()

    def options(self) -> EventOptions:
        match = MatchRules(
            match_length=self.match_length.value(),
            scoring=Scoring(self.scoring.currentData()),
            winner_required=self.winner_required.isChecked(),
            one_cube_threshold=int(self.one_cube_threshold.currentData()),
            no_cube_at_one_away=self.no_cube_at_one_away.isChecked(),
            agreed_lower_forfeit=self.agreed_lower_forfeit.isChecked(),
            format=self.event_format(),
        )
        return EventOptions(
            match=match,
            time_control=self.time_control(),
            pairing_system=PairingSystem(self.pairing_system.currentData()),
            rounds=self.rounds.value(),
            round_one=RoundOne(self.round_one.currentData()),
            late_entry=LateEntry(self.late_entry.currentData()),
            avoid_same_club=self.avoid_same_club.isChecked(),
            double_round_robin=self.double_round_robin.isChecked(),
            consolation=self.kept_consolation,
            match_points=MatchPointScheme(self.match_points.currentData()),
            tie_breaks=self.tie_breaks.tie_breaks(),
            paper=Paper(self.paper.currentData()),
        )

    def event_format(self) -> Format:
        return Format(self.format.currentData())

    def time_control(self) -> TimeControl:
        mode = ClockMode(self.clock_mode.currentData())
        return TimeControl(self.base.value(), self.increment.value(), mode)

    def show_problems(self) -> list[str]:
        """The domain's problems with these options, each on the tab it belongs to."""
        options = self.options()
        by_tab = {"Match rules": options.match.problems(), "Clock": options.time_control.problems()}
        rest = [p for p in options.problems() if not any(p in ps for ps in by_tab.values())]
        by_tab["Standings & reports" if any("tie-break" in p for p in rest) else "Pairings"] = rest
        for tab in self.tabs:
            problems = by_tab.get(tab.title, [])
            show_error(tab.error, "\n".join(f"• {p[:1].upper()}{p[1:]}." for p in problems))
        return options.problems()

    # -- reactions -----------------------------------------------------------------------------

    def _scoring_changed(self) -> None:
        # the domain says whether this scoring has a cube and levels and whether this format
        # plays pairs under the one-cube rule: without a cube or a pair the cube options are
        # moot, without levels or a game lost on time rule 5′ is (RULES §6.5, §10)
        variant = Scoring(self.scoring.currentData()).variant
        record = self.event_format().record
        one_cube = variant.has_cube and record.cube_rule is CubeRule.ONE_CUBE
        for key, used in (
            ("winner_required", record.pair_end_rules),
            ("one_cube_threshold", one_cube),
            ("no_cube_at_one_away", one_cube),
            ("agreed_lower_forfeit", variant.has_levels and record.game_forfeit),
        ):
            getattr(self, key).setEnabled(used and key not in self.locked)

    def _format_chosen(self) -> None:
        """A director's switch of format: the clock offered is that format's own, unless the
        director has set one already."""
        record = self.event_format().record
        clock, other = (
            (TimeControl(), MATCH_CLOCK_DEFAULT)
            if record.match_clock
            else (MATCH_CLOCK_DEFAULT, TimeControl())
        )
        if self.time_control() == clock and "base" not in self.locked:
            for box in (self.base, self.increment, self.clock_mode):
                box.blockSignals(True)
            self.base.setValue(other.base_seconds)
            self.increment.setValue(other.increment_seconds)
            select(self.clock_mode, other.mode.value)
            for box in (self.base, self.increment, self.clock_mode):
                box.blockSignals(False)
            self._clock_edited()
        self._show_format()

    def _show_format(self) -> None:
        """The fields read as the format plays: a match reserve's words where the format has
        one clock per match (RULES §10), a game's presets where it has one per game."""
        record = self.event_format().record
        shown = MATCH_CLOCK_DEFAULT
        match_defaults = {
            "base": f"{shown.base_seconds // 60}:{shown.base_seconds % 60:02d}",
            "increment": f"{shown.increment_seconds} s",
            "clock_mode": shown.mode.label,
        }
        for key, match_default in match_defaults.items():
            label, explanation, default = EXPLANATIONS[key]
            if record.match_clock:
                label, explanation = MATCH_CLOCK_TEXTS[key]
                default = match_default
            self.labels[key].setText(label)
            self.notes[key].setText(f"{explanation} Default: {default}.")
            getattr(self, key).setToolTip(explanation)
        for widget in (self.labels["preset"], self.preset, self.notes["preset"]):
            widget.setVisible(not record.match_clock)
        self.rounds.setSpecialValueText(f"Until one {record.entrant} is clear")
        for i in range(self.match_points.count()):  # no draw where no match is drawn (§10)
            scheme = MatchPointScheme(self.match_points.itemData(i))
            self.match_points.setItemText(i, match_points_label(scheme, record.draws))
        _, explanation, default = (
            EXPLANATIONS["match_points"] if record.draws else NO_DRAW_MATCH_POINTS
        )
        self.notes["match_points"].setText(f"{explanation} Default: {default}.")
        self.match_points.setToolTip(explanation)
        self._scoring_changed()
        self._show_reserve()

    def _show_reserve(self) -> None:
        """A match reserve in numbers, for this event's match length (the domain's sum)."""
        record = self.event_format().record
        self.reserve_example.setVisible(record.match_clock)
        if not record.match_clock:
            return
        clock, length = self.time_control(), self.match_length.value()
        try:
            reserve = match_time_control(
                clock.base_seconds, clock.increment_seconds, length, mode=clock.mode
            )
        except UserError:
            self.reserve_example.setText("")
            return
        minutes, seconds = divmod(reserve.base_seconds, 60)
        each = f"{minutes} min" + (f" {seconds} s" if seconds else "")
        self.reserve_example.setText(
            f"A {length}-point match: {each} each for the whole match, + "
            f"{clock.increment_seconds} s {clock.mode.label.lower()} a move; the clock pauses "
            "between games and a flag loses the match."
        )

    def lock(self, locks: OptionLocks) -> None:
        """Fields that cannot change now are disabled, with the service's reason as their
        tooltip and above their tab: never refused only once Apply is pressed."""
        for group, keys in LOCKED_FIELDS.items():
            reason = getattr(locks, group)
            if not reason:
                continue
            for key in keys:
                editor = getattr(self, key)
                editor.setEnabled(False)
                editor.setToolTip(tooltip(reason[:1].upper() + reason[1:] + "."))
                self.locked.add(key)
            tab = next(
                (t for t in self.tabs if t.widget.isAncestorOf(getattr(self, keys[0]))), None
            )
            if tab is None:  # the format sits on the dialog's Event tab: its tooltip says why
                continue
            note = hint(f"Locked: {reason}.", tab.widget)
            note.setObjectName(f"locked_{group}")
            layout = tab.widget.layout()
            assert isinstance(layout, QVBoxLayout)
            layout.insertWidget(1, note)

    def unlock(self, group: str) -> None:
        """The group's lock is gone (its cause was removed while the dialog is open)."""
        for key in LOCKED_FIELDS[group]:
            editor = getattr(self, key)
            editor.setEnabled(True)
            editor.setToolTip("")
            self.locked.discard(key)
        for tab in self.tabs:  # the notes sit in the tabs, wherever a dialog put them
            note = tab.widget.findChild(QLabel, f"locked_{group}")
            if note is not None:
                note.hide()
        self._scoring_changed()

    def _preset_chosen(self) -> None:
        preset = TIME_CONTROL_PRESETS.get(self.preset.currentData())
        if preset is None:
            return
        for box in (self.base, self.increment, self.clock_mode):
            box.blockSignals(True)
        self.base.setValue(preset.base_seconds)
        self.increment.setValue(preset.increment_seconds)
        select(self.clock_mode, preset.mode.value)
        for box in (self.base, self.increment, self.clock_mode):
            box.blockSignals(False)
        self.changed.emit()

    def _clock_edited(self) -> None:
        """Show the preset these values match, or Custom, and the match's reserve."""
        self._show_reserve()
        current = self.time_control()
        name = next((n for n, tc in TIME_CONTROL_PRESETS.items() if tc == current), CUSTOM)
        self.preset.blockSignals(True)
        select(self.preset, name)
        self.preset.blockSignals(False)
