"""The foundation sub-commands: met, replay, new, teams, match records, check."""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from typing import TYPE_CHECKING

from director.cli.common import (
    EVENT_HELP,
    TIME_HELP,
    Parser,
    add_new_event_arguments,
    bracket_plan,
    match_length,
    positive_int,
    rate,
    read_text,
    rounds_count,
    session_for,
    shown,
    time_control,
    time_control_text,
    whole,
    wrote,
)
from director.domain.errors import UserError
from director.domain.rules import (
    ONE_CUBE_THRESHOLDS,
    ClockMode,
    EventOptions,
    Format,
    MatchRules,
    PairingSystem,
    Paper,
    Scoring,
    Side,
    TimeControl,
)
from director.domain.wording import counted
from director.store.targets import check_new_target

if TYPE_CHECKING:
    from director.domain.brackets.plan import BracketPlan


def plan_summary(plan: BracketPlan) -> str:
    from director.domain.brackets.plan import describe

    return describe(plan)


def cmd_plan(args: argparse.Namespace) -> int:
    """Show the event's bracket plan, set it (not-started matches take its lengths), or write
    it as JSON."""
    from director.domain.brackets.plan import plan_to_json
    from director.services.brackets import event_plan, set_plan

    new = None if args.set is None else bracket_plan(args.set)
    with session_for(args.file, read_only=new is None) as session:
        if new is not None:
            change = set_plan(session, new, args.reason).value
            for warning in change.warnings:
                print(f"warning: {warning}")
        plan = event_plan(session)
    if args.json:
        print(plan_to_json(plan))
    else:
        print(plan_summary(plan))
    return 0


# --- met ---------------------------------------------------------------------------------


def cmd_met(args: argparse.Namespace) -> int:
    from director.domain.met import MetParameters, match_equity_table

    params = MetParameters(args.gammon_rate, args.backgammon_rate, args.size)
    table = match_equity_table(params)
    if args.json:
        data = {
            "size": params.size,
            "gammon_rate": params.gammon_rate,
            "backgammon_rate": params.backgammon_rate,
            "table": table,
        }
        print(json.dumps(data))
    elif args.csv:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["need", *range(1, params.size + 1)])
        for i, row in enumerate(table, start=1):
            # 12 decimals: the table's own precision, without float noise (0.7149999999999999)
            writer.writerow([i, *(repr(round(x, 12)) for x in row)])
        print(out.getvalue(), end="")
    else:
        print(params.model_text())
        print("need " + "".join(f"{j:>7}" for j in range(1, params.size + 1)))
        for i, row in enumerate(table, start=1):
            print(f"{i:>4} " + "".join(f"{x * 100:6.1f}%" for x in row))
    return 0


# --- replay ------------------------------------------------------------------------------


def replay_json_text(data: dict[str, object]) -> str:
    """The FORMATS.md layout: one game per line, the totals after."""
    games = data["games"]
    assert isinstance(games, list)
    lines = ["{", '  "games": [']
    lines += [
        "    " + json.dumps(g, ensure_ascii=False) + ("," if i < len(games) - 1 else "")
        for i, g in enumerate(games)
    ]
    lines.append("  ],")
    tail = [k for k in data if k != "games"]
    for i, key in enumerate(tail):
        comma = "," if i < len(tail) - 1 else ""
        lines.append(f"  {json.dumps(key)}: {json.dumps(data[key], ensure_ascii=False)}{comma}")
    lines.append("}")
    return "\n".join(lines)


