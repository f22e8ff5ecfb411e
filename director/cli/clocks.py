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
    from director.ui.clock.launch import open_clock_window
    from director.ui.context import EventContext
    from director.ui.style import apply_style

    db = open_event(args.file)
    try:
        app = QApplication.instance() or QApplication(sys.argv[:1])
        assert isinstance(app, QApplication)
        apply_style(app)
        screens = QGuiApplication.screens()
        if args.screen is not None and args.screen > len(screens):
            raise UserError(f"there is no screen {args.screen}: this computer has {len(screens)}")
        ctx = EventContext(db)
        window = open_clock_window(ctx, args.match)
        if args.screen is not None:
            window.screens.setCurrentIndex(args.screen - 1)
            window.move_to_screen(args.screen - 1)
        if args.full_screen:
            window.toggle_full()
        return app.exec()
    finally:
        db.close()


def register(sub: argparse._SubParsersAction[Parser]) -> None:
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
