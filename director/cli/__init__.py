"""The `tandem-director` command: the app without arguments, else a command line to parse.

Started from its menu entry or icon, the app parses nothing: `command_line` (argparse, the
commands' modules) loads only for arguments (tests/benchmarks/bench_gui.py, figure 1).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--smoke-test"]:  # hidden: the built app's self-test (installer/README.md)
        from director.ui.smoke import main as smoke_test

        return smoke_test(argv[1:])
    if not argv:  # the app, started from its menu entry or icon: nothing to parse
        from director.ui.app import run_gui

        return run_gui(None, None)
    from director.cli.command_line import run

    return run(argv)


if __name__ == "__main__":
    sys.exit(main())
