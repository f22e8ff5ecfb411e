"""The match desk: one match on one page.

Both boards side by side with their players and cubes, the pair and its one-cube state, the
scoreline with away scores and the MET equity, a place for the clocks, the games, and the
result. Every change goes through `ctx.change`; the page re-reads its match on `ctx.changed`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from director.domain.changes import Changes
from director.domain.errors import UserError
from director.domain.event import MatchInfo
from director.domain.numbers import typed_number
from director.domain.rules import Side
from director.domain.scoring import Game, game_problems
from director.domain.wording import isolated
from director.services import games, live_cube, no_show
from director.services.events import rounds_paired
from director.services.matches import get_match, list_matches
from director.store.engine import display_target
from director.ui.audit_dialog import AuditDialog
from director.ui.context import EventContext
from director.ui.desk.board_panel import BoardPanel
from director.ui.desk.games_panel import GamesPanel
from director.ui.desk.match_picker import MatchPicker
from director.ui.desk.record_dialog import CorrectGameDialog, RecordGameDialog
from director.ui.desk.scoreline import Scoreline
from director.ui.desk.words import side_name, unit_title
from director.ui.elided import ElidedLabel, names_shortened_in
from director.ui.message_bar import MessageBar, ask
from director.ui.no_show_dialog import NoShowDialog
from director.ui.plain import plain_label, tooltip
from director.ui.refresh import RefreshWhenShown
from director.ui.reports.desk_button import MatchPrintButton
from director.ui.style import hint, section_title

# Ctrl+digits switch pages and Ctrl+E opens the event options (main window): the desk keeps clear.
RECORD_KEYS = ("Alt+1", "Alt+2")
UNDO_KEY = "Ctrl+Backspace"
TAKE_BACK_KEY = "Ctrl+Z"  # a pass just recorded, at once; else the undo, with its question
CORRECT_KEY = "F2"
NEXT_TABLE_KEYS = ("Ctrl+PgDown", "Ctrl+PgUp")  # next, previous table of the round
BANNER_STYLE = "padding: 4px 8px; border-radius: 4px; font-size: 11pt; font-weight: bold;"


class MatchDeskPage(QWidget):
    title = "Match desk"

    game_recorded = Signal(int, int)  # match id, board: that board's clock stops
    clock_requested = Signal(int)  # match id: open the clock window for it

    def __init__(
        self,
        ctx: EventContext,
        parent: QWidget | None = None,
        settings: QSettings | None = None,
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.settings = settings  # remembers the match shown, per event, across a restart
        self.match_id: int | None = None
        self.match: MatchInfo | None = None
        self.dialog: RecordGameDialog | None = None
        self.pass_to_take_back: tuple[int, int] | None = None  # the match, its version after
        self.clock_settings: QSettings | None = None  # the clock window's keys (tests: a file)

        self.picker = MatchPicker(self.round_matches)
        self.picker.picked.connect(self.show_match)
        self.picker.cleared.connect(self.show_no_match)
        self.heading = ElidedLabel()  # a long name is shortened, never widens the window
        self.heading.setObjectName("heading")
        self.heading.setStyleSheet("font-size: 14pt; font-weight: bold;")
        self.pair_label = plain_label()
        self.pair_label.setObjectName("pair")
        self.pair_label.setStyleSheet("font-size: 14pt; font-weight: bold;")
        self.scoreline = Scoreline()
        self.cube_state = plain_label()
        self.cube_state.setObjectName("cubeState")
        self.cube_state.setWordWrap(True)
        self.boards = (BoardPanel(1), BoardPanel(2))
        for panel in self.boards:
            panel.record_requested.connect(self.open_record_dialog)
            panel.cube_action_requested.connect(self.cube_action)
        self.clock_area = QGroupBox("Clocks")
        self.clock_area.setObjectName("clockArea")
        self.clock_button = QPushButton("Clock…")
        self.clock_button.setToolTip("Open both boards' clocks of this match in their own window")
        self.clock_button.clicked.connect(self._clock_clicked)
        self.clock_status = QLabel("Both boards' clocks run in their own window.")
        self.clock_status.setWordWrap(True)
        clock_layout = QVBoxLayout(self.clock_area)
        clock_layout.addWidget(self.clock_status)
        clock_layout.addStretch(1)
        clock_layout.addWidget(self.clock_button)
        self.no_show_button = QPushButton("No-show…")
        self.no_show_button.setObjectName("noShow")
        self.no_show_button.clicked.connect(self.open_no_show)
        clock_layout.addWidget(self.no_show_button)
        self.clock_area.setFixedWidth(200)
        self.no_show: NoShowDialog | None = None
        self.print_button = MatchPrintButton(ctx, lambda: self.match, self)
        self.audit_button = QPushButton("Audit…", self)
        self.audit_button.setToolTip("This match's corrections, forfeit and adjustments")
        self.audit_button.clicked.connect(self.open_audit)
        self.audit: AuditDialog | None = None

        self.games_panel = GamesPanel(UNDO_KEY, CORRECT_KEY, self)
        self.games_panel.undo_requested.connect(self.undo_last_game)
        self.games_panel.correction_requested.connect(self.edit_game)
        # the parts tests and the clock window reach for
        self.games = self.games_panel.games
        self.table = self.games_panel.table
        self.undo_button = self.games_panel.undo_button
        self.edit_button = self.games_panel.edit_button
        self.messages = MessageBar(self)
        self.question: QMessageBox | None = None
        self._lay_out()
        self._shortcuts()
        self.refresher = RefreshWhenShown(ctx, self, self.read_again, apply=self.on_event_changed)
        self.refresh()
        self.reload_picker()
        self.show_remembered()

    # -- the match shown, remembered -------------------------------------------------------

    def settings_key(self) -> str:
        """One key per event, without a server's password or a path's slashes."""
        event = hashlib.sha1(display_target(self.ctx.db.target).encode()).hexdigest()[:16]
        return f"desk/match/{event}"

    def show_remembered(self) -> None:
        if self.settings is None or self.match_id is not None:
            return
        saved = typed_number(str(self.settings.value(self.settings_key(), "")))
        if saved is not None:  # a settings file's "²" passed str.isdigit, then int() raised
            self.show_match(saved)

    def _lay_out(self) -> None:
        top = QHBoxLayout()
        top.addWidget(self.heading, 1)
        top.addWidget(self.pair_label)
        top.addWidget(self.audit_button)
        top.addWidget(self.print_button)
        score_row = QHBoxLayout()
        score_row.addWidget(self.scoreline, 1)
        score_row.addWidget(self.clock_area)
        board_row = QHBoxLayout()
        for panel in self.boards:
            board_row.addWidget(panel, 1)
        content = QWidget(self)
        column = QVBoxLayout(content)
        column.setContentsMargins(0, 0, 0, 0)
        column.addLayout(top)
        column.addLayout(score_row)
        column.addWidget(self.cube_state)
        column.addLayout(board_row)
        column.addWidget(self.messages)
        column.addWidget(self.games_panel, 1)
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self._empty_state())
        self.stack.addWidget(content)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 12, 24, 12)
        layout.addWidget(self.picker)
        layout.addWidget(self.stack, 1)

    def _empty_state(self) -> QWidget:
        empty = QWidget(self)
        layout = QVBoxLayout(empty)
        layout.addStretch(1)
        title = section_title("No match chosen", empty)
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        text = hint(
            "Pick a round and a match above, or double-click a pairing on the Rounds page.", empty
        )
        text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(title)
        layout.addWidget(text)
        layout.addStretch(2)
        return empty

    def _shortcuts(self) -> None:
        keys: tuple[tuple[str, Callable[[], object]], ...] = (
            (RECORD_KEYS[0], lambda: self.open_record_dialog(1)),
            (RECORD_KEYS[1], lambda: self.open_record_dialog(2)),
            (UNDO_KEY, self.undo_last_game),
            (TAKE_BACK_KEY, self.take_back),
            (CORRECT_KEY, lambda: self.edit_game(self.games_panel.selected_row())),
            (NEXT_TABLE_KEYS[0], lambda: self.picker.step(1)),
            (NEXT_TABLE_KEYS[1], lambda: self.picker.step(-1)),
        )
        for key, slot in keys:
            shortcut = QShortcut(QKeySequence(key), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(slot)

    # -- reading ------------------------------------------------------------------------

    def show_match(self, match_id: int) -> None:
        """Show a match (the main window calls this on `ctx.match_requested`)."""
        self.match_id = match_id
        self.clear_message()
        self.refresh()
        self.picker.select(self.match)
        if self.settings is not None and self.match is not None:
            self.settings.setValue(self.settings_key(), self.match.id)

    def show_no_match(self) -> None:
        self.match_id = None
        self.clear_message()
        self.refresh()

    def round_matches(self, number: int | None) -> list[MatchInfo]:
        """The picker's list: one round's matches, or (None) those outside the rounds."""
        if number is None:
            return [m for m in self.ctx.read(list_matches) if m.round is None]
        return self.ctx.read(list_matches, number)

    def reload_picker(self) -> None:
        self.picker.reload(self.ctx.read(rounds_paired), self.match)

    def on_event_changed(self, changes: Changes) -> None:
        matches = changes.only_matches()
        if matches is not None:
            self.picker.forget()  # each table's state in the list is read again when it opens
            if self.match_id in matches:
                self.refresh()
            return
        self.read_again()

    def read_again(self) -> None:
        """The match and the table list, read again (rounds, teams or the event changed:
        names and tables may too; or the page is shown after changes made while hidden)."""
        self.picker.forget()
        self.refresh()
        self.reload_picker()

    def refresh(self) -> None:
        self.match = None
        if self.match_id is not None:
            try:
                self.match = self.ctx.read(get_match, self.match_id)
            except UserError:
                self.match_id = None  # the match is gone (its round was undone)
        if self.match is not None:
            self.picker.show_state_of(self.match)
        self.show_state()

    def show_state(self) -> None:
        match = self.match
        self.games_panel.show_match(match)
        self.scoreline.show_match(match)
        has_match = match is not None
        for widget in (*self.boards, self.clock_button):
            widget.setEnabled(has_match)
        self.stack.setCurrentIndex(0 if match is None else 1)
        if match is None:
            self.heading.clear()
            self.pair_label.clear()
            self.cube_state.clear()
            self.cube_state.setStyleSheet("")
            return
        where = f"Round {match.round}, table {match.table}" if match.round else f"Match {match.id}"
        a, b = (isolated(name) for name in match.names)
        self.heading.setText(f"{where}: {a} v {b}")
        outcome = match.outcome
        self.pair_label.setText("" if match.is_bye else unit_title(match, outcome.current_pair))
        record = match.rules.event_format
        for panel in self.boards:  # the boards the match's format has
            panel.setVisible(panel.board in record.boards)
            if panel.board in record.boards:
                panel.show_match(match)
        self.show_clock_words(record.one_board)
        self.show_cube_state(match)
        self.show_no_show(match)

    def show_clock_words(self, one_board: bool) -> None:
        """One match clock, or both boards' clocks (RULES §7, §10)."""
        if one_board:
            self.clock_button.setToolTip("Open the match clock in its own window")
            self.clock_status.setText("The match clock runs in its own window.")
        else:
            self.clock_button.setToolTip(
                "Open both boards' clocks of this match in their own window"
            )
            self.clock_status.setText("Both boards' clocks run in their own window.")

    def show_no_show(self, match: MatchInfo) -> None:
        """The no-show button, enabled by the service's answer (a played match, a bye, a past
        round: disabled with the reason)."""
        refusal = self.ctx.read(no_show.no_show_refusal, match.id)
        undo = match.forfeit_by is not None
        self.no_show_button.setText("Undo forfeit…" if undo else "No-show…")
        self.no_show_button.setEnabled(not refusal)
        self.no_show_button.setToolTip(
            tooltip(refusal)
            if refusal
            else "A team did not show: it forfeits the match, 0–0 (RULES §8)"
            if not undo
            else "Undo the forfeit so the match is played (the reason goes to the audit log)"
        )

    def open_no_show(self) -> None:
        if self.match is None or not self.no_show_button.isEnabled():
            return
        self.clear_message()
        self.no_show = NoShowDialog(self.ctx, self.match, self)
        self.no_show.finished.connect(self.refresh)
        self.no_show.open()

    def show_cube_state(self, match: MatchInfo) -> None:
        """The pair's cube rule in the domain's words, e.g. 'one-cube pair: team B is 2-away;
        the cube is on board 1'."""
        outcome = match.outcome
        if outcome.finished or match.is_bye or match.forfeit_by is not None:
            self.cube_state.clear()
            self.cube_state.setStyleSheet("")
            return
        text = match.pair_state.cube_text()
        regime = outcome.cube_rule.regime.value
        colour = {"free": "#e8f1e8", "one-cube": "#fff2cc", "no-cube": "#f8d7d3"}[regime]
        if not match.rules.scoring.variant.has_cube:
            colour = "#eef1f0"  # no cube in this scoring at all: nothing to warn about
        text = names_shortened_in(self.cube_state, text, match.names)  # a long name: 2 lines
        self.cube_state.setText(f"{unit_title(match, outcome.current_pair)}: {text}")
        self.cube_state.setStyleSheet(f"background: {colour}; {BANNER_STYLE}")

    # -- messages -----------------------------------------------------------------------

    def refuse(self, refusal: UserError) -> None:
        self.messages.show_error(str(refusal))

    def clear_message(self) -> None:
        self.messages.clear()

    # -- changes ------------------------------------------------------------------------

    def cube_action(self, board: int, action: str, side: Side | None) -> None:
        match = self.match
        if match is None:
            return
        self.clear_message()
        try:
            if action == "pass":
                self.record_pass(match, board)
            else:
                self.ctx.change(live_cube.cube_action, match.id, board, action, side)
        except UserError as refusal:
            self.refuse(refusal)
            self.refresh()

    def record_pass(self, match: MatchInfo, board: int) -> None:
        """A pass ends the game; when the scoring needs more (checker counts), ask for them."""
        game = match.pair_state.pass_game(board)
        if game_problems(match.rules.scoring, game):
            self.open_record_dialog(board, game)
            return
        clock_ns = self.ctx.clock_times(match.id, board)

        def recorded(info: MatchInfo) -> None:
            # one click records a pass (a queue waits): a mis-click is one key to take back
            self.pass_to_take_back = (info.id, info.version)
            winner, passer = (isolated(side_name(match, side)) for side in (game.winner,
                              game.winner.other))  # fmt: skip
            self.messages.show_notice(
                f"Board {board}: {passer} passed, {winner} wins the game. "
                f"{TAKE_BACK_KEY} takes the pass back."
            )
            self.game_recorded.emit(match.id, board)

        # off the GUI thread (ui.background): a server that hangs cannot freeze the desk
        self.ctx.change_later(
            games.record_game,
            match.id,
            game,
            version=match.version,
            clock_ns=clock_ns,
            on_done=recorded,
            on_failed=self.refuse,
        )

    def take_back(self) -> None:
        """Ctrl+Z: the pass just recorded, at once (nothing changed the match since), else the
        last game's undo with its question."""
        match, taken = self.match, self.pass_to_take_back
        self.pass_to_take_back = None
        if match is None or taken != (match.id, match.version):
            self.undo_last_game()
            return
        try:
            self.ctx.change(games.undo_last_game, match.id, version=match.version)
        except UserError as refusal:
            self.refuse(refusal)
            self.refresh()
        else:
            self.messages.show_info("The pass is taken back (kept in the audit log).")

    def open_record_dialog(self, board: int, proposal: Game | None = None) -> None:
        """Open the dialog for `board`'s game; the clock's flag fall passes its proposal."""
        match = self.match
        if match is None or board not in match.rules.event_format.boards:
            return  # Alt+2 in a one-board match: there is no board 2
        if not self.boards[board - 1].live(match):
            return
        dialog = RecordGameDialog(self.ctx, match, board, proposal, self)
        dialog.clock_ns = self.ctx.clock_times(match.id, board)  # the open clock's times, if any
        dialog.accepted.connect(lambda: self.game_recorded.emit(match.id, board))
        self._open(dialog)

    def edit_game(self, row: int) -> None:
        match = self.match
        if match is None or not 0 <= row < len(match.games):
            if match is not None and match.games:
                self.refuse(UserError("select the game to correct in the list first"))
            return
        self._open(CorrectGameDialog(self.ctx, match, self.games.game_id(row), self))

    def _open(self, dialog: RecordGameDialog) -> None:
        self.clear_message()
        self.dialog = dialog
        dialog.finished.connect(self._dialog_closed)
        dialog.open()

    def _dialog_closed(self) -> None:
        self.dialog = None
        self.refresh()

    def undo_last_game(self) -> None:
        match = self.match
        if match is None or not match.games:
            return
        last = match.games[-1]
        record = match.rules.event_format
        winner = (
            isolated(side_name(match, last.winner)) if record.one_board else f"team {last.winner}"
        )
        question = (
            f"Undo the last game of {' v '.join(isolated(n) for n in match.names)}: "
            f"{record.where(last.pair, last.board)}, won by {winner} ({last.end})?"
        )

        def undo() -> None:
            try:
                self.ctx.change(games.undo_last_game, match.id, version=match.version)
            except UserError as refusal:
                self.refuse(refusal)
                self.refresh()
            else:
                self.messages.show_info("The last game is undone (kept in the audit log).")

        self.question = ask(self, "Undo last game", question, "Undo the game", undo)

    def open_audit(self) -> None:
        """The audit log, on this match's lines (the filter can widen it)."""
        self.audit = AuditDialog(self.ctx, self, match=self.match_id)
        self.audit.finished.connect(self.audit.deleteLater)
        self.audit.open()

    def _clock_clicked(self) -> None:
        if self.match_id is None:
            return
        self.clock_requested.emit(self.match_id)
        # imported here: the clock window itself imports the desk's record dialog
        from director.ui.clock.launch import open_clock_window

        try:
            open_clock_window(
                self.ctx, self.match_id, settings=self.clock_settings, parent=self.window()
            )
        except UserError as refusal:
            self.refuse(refusal)
