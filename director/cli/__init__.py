"""The `tandem-director` command: parse, call services, print.

Bad arguments or files print one line on stderr and exit with status 2; nothing is written.
Each module in this package registers its sub-commands in `build_parser`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from director import __version__
from director.cli import clocks, core, pairings, reliability, reports, serve
from director.cli.common import EXIT_USAGE, Parser
from director.domain.errors import UserError

REGISTRARS = (
    core.register,
    pairings.register,
    reliability.register,
    reports.register,
    clocks.register,
    serve.register,
)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="tandem-director", description="Run a Tandem backgammon event.")
    parser.add_argument("--version", action="version", version=f"tandem-director {__version__}")
    parser.add_argument("--db", help="open a shared event on a PostgreSQL server (database URL)")
    sub = parser.add_subparsers(dest="command", parser_class=Parser)
    for register in REGISTRARS:
        register(sub)
    return parser


def _command_names(parser: argparse.ArgumentParser) -> set[str]:
    for action in parser._actions:  # argparse keeps sub-parsers here and nowhere public
        if isinstance(action, argparse._SubParsersAction):
            return set(action.choices)
    return set()


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--smoke-test"]:  # hidden: the built app's self-test (installer/README.md)
        from director.ui.smoke import main as smoke_test

        return smoke_test(argv[1:])
    commands = _command_names(parser)
    # `tandem-director FILE` opens that event in the app: a first word that is no command
    event = None
    positional = [a for a in argv if not a.startswith("-")]
    if positional and positional[0] not in commands:
        event = positional[0]
        argv.remove(event)
    args = parser.parse_args(argv)
    try:
        if args.command is None:
            from director.ui.app import run_gui

            if event is not None and "://" not in event and not Path(event).is_file():
                raise UserError(f"{event} is not a command and not an event file (see --help)")
            return run_gui(event, args.db)
        status: int = args.func(args)
        return status
    except BrokenPipeError:
        # the reader went away (`... | head`): stop quietly, as command-line tools do
        sys.stderr.close()
        return 0
    except UserError as exc:
        # one line per problem (a record or a team list can have several), never a traceback
        for line in str(exc).splitlines() or ["failed"]:
            print(f"tandem-director: {line}", file=sys.stderr)
        return EXIT_USAGE
    except Exception as exc:
        from director.store.errors import known_database_error

        known = known_database_error(exc)
        if known is None:
            raise
        print(f"tandem-director: {known}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
