"""The public display: pairings with live scores, then standings, rotating; follows changes."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from director.domain.changes import Area, Changes
from director.domain.rules import End, Level, Side
from director.domain.scoring import Game
from director.services import games, matches, standings
from director.services.rounds import pair_next_round
from director.services.simulate import SimulationSettings, simulate_event
from director.store.engine import open_database
from director.ui.context import EventContext
from director.ui.public_display import PublicDisplay
from director.ui.slide_view import rows_per_slide
from tests.ui.app_helpers import make_window, throwaway_settings

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")


@pytest.fixture(scope="module")
def sim_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two rounds played, the third paired and not started (built once, copied per test)."""
    path = tmp_path_factory.mktemp("display") / "sim.tandem"
    db = simulate_event(str(path), SimulationSettings(teams=40, rounds=3, rounds_to_play=2))
    with db.Session() as session, session.begin():
        pair_next_round(session)
    db.close()
    return path


@pytest.fixture
def display(qtbot: QtBot, ctx: EventContext) -> PublicDisplay:
    widget = PublicDisplay(ctx)
    qtbot.addWidget(widget)
    widget.resize(1366, 768)
    widget.show()
    return widget


def test_pairings_come_first_then_the_standings(display: PublicDisplay) -> None:
    titles = [s.title for s in display.slides]
    assert titles[0] == "Round 3: pairings and live scores"
    assert titles[-1] == "Standings after round 2"  # round 3 is paired, nothing played yet
    pairing_rows = sum(len(s.rows) for s in display.slides if s.title.startswith("Round 3"))
    standing_rows = sum(len(s.rows) for s in display.slides if s.title.startswith("Standings"))
    assert pairing_rows == 20 and standing_rows == 40
    size = rows_per_slide(768)
    assert all(len(s.rows) <= size for s in display.slides)
    assert display.slides[0].page == f"1 / {-(-20 // size)}"
    assert display.view.slide is display.slides[0]


def test_the_standings_slides_show_the_services_order(
    display: PublicDisplay, sim_path: Path
) -> None:
    db = open_database(str(sim_path))
    with db.Session() as session:
        view = standings.standings(session)
    db.close()
    shown = [row[1] for s in display.slides if s.title.startswith("Standings") for row in s.rows]
    assert shown == [line.team.name for line in view.lines]
    first = next(s for s in display.slides if s.title.startswith("Standings"))
    assert [c.title for c in first.columns][-2:] == ["Buchholz", "Points difference"]


def test_it_rotates_on_its_timer_and_on_keys(qtbot: QtBot, display: PublicDisplay) -> None:
    display.set_seconds(1)
    count = len(display.slides)
    with qtbot.waitSignal(display.timer.timeout, timeout=3000):
        pass
    assert display.index == 1 % count
    qtbot.keyClick(display, Qt.Key.Key_Left)
    assert display.index == 0
    qtbot.keyClick(display, Qt.Key.Key_Left)
    assert display.index == count - 1
    qtbot.keyClick(display, Qt.Key.Key_Space)
    assert not display.timer.isActive()


def test_a_recorded_game_shows_within_a_moment(
    qtbot: QtBot, display: PublicDisplay, ctx: EventContext
) -> None:
    match = next(m for m in ctx.read(matches.list_matches, 3) if m.team_b is not None)
    game = Game(1, 1, Side.B, End.BEAR_OFF, cube=2, level=Level.GAMMON)
    ctx.change(games.record_game, match.id, replace(game, pair=0))

    def row() -> tuple[str, ...]:
        return next(r for s in display.slides for r in s.rows if r[0] == str(match.table))

    # the display waits out a burst of changes (longer when a read is slow): not a fixed time
    qtbot.waitUntil(lambda: row()[2] == "0 – 4", timeout=10000)
    assert row()[1:] == (match.names[0], "0 – 4", match.names[1], "pair 1")


def test_it_pages_again_when_the_window_shrinks(qtbot: QtBot, display: PublicDisplay) -> None:
    before = len(display.slides)
    display.resize(640, 300)
    qtbot.waitUntil(lambda: len(display.slides) > before)
    assert all(len(s.rows) <= rows_per_slide(300) for s in display.slides)


def test_it_goes_full_screen_on_a_chosen_screen(qtbot: QtBot, display: PublicDisplay) -> None:
    names = display.screen_names()
    assert len(names) == len(QGuiApplication.screens()) and names[0].startswith("Screen 1:")
    display.show_on(0)
    qtbot.waitUntil(display.isFullScreen)
    assert display.screen() is QGuiApplication.screens()[0]
    qtbot.keyClick(display, Qt.Key.Key_Escape)
    assert not display.isFullScreen()


def test_an_event_without_rounds_shows_a_waiting_slide(qtbot: QtBot, template_event: Path) -> None:
    ctx = EventContext(open_database(str(template_event)))
    display = PublicDisplay(ctx)
    qtbot.addWidget(display)
    display.show()
    assert display.slides == []
    assert display.view.slide is None
    assert not display.grab().isNull()
    display.close()
    ctx.close()


