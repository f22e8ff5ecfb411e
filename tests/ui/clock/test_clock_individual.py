"""The clock window of an individual match (RULES §10): one board, one reserve per player for
the whole match, paused between games and never reset; real widgets over a real event file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from director.domain.clock import ClockEvent, EventKind, Phase
from director.domain.rules import (
    ClockMode,
    End,
    EventOptions,
    Format,
    Level,
    MatchRules,
    Side,
    TimeControl,
)
from director.domain.score import Score
from director.domain.scoring import Game
from director.services import clocks, games
from director.services.events import update_event
from director.services.matches import create_match, get_match
from director.services.teams import add_player
from director.store.engine import open_database
from director.ui.context import EventContext
from director.ui.phone_clocks import PhoneClocksView
from tests.event_files import read_back, stored_match
from tests.ui.app_helpers import shown_texts
from tests.ui.clock.clock_helpers import NS, OFFSCREEN_NOISE, FakeTime, key_down, stored_log
from tests.ui.clock.conftest import OpenClock
from tests.ui.desk.desk_helpers import click_answer

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)

A, B = Side.A, Side.B
RESERVE = 10 * 60 * NS  # a match to 5 at 2 minutes a match point


# a Tandem word where a one-board match clock has none: a board's number, the seats A1/B2,
# both boards, "all" of them, teams and pairs
TANDEM_CLOCK_WORDS = re.compile(
    r"\bboards?\b|\bboth\b|\b[AB][12]\b|\ball \(|\bteams?\b|\bpairs?\b", re.IGNORECASE
)


def individual_match(
    path: Path, mode: ClockMode = ClockMode.DELAY, length: int = 5, winners: str = ""
) -> int:
    """A match to `length` between Ana and Cleo, with a single won by each of `winners` ("AAB":
    Ana, Ana, Cleo) recorded before any clock ran."""
    db = open_database(str(path))
    try:
        with db.Session() as s, s.begin():
            options = EventOptions(
                match=MatchRules(match_length=length, format=Format.INDIVIDUAL),
                time_control=TimeControl(120, 12, mode),
            )
            update_event(s, options=options)
            ana, cleo = (add_player(s, name).value.id for name in ("Ana", "Cleo"))
            match_id = create_match(s, ana, cleo, table=1).value.id
            for number, winner in enumerate(winners, start=1):
                game = Game(number, 1, Side(winner), End.BEAR_OFF, level=Level.SINGLE)
                games.record_game(s, match_id, game)
            return match_id
    finally:
        db.close()


def test_one_board_with_the_match_reserve_paused_between_games(
    open_clock: OpenClock, fake_time: FakeTime, event_path: Path
) -> None:
    window = open_clock(match_id=individual_match(event_path))
    assert window.boards[1].isHidden() and not window.boards[0].isHidden()
    assert window.clock.remaining_ns(1, A) == RESERVE
    assert "game 1 · reserve 10 min + 12 s Simple delay" in window.title.text()
    assert "board 2" not in window.keys_hint.text()
    window.refresh()
    face_a = window.boards[0].faces[0].state
    assert (face_a.seat, face_a.player, face_a.team) == ("A", "Ana", "")
    key_down(window, Qt.Key.Key_Z)  # A rolls first
    key_down(window, Qt.Key.Key_Return)
    assert window.clock.running_side(1) is A
    fake_time.wait(60)  # A thinks for a minute: 12 s of delay, then 48 s of reserve
    ctx, match_id = window.ctx, window.match.id
    game = Game(1, 1, A, End.BEAR_OFF, level=Level.SINGLE)
    ctx.change(games.record_game, match_id, game, clock_ns=ctx.clock_times(match_id, 1))
    # paused between games, the reserve kept: not a fresh clock for game 2
    assert window.clock.state.board(1).phase is Phase.PAUSED
    assert window.clock.remaining_ns(1, A) == RESERVE - 48 * NS
    assert window.clock.remaining_ns(1, B) == RESERVE
    assert "game 2" in window.title.text()
    fake_time.wait(300)  # the break between games costs nobody anything
    key_down(window, Qt.Key.Key_Space)  # game 2 starts
    assert window.clock.state.board(1).phase is Phase.RUNNING
    assert window.clock.remaining_ns(1, A) == RESERVE - 48 * NS
    assert window.controller.writer is not None and window.controller.writer.flush()
    kinds = [e.kind for e in stored_log(event_path, match_id)]
    assert EventKind.RESET not in kinds and EventKind.STOP not in kinds  # never reset (§10)


def test_rules_10_a_players_key_between_games_starts_the_opponents_clock_unpaid(
    open_clock: OpenClock, fake_time: FakeTime, event_path: Path
) -> None:
    """#28: between games the window took no key but Space (the player on move at the end of
    the last game ran again); as on a phone, the player who does not open presses their key
    and the opponent's clock runs, and under Fischer nobody gains an increment for it."""
    window = open_clock(match_id=individual_match(event_path, ClockMode.FISCHER))
    key_down(window, Qt.Key.Key_Z)  # A rolls first
    key_down(window, Qt.Key.Key_Return)
    fake_time.wait(10)
    key_down(window, Qt.Key.Key_Z)  # A's move ends: +12 s, B runs
    fake_time.wait(5)
    ctx, match_id = window.ctx, window.match.id
    game = Game(1, 1, A, End.BEAR_OFF, level=Level.SINGLE)
    ctx.change(games.record_game, match_id, game, clock_ns=ctx.clock_times(match_id, 1))
    assert window.clock.state.board(1).phase is Phase.PAUSED
    before = {side: window.clock.remaining_ns(1, side) for side in (A, B)}
    fake_time.wait(120)
    key_down(window, Qt.Key.Key_Q)  # B presses: A opens game 2
    board = window.clock.state.board(1)
    assert board.phase is Phase.RUNNING and board.on_move is A
    assert {side: window.clock.remaining_ns(1, side) for side in (A, B)} == before  # no +12 s
    fake_time.wait(3)
    key_down(window, Qt.Key.Key_Q)  # B is not on move: nothing
    assert window.clock.state.board(1).on_move is A
    assert window.controller.writer is not None and window.controller.writer.flush()
    kinds = [e.kind for e in stored_log(event_path, match_id)]
    assert kinds[-2:] == [EventKind.FIRST_MOVER, EventKind.RESUME]


