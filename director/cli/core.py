"""The foundation sub-commands: met, replay, new, teams, match records, check."""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys

from director.cli.common import (
    Parser,
    match_length,
    positive_int,
    rate,
    read_bytes,
    read_text,
    rounds_count,
    session_for,
    shown,
)
from director.domain.errors import UserError
from director.domain.met import MetParameters, match_equity_table
from director.domain.records import parse_record, replay_data
from director.domain.rules import (
    ClockMode,
    EventOptions,
    MatchRules,
    PairingSystem,
    Scoring,
    Side,
    TimeControl,
)
from director.store.files import atomic_write

EXIT_USAGE = 2


# --- met ---------------------------------------------------------------------------------


def cmd_met(args: argparse.Namespace) -> int:
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
            writer.writerow([i, *(repr(x) for x in row)])
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
    record = parse_record(read_text(args.file, "a match record"))
    outcome = record.outcome()
    if args.json:
        print(replay_json_text(replay_data(outcome)))
        return 0
    a, b = record.teams[Side.A].name, record.teams[Side.B].name
    rules = record.rules
    print(f"{a} (A) v {b} (B), match to {rules.match_length}, {rules.scoring.label}")
    print(f"{'pair':>4} {'board':>5}  {'winner':<6} {'end':<9} {'level':<10} {'cube':>4}"
          f" {'points':>6} {'pips':>5}  score")  # fmt: skip
    for line in outcome.lines:
        g = line.game
        level = (g.level or g.agreed_level or "").__str__()
        note = "" if line.counted else "  abandoned (rule 4′)"
        print(f"{g.pair:>4} {g.board:>5}  {g.winner.value:<6} {g.end.value:<9} {level:<10} "
              f"{g.cube:>4} {line.points:>6} {line.pip_points:>5}  {line.score}{note}")  # fmt: skip
    print(f"score {outcome.score}")
    if rules.scoring.is_pip_squeeze:
        print(f"pip points {outcome.pip_points}, extra {outcome.extra}, final {outcome.final}")
    result = {"A": f"{a} wins", "B": f"{b} wins", "draw": "draw", "unfinished": "unfinished"}
    print(f"result: {result[outcome.result.value]}")
    return 0


# --- events and teams --------------------------------------------------------------------


MAX_BASE_SECONDS = 24 * 3600
MAX_INCREMENT_SECONDS = 3600


def parse_time(text: str) -> tuple[int, int]:
    base, sep, inc = text.partition("+")
    if not sep or not base.strip().isdigit() or not inc.strip().isdigit():
        raise UserError(f"--time {text!r}: write BASE+INC in seconds, e.g. 120+12")
    if len(base.strip()) > 6 or int(base) > MAX_BASE_SECONDS:
        raise UserError(f"--time {text!r}: the base time is at most {MAX_BASE_SECONDS} seconds")
    if len(inc.strip()) > 6 or int(inc) > MAX_INCREMENT_SECONDS:
        raise UserError(
            f"--time {text!r}: the increment or delay is at most {MAX_INCREMENT_SECONDS} seconds"
        )
    return int(base), int(inc)


def cmd_new(args: argparse.Namespace) -> int:
    from director.services.events import create_event

    base, inc = parse_time(args.time)
    options = EventOptions(
        match=MatchRules(
            match_length=args.length,
            scoring=Scoring(args.scoring),
            winner_required=args.winner_required,
            one_cube_threshold=args.one_cube_threshold,
            no_cube_at_one_away=args.no_cube_at_one_away,
        ),
        time_control=TimeControl(base, inc, ClockMode(args.clock)),
        pairing_system=PairingSystem(args.format),
        rounds=args.rounds,
    )
    problems = options.problems()
    if not args.name.strip():
        problems.insert(0, "--name cannot be empty")
    if problems:
        raise UserError("; ".join(problems))
    if not args.file.startswith(("postgresql:", "postgresql+")) and not args.file.endswith(
        ".tandem"
    ):
        raise UserError(f"{args.file}: an event file name ends in .tandem")
    from director.store.engine import display_target, new_database

    with new_database(args.file) as db, db.Session() as session, session.begin():
        create_event(session, args.name, options)
    print(f"created {display_target(args.file)}")
    return 0


