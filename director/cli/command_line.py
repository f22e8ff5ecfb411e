"""The `tandem-director` command line: parse, call services, print.

Bad arguments or files print one line on stderr and exit with status 2; nothing is written.
Each module in this package registers its sub-commands in `build_parser`.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import gc
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from director import __version__
from director.cli.common import EXIT_INTERRUPTED, EXIT_USAGE, Parser
from director.domain.errors import UserError
from director.domain.wording import quoted

# A command loads SQLAlchemy and reads or pairs a whole event: about a million allocations,
# nearly none of them cycles. At Python's default (a collection every 700 allocations) the
# cycle collector ran ~380 times and took 0.15-0.2 s of the 1 s `pair --preview` of a
# 1,000-team event; at 10,000 it runs ~20 times for 0.07 s. And once the command is done
# the process exits, where Python's finalization ran the collector over every object still
# alive, another 0.2 s: frozen (`gc.freeze`), they are left to the system to free
# (tests/benchmarks/bench_gui.py, figure 3).
COMMAND_GC_THRESHOLD = 10_000


@contextlib.contextmanager
def command_collections() -> Iterator[None]:
    """The cycle collector as a command needs it: seldom while it runs, and not over what is
    left when it ends. (A caller's own threshold is restored after it.)"""
    before = gc.get_threshold()
    gc.set_threshold(COMMAND_GC_THRESHOLD, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.freeze()


DB_HELP = (
    "open the app on a shared event on a PostgreSQL server, e.g. --db "
    "postgresql://director@server/spring_open (a command takes the URL as its FILE instead)"
)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="tandem-director",
        description="Run a backgammon event (Tandem, individual or knockout). Without a "
        "command: start the app, with EVENT.tandem open if given.",
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"tandem-director {__version__}",
        help="print the version and stop",
    )
    parser.add_argument("--db", metavar="URL", help=DB_HELP)
    sub = parser.add_subparsers(dest="command", parser_class=Parser, metavar="COMMAND")
    # the commands load only to parse: the app started without arguments needs none of them
    from director.cli import clocks, club, core, pairings, reliability, reports, serve

    for module in (core, pairings, reliability, reports, clocks, serve, club):
        module.register(sub)
    return parser


def _command_names(parser: argparse.ArgumentParser) -> set[str]:
    for action in parser._actions:  # argparse keeps sub-parsers here and nowhere public
        if isinstance(action, argparse._SubParsersAction):
            return set(action.choices)
    return set()


def _first_positional(argv: Sequence[str]) -> int | None:
    """Where the first word that is neither an option nor an option's value stands."""
    i = 0
    while i < len(argv):
        word = argv[i]
        if word == "--":
            return i + 1 if i + 1 < len(argv) else None
        if word == "--db":  # the one top-level option that takes a separate value
            i += 2
            continue
        if not word.startswith("-"):
            return i
        i += 1
    return None


def names_no_command(word: str) -> bool:
    """A word no command is named like (a path or URL: a command's name has no "." or "/"),
    and no option: `tandem-director spring.tandem` opens it in the app without loading the
    commands to parse it (~0.05 s of opening an event)."""
    return not word.startswith("-") and any(mark in word for mark in "./" + os.sep)


def parse_command_line(argv: Sequence[str]) -> argparse.Namespace:
    """The parsed arguments, with `event` (a file to open in the app, or None) and `db`.

    `tandem-director FILE` opens an event in the app, so a first word that is no command is
    that file; `--db URL` and `--db=URL` name a server event for the app. Usage errors exit 2
    with one line.
    """
    words = list(argv)
    if len(words) == 1 and names_no_command(words[0]):  # the app on a file: nothing to parse
        return argparse.Namespace(db=None, command=None, event=words[0])
    parser = build_parser()
    event = None
    at = _first_positional(words)
    if at is not None and words[at] not in _command_names(parser):
        event = words.pop(at)
    elif at is not None and any(w == "--db" or w.startswith("--db=") for w in words[:at]):
        parser.error(
            "--db opens the app on a server event; a command takes the URL as its FILE "
            f"(tandem-director {words[at]} postgresql://...)"
        )
    args = parser.parse_args(words)
    args.event = event
    if args.db is not None:
        if "://" not in args.db:
            parser.error(
                f"--db {quoted(args.db)} is not a database URL (postgresql://USER@HOST/DB)"
            )
        if event is not None:
            parser.error(f"give an event file ({event}) or --db URL, not both")
    return args


FILE_ERRNOS = frozenset(
    {errno.EACCES, errno.EPERM, errno.ENAMETOOLONG, errno.ELOOP, errno.ENOTDIR, errno.EISDIR,
     errno.ENOENT, errno.EROFS, errno.ENOSPC, errno.ENXIO, errno.EINVAL}
)  # fmt: skip


def run(argv: list[str]) -> int:
    """A command, or the app on a file or server: what `main` does with arguments."""
    args = parse_command_line(argv)
    event = args.event
    try:
        if args.command is None:
            from director.ui.app import run_gui

            if event is not None and "://" not in event and not Path(event).is_file():
                raise UserError(f"{event} is not a command and not an event file (see --help)")
            from director.store.targets import check_server_driver

            check_server_driver(args.db or event or "")  # one line, not a window's traceback
            return run_gui(event, args.db)
        with command_collections():
            status: int = args.func(args)
        return status
    except BrokenPipeError:
        # the reader went away (`... | head`): stop quietly, as command-line tools do
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        # Ctrl+C: every write is one transaction or a file renamed into place at its end, so
        # what was cut short rolled back or was removed on the way here
        print(
            "tandem-director: stopped (Ctrl+C) before the command was done: what it had not "
            "finished is not saved",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    except UserError as exc:
        # one line per problem (a record or a team list can have several), never a traceback
        for line in str(exc).splitlines() or ["failed"]:
            print(f"tandem-director: {line}", file=sys.stderr)
        return EXIT_USAGE
    except Exception as exc:
        from director.store.errors import known_database_error

        known = known_database_error(exc)
        if known is None and isinstance(exc, OSError) and exc.errno in FILE_ERRNOS:
            # a file this user may not read or write, a name too long: the environment's
            name = str(exc.filename)
            known = f"cannot use {name[:200] + ('…' if len(name) > 200 else '')}: {exc.strerror}"
        if known is None:
            raise
        print(f"tandem-director: {known}", file=sys.stderr)
        return EXIT_USAGE
