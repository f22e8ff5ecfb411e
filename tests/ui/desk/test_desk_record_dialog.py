"""Record-game and correct-game dialogs: fields per scoring, live points, refusals write nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLineEdit, QWidget
from pytestqt.qtbot import QtBot

from director.domain.errors import UserError
from director.domain.rules import End, Level, MatchRules, Scoring, Side
from director.domain.scoring import Game
from director.services.audit import entries
from director.store.engine import open_database
from director.ui.desk.record_dialog import CorrectGameDialog, RecordGameDialog
from tests.event_files import stored_match
from tests.ui.app_helpers import type_chars
from tests.ui.desk.desk_helpers import MakeDesk, open_dialog, record_behind_the_desk

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


def choose(combo: QWidget, data: object) -> None:
    """Pick the entry whose data is `data`."""
    assert isinstance(combo, QComboBox)
    index = combo.findData(data)
    assert index >= 0, data
    combo.setCurrentIndex(index)


def type_into(qtbot: QtBot, edit: object, text: str) -> None:
    assert isinstance(edit, QLineEdit)
    edit.clear()
    type_chars(edit, text)


def save(qtbot: QtBot, dialog: RecordGameDialog) -> None:
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)


def test_standard_game_shows_its_points_before_saving(
    qtbot: QtBot, desk_factory: MakeDesk, event_path: Path
) -> None:
    page = desk_factory()
    dialog = open_dialog(page, 1)
    form = dialog.form
    assert form.inputs["cube"].isVisibleTo(dialog) and form.inputs["level"].isVisibleTo(dialog)
    assert not form.inputs["loser_borne_off"].isVisibleTo(dialog)
    choose(form.winner, "B")
    form.cube.setValue(2)
    choose(form.level, "gammon")
    assert dialog.preview.text() == "Gammonites scores 4 points → score 0–4"
    save(qtbot, dialog)
    assert dialog.result() == dialog.DialogCode.Accepted
    assert page.match is not None
    stored = stored_match(event_path, page.match.id)
    assert stored.games == (Game(1, 1, Side.B, End.BEAR_OFF, cube=2, level=Level.GAMMON),)
    assert page.scoreline.score.text() == "0 – 4"


def test_the_cube_is_prefilled_from_the_board(qtbot: QtBot, desk_factory: MakeDesk) -> None:
    page = desk_factory()
    cube = page.boards[1].cube
    qtbot.mouseClick(cube.offer_a, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(cube.take_button, Qt.MouseButton.LeftButton)
    dialog = open_dialog(page, 2)
    assert dialog.form.cube.value() == 2


def test_no_winner_is_guessed_enter_saves_nothing(
    qtbot: QtBot, desk_factory: MakeDesk, event_path: Path
) -> None:
    """Risk 2: the cube owner (else team A) used to be pre-selected, so Record → Enter saved a
    guess. Nothing is saved until the director has chosen the winner."""
    page = desk_factory()
    cube = page.boards[1].cube
    qtbot.mouseClick(cube.offer_a, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(cube.take_button, Qt.MouseButton.LeftButton)  # B owns the 2-cube
    dialog = open_dialog(page, 2, winner=None)
    assert dialog.form.winner.currentIndex() == -1
    assert dialog.form.winner.placeholderText() == "choose who won"
    assert not dialog.save_button.isEnabled()
    qtbot.keyClick(dialog, Qt.Key.Key_Return)
    qtbot.keyClick(dialog.form.cube, Qt.Key.Key_Enter)
    assert dialog.isVisible() and page.match is not None
    assert stored_match(event_path, page.match.id).games == ()
    qtbot.keyClicks(dialog.form.winner, "A")  # the keyboard way: type the side's letter
    assert dialog.form.winner.currentData() == "A"
    assert dialog.save_button.isEnabled()
    qtbot.keyClick(dialog, Qt.Key.Key_Return)
    assert [g.winner for g in stored_match(event_path, page.match.id).games] == [Side.A]


def type_cube(qtbot: QtBot, dialog: RecordGameDialog, digits: str) -> None:
    """Tab into the cube box and type, as the director does."""
    spin = dialog.form.cube
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, digits)


def test_a_typed_digit_is_the_cube_value_never_a_prefix(
    qtbot: QtBot, desk_factory: MakeDesk, event_path: Path
) -> None:
    """Risk 1: in the cube combo box "3" picked 32 and, on a 2-cube, "1" picked 16."""
    page = desk_factory()
    dialog = open_dialog(page, 1)
    type_cube(qtbot, dialog, "3")
    assert dialog.form.cube.text() == "3"
    assert "32" not in dialog.preview.text() and not dialog.save_button.isEnabled()
    assert "not a cube value" in dialog.form.errors["cube"].text()
    type_cube(qtbot, dialog, "2")
    assert dialog.preview.text() == "Blue Bar scores 2 points → score 2–0"
    type_cube(qtbot, dialog, "1")
    assert dialog.form.cube.value() == 1
    assert dialog.preview.text() == "Blue Bar scores 1 point → score 1–0"
    type_cube(qtbot, dialog, "5")  # no cube starts with 5: the keystroke is refused
    assert dialog.form.cube.value() == 1 and dialog.form.cube.text() == "1"
    qtbot.keyClick(dialog.form.cube, Qt.Key.Key_Up)  # arrows double and halve
    qtbot.keyClick(dialog.form.cube, Qt.Key.Key_Up)
    assert dialog.form.cube.value() == 4
    qtbot.keyClick(dialog.form.cube, Qt.Key.Key_Down)
    assert dialog.form.cube.value() == 2


@pytest.mark.parametrize(
    "typed", ["²", "٢", "1²", "6٤"], ids=["sup2", "arabic2", "1-sup2", "6-arabic4"]
)
def test_a_cube_typed_in_digits_other_than_0_to_9_is_refused_keystroke_by_keystroke(
    qtbot: QtBot, desk_factory: MakeDesk, typed: str
) -> None:
    """ "²" passed str.isdigit and failed int() inside the spin's validator (the app's "This
    is a bug"); "٢" was read as the 2-cube."""
    page = desk_factory()
    dialog = open_dialog(page, 1)
    spin = dialog.form.cube
    spin.setFocus()
    spin.selectAll()
    type_chars(spin, typed)
    assert spin.text() == (typed.rstrip("²٢٤") or "1")  # the foreign digit is refused
    assert spin.value() == 1
    assert "2 points" not in dialog.preview.text()


