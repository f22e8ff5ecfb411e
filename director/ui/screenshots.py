"""Render every main page and dialog of a demo event to PNG files (README, reviews).

    python -m director.ui.screenshots OUTDIR [--size 1366x768]

Runs offscreen unless QT_QPA_PLATFORM says otherwise; the user's settings are not touched (a
throwaway settings file is used) and the demo event is built in a temporary folder.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings, QSize, Qt, QtMsgType, qInstallMessageHandler
from PySide6.QtGui import QImage, QPalette, QPixmap
from PySide6.QtWidgets import QApplication, QDialog, QWidget

from director.domain.numbers import typed_number
from director.store.targets import EXTENSION
from director.ui.pages import page_index

if TYPE_CHECKING:
    from director.domain.event import MatchInfo
    from director.domain.scoring import Game
    from director.ui.context import EventContext
    from director.ui.main_window import MainWindow

SAMPLE_CSV = (
    "team,player1,player2,club,rating,seed\n"
    "Moonlight Primes,Ana Costa,Ben Dahl,North,1650,\n"
    "The Doublers,Cleo Evans,Dev Fischer,South,1720,\n"
    "Checkered Past,Eva Greco,,North,,\n"
    "Backgammon Bandits,Femi Holm,Gus Ivanova,,high,\n"
    "Pointless,Hana Jensen,Ivo Kaya,Harbour,1580,\n"
    "The Doublers,Jade Larsen,Kofi Moreau,,,\n"
    "Late Hitters,Lena Novak,Milo Ortiz,South,1610,\n"
)
# what the offscreen platform says about window-manager features it lacks: not our problem
OFFSCREEN_NOISE = ("This plugin does not support",)


def _quiet(kind: QtMsgType, _context: object, message: str) -> None:
    if not message.startswith(OFFSCREEN_NOISE):
        sys.stderr.write(f"{message}\n")


def parse_size(text: str) -> tuple[int, int]:
    width, _, height = (typed_number(part) for part in text.lower().partition("x"))
    if width is None or height is None:  # 0-9 only: int() read "١٠٢٤" and "1_024" as 1024
        raise argparse.ArgumentTypeError(f"size {text!r} is not WIDTHxHEIGHT, e.g. 1366x768")
    if width < 640 or height < 480:
        raise argparse.ArgumentTypeError("the size must be at least 640x480")
    return width, height


class Shooter:
    def __init__(self, app: QApplication, folder: Path) -> None:
        self.app = app
        self.folder = folder
        self.saved: list[Path] = []

    def settle(self) -> None:
        for _ in range(5):
            self.app.processEvents()

    def shoot(self, name: str, widget: QWidget) -> None:
        self.settle()
        self.save(f"{len(self.saved) + 1:02d}-{name}", widget.grab())

    def shoot_named(self, name: str, widget: QWidget) -> None:
        """A picture named apart from the numbered ones (the README's individual night)."""
        self.settle()
        self.save(name, widget.grab())

    def save(self, name: str, picture: QImage | QPixmap) -> None:
        """A picture under its own name (a numbered one: `shoot`)."""
        path = self.folder / f"{name}.png"
        if not picture.save(str(path)):
            raise OSError(f"cannot write {path}")
        self.saved.append(path)

    def dialog(self, name: str, make: Callable[[], QDialog | QWidget | None]) -> None:
        widget = make()
        if widget is None:
            return
        widget.show()
        self.shoot(name, widget)
        widget.close()


def run(folder: Path, size: tuple[int, int]) -> list[Path]:
    """Render the shots; the app's style and message handler are put back afterwards."""
    existing = QApplication.instance()
    before = _app_look(existing) if isinstance(existing, QApplication) else None
    previous_handler = qInstallMessageHandler(_quiet)
    try:
        return _render(folder, size)
    finally:
        qInstallMessageHandler(previous_handler)
        app = QApplication.instance()
        if before is not None and isinstance(app, QApplication):
            _restore_look(app, before)


def _app_look(app: QApplication) -> tuple[str, QPalette, str, str, str, str]:
    """What `create_application` changes on an app that was already running (a test's)."""
    names = (app.applicationName(), app.organizationName(), app.organizationDomain())
    return (app.styleSheet(), app.palette(), app.style().name(), *names)


def _restore_look(app: QApplication, look: tuple[str, QPalette, str, str, str, str]) -> None:
    sheet, palette, style, name, organisation, domain = look
    app.setStyleSheet(sheet)
    app.setPalette(palette)
    app.setStyle(style)
    app.setApplicationName(name)
    app.setOrganizationName(organisation)
    app.setOrganizationDomain(domain)


def _render(folder: Path, size: tuple[int, int]) -> list[Path]:
    from director.services.matches import list_matches
    from director.ui.app import create_application
    from director.ui.demo import build_demo_event
    from director.ui.main_window import MainWindow
    from director.ui.pages import PAGES
    from director.ui.teams_page import TeamsPage

    app = create_application(["screenshots"])
    folder.mkdir(parents=True, exist_ok=True)
    shooter = Shooter(app, folder)
    with tempfile.TemporaryDirectory(prefix="tandem-shots-") as tmp:
        work = Path(tmp)
        settings = QSettings(str(work / "settings.ini"), QSettings.Format.IniFormat)
        demo = build_demo_event(work / "demo")
        window = MainWindow(settings)
        window.setWindowState(Qt.WindowState.WindowNoState)  # the offscreen screen is small
        window.setGeometry(0, 0, *size)
        window.show()
        window.recent.add(str(demo), "Demo club night")
        window.start.refresh()
        shooter.shoot("start", window)
        new = window.new_event()
        for index in range(new.tabs.count()):
            new.tabs.setCurrentIndex(index)
            label = new.tabs.tabText(index).replace("&&", "and").replace(" ", "-").lower()
            shooter.shoot(f"new-event-{label}", new)
        new.tabs.setCurrentIndex(0)
        new.name.setText("Spring Tandem")
        new.set_path(str(work / f"spring{EXTENSION}"))
        new.ok_button.click()  # the window opens the new event on its (empty) teams page
        shooter.shoot("teams-empty", window)
        if not window.open_target(str(demo)):
            raise RuntimeError(window.messages.label.text())
        ctx = window.ctx
        assert ctx is not None and window.view is not None
        running: list[int] = []
        for index, spec in enumerate(PAGES):
            window.show_page(index)
            if spec.title == "Match desk":
                matches = ctx.read(list_matches)
                running = [m.id for m in matches if m.games and not m.outcome.finished]
                if running:
                    ctx.match_requested.emit(running[0])
            shooter.shoot(spec.title.lower().replace(" ", "-"), window)
        teams = window.view.page(page_index("teams"))
        assert isinstance(teams, TeamsPage)
        window.show_page(page_index("teams"))
        shooter.dialog("event-options", window.edit_options)
        shooter.dialog("add-teams", teams.add_teams)
        sample = work / "team list.csv"
        sample.write_text(SAMPLE_CSV, encoding="utf-8")
        shooter.dialog("csv-import-preview", lambda: teams.import_csv(str(sample)))
        shooter.dialog("connect-to-server", window.connect_server)
        shooter.dialog("about", window.show_about)
        for topic in ("rules", "options", "keys"):
            shooter.shoot(f"help-{topic}", window.show_help(topic))
        display = window.show_public_display()
        if display is not None:
            display.setGeometry(0, 0, *size)
            shooter.shoot("public-display", display)
            display.close()
        if running:  # the clocks of the match on the desk, as the README shows them
            from director.ui.clock.launch import open_clock_window

            clock = open_clock_window(ctx, running[0], settings=settings, parent=window)
            clock.resize(*size)
            shooter.shoot("clock-window", clock)
            clock.close()
        _desk_shots(shooter, window)
        _director_shots(shooter, window)
        _locked_and_bye_shots(shooter, window, work, size)
        _individual_shots(shooter, work, size)
        window.close()
        shooter.settle()
    return shooter.saved


def _desk_shots(shooter: Shooter, window: MainWindow) -> None:
    """The desk's dialogs: recording a game (no winner chosen yet), a no-show, and the
    pairing preview with scores, seeds and floats."""
    from director.services.matches import list_matches
    from director.ui.desk.match_desk import MatchDeskPage
    from director.ui.no_show_dialog import NoShowDialog
    from director.ui.rounds_page import RoundsPage

    ctx, view = window.ctx, window.view
    assert ctx is not None and view is not None
    window.show_page(page_index("desk"))
    desk = view.page(page_index("desk"))
    assert isinstance(desk, MatchDeskPage)
    matches = ctx.read(list_matches)
    running = [m for m in matches if m.games and not m.outcome.finished]
    if running:
        match = running[0]
        ctx.match_requested.emit(match.id)
        desk.open_record_dialog(2 if 1 in match.outcome.boards_done else 1)
        if desk.dialog is not None:
            shooter.shoot("desk-record-dialog", desk.dialog)
            desk.dialog.reject()
    waiting = [m for m in matches if not m.games and not m.is_bye and m.forfeit_by is None]
    if waiting:
        shooter.dialog("desk-no-show", lambda: NoShowDialog(ctx, waiting[0], window))
    window.show_page(page_index("rounds"))
    rounds = view.page(page_index("rounds"))
    assert isinstance(rounds, RoundsPage)
    rounds.pair_next_round()
    if rounds.dialog is not None:
        shooter.shoot("pairing-preview", rounds.dialog)
        rounds.dialog.reject()


def _director_shots(shooter: Shooter, window: MainWindow) -> None:
    """The director's overrides (#12): a round edited by hand, forbidden pairs, the audit log."""
    from director.services import manual_pairing
    from director.services.manual_pairing import Edit
    from director.services.teams import list_teams
    from director.ui.audit_dialog import AuditDialog
    from director.ui.desk.record_dialog import CorrectGameDialog
    from director.ui.forbidden_pairs_dialog import ForbiddenPairsDialog
    from director.ui.round_dialogs import EditPairingsDialog
    from director.ui.rounds_page import RoundsPage

    ctx, view = window.ctx, window.view
    assert ctx is not None and view is not None
    window.show_page(page_index("rounds"))
    rounds = view.page(page_index("rounds"))
    assert isinstance(rounds, RoundsPage)
    last = rounds.rounds[-1] if rounds.rounds else None
    if last is not None:
        edit = EditPairingsDialog(ctx, last, window, Edit.PAIR)
        edit.second.setCurrentIndex(min(2, edit.second.count() - 1))
        shooter.dialog("rounds-edit-pairings", lambda: edit)
    voiding = _voiding_correction(ctx)
    if voiding is not None:
        match, game_id, game = voiding
        dialog = CorrectGameDialog(ctx, match, game_id, window)
        dialog.form.set_game(game)
        dialog.reason.setText("the score sheet says a backgammon")
        shooter.dialog("desk-correction-voids-later-games", lambda: dialog)
    teams = ctx.read(list_teams)
    if len(teams) >= 4:  # the demo's director keeps two clubmates apart (audited)
        pair = (teams[0].id, teams[3].id)
        ctx.change(manual_pairing.set_forbidden, *pair, True, "same club")
    shooter.dialog("rounds-forbidden-pairs", lambda: ForbiddenPairsDialog(ctx, window))
    shooter.dialog("audit-log", lambda: AuditDialog(ctx, window))


def _locked_and_bye_shots(
    shooter: Shooter, window: MainWindow, work: Path, size: tuple[int, int]
) -> None:
    """Event options once games are played: the match rules disabled with the reason; and a
    round of an odd number of teams, whose bye is at no table."""
    import shiboken6

    from director.services import rounds
    from director.services.simulate import SimulationSettings, simulate_event
    from director.store.engine import open_database
    from director.ui.context import EventContext
    from director.ui.rounds_page import RoundsPage

    options = window.edit_options()
    if options is not None:
        titles = [options.tabs.tabText(i) for i in range(options.tabs.count())]
        options.tabs.setCurrentIndex(next(i for i, t in enumerate(titles) if "Match" in t))
        shooter.dialog("event-options-locked", lambda: options)
    settings = SimulationSettings(teams=7, rounds=4, seed=5, rounds_to_play=1, name="Odd night")
    simulate_event(str(work / f"odd{EXTENSION}"), settings).close()
    ctx = EventContext(open_database(str(work / f"odd{EXTENSION}")))
    try:
        ctx.change(rounds.pair_next_round)
        page = RoundsPage(ctx)
        page.resize(*size)
        page.show()
        shooter.shoot("rounds-bye-at-no-table", page)
        page.close()
        shiboken6.delete(page)  # now, with its refresh filter: not by a later garbage collection
    finally:
        ctx.close()


def _individual_shots(shooter: Shooter, work: Path, size: tuple[int, int]) -> None:
    """An individual night (RULES §10) under way, named apart from the numbered pictures: its
    Rounds page (a round being played: games, Crawford), its Standings page and the first
    page of a finished match's report (drawn by QtPdf, as a preview would)."""
    import shiboken6
    from PySide6.QtPdf import QPdfDocument

    from director.domain.rules import Format
    from director.domain.simulation import simulate_match
    from director.services import games, rounds
    from director.services.matches import list_matches
    from director.services.reports import render
    from director.services.simulate import SimulationSettings, simulate_event
    from director.store.engine import open_database
    from director.ui.context import EventContext
    from director.ui.rounds_page import RoundsPage
    from director.ui.standings_page import StandingsPage

    path = work / f"individual{EXTENSION}"
    settings = SimulationSettings(
        teams=8, format=Format.INDIVIDUAL, rounds=4, seed=28, rounds_to_play=3,
        name="Thursday individual", forfeit_rate=0.0,
    )  # fmt: skip
    simulate_event(str(path), settings).close()
    ctx = EventContext(open_database(str(path)))
    try:
        finished = [m for m in ctx.read(list_matches) if m.outcome.finished and m.games]
        crawford = next((m for m in finished if any(line.crawford for line in m.outcome.lines)),
                        finished[0])  # fmt: skip
        ctx.change(rounds.pair_next_round)
        rng = random.Random(28)
        playing = [m for m in ctx.read(list_matches, 4) if not m.is_bye]
        for match, played in zip(playing, (6, 3, 1, 0), strict=False):
            if played:
                whole = simulate_match(match.rules, rng, 0.5)
                ctx.change(games.record_games, match.id, whole[:played])
        for name, page in (("rounds", RoundsPage(ctx)), ("standings", StandingsPage(ctx))):
            page.resize(*size)
            page.show()
            shooter.shoot_named(f"individual-{name}", page)
            page.close()
            shiboken6.delete(page)
        pdf = work / "match-report.pdf"
        pdf.write_bytes(
            ctx.read(render, "match-report", match=crawford.id, issue_slip_tokens=False)
        )
        document = QPdfDocument()
        if document.load(str(pdf)) != QPdfDocument.Error.None_:
            raise OSError(f"QtPdf cannot read {pdf}")
        shooter.save("individual-match-report", document.render(0, QSize(893, 1263)))
        document.close()
    finally:
        ctx.close()


def _voiding_correction(ctx: EventContext) -> tuple[MatchInfo, int, Game] | None:
    """A finished demo match whose first game, made a bigger win, would have ended the match
    sooner: the correction dialog then names the later games it voids."""
    from dataclasses import replace

    from director.domain.rules import End, Level
    from director.services.games import correction
    from director.services.matches import list_matches

    for match in ctx.read(list_matches):
        if not match.outcome.finished or len(match.games) < 4:
            continue
        first = match.games[0]
        for cube in (2, 4, 8):
            game = replace(first, end=End.BEAR_OFF, cube=cube, level=Level.BACKGAMMON)
            fixed = correction(match, match.game_ids[0], game)
            if fixed.voided and not fixed.problems:
                return match, match.game_ids[0], game
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m director.ui.screenshots",
        description="Render the app's pages and dialogs to PNG.",
    )
    parser.add_argument("outdir", type=Path, help="folder for the PNG files")
    parser.add_argument("--size", type=parse_size, default=(1366, 768), help="window size")
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    for path in run(args.outdir, args.size):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
