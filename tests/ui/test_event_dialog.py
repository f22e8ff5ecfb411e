"""The new-event / event-options dialog: every option round-trips, bad input writes nothing."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtWidgets import QAbstractSpinBox, QCheckBox, QComboBox, QLabel, QWidget
from pytestqt.qtbot import QtBot

from director.domain.errors import UserError
from director.domain.rules import (
    ClockMode,
    End,
    EventOptions,
    Format,
    LateEntry,
    Level,
    MatchPointScheme,
    MatchRules,
    PairingSystem,
    Paper,
    RoundOne,
    Scoring,
    Side,
    TieBreak,
    TimeControl,
)
from director.domain.scoring import Game
from director.services.events import event_version, update_event
from director.services.games import record_game
from director.services.matches import create_match
from director.services.teams import add_team
from director.store.engine import open_database
from director.ui.context import EventContext
from director.ui.event_dialog import EventDialog, file_name_for
from director.ui.option_form import OptionsForm
from director.ui.option_texts import EXPLANATIONS
from director.ui.option_widgets import TieBreakList, tie_break_name
from tests.ui.app_helpers import OFFSCREEN_NOISE, stored_event, type_chars

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)

UNUSUAL = EventOptions(
    match=MatchRules(7, Scoring.KILLER_PIP_SQUEEZE, True, 1, True, False),
    time_control=TimeControl(150, 10, ClockMode.BRONSTEIN),
    pairing_system=PairingSystem.ROUND_ROBIN,
    rounds=0,
    round_one=RoundOne.RANDOM,
    late_entry=LateEntry.BYE_EQUIVALENT,
    avoid_same_club=True,
    double_round_robin=True,
    consolation=True,
    match_points=MatchPointScheme.ONE_HALF_ZERO,
    tie_breaks=(TieBreak.HEAD_TO_HEAD, TieBreak.POINTS_FOR),
    paper=Paper.LETTER,
)


def new_dialog(qtbot: QtBot, folder: Path) -> EventDialog:
    dialog = EventDialog(folder=folder)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def test_every_option_round_trips_through_the_form(qtbot: QtBot) -> None:
    form = OptionsForm()
    qtbot.addWidget(form)
    assert form.options() == EventOptions()
    form.set_options(UNUSUAL)
    assert form.options() == UNUSUAL


def test_every_option_has_an_editor_with_its_explanation(qtbot: QtBot) -> None:
    form = OptionsForm()
    qtbot.addWidget(form)
    for key, (_label, explanation, default) in EXPLANATIONS.items():
        editor = getattr(form, key)
        assert editor.toolTip() == explanation
        notes = [w.text() for w in form.findChildren(QLabel)]
        assert f"{explanation} Default: {default}." in notes


@pytest.mark.parametrize(
    ("scoring", "cube", "rule_5_prime"),
    [
        (Scoring.STANDARD, True, True),
        (Scoring.PIN_GAME, False, True),  # RULES §6.4: rule 5′ lowers the pip count's × 3
        (Scoring.CHASING_THE_GIRLS, False, False),  # RULES §6.5: rule 5′ does not apply
    ],
)
def test_the_options_a_scoring_has_no_use_for_are_disabled(
    qtbot: QtBot, scoring: Scoring, cube: bool, rule_5_prime: bool
) -> None:
    form = OptionsForm()
    qtbot.addWidget(form)
    form.scoring.setCurrentIndex(form.scoring.findData(scoring.value))
    assert form.one_cube_threshold.isEnabled() is cube
    assert form.no_cube_at_one_away.isEnabled() is cube
    assert form.agreed_lower_forfeit.isEnabled() is rule_5_prime


def test_a_preset_fills_the_clock_and_an_edit_shows_custom(qtbot: QtBot) -> None:
    form = OptionsForm()
    qtbot.addWidget(form)
    form.preset.setCurrentText("US delay: 2 min + 12 s delay")
    assert form.time_control() == TimeControl(120, 12, ClockMode.DELAY)
    form.increment.setValue(13)
    assert form.preset.currentText() == "Custom"


def test_the_base_time_reads_minutes_and_seconds(qtbot: QtBot) -> None:
    form = OptionsForm()
    qtbot.addWidget(form)
    form.base.lineEdit().selectAll()
    qtbot.keyClicks(form.base.lineEdit(), "2:30")
    form.base.interpretText()
    assert form.base.value() == 150
    assert form.base.text() == "2:30"


def test_the_base_time_in_digits_other_than_0_to_9_is_refused_as_typed(qtbot: QtBot) -> None:
    """The pattern's digit class matched "٢" and "٣": int() read "٢:٣٠" as 2:30."""
    form = OptionsForm()
    qtbot.addWidget(form)
    before = form.base.value()
    form.base.lineEdit().selectAll()
    type_chars(form.base.lineEdit(), "٢:٣٠")
    form.base.interpretText()
    assert form.base.value() == before and "٢" not in form.base.text()