def test_rules_10_a_window_opened_between_games_knows_it(
    open_clock: OpenClock, fake_time: FakeTime, event_path: Path
) -> None:
    """Closed between two games and opened again, the window still starts the next game with
    a player's key: it reads "between games" from the log and the recorded games."""
    match_id = individual_match(event_path, ClockMode.FISCHER)
    window = open_clock(match_id=match_id)
    key_down(window, Qt.Key.Key_Z)
    key_down(window, Qt.Key.Key_Return)
    fake_time.wait(10)
    # the clock's events on disk first, as a moment after each key (a game takes minutes)
    assert window.controller.writer is not None and window.controller.writer.flush()
    game = Game(1, 1, A, End.BEAR_OFF, level=Level.SINGLE)
    window.ctx.change(
        games.record_game, match_id, game, clock_ns=window.ctx.clock_times(match_id, 1)
    )
    assert window.controller.writer.flush()
    window.close()
    again = open_clock(match_id=match_id)
    assert again.controller.between_games == {1}
    key_down(again, Qt.Key.Key_Z)  # A presses: B opens game 2
    board = again.clock.state.board(1)
    assert board.phase is Phase.RUNNING and board.on_move is B


def test_rules_10_a_clock_started_at_3_2_in_a_7_point_match_gives_each_player_9_minutes(
    open_clock: OpenClock, fake_time: FakeTime, event_path: Path
) -> None:
    """RULES §10's worked example: 14 − 1 × (3 + 2) = 9 minutes each, on the window, after it
    is reopened (the log replayed) and in the clock log a dispute reads; the games recorded
    after the clock started change nothing."""
    match_id = individual_match(event_path, length=7, winners="AABAB")  # 3–2 to Ana
    nine = 9 * 60 * NS
    window = open_clock(match_id=match_id)
    assert window.clock.remaining_ns(1, A) == window.clock.remaining_ns(1, B) == nine
    assert "game 6 · reserve 9 min + 12 s Simple delay" in window.title.text()
    key_down(window, Qt.Key.Key_Z)  # A rolls first
    key_down(window, Qt.Key.Key_Return)
    fake_time.wait(60)  # 12 s of delay, then 48 s of Ana's reserve
    # the clock's events are on disk before the game is recorded, as they are a moment after
    # each key while a game takes minutes (a game recorded before the writer's first commit
    # would count as played before the clock: under a loaded CI the write had not happened)
    assert window.controller.writer is not None and window.controller.writer.flush()
    game = Game(6, 1, A, End.BEAR_OFF, level=Level.SINGLE)  # 4–2 once the clock ran
    window.ctx.change(
        games.record_game, match_id, game, clock_ns=window.ctx.clock_times(match_id, 1)
    )
    assert window.controller.writer.flush()
    window.close()
    again = open_clock(match_id=match_id)
    assert again.clock.remaining_ns(1, A) == nine - 48 * NS
    assert again.clock.remaining_ns(1, B) == nine
    lines = read_back(event_path, lambda s: clocks.match_clock_log(s, match_id))
    assert (lines[0].remaining_a_ns, lines[0].remaining_b_ns) == (nine, nine)


