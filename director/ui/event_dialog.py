"""New event / event options: name, place, date, file, and every option of the rule book.

New: the event file is created only when every value is accepted; a refusal leaves nothing on
disk. Edit: the change goes through `update_event_and_plan` (the options and a knockout's bracket
plan in one transaction), whose refusal (an option locked because games are recorded or rounds
paired, a plan the paired rounds rule out) is shown in the dialog and nothing is written.
"""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QDate, QSettings, QStandardPaths, Qt
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import (
    QCheckBox,
    QDateEdit,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QPushButton,
    QStyle,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from director.domain.errors import TargetError, UserError
from director.domain.event import EventInfo
from director.domain.rules import EventOptions, PairingSystem
from director.services.brackets import event_plan, set_plan, update_event_and_plan
from director.services.clocks import reset_unfinished_clocks
from director.services.events import (
    create_event,
    event_version,
    get_event,
    option_locks,
)
from director.store.engine import EventDatabase, new_database, open_database
from director.store.targets import EXTENSION
from director.store.work import in_session
from director.ui.context import EventContext
from director.ui.option_form import OptionsForm
from director.ui.plain import plain_label
from director.ui.plan_chooser import PlanChooser
from director.ui.style import error_label, hint, show_error
from director.ui.waiting import waited
from director.ui.window_parts import shown_target

UNSAFE = re.compile(r'[<>:"/\\|?*\x00-\x1f]')


def file_name_for(name: str) -> str:
    """A file name from an event name: characters no file system accepts become "-"."""
    stem = UNSAFE.sub("-", name).strip(" .") or "event"
    return stem[:120] + EXTENSION


def default_folder() -> Path:
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return Path(documents) if documents and Path(documents).is_dir() else Path.home()


class EventDialog(QDialog):
    """`EventDialog(parent)` creates an event; `EventDialog(parent, ctx=ctx)` edits one."""

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        ctx: EventContext | None = None,
        folder: Path | None = None,
        settings: QSettings | None = None,
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.settings = settings  # the app's: where the bracket plan templates are kept
        self.database: EventDatabase | None = None  # the new event, open, once created
        self.saved: EventInfo | None = None
        self.folder = folder or default_folder()
        self._path_edited = False
        self.setWindowTitle("New event" if ctx is None else "Event options")
        self.setMinimumSize(720, 560)
        self.options_form = OptionsForm(self)
        self._add_plan_chooser()
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self._build_event_tab(), "Event")
        for tab in self.options_form.tabs:
            self.tabs.addTab(tab.widget, tab.title.replace("&", "&&"))  # no mnemonic
        self.error = error_label(self)
        buttons = QDialogButtonBox(self)
        self.ok_button = QPushButton("Create event" if ctx is None else "Apply changes", self)
        self.ok_button.setProperty("role", "primary")
        self.ok_button.setDefault(True)
        buttons.addButton(self.ok_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 16, 16, 12)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.options_form.changed.connect(self.options_form.show_problems)
        self.options_form.changed.connect(self._mark_tabs)
        self.version: int | None = None  # the event's version as shown: saved against it
        if ctx is not None:
            self.version = ctx.read(event_version)
            self._load(ctx.read(get_event))
            if self.knockout():
                self.plan_chooser.set_plan(ctx.read(event_plan))
            locks = ctx.read(option_locks)
            self.options_form.lock(locks)
            if locks.time_control:
                self._offer_clock_reset()
        self._update_path()

    def _add_plan_chooser(self) -> None:
        """A knockout's bracket plan (RULES §11) on the Pairings tab, under the system."""
        tab = next(t for t in self.options_form.tabs if t.title == "Pairings")
        self.plan_chooser = PlanChooser(tab.widget, self.settings)
        row = tab.grid.rowCount()
        label = QLabel("Bracket plan", tab.widget)
        tab.grid.addWidget(label, row, 0)
        tab.grid.addWidget(self.plan_chooser, row, 1)
        system = self.options_form.pairing_system
        system.currentIndexChanged.connect(self._plan_for_knockout)
        self._plan_for_knockout()

    def knockout(self) -> bool:
        return bool(self.options_form.pairing_system.currentData() == PairingSystem.KNOCKOUT.value)

    def _plan_for_knockout(self) -> None:
        """The plan says a knockout's brackets (the one way to choose them)."""
        self.plan_chooser.setEnabled(self.knockout())
        self.plan_chooser.setToolTip(
            "" if self.knockout() else "Only a knockout has brackets: choose Knockout above."
        )

    def _offer_clock_reset(self) -> None:
        """Beside the clock's lock: reset the unfinished matches' clocks (their logs are kept
        in the audit), which frees the time control."""
        note = self.findChild(QLabel, "locked_time_control")
        assert note is not None
        parent = note.parentWidget()
        assert parent is not None
        layout = parent.layout()
        assert isinstance(layout, QVBoxLayout)
        self.reset_clocks = QPushButton("Reset their clocks…", parent)
        self.reset_clocks.setObjectName("resetClocks")
        self.reset_clocks.setToolTip(
            "Clear the clock log of every unfinished match; each log is kept in the audit log"
        )
        self.reset_clocks.clicked.connect(self._reset_clocks)
        row = QHBoxLayout()
        row.addWidget(self.reset_clocks)
        row.addStretch(1)
        layout.insertLayout(layout.indexOf(note) + 1, row)

    def _reset_clocks(self) -> None:
        ctx = self.ctx
        assert ctx is not None
        if ctx.clock_windows:
            show_error(self.error, "Close the open clock windows first: they are writing logs.")
            return
        reason, ok = QInputDialog.getText(
            self,
            "Reset the clocks",
            "Every unfinished match's clocks start again from the time control.\n"
            "Why (kept in the audit log with each match's clock log)?",
        )
        if not ok:
            return
        try:
            ctx.change(reset_unfinished_clocks, reason)
        except UserError as exc:
            show_error(self.error, str(exc))
            return
        show_error(self.error, "")
        if not ctx.read(option_locks).time_control:
            self.options_form.unlock("time_control")
            self.reset_clocks.hide()

    def _build_event_tab(self) -> QWidget:
        tab = QWidget(self)
        grid = QGridLayout(tab)
        grid.setContentsMargins(18, 16, 18, 12)
        grid.setHorizontalSpacing(16)
        grid.setVerticalSpacing(2)
        grid.setColumnStretch(1, 1)
        grid.setColumnMinimumWidth(0, 170)
        self.name = QLineEdit(tab)
        self.name.setPlaceholderText("e.g. Club Night Tandem, March")
        self.venue = QLineEdit(tab)
        self.venue.setPlaceholderText("optional")
        self.organiser = QLineEdit(tab)
        self.organiser.setPlaceholderText("optional")
        self.director = QLineEdit(tab)
        self.director.setPlaceholderText("optional")
        self.has_date = QCheckBox(tab)
        self.date = QDateEdit(QDate.currentDate(), tab)
        self.date.setCalendarPopup(True)
        self.date.setDisplayFormat("yyyy-MM-dd")
        self.has_date.setChecked(True)
        self.has_date.toggled.connect(self.date.setEnabled)
        date_row = QHBoxLayout()
        date_row.addWidget(self.has_date)
        date_row.addWidget(self.date, 1)
        self.path = QLineEdit(tab)
        self.path_error = error_label(tab)
        choose = QPushButton("Choose…", tab)
        choose.clicked.connect(self.choose_path)
        path_row = QHBoxLayout()
        path_row.addWidget(self.path, 1)
        path_row.addWidget(choose)
        form = self.options_form
        for widget in (form.format, form.format_label, form.format_note):
            widget.setParent(tab)
            widget.show()
        rows: list[tuple[str, QWidget | QHBoxLayout, str | QLabel]] = [
            ("Event name", self.name, "Shown in the window title, on reports and the display."),
            ("Format", form.format, form.format_note),
            ("Venue", self.venue, "Where the event is played; printed on reports."),
            ("Date", date_row, "The day of the event; untick for none."),
            ("Organiser", self.organiser, "The club or person running the event; on reports."),
            ("Director", self.director, "The director or arbiter; printed on every report."),
        ]
        if self.ctx is None:
            saved = "Every change is saved here at once: there is no Save. Keep it on a local disk."
            rows.append(("Event file", path_row, saved))
        else:  # an open event stays where it is; say where that is
            where = plain_label(shown_target(self.ctx.title), tab)
            where.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            where.setWordWrap(True)
            self.path.hide()  # no chooser: the file of an open event is not changed here
            choose.hide()
            rows.append(("Event file", where, "Every change is saved here at once."))
        for label, editor, explained in rows:
            row = grid.rowCount()
            grid.addWidget(
                form.format_label if editor is form.format else QLabel(label, tab), row, 0
            )
            if isinstance(editor, QWidget):
                grid.addWidget(editor, row, 1)
            else:
                grid.addLayout(editor, row, 1)
            if label == "Event file":
                grid.addWidget(self.path_error, row + 1, 1)
                row += 1
            text = explained if isinstance(explained, QLabel) else hint(explained, tab)
            text.setContentsMargins(0, 0, 0, 10)
            grid.addWidget(text, row + 1, 1)
        grid.setRowStretch(grid.rowCount(), 1)
        self.name.textChanged.connect(self._update_path)
        self.path.textEdited.connect(self._path_typed)
        return tab

    def _load(self, info: EventInfo) -> None:
        self.name.setText(info.name)
        self.venue.setText(info.venue)
        self.organiser.setText(info.organiser)
        self.director.setText(info.director)
        date = QDate.fromString(info.event_date, "yyyy-MM-dd")
        self.has_date.setChecked(date.isValid())
        if date.isValid():
            self.date.setDate(date)
        self.options_form.set_options(info.options)

    # -- the file ------------------------------------------------------------------------------

    def _path_typed(self) -> None:
        self._path_edited = True
        show_error(self.path_error, "")

    def _update_path(self) -> None:
        if self.ctx is None and not self._path_edited:
            self.path.setText(str(self.folder / file_name_for(self.name.text())))

    def choose_path(self) -> None:
        chosen, _ = QFileDialog.getSaveFileName(
            self, "Save the new event as", self.path.text(), f"Events (*{EXTENSION})"
        )
        if not chosen:
            return
        if self.ctx is None and Path(chosen).name == file_name_for(self.name.text()):
            self.folder = Path(chosen).parent  # only the folder was chosen: the name follows
            self._path_edited = False
            self._update_path()
            show_error(self.path_error, "")
        else:
            self.set_path(chosen)

    def set_path(self, path: str) -> None:
        self._path_edited = True
        self.path.setText(path)
        show_error(self.path_error, "")

    def target(self) -> Path | None:
        text = self.path.text().strip()
        if not text:
            return None
        path = Path(text).expanduser()
        return path if path.suffix == EXTENSION else path.with_name(path.name + EXTENSION)

    # -- values --------------------------------------------------------------------------------

    def options(self) -> EventOptions:
        return self.options_form.options()

    def event_date(self) -> str:
        return self.date.date().toString("yyyy-MM-dd") if self.has_date.isChecked() else ""

    def _mark_tabs(self) -> None:
        warning = self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
        for tab in self.options_form.tabs:
            index = self.tabs.indexOf(tab.widget)
            self.tabs.setTabIcon(index, warning if tab.error.text() else QIcon())

    def accept(self) -> None:
        show_error(self.error, "")
        problems = self.options_form.show_problems()
        self._mark_tabs()
        if problems:
            show_error(self.error, "Some options need a change: see the marked tabs.")
            return
        if self.ctx is None:
            self._create()
        else:
            self._apply(self.ctx)

    def _create(self) -> None:
        path = self.target()
        if path is None:
            show_error(self.path_error, "Choose where to save the event file.")
            self.tabs.setCurrentIndex(0)
            return
        facts = (self.name.text(), self.options(), self.venue.text(), self.event_date())
        organiser, director = self.organiser.text(), self.director.text()
        plan = self.plan_chooser.plan() if self.knockout() else None

        def build() -> tuple[EventInfo, EventDatabase]:
            """Built aside and renamed into place: a refusal or a kill leaves nothing."""
            with new_database(str(path)) as building:  # a local file, not yet the event's
                saved = in_session(
                    building, create_event, True, *facts, organiser=organiser, director=director
                )
                if plan is not None:
                    in_session(building, set_plan, True, plan)
            return saved, open_database(str(path))

        try:  # off the GUI thread: the window keeps painting while the file is built
            self.saved, database = waited(build)
        except UserError as exc:  # the place's own problem beside the place, by its type
            where = self.path_error if isinstance(exc, TargetError) else self.error
            show_error(where, f"{str(exc)[:1].upper()}{str(exc)[1:]}.")
            self.tabs.setCurrentIndex(0)
            return
        self.database = database
        super().accept()

    def _apply(self, ctx: EventContext) -> None:
        try:
            self.saved = ctx.change(  # one change: a refused plan leaves the options too
                update_event_and_plan,
                self.plan_chooser.plan() if self.knockout() else None,
                name=self.name.text(),
                options=self.options(),
                venue=self.venue.text(),
                event_date=self.event_date(),
                organiser=self.organiser.text(),
                director=self.director.text(),
                version=self.version,
            )
        except UserError as exc:
            show_error(self.error, f"Not changed: {exc}.")
            return
        super().accept()