def test_creating_an_event_writes_the_file_with_the_chosen_options(
    qtbot: QtBot, tmp_path: Path
) -> None:
    dialog = new_dialog(qtbot, tmp_path)
    qtbot.keyClicks(dialog.name, "Spring Tandem: Day 1")
    assert dialog.path.text() == str(tmp_path / "Spring Tandem- Day 1.tandem")
    dialog.venue.insert("Café Bar")  # QTest types ASCII only: paste the accent
    dialog.options_form.set_options(UNUSUAL)
    with qtbot.waitSignal(dialog.accepted):
        dialog.ok_button.click()
    assert dialog.database is not None
    dialog.database.close()
    info = stored_event(tmp_path / "Spring Tandem- Day 1.tandem")
    assert (info.name, info.venue, info.options) == ("Spring Tandem: Day 1", "Café Bar", UNUSUAL)


def test_a_missing_name_is_refused_and_leaves_no_file(qtbot: QtBot, tmp_path: Path) -> None:
    dialog = new_dialog(qtbot, tmp_path)
    dialog.set_path(str(tmp_path / "night.tandem"))
    dialog.ok_button.click()
    assert dialog.isVisible()
    assert dialog.error.text() == "The event needs a name."
    assert list(tmp_path.iterdir()) == []


def test_a_clock_without_time_is_shown_on_the_clock_tab_and_writes_nothing(
    qtbot: QtBot, tmp_path: Path
) -> None:
    dialog = new_dialog(qtbot, tmp_path)
    qtbot.keyClicks(dialog.name, "Night")
    dialog.options_form.base.setValue(0)
    dialog.options_form.increment.setValue(0)
    clock = next(t for t in dialog.options_form.tabs if t.title == "Clock")
    assert clock.error.isVisibleTo(clock.widget)
    assert "A clock needs some time" in clock.error.text()
    dialog.ok_button.click()
    assert dialog.isVisible()
    assert not dialog.tabs.tabIcon(dialog.tabs.indexOf(clock.widget)).isNull()
    assert list(tmp_path.iterdir()) == []


def test_an_existing_file_is_never_overwritten(qtbot: QtBot, tmp_path: Path) -> None:
    existing = tmp_path / "night.tandem"
    existing.write_bytes(b"precious")
    dialog = new_dialog(qtbot, tmp_path)
    qtbot.keyClicks(dialog.name, "Night")
    dialog.set_path(str(tmp_path / "night"))  # the extension is added
    dialog.ok_button.click()
    assert "already exists" in dialog.path_error.text()
    assert existing.read_bytes() == b"precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["night.tandem"]


def test_a_missing_folder_is_refused(qtbot: QtBot, tmp_path: Path) -> None:
    dialog = new_dialog(qtbot, tmp_path)
    qtbot.keyClicks(dialog.name, "Night")
    dialog.set_path(str(tmp_path / "no such folder" / "night.tandem"))
    dialog.ok_button.click()
    assert "does not exist" in dialog.path_error.text()
    assert list(tmp_path.iterdir()) == []


def test_editing_options_is_written_through_the_service(qtbot: QtBot, event_path: Path) -> None:
    ctx = EventContext(open_database(str(event_path)))
    dialog = EventDialog(ctx=ctx)
    qtbot.addWidget(dialog)
    assert dialog.name.text() == "Template Open"
    dialog.options_form.match_length.setValue(9)
    with qtbot.waitSignal(ctx.changed):
        dialog.ok_button.click()
    ctx.close()
    assert stored_event(event_path).options.match.match_length == 9