def test_a_game_worth_more_than_twice_the_match_asks_first(
    qtbot: QtBot, desk_factory: MakeDesk, event_path: Path
) -> None:
    page = desk_factory(MatchRules(match_length=7))
    dialog = open_dialog(page, 1)
    choose(dialog.form.winner, "B")
    type_cube(qtbot, dialog, "16")
    assert dialog.preview.text() == "Gammonites scores 16 points → score 0–16"
    save(qtbot, dialog)
    assert dialog.confirm_box is not None and dialog.confirm_box.isVisible()
    assert "16 points in a match to 7" in dialog.confirm_box.text()
    assert page.match is not None
    assert stored_match(event_path, page.match.id).games == ()
    (cancel,) = [b for b in dialog.confirm_box.buttons() if b.text() == "Cancel"]
    cancel.click()
    assert dialog.isVisible() and stored_match(event_path, page.match.id).games == ()
    type_cube(qtbot, dialog, "8")  # 8 points: within twice 7, saved without a question
    choose(dialog.form.level, "single")
    save(qtbot, dialog)
    assert [g.cube for g in stored_match(event_path, page.match.id).games] == [8]


def test_time_forfeit_asks_for_borne_off_and_rule_5_prime(
    qtbot: QtBot, desk_factory: MakeDesk, event_path: Path
) -> None:
    page = desk_factory(MatchRules(match_length=7))
    dialog = open_dialog(page, 2)
    form = dialog.form
    choose(form.end, "time")
    form.cube.setValue(2)
    assert form.inputs["loser_borne_off"].isVisibleTo(dialog)
    assert form.inputs["agreed_level"].isVisibleTo(dialog)
    assert not form.inputs["level"].isVisibleTo(dialog)
    type_into(qtbot, form.inputs["loser_borne_off"], "0")
    assert "scores 6 points" in dialog.preview.text()  # 3 × cube (RULES §5)
    choose(form.agreed_level, "gammon")
    assert "scores 4 points" in dialog.preview.text()  # rule 5′: scored as a gammon
    save(qtbot, dialog)
    assert page.match is not None
    (game,) = stored_match(event_path, page.match.id).games
    assert (game.end, game.loser_borne_off, game.agreed_level) == (End.TIME, 0, Level.GAMMON)