def test_rules_10_a_clock_reset_mid_match_starts_again_at_the_score_it_is_reset_at(
    event_path: Path,
) -> None:
    """The reserve is fixed by the games recorded before the clock's first event; games
    recorded while it ran change nothing, until the director clears the clocks: the next
    clock then starts under way, at 3–2 in a match to 7 (9 minutes)."""
    match_id = individual_match(event_path, length=7)
    db = open_database(str(event_path))
    try:
        with db.Session() as s, s.begin():
            first = ClockEvent(EventKind.FIRST_MOVER, 0, 1, A)
            clocks.append_events(s, match_id, clocks.next_seq(s, match_id), [first])
            for number, winner in enumerate("AABAB", start=1):
                game = Game(number, 1, Side(winner), End.BEAR_OFF, level=Level.SINGLE)
                games.record_game(s, match_id, game)
        with db.Session() as s:
            assert get_match(s, match_id).clock.base_seconds == 14 * 60  # started at 0–0
        with db.Session() as s, s.begin():
            clocks.reset_unfinished_clocks(s, "the event's clock changed")
    finally:
        db.close()
    after = read_back(event_path, lambda s: get_match(s, match_id))
    assert after.clock_start == Score(3, 2) and after.clock.base_seconds == 9 * 60


def test_rules_10_correcting_a_game_played_before_the_clock_re_derives_its_reserve(
    event_path: Path,
) -> None:
    """The games before the clock's first event are fixed by when they were recorded, their
    points by what they say now: Ana's single in game 4 corrected to Cleo's gammon, the 3–2 the
    clock started at becomes 2–4: 14 − 6 = 8 minutes."""
    match_id = individual_match(event_path, length=7, winners="AABAB")
    db = open_database(str(event_path))
    try:
        with db.Session() as s, s.begin():
            first = ClockEvent(EventKind.FIRST_MOVER, 0, 1, A)
            clocks.append_events(s, match_id, clocks.next_seq(s, match_id), [first])
            games.record_game(s, match_id, Game(6, 1, A, End.BEAR_OFF, level=Level.SINGLE))
        with db.Session() as s, s.begin():
            match = get_match(s, match_id)
            assert match.clock_start == Score(3, 2) and match.clock.base_seconds == 9 * 60
            gammon = Game(4, 1, B, End.BEAR_OFF, level=Level.GAMMON)
            games.correct_game(s, match.game_ids[3], gammon, "Cleo won the fourth game")
    finally:
        db.close()
    after = read_back(event_path, lambda s: get_match(s, match_id))
    assert after.clock_start == Score(2, 4) and after.clock.base_seconds == 8 * 60