def test_options_saved_after_another_station_saved_them_are_refused(
    qtbot: QtBot, event_path: Path
) -> None:
    """The dialog saves against the version it showed (issue 14, item 4): another station's
    save in between is never overwritten, and the dialog says why it stays open."""
    ctx = EventContext(open_database(str(event_path)))
    dialog = EventDialog(ctx=ctx)
    qtbot.addWidget(dialog)
    dialog.show()
    other = open_database(str(event_path))
    with other.Session() as s, s.begin():
        update_event(s, name="Renamed Elsewhere", version=event_version(s))
    other.close()
    dialog.options_form.match_length.setValue(9)
    dialog.ok_button.click()
    assert dialog.isVisible()
    assert "changed on another station" in dialog.error.text()
    ctx.close()
    stored = stored_event(event_path)
    assert (stored.name, stored.options.match.match_length) == ("Renamed Elsewhere", 5)


def add_two_teams(ctx: EventContext) -> tuple[int, int]:
    a = ctx.change(add_team, "A", ("a1", "a2"))
    b = ctx.change(add_team, "B", ("b1", "b2"))
    return a.id, b.id


def record_one_game(ctx: EventContext, a: int, b: int) -> None:
    """A match between the two teams with one game recorded: the match rules are locked."""
    match = ctx.change(create_match, a, b)
    game = Game(1, 1, Side.A, End.BEAR_OFF, 1, Level.SINGLE)
    ctx.change(record_game, match.id, game)


def test_a_locked_option_is_refused_in_the_dialog_and_nothing_changes(
    qtbot: QtBot, event_path: Path
) -> None:
    ctx = EventContext(open_database(str(event_path)))
    record_one_game(ctx, *add_two_teams(ctx))
    dialog = EventDialog(ctx=ctx)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.options_form.match_length.setValue(3)
    qtbot.keyClicks(dialog.venue, "Elsewhere")
    dialog.ok_button.click()
    assert dialog.isVisible()
    assert "cannot change once games are recorded" in dialog.error.text()
    ctx.close()
    stored = stored_event(event_path)
    assert (stored.options.match.match_length, stored.venue) == (5, "")


def test_locked_options_are_disabled_with_the_reason_before_apply(
    qtbot: QtBot, event_path: Path
) -> None:
    ctx = EventContext(open_database(str(event_path)))
    a, b = add_two_teams(ctx)
    before = EventDialog(ctx=ctx)
    qtbot.addWidget(before)
    assert before.options_form.match_length.isEnabled()
    assert before.options_form.pairing_system.isEnabled()
    record_one_game(ctx, a, b)
    dialog = EventDialog(ctx=ctx)
    qtbot.addWidget(dialog)
    dialog.show()
    form = dialog.options_form
    for key in ("match_length", "scoring", "one_cube_threshold", "agreed_lower_forfeit"):
        editor = getattr(form, key)
        assert not editor.isEnabled(), key
        assert "cannot change once games are recorded" in editor.toolTip(), key
    dialog.tabs.setCurrentIndex(1)  # Match rules
    note = dialog.findChild(QLabel, "locked_match")
    assert note is not None and note.isVisible() and note.text().startswith("Locked: the match")
    form.scoring.setCurrentIndex(0)  # the cube fields follow the scoring, but stay locked
    assert not form.no_cube_at_one_away.isEnabled()
    assert form.base.isEnabled() and form.rounds.isEnabled()  # no clock has run, no round paired
    ctx.close()


def test_file_names_drop_characters_no_file_system_takes() -> None:
    assert file_name_for('a/b:c*?"<>|') == "a-b-c------.tandem"
    assert file_name_for("  ") == "event.tandem"


def shown_value(editor: QWidget) -> str:
    """What an option's editor shows, as the director reads it."""
    if isinstance(editor, QCheckBox):
        return "on" if editor.isChecked() else "off"
    if isinstance(editor, QComboBox):
        return editor.currentText()
    if isinstance(editor, QAbstractSpinBox):
        return editor.text()
    assert isinstance(editor, TieBreakList)
    return ", ".join(tie_break_name(tb) for tb in editor.tie_breaks())