def test_titles_say_what_the_numbers_are(
    qtbot: QtBot, display: PublicDisplay, sim_path: Path
) -> None:
    """Risk 5: right after round 3 is published the display said "Standings, round 3" and the
    PDF "after round 3" over the numbers of round 2. A round part-played says so."""
    from director.services.reports import render
    from tests.reports.pdfcheck import pdf_text

    db = open_database(str(sim_path))
    try:
        with db.Session() as session:
            assert "Standings after round 2" in pdf_text(render(session, "standings"))
            after_two = standings.standings(session, 2)
            assert standings.standings(session).lines == after_two.lines
        with db.Session() as session, session.begin():
            match = matches.list_matches(session, 3)[0]
            for board in (1, 2):
                game = Game(1, board, Side.A, End.BEAR_OFF, cube=4, level=Level.SINGLE)
                games.record_game(session, match.id, game)
    finally:
        db.close()
    display.ctx.changed.emit(Changes.match(match.id))
    qtbot.waitUntil(lambda: display.slides[-1].title != "Standings after round 2")
    assert display.slides[-1].title == "Standings during round 3 (1 of 20 matches decided)"
    with display.ctx.db.Session() as session:
        text = pdf_text(render(session, "standings"))
    assert "Standings during round 3 (1 of 20 matches decided)" in text


def test_a_change_just_before_the_event_closes_reads_nothing_after_it(
    qtbot: QtBot, sim_path: Path, tmp_path: Path
) -> None:
    """The display's pending refresh (a burst of changes is read once, a moment later) must
    not read an event that has been closed and whose file is gone: it raised in the event loop
    of whatever ran next (seen in CI as a failure of an unrelated test)."""
    moved = tmp_path / "gone" / "event.tandem"
    moved.parent.mkdir()
    sim_path.rename(moved)
    ctx = EventContext(open_database(str(moved)))
    display = PublicDisplay(ctx)
    qtbot.addWidget(display)
    ctx.changed.emit(Changes.of(Area.RESULTS))
    assert display.pending.isActive()
    ctx.close()
    for path in moved.parent.iterdir():
        path.unlink()
    moved.parent.rmdir()
    qtbot.wait(2 * 300 + 5 * display.last_refresh_ms + 200)  # past the pending refresh
    qtbot.keyClick(display, Qt.Key.Key_Right)  # and the rotation


def test_closing_the_event_deletes_its_display_here_not_in_the_garbage_collector(
    qtbot: QtBot, sim_path: Path, tmp_path: Path
) -> None:
    """The window's display, closed with its event, is deleted on the GUI thread. Left to the
    cycle collector, it was destroyed with its timers wherever a collection ran next, a
    database worker's thread too ("Timers cannot be stopped from another thread", seen after
    the hostile-names walk; Qt may crash on it)."""
    window = make_window(qtbot, throwaway_settings(tmp_path))
    assert window.open_target(str(sim_path), remember=False)
    display = window.show_public_display()
    assert display is not None
    window.close_event()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert not shiboken6.isValid(display)


def test_a_knockout_shows_each_bracket_with_what_is_played_now_and_next(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """#29: a knockout night's brackets on the projector, one slide (or more) per bracket:
    the matches being played with their tables, the ones waiting, and the places when known."""
    from director.domain.brackets.plan import ready_made
    from director.domain.rules import PairingSystem

    path = tmp_path / "night.tandem"
    plan = ready_made("consolation-last-chance")
    settings = SimulationSettings(teams=12, system=PairingSystem.KNOCKOUT, rounds_to_play=1,
                                  plan=plan, forfeit_rate=0.0)  # fmt: skip
    simulate_event(str(path), settings).close()
    db = open_database(str(path))
    with db.Session() as session, session.begin():
        paired = [m for m in pair_next_round(session).value.matches if m.team_b is not None]
    ctx = EventContext(db)
    try:
        widget = PublicDisplay(ctx)
        qtbot.addWidget(widget)
        widget.resize(1366, 768)
        widget.show()
        titles = [s.title for s in widget.slides]
        assert "Main bracket" in titles and "Consolation bracket" in titles
        main = next(s for s in widget.slides if s.title == "Main bracket")
        assert [c.title for c in main.columns] == ["Round", "Table", "Player A", "Score",
                                                    "Player B", ""]  # fmt: skip
        playing = [r for r in main.rows if r[1]]
        tables = {m.table for m in paired if m.bracket == "main"}
        assert {int(r[1]) for r in playing} == tables
        assert all(r[-1] == "playing" for r in playing)
        assert any(r[-1] == "waiting" and "…" in (r[2], r[4]) for r in main.rows)
    finally:
        widget.close()
        ctx.close()