def cmd_replay(args: argparse.Namespace) -> int:
    from director.domain.records import MAX_RECORD_BYTES, parse_record, replay_data

    record = parse_record(read_text(args.file, "a match record", MAX_RECORD_BYTES))
    outcome = record.outcome()
    if args.json:
        print(replay_json_text(replay_data(outcome)))
        return 0
    a, b = record.teams[Side.A].name, record.teams[Side.B].name
    rules = record.rules
    one_board = rules.event_format.one_board
    print(f"{a} (A) v {b} (B), match to {rules.match_length}, {rules.scoring.variant.label}")
    where = f"{'game':>10}" if one_board else f"{'pair':>4} {'board':>5}"
    print(f"{where}  {'winner':<6} {'end':<9} {'level':<10} {'cube':>4}"
          f" {'points':>6} {'pips':>5}  score")  # fmt: skip
    for line in outcome.lines:
        g = line.game
        level = (g.level or g.agreed_level or "").__str__()
        note = "" if line.counted else "  abandoned (rule 4′)"
        note += "  Crawford game (RULES §10)" if line.crawford else ""
        where = f"{g.pair:>10}" if one_board else f"{g.pair:>4} {g.board:>5}"
        print(f"{where}  {g.winner.value:<6} {g.end.value:<9} {level:<10} "
              f"{g.cube:>4} {line.points:>6} {line.pip_points:>5}  {line.score}{note}")  # fmt: skip
    if outcome.lost_on_time is not None:
        print(f"{record.teams[outcome.lost_on_time].name} lost the match on time (RULES §10)")
    print(f"score {outcome.score}")
    if rules.scoring.variant.squeeze is not None:
        print(f"pip points {outcome.pip_points}, extra {outcome.extra}, final {outcome.final}")
    result = {"A": f"{a} wins", "B": f"{b} wins", "draw": "draw", "unfinished": "unfinished"}
    print(f"result: {result[outcome.result.value]}")
    return 0


# --- events and teams --------------------------------------------------------------------


def cmd_new(args: argparse.Namespace) -> int:
    from director.services.events import create_event

    base, inc, mode = new_clock(args)
    options = EventOptions(
        match=MatchRules(
            format=Format.INDIVIDUAL if args.individual else Format.TANDEM,
            match_length=args.length,
            scoring=Scoring(args.scoring),
            winner_required=args.winner_required,
            one_cube_threshold=args.one_cube_threshold,
            no_cube_at_one_away=args.no_cube_at_one_away,
            agreed_lower_forfeit=args.agreed_lower_forfeit,
        ),
        time_control=TimeControl(base, inc, mode),
        pairing_system=PairingSystem(args.format),
        rounds=args.rounds,
        paper=Paper(args.paper),
    )
    problems = options.problems()
    if not args.name.strip():
        problems.insert(0, "--name cannot be empty")
    if args.plan is not None and options.pairing_system is not PairingSystem.KNOCKOUT:
        problems.append("--plan is for a knockout (--format knockout)")
    if problems:
        raise UserError("; ".join(problems))
    plan = None if args.plan is None else bracket_plan(args.plan)
    check_new_target(args.file)
    from director.services.events import check_header
    from director.store.engine import display_target, new_database

    # before the file exists: a bad date leaves nothing behind
    check_header(args.venue, args.date, args.end_date, args.organiser, args.director)
    with new_database(args.file) as db, db.Session() as session, session.begin():
        create_event(
            session, args.name, options, args.venue, args.date,
            end_date=args.end_date, organiser=args.organiser, director=args.director,
        )  # fmt: skip
        if plan is not None:
            from director.services.brackets import set_plan

            set_plan(session, plan)
    print(f"created {display_target(args.file)}")
    if plan is not None:
        print(f"bracket plan: {plan_summary(plan)}")
    clock = options.time_control
    if args.individual:
        minutes = time_control_text(base, inc).split(" + ")[0]
        print(f"match reserve: {minutes} per match point, {inc} s simple delay (RULES §10)")
    else:
        print(f"time control: {time_control_text(base, inc)} a move ({clock.mode.label})")
    return 0


def new_clock(args: argparse.Namespace) -> tuple[int, int, ClockMode]:
    """`new`'s clock: a Tandem time control a move (--time, --clock), or an individual
    match's reserve per match point with a simple delay (--reserve-per-point, --delay)."""
    if args.individual:
        for option, value in (("--time", args.time), ("--clock", args.clock)):
            if value is not None:
                raise UserError(
                    f"{option} is a Tandem time control: an individual event takes "
                    "--reserve-per-point and --delay (RULES §10)"
                )
        minutes = 2 if args.reserve_per_point is None else args.reserve_per_point
        delay = 12 if args.delay is None else args.delay
        return minutes * 60, delay, ClockMode.DELAY
    for option, value in (("--reserve-per-point", args.reserve_per_point), ("--delay", args.delay)):
        if value is not None:
            raise UserError(f"{option} is for an individual event: add --individual (RULES §10)")
    base, inc = args.time if args.time is not None else (120, 12)
    return base, inc, ClockMode(args.clock or "fischer")