def says_the_same(note: str, shown: str) -> bool:
    a, b = note.lower(), shown.lower()
    numbers = re.findall(r"\d+", a)
    return a in b or b in a or (bool(numbers) and numbers == re.findall(r"\d+", b))


def test_every_shown_default_is_what_the_form_shows_for_event_options(qtbot: QtBot) -> None:
    """The "Default: …" under each option names EventOptions()'s value as its editor shows it,
    so a default changed in the domain cannot leave stale words on screen."""
    form = OptionsForm()
    qtbot.addWidget(form)
    form.set_options(EventOptions())
    assert form.options() == EventOptions()
    notes = [w.text() for w in form.findChildren(QLabel)]
    for key, (_label, explanation, _default) in EXPLANATIONS.items():
        (note,) = (n for n in notes if n.startswith(f"{explanation} Default: "))
        default = note.removeprefix(f"{explanation} Default: ").removesuffix(".")
        shown = shown_value(getattr(form, key))
        assert says_the_same(default, shown), (key, default, shown)


BUILD_WATCHED = """
import sys
from pathlib import Path
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
app = QApplication([])
from director.ui.event_dialog import EventDialog
target = Path(sys.argv[1]) / "night.tandem"
dialog = EventDialog(folder=target.parent)
dialog.show()
dialog.name.setText("Night")
dialog.set_path(str(target))
seen = []
timer = QTimer()
timer.setInterval(5)
timer.timeout.connect(lambda: seen.append(target.exists()))
timer.start()
dialog.ok_button.click()
timer.stop()
assert dialog.database is not None and target.exists()
dialog.database.close()
print(seen.count(False))
"""


def test_the_window_keeps_running_while_a_new_event_file_is_built(tmp_path: Path) -> None:
    """Building the new event's file (its schema written by every migration: a quarter of a
    second in a fresh process, more on a slow disk) runs off the GUI thread (issue 14 point 5):
    a timer of the app ticks while the file is not there yet. A fresh process, because there
    the build is long enough to be waited for with the window painting."""
    done = subprocess.run(
        [sys.executable, "-c", BUILD_WATCHED, str(tmp_path)],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout.split()[-1]) > 0  # ticks while the file was being built


def test_the_clock_lock_says_which_matches_keep_a_log_and_their_clocks_can_be_reset(
    qtbot: QtBot, event_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue #24: "while a match's clocks are running" of clocks paused and reset, and no
    reset action."""
    from PySide6.QtWidgets import QInputDialog, QPushButton

    from director.domain.clock import MatchClock
    from director.services.clocks import append_events

    ctx = EventContext(open_database(str(event_path)))
    a, b = add_two_teams(ctx)
    match = ctx.change(create_match, a, b, table=2)
    clock = MatchClock(TimeControl(120, 12), lambda: 0)
    clock.set_first_mover(1, Side.A, 0)
    with ctx.db.Session() as session, session.begin():  # a clock window ran for it once
        append_events(session, match.id, 0, clock.events)
    dialog = EventDialog(ctx=ctx)
    qtbot.addWidget(dialog)
    dialog.show()
    form = dialog.options_form
    note = dialog.findChild(QLabel, "locked_time_control")
    assert note is not None and "running" not in note.text()
    tabs = dialog.tabs
    tabs.setCurrentIndex(next(i for i in range(tabs.count()) if tabs.widget(i).isAncestorOf(note)))
    assert "table 2" in note.text() and not form.base.isEnabled()
    reset = dialog.findChild(QPushButton, "resetClocks")
    assert reset is not None and reset.isVisibleTo(dialog)
    monkeypatch.setattr(QInputDialog, "getText", lambda *_a, **_k: ("new clock tonight", True))
    reset.click()
    assert form.base.isEnabled() and not reset.isVisibleTo(dialog)
    assert not note.isVisibleTo(dialog)
    form.base.setValue(300)
    dialog.ok_button.click()
    ctx.close()
    assert stored_event(event_path).options.time_control.base_seconds == 300


def test_a_folder_chosen_before_the_name_still_names_the_file_after_the_event(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue #24 point 5: Choose… first (the dialog proposed event.tandem), then the name: the
    file stayed event.tandem whatever the event's name."""
    from PySide6.QtWidgets import QFileDialog

    other = tmp_path / "club"
    other.mkdir()
    dialog = new_dialog(qtbot, tmp_path)
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", lambda *_a, **_k: (str(other / "event.tandem"), "")
    )
    dialog.choose_path()
    qtbot.keyClicks(dialog.name, "Autumn Tandem")
    assert dialog.path.text() == str(other / "Autumn Tandem.tandem")
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", lambda *_a, **_k: (str(other / "mine.tandem"), "")
    )
    dialog.choose_path()  # a name of the director's own is kept
    qtbot.keyClicks(dialog.name, " 2026")
    assert dialog.path.text() == str(other / "mine.tandem")