def test_rule_5_prime_is_not_offered_when_the_event_does_not_allow_it(
    desk_factory: MakeDesk, event_path: Path
) -> None:
    page = desk_factory(MatchRules(agreed_lower_forfeit=False))
    dialog = open_dialog(page, 1)
    choose(dialog.form.end, "time")
    assert dialog.form.inputs["loser_borne_off"].isVisibleTo(dialog)
    assert not dialog.form.inputs["agreed_level"].isVisibleTo(dialog)
    # and the desk's service refuses one all the same (#25: `new --no-agreed-lower-forfeit`)
    agreed = Game(1, 1, Side.B, End.TIME, loser_borne_off=0, agreed_level=Level.GAMMON)
    assert page.match is not None
    with pytest.raises(UserError, match="this event does not apply rule 5′"):
        record_behind_the_desk(event_path, page.match.id, agreed)


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("abc", "“abc” is not a whole number"),
        ("٣", "“٣” is not a whole number"),  # int() read it as 3
        ("1_0", "“1_0” is not a whole number"),  # int() read it as 10
        ("²", "“²” is not a whole number"),
        ("16", "must be a checker count from 0 to 15, not 16"),
        ("", "missing “checkers the flagged player had borne off”"),
    ],
)
def test_bad_counts_show_their_message_and_write_nothing(
    qtbot: QtBot, desk_factory: MakeDesk, event_path: Path, typed: str, message: str
) -> None:
    page = desk_factory()
    dialog = open_dialog(page, 1)
    choose(dialog.form.end, "time")
    type_into(qtbot, dialog.form.inputs["loser_borne_off"], typed)
    error = dialog.form.errors["loser_borne_off"]
    assert error.isVisibleTo(dialog)
    assert message in error.text()
    assert not dialog.save_button.isEnabled()
    dialog.save()  # the Save key pressed anyway (Enter): still nothing is written
    assert dialog.isVisible()
    assert page.match is not None
    assert stored_match(event_path, page.match.id).games == ()


def test_an_agreed_level_that_is_not_lower_is_refused(
    qtbot: QtBot, desk_factory: MakeDesk, event_path: Path
) -> None:
    page = desk_factory()
    dialog = open_dialog(page, 1)
    choose(dialog.form.end, "time")
    type_into(qtbot, dialog.form.inputs["loser_borne_off"], "2")  # the rule gives a single
    choose(dialog.form.agreed_level, "gammon")
    assert "must be lower than the forfeit" in dialog.form.errors["agreed_level"].text()
    assert not dialog.save_button.isEnabled()


def test_a_used_cube_on_the_dead_board_is_refused_before_saving(
    qtbot: QtBot, desk_factory: MakeDesk, event_path: Path
) -> None:
    backgammon = Game(1, 1, Side.A, End.BEAR_OFF, cube=1, level=Level.BACKGAMMON)
    page = desk_factory(None, backgammon, Game(1, 2, Side.B, End.BEAR_OFF, level=Level.SINGLE))
    qtbot.mouseClick(page.boards[0].cube.offer_b, Qt.MouseButton.LeftButton)
    dialog = open_dialog(page, 2)
    dialog.form.cube.setValue(2)
    assert "the cube is on board 1, dead here" in dialog.problems.text()
    assert not dialog.save_button.isEnabled()
    dialog.form.cube.setValue(1)
    assert dialog.save_button.isEnabled()