def test_an_individual_clock_window_names_no_second_board(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime, event_path: Path
) -> None:
    """#28: the window of a one-board match spoke of two: the key editor listed board 2's
    keys and "both boards", the pause button said "Pause all", the board's own "Pause board 1",
    the set-up menu offered board 2 a window of its own, and the key test, the adjust and the
    flag messages named board 1 and seats A1/B1. Each stage's texts are read as shown."""
    window = open_clock(match_id=individual_match(event_path))
    seen: list[str] = []

    def look(*extra: str) -> None:
        window.refresh()
        seen.extend([*shown_texts(window), *extra])

    look()
    window.toggle_key_test()
    look(window.status.text())
    key_down(window, Qt.Key.Key_Space)  # the pause key, in the test
    look(window.status.text())
    window.toggle_key_test()
    key_down(window, Qt.Key.Key_Z)
    key_down(window, Qt.Key.Key_Return)
    look()
    window.adjust(1, A)  # refused while it runs
    look(window.status.text())
    key_down(window, Qt.Key.Key_Space)
    look()
    dialog = window.key_dialog()
    qtbot.addWidget(dialog)
    seen.extend(shown_texts(dialog))
    key_down(window, Qt.Key.Key_Space)
    fake_time.wait(12 + 600 + 1)  # A's reserve runs out
    window.tick()
    window.tick()
    qtbot.waitUntil(lambda: window.games.lost_on_time is not None, timeout=2000)
    box = window.games.lost_on_time
    assert box is not None
    seen.append(box.text())
    box.close()
    window.adjust(1, A)  # a flag to correct: pause it first
    look(window.status.text())
    window.pause_board(1)
    look(window.status.text())
    found = {t for t in seen if TANDEM_CLOCK_WORDS.search(t)}
    assert found == set(), found
    assert any("Pause (" in t for t in seen) and any("Start (" in t for t in seen)


def test_a_flag_loses_the_match(
    qtbot: QtBot, open_clock: OpenClock, fake_time: FakeTime, event_path: Path
) -> None:
    """RULES §10: a reserve run out loses the match (not a game, rule 5): the window asks to
    record it, and the match ends with the winner raised to 5."""
    window = open_clock(match_id=individual_match(event_path))
    key_down(window, Qt.Key.Key_Z)
    key_down(window, Qt.Key.Key_Return)
    fake_time.wait(12 + 600 + 1)  # the delay, the whole reserve, and a second more
    window.tick()  # a tick this late follows a stall: the next one logs the flag
    window.tick()
    qtbot.waitUntil(lambda: window.games.lost_on_time is not None, timeout=2000)
    window.refresh()
    assert window.boards[0].state.text() == "Flag fell: A"  # one board: the seat alone
    box = window.games.lost_on_time
    assert box is not None and box.isVisible()
    assert "Ana's reserve ran out: Cleo wins the match" in box.text()
    click_answer(box, "Record: Cleo wins")
    match = stored_match(event_path, window.match.id)
    assert match.outcome.finished and match.outcome.final.b == 5
    assert match.outcome.lost_on_time is A


def test_a_phone_clocks_flag_loses_the_match_at_the_desk(qtbot: QtBot, event_path: Path) -> None:
    """RULES §10 on a phone: the desk's Phone clocks view meets the flag of an individual
    match's phone clock with the same question as the clock window (not rule 5's game entry),
    and records it with record_lost_on_time."""
    match_id = individual_match(event_path)
    ctx = EventContext(open_database(str(event_path)))
    try:
        view = PhoneClocksView(ctx, lambda: None)
        qtbot.addWidget(view)
        box = view.open_forfeit(match_id, 1, A, (0, RESERVE))
        assert isinstance(box, QMessageBox) and box.isVisible()
        assert "Ana's reserve ran out: Cleo wins the match" in box.text()
        click_answer(box, "Record: Cleo wins")
        match = stored_match(event_path, match_id)
        assert match.outcome.finished and match.outcome.final.b == 5
        assert match.outcome.lost_on_time is A
    finally:
        ctx.db.close()
