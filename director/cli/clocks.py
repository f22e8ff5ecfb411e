"""`clock FILE MATCH`: open a match's clock window (until the match desk opens it)."""

from __future__ import annotations

import argparse
import sys

from director.cli.common import Parser, positive_int


def cmd_clock(args: argparse.Namespace) -> int:
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication

    from director.domain.errors import UserError
    from director.store.engine import open_event
    from director.ui import termination
    from director.ui.clock.launch import open_clock_window, timed_match
    from director.ui.context import EventContext
    from director.ui.style import apply_style

    termination.hold()  # a signal before the window can close waits for it (the lock is held)
    db = open_event(args.file, make_backup=False, deferred=True)
    try:
        app = QApplication.instance() or QApplication(sys.argv[:1])
        assert isinstance(app, QApplication)
        apply_style(app)
        screens = QGuiApplication.screens()
        if args.screen is not None and args.screen > len(screens):
            raise UserError(f"there is no screen {args.screen}: this computer has {len(screens)}")
        with db.Session() as session:
            timed_match(session, args.match)  # refused before a byte is written
        db.start_writing(backup=True)  # the upgrade, the mark and the backup at opening
        ctx = EventContext(db)
        window = open_clock_window(ctx, args.match)
        if args.screen is not None:
            window.screens.setCurrentIndex(args.screen - 1)
            window.move_to_screen(args.screen - 1)
        if args.full_screen:
            window.toggle_full()
        termination.install(window.close, window)  # logout, shutdown, Ctrl+C: as the app
        from director.ui.app import collect_from_now_on

        collect_from_now_on()  # on the GUI thread only, as the app's (GuiThreadCollector)
        return app.exec()
    finally:
        db.close()


def cmd_clock_log(args: argparse.Namespace) -> int:
    """Every press, pause, adjustment and flag of a match, replayed, with the times left."""
    import json

    from director.cli.common import session_for
    from director.services.clocks import log_line_data, log_line_text, match_clock_log

    with session_for(args.file, read_only=True) as session:
        lines = match_clock_log(session, args.match)
    if args.json:
        print(json.dumps([log_line_data(line) for line in lines], ensure_ascii=False, indent=1))
        return 0
    if not lines:
        print(f"match {args.match} has no clock log")
        return 0
    for line in lines:
        print(log_line_text(line))
    return 0


def register(sub: argparse._SubParsersAction[Parser]) -> None:
    log = sub.add_parser(
        "clock-log",
        help="a match's clock log for a dispute: every press, pause, adjustment and flag "
        "with its time and both sides' times left, replayed through the clock engine",
    )
    log.add_argument("file", help="the event file (or a database URL)")
    log.add_argument("match", type=positive_int, help="the match id (as `check` lists them)")
    log.add_argument("--json", action="store_true", help="one JSON object per logged action")
    log.set_defaults(func=cmd_clock_log)
    clock = sub.add_parser(
        "clock", help="open the clocks of a match in their own window (see the help page)"
    )
    clock.add_argument("file", help="the event file (or a database URL)")
    clock.add_argument(
        "match", type=positive_int, help="the match id (`pair FILE --round R` lists them)"
    )
    clock.add_argument("--full-screen", action="store_true", help="start in full screen")
    clock.add_argument(
        "--screen", type=positive_int, help="the screen to show the clocks on (1 = the first)"
    )
    clock.set_defaults(func=cmd_clock)