def test_another_stations_edit_is_refused_in_the_dialog(
    qtbot: QtBot, desk_factory: MakeDesk, event_path: Path
) -> None:
    page = desk_factory()
    dialog = open_dialog(page, 1)
    assert page.match is not None
    other = Game(1, 2, Side.B, End.BEAR_OFF, level=Level.SINGLE)
    record_behind_the_desk(event_path, page.match.id, other)
    save(qtbot, dialog)
    assert dialog.refusal.isVisible()
    assert "changed on another station" in dialog.refusal.text()
    assert dialog.isVisible()
    assert stored_match(event_path, page.match.id).games == (other,)


def test_simple_pip_squeeze_asks_for_checkers_left(
    qtbot: QtBot, desk_factory: MakeDesk, event_path: Path
) -> None:
    page = desk_factory(MatchRules(scoring=Scoring.SIMPLE_PIP_SQUEEZE))
    dialog = open_dialog(page, 1)
    form = dialog.form
    assert form.inputs["winner_left"].isVisibleTo(dialog)
    assert form.inputs["loser_left"].isVisibleTo(dialog)
    type_into(qtbot, form.inputs["winner_left"], "0")
    type_into(qtbot, form.inputs["loser_left"], "12")
    assert dialog.preview.text() == "Blue Bar scores 1 point and 12 pip points → score 1–0"
    save(qtbot, dialog)
    assert page.match is not None
    (game,) = stored_match(event_path, page.match.id).games
    assert (game.winner_left, game.loser_left) == (0, 12)