def cmd_import_teams(args: argparse.Namespace) -> int:
    from director.domain.teamlist import MAX_FILE_BYTES
    from director.services.teams import entrant_format, import_teams
    from director.store.files import read_limited

    data = read_limited(args.csv, "a team list", MAX_FILE_BYTES)
    with session_for(args.file) as session:
        result = import_teams(session, data, skip_bad_rows=args.skip_bad_rows).value
        entrant = entrant_format(session).entrant
    for bad in result.skipped:
        print(f"skipped {bad}", file=sys.stderr)
    for warning in result.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    print(f"imported {len(result.imported)} {entrant}s")
    return 0


def cmd_export_teams(args: argparse.Namespace) -> int:
    from director.services.teams import entrant_format, export_teams
    from director.store.files import atomic_write

    with session_for(args.file, read_only=True) as session:
        text = export_teams(session)
        entrant = entrant_format(session).entrant
    atomic_write(args.csv, text.encode("utf-8"))
    teams = len(list(csv.reader(io.StringIO(text)))) - 1  # the header row, then the teams
    wrote(args.csv, f"wrote {counted(teams, entrant)} to {args.csv}")
    return 0


def cmd_export_match(args: argparse.Namespace) -> int:
    from director.domain.records import parse_record
    from director.services.records import export_match
    from director.store.files import atomic_write

    with session_for(args.file, read_only=True) as session:
        text = export_match(session, args.match)
    atomic_write(args.out, text.encode("utf-8"))
    record = parse_record(text)
    a, b = record.teams[Side.A].name, record.teams[Side.B].name
    wrote(args.out, f"wrote match {args.match} ({a} v {b}, {record.outcome().score}) to {args.out}")
    return 0


def cmd_import_match(args: argparse.Namespace) -> int:
    from director.domain.records import MAX_RECORD_BYTES
    from director.services.records import import_match

    text = read_text(args.json_file, "a match record", MAX_RECORD_BYTES)
    with session_for(args.file) as session:
        match = import_match(session, text)
    from director.services.records import where

    names = f"{match.names[0]} v {match.names[1]}"
    print(f"imported into {where(match)}: {names}, {match.outcome.final}")  # RULES §6.3
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from director.services.matches import stored_differences
    from director.store.engine import open_database
    from director.store.integrity import integrity_problems
    from director.store.values import bad_values, duplicate_names

    db = open_database(args.file, read_only=True, check_values=False)
    try:
        problems = integrity_problems(db)
        if db.is_sqlite:
            problems += db.raw_read(bad_values)
        if not any(p.startswith("value:") for p in problems):
            problems += db.raw_read(duplicate_names)
        if not any(p.startswith("value:") for p in problems):  # the rows read as the app does
            with db.Session() as session:
                problems += stored_differences(session)
    finally:
        db.close()
    for line in problems:
        print(line)
    print(f"{shown(args.file)}: {counted(len(problems), 'problem') if problems else 'OK'}")
    return 1 if problems else 0


