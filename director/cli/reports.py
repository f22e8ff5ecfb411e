"""`tandem-director report KIND FILE -o OUT.pdf`: print any report to a PDF file."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from director.cli.common import Parser, positive_int, rate, session_for, wrote
from director.domain.errors import UserError
from director.domain.rules import Paper
from director.services.reports import KINDS

if TYPE_CHECKING:
    from director.domain.met import MetParameters


def cmd_report(args: argparse.Namespace) -> int:
    from director.domain.met import MetParameters
    from director.services.reports import check_slip_address
    from director.store.files import atomic_write
    from director.store.lock import EventInUseError

    met = MetParameters(args.gammon_rate, args.backgammon_rate, args.size)
    met.check()  # a bad rate or size: one clear line, before the event is opened
    if met != MetParameters() and args.kind not in ("met", "event"):
        raise UserError(
            f"--gammon-rate, --backgammon-rate and --size are for the MET, not the {args.kind}"
        )
    if args.slip_address is not None:
        if args.kind != "scoresheet":
            raise UserError(f"--slip-address is for the scoresheets, not the {args.kind}")
        check_slip_address(args.slip_address)  # one clear line, before the event is opened
    # a scoresheet's QR code issues its match's slip token: a write, only when it is printed
    writes = args.kind == "scoresheet" and bool(args.slip_address or _stored_address(args.file))
    try:
        data = _render(args, met, read_only=not writes)
    except EventInUseError:
        if not writes:
            raise
        # the app has the event open: it issues the tokens; print the codes it issued
        print(
            "the event is open in the app: only the tables whose slip codes it issued print "
            "one (print the scoresheets from the app to have them all)",
            file=sys.stderr,
        )
        data = _render(args, met, read_only=True)
    atomic_write(args.out, data)
    wrote(args.out, f"wrote {args.out}")
    return 0


def _render(args: argparse.Namespace, met: MetParameters, *, read_only: bool) -> bytes:
    from director.services.reports import render

    with session_for(args.file, read_only=read_only) as session:
        return render(
            session,
            args.kind,
            round=args.round,
            match=args.match,
            paper=args.paper,
            met_parameters=met,
            start_time=args.start,
            logo=args.logo,
            slip_address=args.slip_address,
            issue_slip_tokens=not read_only,
        )


def _stored_address(target: str) -> str:
    from director.services.reports import stored_slip_address

    with session_for(target, read_only=True) as session:
        return stored_slip_address(session)


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
        "standings, crosstable: after this round; audit: only that round's lines)",
    )
    report.add_argument(
        "--match",
        type=positive_int,
        help="one match (scoresheet, match report; audit: only that match's lines)",
    )
    report.add_argument(
        "--paper", choices=[p.value for p in Paper], help="a4, letter or a3 (default: the event's)"
    )
    from director.domain.met import DEFAULT_BACKGAMMON_RATE, DEFAULT_GAMMON_RATE, DEFAULT_SIZE

    report.add_argument(
        "--gammon-rate",
        type=rate,  # 0 to 1 in 0-9 digits: float() read "٠.٣" and "nan"
        default=DEFAULT_GAMMON_RATE,
        metavar="G",
        help=f"MET: share of wins that are gammons (default {DEFAULT_GAMMON_RATE:g})",
    )
    report.add_argument(
        "--backgammon-rate",
        type=rate,
        default=DEFAULT_BACKGAMMON_RATE,
        metavar="B",
        help=f"MET: share of wins that are backgammons (default {DEFAULT_BACKGAMMON_RATE:g})",
    )
    report.add_argument(
        "--size",
        type=positive_int,
        default=DEFAULT_SIZE,
        metavar="N",
        help=f"MET: points needed from 1 to N (default {DEFAULT_SIZE})",
    )
    report.add_argument(
        "--start", metavar="HH:MM", help="the round's start time, printed on a round's sheets"
    )
    report.add_argument(
        "--logo", metavar="IMAGE", help="a club logo (PNG or JPEG) for every page's header"
    )
    report.add_argument(
        "--slip-address",
        metavar="URL",
        help="scoresheets: print each match's result-slip QR code for the table service at "
        "URL (as serve prints it; default the address set in the app, else no QR code)",
    )
    report.add_argument(
        "-o", "--output", dest="out", required=True, metavar="OUT.pdf", help="the PDF to write"
    )
    report.set_defaults(func=cmd_report)
