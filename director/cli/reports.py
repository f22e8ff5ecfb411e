"""`tandem-director report KIND FILE -o OUT.pdf`: print any report to a PDF file."""

from __future__ import annotations

import argparse

from director.cli.common import Parser, positive_int, session_for, wrote
from director.domain.rules import Paper
from director.services.reports import KINDS
from director.store.files import atomic_write


def cmd_report(args: argparse.Namespace) -> int:
    from director.services.reports import render

    with session_for(args.file, read_only=True) as session:
        data = render(session, args.kind, round=args.round, match=args.match, paper=args.paper)
    atomic_write(args.out, data)
    wrote(args.out, f"wrote {args.out}")
    return 0


def register(sub: argparse._SubParsersAction[Parser]) -> None:
    report = sub.add_parser(
        "report",
        help="print a report to PDF (scoresheets, pairings, standings, ...)",
        description="Write a report of the event as a PDF file.",
    )
    report.add_argument("kind", choices=KINDS, metavar="KIND", help=f"one of: {', '.join(KINDS)}")
    report.add_argument("file", metavar="FILE", help="the event (.tandem file or database URL)")
    report.add_argument(
        "--round",
        type=positive_int,
        help="the round (scoresheets, match reports, pairings: default the latest; "
        "standings, crosstable: after this round)",
    )
    report.add_argument("--match", type=positive_int, help="one match (scoresheet, match report)")
    report.add_argument(
        "--paper", choices=[p.value for p in Paper], help="a4 or letter (default: the event's)"
    )
    report.add_argument(
        "-o", "--output", dest="out", required=True, metavar="OUT.pdf", help="the PDF to write"
    )
    report.set_defaults(func=cmd_report)