def test_the_new_event_dialog_offers_the_format_and_an_individual_clock(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """#28: the dialog offers Tandem or Individual on its first tab; an individual event's
    clock is a reserve per match point with a simple delay (RULES §10), and the options only
    a Tandem pair has (rule 4′, the one-cube rule, rule 5′) are disabled with the format."""
    dialog = new_dialog(qtbot, tmp_path)
    form = dialog.options_form
    assert dialog.tabs.widget(0).isAncestorOf(form.format)
    assert [form.format.itemText(i) for i in range(form.format.count())] == [
        "Tandem",
        "Individual",
    ]
    assert form.one_cube_threshold.isEnabled() and form.winner_required.isEnabled()
    form.format.setCurrentIndex(form.format.findData(Format.INDIVIDUAL.value))
    for key in ("winner_required", "one_cube_threshold", "no_cube_at_one_away"):
        assert not getattr(form, key).isEnabled(), key
    assert not form.agreed_lower_forfeit.isEnabled()  # a flag loses the match (§10)
    clock = next(t for t in form.tabs if t.title == "Clock").widget
    labels = [w.text() for w in clock.findChildren(QLabel) if w.isVisibleTo(clock)]
    assert "Reserve per match point" in labels and "Delay" in labels
    assert not form.preset.isVisibleTo(clock)  # the presets are a game's clock
    assert form.time_control() == TimeControl(120, 12, ClockMode.DELAY)
    form.match_length.setValue(7)
    assert "14 min" in form.reserve_example.text()  # a 7-point match: 7 × 2 min each
    qtbot.keyClicks(dialog.name, "Thursday Individual")
    with qtbot.waitSignal(dialog.accepted):
        dialog.ok_button.click()
    assert dialog.database is not None
    dialog.database.close()
    info = stored_event(tmp_path / "Thursday Individual.tandem")
    assert info.options.match.format is Format.INDIVIDUAL
    assert info.options.time_control == TimeControl(120, 12, ClockMode.DELAY)
    assert info.options.match.match_length == 7


def test_back_to_tandem_the_clock_is_a_game_s_again(qtbot: QtBot) -> None:
    form = OptionsForm()
    qtbot.addWidget(form)
    form.format.setCurrentIndex(form.format.findData(Format.INDIVIDUAL.value))
    form.format.setCurrentIndex(form.format.findData(Format.TANDEM.value))
    assert not form.preset.isHidden() and form.one_cube_threshold.isEnabled()
    assert form.options() == EventOptions()


def test_an_individual_events_match_points_offer_no_draw(qtbot: QtBot) -> None:
    """#28: the Standings tab offered "Win 2, draw 1, loss 0" and explained "a draw" for a
    format whose matches are never drawn (RULES §10); back to Tandem, the draw is offered."""
    form = OptionsForm()
    qtbot.addWidget(form)

    def said() -> list[str]:
        box = form.match_points
        items = [box.itemText(i) for i in range(box.count())]
        return [*items, box.toolTip(), form.notes["match_points"].text()]

    assert all("draw" in text for text in said()[:2])
    form.format.setCurrentIndex(form.format.findData(Format.INDIVIDUAL.value))
    assert said()[:2] == ["Win 2, loss 0", "Win 1, loss 0"]
    assert not [text for text in said() if "draw" in text]
    form.format.setCurrentIndex(form.format.findData(Format.TANDEM.value))
    assert said()[:2] == ["Win 2, draw 1, loss 0", "Win 1, draw ½, loss 0"]


def test_the_format_is_locked_once_an_entrant_is_registered(qtbot: QtBot, event_path: Path) -> None:
    ctx = EventContext(open_database(str(event_path)))
    ctx.change(add_team, "A", ("a1", "a2"))
    dialog = EventDialog(ctx=ctx)
    qtbot.addWidget(dialog)
    assert not dialog.options_form.format.isEnabled()
    assert "once teams are registered" in dialog.options_form.format.toolTip()
    ctx.close()
    db = open_database(str(event_path))
    changed = replace(EventOptions(), match=MatchRules(format=Format.INDIVIDUAL))
    with db.Session() as s, s.begin(), pytest.raises(UserError, match="once teams are registered"):
        update_event(s, options=replace(changed, time_control=TimeControl(120, 12)))
    db.close()


def test_a_knockout_is_created_with_the_bracket_plan_chosen_or_imported(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """#29: the Pairings tab offers the ready-made plans, imports a plan's JSON (a bad file is
    named beside the plan and changes nothing) and exports the chosen one; the event keeps it."""
    from director.domain.brackets.plan import plan_from_json, ready_made
    from director.services.brackets import event_plan
    from tests.ui.app_helpers import read_back

    dialog = new_dialog(qtbot, tmp_path)
    qtbot.keyClicks(dialog.name, "Cup")
    chooser = dialog.plan_chooser
    assert not chooser.isEnabled()  # a Swiss has no brackets
    select_pairing = dialog.options_form.pairing_system
    select_pairing.setCurrentIndex(select_pairing.findData(PairingSystem.KNOCKOUT.value))
    assert chooser.isEnabled()
    chooser.combo.setCurrentIndex(chooser.combo.findData("consolation-last-chance"))
    assert chooser.summary.text().startswith("consolation-last-chance: main 7/7/9/11")
    bad = tmp_path / "bad.json"
    bad.write_text('{"name": "x", "brackets": []}', encoding="utf-8")
    assert not chooser.import_file(str(bad))
    assert "needs its main bracket" in chooser.error.text()
    pipe = tmp_path / "pipe.json"
    os.mkfifo(pipe)  # never opened to wait for a writer
    assert not chooser.import_file(str(pipe))
    assert chooser.error.text() == (
        "Not imported: pipe.json is not a regular file (a pipe or a device): not a bracket "
        "plan's file"
    )
    assert chooser.plan() == ready_made("consolation-last-chance")
    exported = tmp_path / "exported.json"
    chooser.export_file(str(exported))
    assert plan_from_json(exported.read_text(encoding="utf-8")) == chooser.plan()
    chooser.export_file(str(tmp_path / "gone" / "plan.json"))  # was a crash ("This is a bug")
    assert chooser.error.text().startswith("Not exported: cannot write ")
    gone = tmp_path / "gone"
    assert chooser.error.text().endswith(f"plan.json: the folder {gone} does not exist")
    chooser.export_file(str(exported))
    assert chooser.error.text() == ""  # a good export clears the reason
    mine = tmp_path / "mine.json"
    mine.write_text(
        '{"name": "club night", "brackets": [{"name": "main", "lengths": [7, 9, 11]},'
        ' {"name": "consolation", "lengths": [5, 7],'
        ' "feeds": [{"source": "main", "round": 1, "into": 1}]}]}',
        encoding="utf-8",
    )
    assert chooser.import_file(str(mine)) and chooser.error.text() == ""
    assert chooser.combo.currentText() == "club night (imported)"
    with qtbot.waitSignal(dialog.accepted):
        dialog.ok_button.click()
    assert dialog.database is not None
    dialog.database.close()
    stored = read_back(tmp_path / "Cup.tandem", event_plan)
    assert stored.name == "club night" and stored.brackets[0].lengths == (7, 9, 11)


def test_a_bracket_plan_saved_as_a_template_is_offered_next_time(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """#29: the director's own plan, imported once and saved as a template, is in the list of
    the next New event (the app's settings keep it by name; a damaged entry is left out)."""
    from director.domain.brackets.plan import plan_to_json
    from director.ui.plan_chooser import TEMPLATES_KEY, PlanChooser
    from tests.ui.app_helpers import throwaway_settings

    settings = throwaway_settings(tmp_path)
    first = PlanChooser(settings=settings)
    qtbot.addWidget(first)
    mine = tmp_path / "mine.json"
    mine.write_text(
        '{"name": "club night", "brackets": [{"name": "main", "lengths": [7, 9, 11]}]}',
        encoding="utf-8",
    )
    assert first.import_file(str(mine))
    plan = first.plan()
    first.save_template()
    assert first.summary.text().endswith("(saved as a template)")
    stored = settings.value(TEMPLATES_KEY)
    settings.setValue(TEMPLATES_KEY, str(stored)[:-1] + ', "not a plan"]')
    dialog = EventDialog(None, folder=tmp_path, settings=settings)
    qtbot.addWidget(dialog)
    chooser = dialog.plan_chooser
    index = chooser.combo.findText("club night (template)")
    assert index >= 0 and chooser.combo.count() == 5  # the four ready-made and the template
    chooser.combo.setCurrentIndex(index)
    assert plan_to_json(chooser.plan()) == plan_to_json(plan)


def test_a_refused_plan_leaves_the_options_as_they_were(qtbot: QtBot, event_path: Path) -> None:
    """#29: the Event options dialog saves the options and the bracket plan as one change: a
    plan the event refuses (its brackets, once a round is paired) leaves the venue and the
    match length typed beside it unsaved too, not half the edit applied."""
    from director.services.brackets import event_plan
    from director.services.events import get_event
    from director.services.rounds import pair_next_round
    from tests.ui.app_helpers import read_back

    ctx = EventContext(open_database(str(event_path)))
    options = ctx.read(get_event).options
    ctx.change(update_event, options=replace(options, pairing_system=PairingSystem.KNOCKOUT))
    for name in ("A", "B", "C", "D"):
        ctx.change(add_team, name, (f"{name}1", f"{name}2"))
    ctx.change(pair_next_round)
    dialog = EventDialog(ctx=ctx)
    qtbot.addWidget(dialog)
    dialog.show()
    chooser = dialog.plan_chooser
    assert chooser.plan().name == "single"
    chooser.combo.setCurrentIndex(chooser.combo.findData("consolation"))
    qtbot.keyClicks(dialog.venue, "Elsewhere")
    dialog.options_form.match_length.setValue(9)
    dialog.ok_button.click()
    assert dialog.isVisible()
    assert "only their match lengths can change now" in dialog.error.text()
    ctx.close()
    stored = stored_event(event_path)
    assert (stored.venue, stored.options.match.match_length) == ("", 5)
    assert read_back(event_path, event_plan).name == "single"


def test_the_bracket_plan_is_the_one_way_to_choose_brackets(qtbot: QtBot, event_path: Path) -> None:
    """#29: the options have no "Consolation bracket" switch beside the plan any more (it was
    greyed out for a knockout and meant nothing elsewhere); the plan chosen says whether there
    is a consolation, and an event's stored switch goes through the form unchanged."""
    from director.services.brackets import event_plan
    from director.services.events import get_event
    from tests.ui.app_helpers import read_back

    form = OptionsForm()
    qtbot.addWidget(form)
    labels = [w.text() for w in form.findChildren(QLabel)]
    assert not any("Consolation" in text for text in labels)
    assert not hasattr(form, "consolation") and "consolation" not in EXPLANATIONS
    form.set_options(replace(EventOptions(), consolation=True))
    assert form.options().consolation  # what the file holds is kept, not reset
    ctx = EventContext(open_database(str(event_path)))
    options = ctx.read(get_event).options
    ctx.change(update_event, options=replace(options, pairing_system=PairingSystem.KNOCKOUT))
    dialog = EventDialog(ctx=ctx)
    qtbot.addWidget(dialog)
    dialog.show()
    chooser = dialog.plan_chooser
    assert chooser.isEnabled()
    chooser.combo.setCurrentIndex(chooser.combo.findData("consolation-last-chance"))
    dialog.ok_button.click()
    assert not dialog.isVisible(), dialog.error.text()
    ctx.close()
    assert read_back(event_path, event_plan).name == "consolation-last-chance"
    assert stored_event(event_path).options.consolation  # the old field follows the plan
