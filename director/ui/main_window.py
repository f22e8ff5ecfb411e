"""The main window: the start page or an open event, the menus, and the window's memory.

The window opens and closes events and routes menu actions; it knows the pages only by their
place in the navigation. Everything about an event's data happens in the pages, through `ctx`.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable, Iterator
from functools import partial, wraps
from pathlib import Path
from typing import TYPE_CHECKING, Concatenate, ParamSpec, TypeVar

from PySide6.QtCore import QEvent, QMargins, QObject, QSettings, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent
from PySide6.QtWidgets import (
    QMainWindow,
    QMenu,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from director.domain.errors import UserError
from director.domain.numbers import typed_number
from director.store.targets import EXTENSION
from director.ui import database_layer
from director.ui.message_bar import MessageBar
from director.ui.pages import PAGES, page_index
from director.ui.plain import set_by_key
from director.ui.recent import RecentEvents
from director.ui.safe_open import (
    explain_refusal,
    read_only_banner,
    refusal_line,
    show_opening_message,
)
from director.ui.start_page import StartPage
from director.ui.style import app_icon
from director.ui.waiting import busy, wait_for, waited
from director.ui.window_parts import (
    APP_TITLE,
    about_box,
    fill_recent_menu,
    place_public_display,
    restore_window,
)

if TYPE_CHECKING:  # the database layer and the pages load when an event is first opened
    from concurrent.futures import Future

    from PySide6.QtWidgets import QMessageBox

    from director.domain.changes import Changes
    from director.store.engine import EventDatabase
    from director.store.first_look import Glance
    from director.store.lock import EventLock
    from director.ui.connect_dialog import ConnectDialog
    from director.ui.context import EventContext
    from director.ui.event_dialog import EventDialog
    from director.ui.event_view import EventView
    from director.ui.help import HelpWindow
    from director.ui.restore_dialog import RestoreDialog
    from director.ui.server_watch import ServerWatch
    from director.ui.table_service import TableServiceWindow


def _open_event(target: str, lock: EventLock | None = None) -> EventDatabase:
    """On a worker thread: the database layer, then the event, opened for this window (with
    the `lock` its first look took, if any)."""
    try:
        database_layer.load()
        from director.store.engine import open_event
    except BaseException:
        if lock is not None:
            lock.release()
        raise
    # the backup comes once the window is up; the scan of every stored value while the
    # first page is built (nothing is written before it passes: `EventContext.values_passed`)
    return open_event(target, make_backup=False, values_later=True, lock=lock)


def _first_look(target: str) -> Glance:
    """On a worker thread: the event file's lock and first look (`store/first_look.py`: with
    its imports, no SQLAlchemy), while the GUI thread paints."""
    with database_layer.python_import():
        from director.store.first_look import take_first_look

    return take_first_look(target)


def _open_view_only(target: str) -> EventDatabase:
    database_layer.load()
    from director.store.engine import open_database

    return open_database(target, read_only=True)


def _build_demo() -> Path:
    """On a worker thread: a fresh demo event (a simulated club night: seconds on a slow
    computer)."""
    database_layer.load()
    from director.ui.demo import build_demo_event

    return build_demo_event()


def _back_up_at_open(database: EventDatabase, _session: object) -> None:
    """The backup at opening, on the event's worker (a failure is in `database.report`);
    none of a file whose values the app refuses (it is closed)."""
    from director.store.engine import back_up_at_open

    if database.values_check is not None and database.values_check.result():
        return

    back_up_at_open(database)


class _Painted(QObject):
    """Sets `painted` at the first paint of the widget it watches."""

    def __init__(self, painted: Future[None]) -> None:
        super().__init__()
        self.painted = painted

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and not self.painted.done():
            self.painted.set_result(None)
        return False


FIRST_PAINT_MS = 1000  # a window minimised or hidden meanwhile paints when it is shown


def until_painted(widget: QWidget) -> None:
    """The window's events run until `widget` is painted (at most `FIRST_PAINT_MS`): the first
    look is on the screen before the database layer's import starts, whose thread would hold
    up each of the painting's calls into Python (the table's cells) for the interpreter. A
    window not shown paints nothing: no wait."""
    if not widget.isVisible():
        return
    from concurrent.futures import Future  # not for the start page (it loads logging)

    painted: Future[None] = Future()
    watch = _Painted(painted)
    widget.installEventFilter(watch)
    timer = QTimer(watch)
    timer.setSingleShot(True)
    timer.timeout.connect(lambda: None if painted.done() else painted.set_result(None))
    timer.start(FIRST_PAINT_MS)
    try:
        wait_for(painted, quick=False)
    finally:
        widget.removeEventFilter(watch)
        timer.stop()


P = ParamSpec("P")
R = TypeVar("R")


def opening(
    method: Callable[Concatenate[MainWindow, P], R],
) -> Callable[Concatenate[MainWindow, P], R]:
    """A method that opens an event: a close asked for inside it waits for its end."""

    @wraps(method)
    def opens(window: MainWindow, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with window.opening_event():
            return method(window, *args, **kwargs)

    return opens


class MainWindow(QMainWindow):
    # (database, target): the scan of an opened event's values is done (on its thread)
    values_scanned = Signal(object, str)

    def __init__(self, settings: QSettings | None = None) -> None:
        super().__init__()
        self.values_scanned.connect(self.on_values_scanned)
        self.settings = settings if settings is not None else QSettings()
        self.recent = RecentEvents(self.settings)
        self.ctx: EventContext | None = None
        self.view: EventView | None = None
        self.help_window: HelpWindow | None = None
        self.public_display: QWidget | None = None
        self.table_service: TableServiceWindow | None = None  # the players' phones (issue 18)
        self.read_only = False  # the open event is a view-only file: every change is refused
        self.watch: ServerWatch | None = None  # other stations' changes, for a server event
        self.opening = 0  # events being opened (the GUI thread waits inside, events run)
        # an event file's first look shown while its database opens (`first_look`)
        self.looking: tuple[EventContext, EventView] | None = None
        self.close_when_opened = False  # a close asked for meanwhile (a signal, the frame's x)
        self.setWindowIcon(app_icon())
        self.messages = MessageBar(self)
        self.read_only_banner = read_only_banner(self)
        self.start = StartPage(self.recent, self)
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.start)
        central = QWidget(self)
        layout = QVBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.read_only_banner)
        layout.addWidget(self.messages)
        self.messages.inset = QMargins(16, 10, 16, 0)
        layout.addWidget(self.stack, 1)
        self.setCentralWidget(central)
        self.start.new_requested.connect(self.new_event)
        self.start.open_requested.connect(self.open_file)
        self.start.demo_requested.connect(self.open_demo)
        self.start.connect_requested.connect(self.connect_server)
        self.start.recent_chosen.connect(self.open_target)
        self._build_actions()
        self._build_menus()
        self.maximized_at_start = restore_window(self, self.settings)
        self._update_state()

    # -- actions and menus ---------------------------------------------------------------------

    def _action(self, text: str, slot: Callable[[], object], keys: str = "") -> QAction:
        action = QAction(text, self)
        if keys:  # as setShortcut(QKeySequence(keys)), without PySide's `Qt` (plain.START)
            set_by_key(action, "shortcut", keys)
        action.triggered.connect(lambda _checked=False: slot())
        self.addAction(action)  # keys work in full screen too, where the menu bar may hide
        return action

    def _build_actions(self) -> None:
        self.new_action = self._action("&New event…", self.new_event, "Ctrl+N")
        self.open_action = self._action("&Open…", self.open_file, "Ctrl+O")
        self.demo_action = self._action("Open &demo event", self.open_demo)
        self.connect_action = self._action("Connect to &server…", self.connect_server)
        self.options_action = self._action("Event &options…", self.edit_options, "Ctrl+E")
        self.restore_action = self._action("Restore from &backup…", self.restore_from_backup)
        self.close_action = self._action("&Close event", self.close_event, "Ctrl+W")
        self.quit_action = self._action("&Quit", self.close, "Ctrl+Q")
        self.page_actions = [
            self._action(f"&{title}", partial(self.show_page, i), f"Ctrl+{i + 1}")
            for i, title in enumerate(page.title for page in PAGES)
        ]
        display = self.show_public_display
        self.display_action = self._action("&Public display", display, "Ctrl+Shift+D")
        self.full_screen_action = self._action("&Full screen", self.toggle_full_screen, "F11")
        phones = self.show_table_service
        self.phones_action = self._action("P&hones at the tables…", phones, "Ctrl+Shift+T")
        self.full_screen_action.setCheckable(True)
        self.help_actions = {
            key: self._action(title, partial(self.show_help, key), keys)
            for key, title, keys in (
                ("start", "&Getting started", "F1"),
                ("rules", "&Rules", ""),
                ("options", "&Options", ""),
                ("keys", "&Keys", ""),
            )
        }
        self.about_action = self._action("&About Tandem Director", self.show_about)

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        file_menu.addActions([self.new_action, self.open_action])
        self.recent_menu = file_menu.addMenu("Open &recent")
        self.recent_menu.aboutToShow.connect(
            lambda: fill_recent_menu(
                self.recent_menu, self.recent, self.open_target, self.start.refresh
            )
        )
        file_menu.addActions([self.demo_action, self.connect_action])
        file_menu.addSeparator()
        file_menu.addActions([self.options_action, self.restore_action])
        file_menu.addSeparator()
        file_menu.addActions([self.close_action, self.quit_action])
        # in its place until an event opens (its module loads the reports' service, which the
        # start page does not need): disabled, as the Reports menu is without an event
        self._reports_menu: QMenu | None = None
        self._reports_placeholder = bar.addMenu("&Reports")
        view_menu = bar.addMenu("&View")
        view_menu.addActions(self.page_actions)
        view_menu.addSeparator()
        view_menu.addActions([self.display_action, self.phones_action, self.full_screen_action])
        help_menu = bar.addMenu("&Help")
        help_menu.addActions(list(self.help_actions.values()))
        help_menu.addSeparator()
        help_menu.addAction(self.about_action)

    @property
    def reports_menu(self) -> QMenu:
        """The Reports menu, built the first time it is needed (an event opened)."""
        if self._reports_menu is None:
            menu = self.build_reports_menu()
            placeholder = self._reports_placeholder.menuAction()
            self.menuBar().insertMenu(placeholder, menu)
            self.menuBar().removeAction(placeholder)
            menu.setEnabled(self.ctx is not None)
            self._reports_menu = menu
        return self._reports_menu

    def build_reports_menu(self) -> QMenu:
        """The Reports menu: each report's preview, with Print and Save PDF (ui/reports)."""
        from director.ui.reports.menu import ReportsMenu

        return ReportsMenu(
            lambda: self.ctx, self.settings, self.messages.show_error, self,
            slip_address=lambda: self.table_service.address() if self.table_service else "",
        )  # fmt: skip

    def _update_state(self) -> None:
        has_event = self.ctx is not None
        for action in (
            self.options_action,
            self.close_action,
            self.display_action,
            self.phones_action,
            *self.page_actions,
        ):
            action.setEnabled(has_event)
        if has_event or self._reports_menu is not None:
            self.reports_menu.setEnabled(has_event)
        else:
            self._reports_placeholder.setEnabled(False)
        # a server event is backed up and restored on the server (pg_dump)
        self.restore_action.setEnabled(self.ctx is not None and self.ctx.db.is_sqlite)
        self.read_only_banner.setVisible(has_event and self.read_only)
        parts = [self.view.info.name] if self.view is not None else []
        if self.ctx is not None and not self.ctx.db.is_sqlite:
            parts.append(self.ctx.title)  # the server's address, without its password
        if parts and self.read_only:
            parts[0] += " (read-only)"
        self.setWindowTitle(" – ".join([*parts, APP_TITLE]))

    # -- opening and closing events --------------------------------------------------------------

    @opening
    def open_target(self, target: str, remember: bool = True) -> bool:
        """Open an event file (locked for this window) or server URL; a failure is shown and
        the window stays as it was. A damaged file, or one that cannot be written, is explained
        in a question (restore its backup, open it view-only); the answer opens it later.

        The opening runs off the GUI thread (the window keeps painting); the backup at opening
        is made once the first page is shown, before anything else the event's worker runs.
        An event file's first page may show its first look meanwhile (`first_look`)."""
        try:
            with busy():
                glance = self.first_look(target)
                lock = glance.lock if glance is not None else None
                # with its first look on the screen, the window's events run from the start
                # (the database layer's import takes a while)
                looked = glance is not None and glance.look is not None
                database = waited(partial(_open_event, target, lock), quick=not looked)
        except UserError as exc:
            self.drop_first_look()
            self.messages.show_error(refusal_line(target, exc))
            restore, view = partial(self.restore_damaged, target), partial(self.view_only, target)
            explain_refusal(self, target, exc, restore, view)
            return False
        except BaseException:  # a bug: the crash hook reports it; no first look left behind
            self.drop_first_look()
            raise
        if not self.set_database(database, remember):
            return False
        if database.values_check is not None:  # its answer comes on the scan's thread
            check = database.values_check
            check.add_done_callback(lambda _done: self.values_scanned.emit(database, target))
        if self.ctx is not None and database.is_sqlite:
            messages = self.messages
            running = self._clocks_left_running(database)
            self.ctx.background.run(
                partial(_back_up_at_open, database),
                on_done=lambda _none: show_opening_message(messages, database, running),
            )
        else:
            show_opening_message(self.messages, database)  # an older file was upgraded...
        return True

    def first_look(self, target: str) -> Glance | None:
        """An event file's teams page, shown from its first look (`store/first_look.py`:
        read with sqlite3, no SQLAlchemy) while its database opens; its `look` is None when
        it declined (the open then says why, if it must); None when the event opens on
        another page (the window's memory), which is not built from a first look, or when an
        event is open: it stays until the new one has opened (a refusal leaves it as it was)."""
        if self.ctx is not None or self.looking is not None:
            return None
        if str(self.settings.value("window/page", 0)) != str(page_index("teams")):
            return None
        glance = waited(partial(_first_look, target))
        if glance.look is None:
            return glance
        with database_layer.python_import():
            from director.ui.context import EventContext
            from director.ui.event_view import EventView

        ctx = EventContext.looking_at(target, glance.look, self)
        try:
            view = EventView(ctx, self.stack)
            self.looking = ctx, view
            self.stack.addWidget(view)
            self.stack.setCurrentWidget(view)
            view.show_page(page_index("teams"))
            self.setWindowTitle(f"{view.info.name} – {APP_TITLE}")
            until_painted(view)
        except BaseException:  # a bug: the crash hook reports it; neither page nor lock kept
            self.drop_first_look()
            if glance.lock is not None:
                glance.lock.release()
            raise
        return glance

    def drop_first_look(self) -> None:
        """The first look's page goes: its event did not open (or opened on a new view)."""
        if self.looking is None:
            return
        ctx, view = self.looking
        self.looking = None
        self.stack.removeWidget(view)
        view.deleteLater()
        ctx.close()
        ctx.deleteLater()
        self.stack.setCurrentWidget(self.start)
        self._update_state()

    def on_values_scanned(self, database: EventDatabase, target: str) -> None:
        """The scan of the open event's values is done: a value the app never writes closes
        the event with the refusal, as the open itself would have refused it."""
        check = database.values_check
        if self.ctx is None or self.ctx.db is not database or check is None:
            return  # closed meanwhile
        try:
            refusal = check.result()
        except Exception as failure:
            refusal = f"cannot read {database.title}: {failure}"
        if not refusal:
            return
        self.close_event()
        refused = UserError(refusal)
        self.messages.show_error(refusal_line(target, refused))
        restore, view = partial(self.restore_damaged, target), partial(self.view_only, target)
        explain_refusal(self, target, refused, restore, view)

    def _clocks_left_running(self, database: EventDatabase) -> list[str]:
        """After an unclean close: the matches whose clocks were running (#24 point 5)."""
        if self.ctx is None or not database.report.unclean:
            return []
        from director.services.clocks import clocks_left_running

        try:
            return self.ctx.read(clocks_left_running)
        except UserError:
            return []

    @opening
    def view_only(self, target: str) -> bool:
        try:
            database = waited(partial(_open_view_only, target))
        except UserError as exc:
            self.messages.show_error(f"Cannot open the event: {exc}")
            return False
        return self.set_database(database, remember=False, read_only=True)

    @opening
    def set_database(
        self, database: EventDatabase, remember: bool = True, *, read_only: bool = False
    ) -> bool:
        database_layer.load()  # a server event comes here first, from the connect dialog
        with database_layer.python_import():
            from director.ui.context import EventContext
            from director.ui.event_view import EventView

        looked = self.looking if database.is_sqlite and not read_only else None
        if looked is not None and looked[0].title != database.title:
            looked = None  # the look of another file
        if looked is None:
            self.drop_first_look()
        self.looking = None
        self.close_event()
        ctx = looked[0] if looked is not None else None
        try:
            if ctx is not None:
                ctx.attach(database)
            else:
                ctx = EventContext(database, self)
        except BaseException as exc:  # its first read failed (a server gone since it opened)
            database.close()  # its lock and its connections given back, not left behind
            self.looking = looked
            self.drop_first_look()
            if not isinstance(exc, UserError):
                raise  # a bug: the crash hook reports it
            self.messages.show_error(f"Cannot open the event: {exc}")
            return False
        try:
            if looked is not None:
                view = looked[1]
                view.read_again()  # what the first look showed, now from the database
            else:
                view = EventView(ctx, self.stack)
        except Exception as exc:
            ctx.close()
            self.looking = looked
            self.drop_first_look()
            refusal = str(exc) if isinstance(exc, UserError) else ctx.scan_refusal()
            if not refusal:
                raise  # a bug: the crash hook reports it
            self.messages.show_error(f"Cannot open the event: {refusal}")
            return False
        self.ctx, self.view, self.read_only = ctx, view, read_only
        if looked is None:
            self.stack.addWidget(view)
        self.stack.setCurrentWidget(view)
        ctx.changed.connect(self.on_event_changed)
        ctx.notified.connect(self.messages.show_notice)
        page = typed_number(str(self.settings.value("window/page", 0)))  # "²" raised in int()
        view.show_page(page or 0)
        view.page_changed.connect(lambda i: self.settings.setValue("window/page", i))
        if remember and database.is_sqlite:
            self.recent.add(database.target, view.info.name)
        self.messages.clear()
        self._update_state()
        if not database.is_sqlite:  # other stations' changes appear within a few seconds
            from director.ui.server_watch import ServerWatch

            self.watch = ServerWatch(ctx, self._server_said)
            self.watch.start()
        return True

    def _server_said(self, text: str, problem: bool) -> None:
        text = text[:1].upper() + text[1:]
        (self.messages.show_error if problem else self.messages.show_info)(text)

    def close_event(self) -> None:
        """Close the open event (there is nothing to save: every change is already written)."""
        if self.watch is not None:
            self.watch.stop()
            self.watch = None
        if self.public_display is not None:  # deleted here: left to the garbage collector, it
            # was destroyed, timers and all, on whichever thread collected next
            self.public_display.close()
            self.public_display.deleteLater()
            self.public_display = None
        if self.table_service is not None:  # the server stops before the event closes
            self.table_service.shutdown()
            self.table_service.close()
            self.table_service.deleteLater()
            self.table_service = None
        if self.ctx is not None:  # the clocks of this event go with it (their log is saved)
            for clock_window in list(getattr(self.ctx, "clock_windows", {}).values()):
                if isinstance(clock_window, QWidget):
                    clock_window.close()
        if self.view is not None:
            self.stack.removeWidget(self.view)
            self.view.deleteLater()
            self.view = None
        if self.ctx is not None:
            self.ctx.close()
            self.ctx.deleteLater()
            self.ctx = None
        self.read_only = False
        self.start.refresh()
        self.stack.setCurrentWidget(self.start)
        self._update_state()
        gc.unfreeze()  # what the start froze (app.collect_from_now_on): this event's cycles too

    def on_event_changed(self, changes: Changes) -> None:
        from director.domain.changes import Area  # loaded with the event, not at start

        if changes.touches(Area.EVENT):
            self._update_state()
            if self.ctx is not None and self.view is not None and self.ctx.db.is_sqlite:
                self.recent.add(self.ctx.db.target, self.view.info.name)

    # -- menu actions --------------------------------------------------------------------------

    def _last_folder(self) -> Path:
        from director.ui.event_dialog import default_folder

        entries = self.recent.entries()
        folder = Path(entries[0].path).parent if entries else default_folder()
        return folder if folder.is_dir() else default_folder()

    def new_event(self) -> EventDialog:
        from director.ui.event_dialog import EventDialog

        dialog = EventDialog(self, folder=self._last_folder(), settings=self.settings)
        dialog.accepted.connect(lambda: self._created(dialog))
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def _created(self, dialog: EventDialog) -> None:
        database = dialog.database
        if database is None:
            return
        if database.is_sqlite:  # reopened as every event is: locked for this window
            database.close()
            opened = self.open_target(database.target)
        else:
            opened = self.set_database(database)
        if opened:
            self.show_page(page_index("teams"))  # a new event starts with its teams

    def open_file(self) -> None:
        from PySide6.QtWidgets import QFileDialog  # its 11 enums: not for the start page

        path, _ = QFileDialog.getOpenFileName(
            self, "Open an event", str(self._last_folder()), f"Events (*{EXTENSION});;All files (*)"
        )
        if path:
            self.open_target(path)

    @opening
    def open_demo(self) -> bool:
        try:
            with busy():
                path = waited(_build_demo)
        except (UserError, OSError) as exc:
            self.messages.show_error(f"Cannot build the demo event: {exc}")
            return False
        return self.open_target(str(path), remember=False)

    def connect_server(self) -> ConnectDialog:
        from director.ui.connect_dialog import ConnectDialog

        dialog = ConnectDialog(self)
        dialog.accepted.connect(
            lambda: dialog.database is not None and self.set_database(dialog.database)
        )
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def edit_options(self) -> EventDialog | None:
        if self.ctx is None:
            return None
        from director.ui.event_dialog import EventDialog

        dialog = EventDialog(self, ctx=self.ctx, settings=self.settings)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def restore_from_backup(self) -> RestoreDialog | None:
        """File → Restore from backup…: choose a backup; the event is closed, restored and
        opened again (a restore is refused while the event is open)."""
        if self.ctx is None or not self.ctx.db.is_sqlite:
            return None
        from director.ui.restore_dialog import RestoreDialog, restore_and_reopen

        target = self.ctx.db.target
        dialog = RestoreDialog(Path(target), partial(restore_and_reopen, self, target), self)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def restore_damaged(self, target: str, moved_to: Path | None, backup: Path) -> bool:
        """The answer to "restore the newest good backup?" after a damaged file was moved."""
        from director.ui.restore_dialog import restore_damaged

        return restore_damaged(self, target, moved_to, backup)

    def show_page(self, index: int) -> None:
        if self.view is not None:
            self.view.show_page(index)

    def show_public_display(self) -> QWidget | None:
        if self.ctx is None:
            return None
        try:
            from director.ui.public_display import PublicDisplay
        except ImportError:
            self.messages.show_error("The public display is not available in this version.")
            return None
        if self.public_display is None:
            self.public_display = PublicDisplay(self.ctx)
            self.public_display.setWindowIcon(app_icon())
            self.public_display.setWindowTitle(f"{self.windowTitle()} – public display")
            place_public_display(self.public_display, self)
        self.public_display.show()
        self.public_display.raise_()
        return self.public_display

    def show_table_service(self) -> TableServiceWindow | None:
        """The players' phones: turn the table service on, see pending results (issue 18)."""
        if self.ctx is None:
            return None
        if self.table_service is None:
            from director.ui.table_service import TableServiceWindow

            self.table_service = TableServiceWindow(self.ctx, self)
            self.table_service.setWindowIcon(app_icon())
        self.table_service.show()
        self.table_service.raise_()
        return self.table_service

    def toggle_full_screen(self) -> None:
        if self.isFullScreen():
            self.showNormal()
        else:
            self.showFullScreen()
        self.full_screen_action.setChecked(self.isFullScreen())

    def show_help(self, topic: str = "start") -> HelpWindow:
        if self.help_window is None:
            from director.ui.help import HelpWindow  # the start page needs no help window

            self.help_window = HelpWindow(self)
        self.help_window.show_topic(topic)
        return self.help_window

    def show_about(self) -> QMessageBox:
        return about_box(self)

    # -- the window's memory -------------------------------------------------------------------

    @contextlib.contextmanager
    def opening_event(self) -> Iterator[None]:
        """Around an event's opening, which waits for the database with the event loop
        running: a close asked for meanwhile (SIGTERM or SIGHUP, the frame's close button) is
        done once the opening is over. Done at once, the window closed with no event in it yet,
        the opening then put the event into the closed window, and the app ran on with no
        window and the event's lock held (at start, before its event loop, nothing quit)."""
        self.opening += 1
        try:
            yield
        finally:
            self.opening -= 1
            if not self.opening and self.close_when_opened:
                self.close_when_opened = False
                QTimer.singleShot(0, self.close)  # in the event loop: its last window quits it

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.opening:
            self.close_when_opened = True
            event.ignore()
            return
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        if self.help_window is not None:
            self.help_window.close()
        self.close_event()
        event.accept()