def register(sub: argparse._SubParsersAction[Parser]) -> None:
    met = sub.add_parser("met", help="print the Tandem match equity table (RULES §9)")
    met.add_argument(
        "--gammon-rate",
        type=rate,
        default=0.28,
        help="share of games won as a gammon (default 0.28)",
    )
    met.add_argument(
        "--backgammon-rate",
        type=rate,
        default=0.0,
        help="share of games won as a backgammon (default 0)",
    )
    met.add_argument(
        "--size", type=positive_int, default=6, help="points away to tabulate, 1 to S (default 6)"
    )
    fmt = met.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print JSON (full precision)")
    fmt.add_argument("--csv", action="store_true", help="print CSV (full precision)")
    met.set_defaults(func=cmd_met)

    replay = sub.add_parser("replay", help="re-score a match record")
    replay.add_argument("file", help="the match record (.tandem-match.json)")
    replay.add_argument("--json", action="store_true", help="print the FORMATS.md JSON layout")
    replay.set_defaults(func=cmd_replay)

    new = sub.add_parser("new", help="create an event file")
    add_new_event_arguments(new)
    new.add_argument("--name", required=True, help="the event's name, as printed on reports")
    new.add_argument(
        "--length", type=match_length, required=True, help="match length in points (RULES §1)"
    )
    new.add_argument(
        "--winner-required",
        action="store_true",
        help="rule 4′: the match ends when a game brings a team to the length; no draws (RULES §3)",
    )
    new.add_argument(
        "--one-cube-threshold",
        type=whole(1, max(ONE_CUBE_THRESHOLDS)),  # int() took "٢" for 2
        choices=ONE_CUBE_THRESHOLDS,
        default=2,
        help="points away at which the one-cube rule starts (RULES §4; default 2)",
    )
    new.add_argument(
        "--no-cube-at-one-away",
        action="store_true",
        help="no doubling once a team is one point away",
    )
    new.add_argument(
        "--agreed-lower-forfeit",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="rule 5′: at a time forfeit the director may score the lower level both players "
        "agree on (RULES §5; default on, --no-agreed-lower-forfeit leaves it out)",
    )
    new.add_argument("--time", type=time_control, default=None, metavar="BASE+INC",
                     help=TIME_HELP)  # fmt: skip
    new.add_argument(
        "--clock",
        choices=[c.value for c in ClockMode],
        default=None,
        help="how INC is used: fischer increment, bronstein or simple delay (default fischer)",
    )
    new.add_argument(
        "--reserve-per-point",
        type=whole(1, 60),
        default=None,
        metavar="M",
        help="individual: each player's reserve in minutes per match point (RULES §10; default 2)",
    )
    new.add_argument(
        "--delay",
        type=whole(0, 3600),
        default=None,
        metavar="D",
        help="individual: the simple delay in seconds a move (RULES §10; default 12)",
    )
    new.add_argument(
        "--rounds",
        type=rounds_count,
        default=5,
        help="number of rounds (0: Swiss until one team is clear)",
    )
    new.add_argument(
        "--paper",
        choices=[p.value for p in Paper],
        default=Paper.A4.value,
        help="the reports' paper size: a4, letter or a3 (default a4; `report --paper` overrides)",
    )
    new.add_argument("--venue", default="", help="where the event is played (report header)")
    new.add_argument("--date", default="", metavar="YYYY-MM-DD",
                     help="the event's first date, printed on reports")  # fmt: skip
    new.add_argument("--end-date", default="", metavar="YYYY-MM-DD",
                     help="the last day of an event over several days")  # fmt: skip
    new.add_argument("--organiser", default="", help="who organises the event (report header)")
    new.add_argument("--director", default="", help="the director or arbiter (report header)")
    new.set_defaults(func=cmd_new)

    plan = sub.add_parser(
        "plan", help="show or set a knockout's bracket plan (RULES §11); --json exports it"
    )
    plan.add_argument("file", help=EVENT_HELP)
    plan.add_argument(
        "--set", metavar="PLAN", help="a ready-made plan's name or a plan's JSON file"
    )
    plan.add_argument("--reason", default="", help="why, for the audit log")
    plan.add_argument("--json", action="store_true", help="print the plan as JSON (to import)")
    plan.set_defaults(func=cmd_plan)

    imp = sub.add_parser("import-teams", help="import a team list CSV")
    imp.add_argument("file", help=EVENT_HELP)
    imp.add_argument(
        "csv",
        help="the team list: team,player1,player2[,club][,rating][,seed]; in an individual "
        "event the player list: player[,club][,rating][,seed]",
    )
    imp.add_argument(
        "--skip-bad-rows", action="store_true", help="import the good rows, list the bad ones"
    )
    imp.set_defaults(func=cmd_import_teams)

    exp = sub.add_parser("export-teams", help="export the team list CSV")
    exp.add_argument("file", help=EVENT_HELP)
    exp.add_argument("csv", help="the CSV file to write")
    exp.set_defaults(func=cmd_export_teams)

    em = sub.add_parser("export-match", help="write a match record")
    em.add_argument("file", help=EVENT_HELP)
    em.add_argument(
        "match", type=positive_int, help="the match id (`pair FILE --round R` lists them)"
    )
    em.add_argument("out", metavar="OUT.json", help="the match record to write")
    em.set_defaults(func=cmd_export_match)

    im = sub.add_parser("import-match", help="add a match record to the event")
    im.add_argument("file", help=EVENT_HELP)
    im.add_argument("json_file", metavar="IN.json", help="the match record to add")
    im.set_defaults(func=cmd_import_match)

    check = sub.add_parser("check", help="integrity check and re-score every match (read-only)")
    check.add_argument("file", help=EVENT_HELP)
    check.set_defaults(func=cmd_check)