def cmd_import_teams(args: argparse.Namespace) -> int:
    from director.services.teams import import_teams

    data = read_bytes(args.csv)
    with session_for(args.file) as session:
        result = import_teams(session, data, skip_bad_rows=args.skip_bad_rows)
    for bad in result.skipped:
        print(f"skipped {bad}", file=sys.stderr)
    for warning in result.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    print(f"imported {len(result.imported)} teams")
    return 0


def cmd_export_teams(args: argparse.Namespace) -> int:
    from director.services.teams import export_teams

    with session_for(args.file, read_only=True) as session:
        text = export_teams(session)
    atomic_write(args.csv, text.encode("utf-8"))
    return 0


def cmd_export_match(args: argparse.Namespace) -> int:
    from director.services.records import export_match

    with session_for(args.file, read_only=True) as session:
        text = export_match(session, args.match)
    atomic_write(args.out, text.encode("utf-8"))
    return 0


def cmd_import_match(args: argparse.Namespace) -> int:
    from director.services.records import import_match

    text = read_text(args.json_file, "a match record")
    with session_for(args.file) as session:
        match = import_match(session, text)
    print(f"imported match {match.id}: {match.names[0]} v {match.names[1]}, {match.outcome.score}")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from director.services.results import stored_differences
    from director.store.engine import open_database
    from director.store.integrity import integrity_problems

    db = open_database(args.file, read_only=True)
    try:
        problems = integrity_problems(db)
        with db.Session() as session:
            problems += stored_differences(session)
    finally:
        db.close()
    for line in problems:
        print(line)
    print(f"{shown(args.file)}: {'OK' if not problems else f'{len(problems)} problem(s)'}")
    return 1 if problems else 0


def register(sub: argparse._SubParsersAction[Parser]) -> None:
    met = sub.add_parser("met", help="print the Tandem match equity table (RULES §9)")
    met.add_argument("--gammon-rate", type=rate, default=0.28)
    met.add_argument("--backgammon-rate", type=rate, default=0.0)
    met.add_argument("--size", type=positive_int, default=6)
    fmt = met.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true")
    fmt.add_argument("--csv", action="store_true")
    met.set_defaults(func=cmd_met)

    replay = sub.add_parser("replay", help="re-score a match record")
    replay.add_argument("file")
    replay.add_argument("--json", action="store_true")
    replay.set_defaults(func=cmd_replay)

    new = sub.add_parser("new", help="create an event file")
    new.add_argument("file")
    new.add_argument("--name", required=True)
    new.add_argument("--length", type=match_length, required=True)
    new.add_argument("--scoring", choices=[s.value for s in Scoring], default="standard")
    new.add_argument("--winner-required", action="store_true")
    new.add_argument("--one-cube-threshold", type=int, choices=(1, 2), default=2)
    new.add_argument("--no-cube-at-one-away", action="store_true")
    new.add_argument("--time", default="120+12", help="BASE+INC in seconds (default 120+12)")
    new.add_argument("--clock", choices=[c.value for c in ClockMode], default="fischer")
    new.add_argument("--format", choices=[p.value for p in PairingSystem], default="swiss")
    new.add_argument("--rounds", type=rounds_count, default=5, help="0: Swiss until one is clear")
    new.set_defaults(func=cmd_new)

    imp = sub.add_parser("import-teams", help="import a team list CSV")
    imp.add_argument("file")
    imp.add_argument("csv")
    imp.add_argument("--skip-bad-rows", action="store_true")
    imp.set_defaults(func=cmd_import_teams)

    exp = sub.add_parser("export-teams", help="export the team list CSV")
    exp.add_argument("file")
    exp.add_argument("csv")
    exp.set_defaults(func=cmd_export_teams)

    em = sub.add_parser("export-match", help="write a match record")
    em.add_argument("file")
    em.add_argument("match", type=positive_int)
    em.add_argument("out")
    em.set_defaults(func=cmd_export_match)

    im = sub.add_parser("import-match", help="add a match record to the event")
    im.add_argument("file")
    im.add_argument("json_file", metavar="IN.json")
    im.set_defaults(func=cmd_import_match)

    check = sub.add_parser("check", help="integrity check and re-score every match (read-only)")
    check.add_argument("file")
    check.set_defaults(func=cmd_check)