def test_a_pass_in_pip_squeeze_opens_the_dialog_for_the_counts(
    qtbot: QtBot, desk_factory: MakeDesk, event_path: Path
) -> None:
    page = desk_factory(MatchRules(scoring=Scoring.SIMPLE_PIP_SQUEEZE))
    cube = page.boards[0].cube
    qtbot.mouseClick(cube.offer_a, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(cube.pass_button, Qt.MouseButton.LeftButton)
    dialog = page.dialog
    assert dialog is not None
    assert dialog.form.current_end() is End.PASS and dialog.form.winner.currentData() == "A"
    assert page.match is not None
    assert stored_match(event_path, page.match.id).games == ()
    type_into(qtbot, dialog.form.inputs["winner_left"], "9")
    type_into(qtbot, dialog.form.inputs["loser_left"], "4")
    assert "-5 pip points" in dialog.preview.text()
    save(qtbot, dialog)
    (game,) = stored_match(event_path, page.match.id).games
    assert (game.end, game.winner, game.cube, game.winner_left) == (End.PASS, Side.A, 1, 9)


def test_killer_pip_squeeze_asks_where_the_checkers_are(
    qtbot: QtBot, desk_factory: MakeDesk
) -> None:
    killer = open_dialog(desk_factory(MatchRules(scoring=Scoring.KILLER_PIP_SQUEEZE)), 1)
    for name in ("loser_home", "loser_outfield", "loser_in_winner_home_or_bar"):
        assert killer.form.inputs[name].isVisibleTo(killer)
    type_into(qtbot, killer.form.inputs["loser_home"], "13")
    type_into(qtbot, killer.form.inputs["loser_outfield"], "2")
    type_into(qtbot, killer.form.inputs["loser_in_winner_home_or_bar"], "0")
    killer.form.cube.setValue(2)
    choose(killer.form.level, "gammon")
    assert "scores 4 points and 68 pip points" in killer.preview.text()  # RULES §6.2 worked
    type_into(qtbot, killer.form.inputs["loser_outfield"], "5")
    assert "cannot have more than 15 checkers" in killer.problems.text()


def test_pin_game_asks_for_the_pip_count(qtbot: QtBot, desk_factory: MakeDesk) -> None:
    pin = open_dialog(desk_factory(MatchRules(match_length=150, scoring=Scoring.PIN_GAME)), 1)
    assert not pin.form.inputs["cube"].isVisibleTo(pin)
    assert pin.form.end.findData("pass") == -1
    assert pin.form.inputs["loser_pips"].isVisibleTo(pin)
    type_into(qtbot, pin.form.inputs["loser_pips"], "40")
    choose(pin.form.level, "gammon")
    assert "scores 80 points" in pin.preview.text()


def test_rules_6_4_pin_game_time_forfeit_offers_rule_5_prime(
    qtbot: QtBot, desk_factory: MakeDesk, event_path: Path
) -> None:
    """RULES §6.4: rule 5′, where the event has it, lowers pin game's × 3 to × 2 or × 1."""
    page = desk_factory(MatchRules(match_length=150, scoring=Scoring.PIN_GAME))
    dialog = open_dialog(page, 1)
    form = dialog.form
    choose(form.end, "time")
    assert form.inputs["agreed_level"].isVisibleTo(dialog)
    type_into(qtbot, form.inputs["loser_borne_off"], "0")
    type_into(qtbot, form.inputs["loser_pips"], "40")
    assert "scores 120 points" in dialog.preview.text()  # the rule: 3 × pip count
    choose(form.agreed_level, "gammon")
    assert "scores 80 points" in dialog.preview.text()  # agreed: 2 × pip count
    save(qtbot, dialog)
    assert page.match is not None
    (game,) = stored_match(event_path, page.match.id).games
    assert (game.end, game.loser_pips, game.agreed_level) == (End.TIME, 40, Level.GAMMON)
    assert page.scoreline.score.text() == "80 – 0"


def test_rules_6_5_chasing_the_girls_time_forfeit_has_no_rule_5_prime(
    desk_factory: MakeDesk,
) -> None:
    page = desk_factory(MatchRules(match_length=7, scoring=Scoring.CHASING_THE_GIRLS))
    dialog = open_dialog(page, 1)
    choose(dialog.form.end, "time")
    assert not dialog.form.inputs["agreed_level"].isVisibleTo(dialog)
    assert "scores 1 point" in dialog.preview.text()


def test_winner_required_shows_the_match_ending(desk_factory: MakeDesk) -> None:
    rules = MatchRules(match_length=3, winner_required=True)
    page = desk_factory(rules)
    dialog = open_dialog(page, 2)
    choose(dialog.form.level, "backgammon")
    assert "The match ends: Blue Bar wins 3–0" in dialog.preview.text()


def test_correcting_a_game_needs_a_reason_and_is_audited(
    qtbot: QtBot, desk_factory: MakeDesk, event_path: Path
) -> None:
    first = Game(1, 1, Side.A, End.BEAR_OFF, cube=1, level=Level.SINGLE)
    page = desk_factory(None, first, Game(1, 2, Side.B, End.BEAR_OFF, level=Level.SINGLE))
    page.table.selectRow(0)
    qtbot.mouseClick(page.edit_button, Qt.MouseButton.LeftButton)
    dialog = page.dialog
    assert isinstance(dialog, CorrectGameDialog)
    assert dialog.form.winner.currentData() == "A" and dialog.form.level.currentData() == "single"
    choose(dialog.form.level, "gammon")
    assert "the match score becomes 2–1" in dialog.preview.text()  # shown before the reason
    assert not dialog.save_button.isEnabled()
    dialog.save()  # Enter pressed anyway: the reason is asked for, nothing is written
    assert dialog.reason_error.isVisibleTo(dialog)
    assert page.match is not None
    assert stored_match(event_path, page.match.id).games[0] == first
    qtbot.keyClicks(dialog.reason, "wrote single, the score sheet says gammon")
    assert "the match score becomes 2–1" in dialog.preview.text()
    save(qtbot, dialog)
    assert stored_match(event_path, page.match.id).games[0].level is Level.GAMMON
    db = open_database(str(event_path))
    with db.Session() as session:
        (line,) = [e for e in entries(session) if e.action == "correct game"]
    db.close()
    assert line.reason == "wrote single, the score sheet says gammon"
    assert page.scoreline.score.text() == "2 – 1"


def test_correct_without_a_selection_says_so(qtbot: QtBot, desk_factory: MakeDesk) -> None:
    page = desk_factory(None, Game(1, 1, Side.A, End.BEAR_OFF, level=Level.SINGLE))
    page.table.clearSelection()
    qtbot.mouseClick(page.edit_button, Qt.MouseButton.LeftButton)
    assert page.dialog is None
    assert "select the game to correct" in page.messages.text


def test_a_correction_ending_the_match_sooner_shows_and_voids_the_later_games(
    qtbot: QtBot, desk_factory: MakeDesk, event_path: Path
) -> None:
    """#12: correcting an early game that would have ended the match sooner was refused while
    later games existed. The desk now shows which later games the correction voids and, once
    the director agrees, removes them with the correction."""
    a, b = Side.A, Side.B
    games = [Game(p, board, w, End.BEAR_OFF, level=Level.SINGLE) for p, board, w in (
        (1, 1, a), (1, 2, b), (2, 1, a), (2, 2, a), (3, 1, a), (3, 2, a))]  # fmt: skip
    page = desk_factory(None, *games)  # a match to 5: 1-1, 3-1, 5-1
    page.table.selectRow(0)
    qtbot.mouseClick(page.edit_button, Qt.MouseButton.LeftButton)
    dialog = page.dialog
    assert isinstance(dialog, CorrectGameDialog)
    dialog.form.cube.setValue(2)
    choose(dialog.form.level, "gammon")
    assert "the match score becomes 6–1" in dialog.preview.text()
    text = dialog.void_label.text()
    assert dialog.void_label.isVisibleTo(dialog)
    assert "this voids 2 later games, removed with the correction" in text
    assert "pair 3, board 1 (won by Blue Bar, bear-off); pair 3, board 2" in text
    assert dialog.problems.isHidden()
    qtbot.keyClicks(dialog.reason, "the score sheet says a gammon on a 2-cube")
    save(qtbot, dialog)
    assert page.match is not None
    assert stored_match(event_path, page.match.id).games == tuple(games)  # asked first
    box = dialog.confirm_box
    assert box is not None and box.isVisible()
    assert "2 later games could not have been played" in box.text()
    (yes,) = [button for button in box.buttons() if button.text() == "Correct and void 2 games"]
    yes.click()
    stored = stored_match(event_path, page.match.id)
    assert [(g.pair, g.board) for g in stored.games] == [(1, 1), (1, 2), (2, 1), (2, 2)]
    assert stored.games[0] == Game(1, 1, a, End.BEAR_OFF, cube=2, level=Level.GAMMON)
    assert dialog.result() == dialog.DialogCode.Accepted
    assert page.scoreline.score.text() == "6 – 1"
    # the desk's Audit… shows the one step: the correction and the two games it voided
    qtbot.mouseClick(page.audit_button, Qt.MouseButton.LeftButton)
    audit = page.audit
    assert audit is not None and audit.isVisible()
    rows = range(audit.table.rowCount())
    what = [audit.table.item(r, 2).text() for r in rows]
    assert [w.split(" at ")[0] for w in what] == [
        "Pair 1, board 1 corrected",
        "Pair 3, board 1 voided",
        "Pair 3, board 2 voided",
    ]
    assert "the score sheet says a gammon on a 2-cube" in audit.table.item(0, 3).text()
    assert what[0].endswith(
        ": won by Blue Bar, bear-off, single, cube 1 → won by Blue Bar, bear-off, gammon, cube 2"
    )
    audit.close()


def test_a_correction_of_a_finished_pip_squeeze_names_the_adjusted_totals(
    qtbot: QtBot, desk_factory: MakeDesk
) -> None:
    """RULES §6.3: the score a correction gives a finished pip-squeeze match is its adjusted
    totals (#25): here 2–2 on game points and 4–2 with A's 28 pip points."""
    rules = MatchRules(match_length=2, scoring=Scoring.KILLER_PIP_SQUEEZE, one_cube_threshold=1)
    page = desk_factory(
        rules,
        Game(1, 1, Side.A, End.BEAR_OFF, level=Level.GAMMON, loser_home=14, loser_outfield=1,
             loser_in_winner_home_or_bar=0),
        Game(1, 2, Side.B, End.RESIGN, level=Level.GAMMON, winner_left=14, loser_left=15),
    )  # fmt: skip
    page.table.selectRow(0)
    qtbot.mouseClick(page.edit_button, Qt.MouseButton.LeftButton)
    dialog = page.dialog
    assert isinstance(dialog, CorrectGameDialog)
    dialog.form.count_edit("loser_outfield").setText("0")
    dialog.form.count_edit("loser_home").setText("15")
    assert "the match score becomes 4–2" in dialog.preview.text(), dialog.preview.text()
