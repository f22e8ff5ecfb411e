"""Rounds, standings, the pairing checker and the event simulator."""

from __future__ import annotations

import argparse
import json
import random
import re
import time

from director.cli.common import (
    EVENT_HELP,
    Parser,
    add_new_event_arguments,
    bracket_plan,
    count,
    positive_int,
    rounds_count,
    session_for,
    shown,
    whole,
)
from director.domain.errors import UserError
from director.domain.rules import Format, PairingSystem, Scoring
from director.domain.score import Result, Score
from director.domain.wording import counted, quoted
from director.store.targets import check_new_target


def cmd_pair(args: argparse.Namespace) -> int:
    from director.services import rounds
    from director.services.backups import backup_after_pairing
    from director.store.engine import open_database, open_event

    read_only = args.preview or args.round is not None
    db = (
        open_database(args.file, read_only=True)
        if read_only
        else open_event(args.file, make_backup=False, deferred=True)
    )
    try:
        with db.Session() as session, session.begin():
            if args.round is not None:
                for m in rounds.get_round(session, args.round).matches:
                    if m.team_b is None:  # a bye is played at no table
                        print(f"bye: {m.team_a.name} (match {m.id})")
                    else:
                        print(f"table {m.table}: {m.team_a.name} v {m.team_b.name} (match {m.id})")
                return 0
            preview = rounds.preview_next_round(session)  # refuses before anything is written
        if not args.preview:
            db.start_writing(backup=True)  # the upgrade, the mark and the backup at opening
            with db.Session() as session, session.begin():
                rounds.pair_next_round(session)
            backup_after_pairing(db, preview.number)
    finally:
        db.close()
    print(f"round {preview.number}{' (preview, not saved)' if args.preview else ''}")
    for line in preview.lines():
        print(line)
    for warning in preview.warnings:
        print(f"warning: {warning}")
    return 0


def cmd_standings(args: argparse.Namespace) -> int:
    from director.services import standings
    from director.services.teams import entrant_format

    with session_for(args.file, read_only=True) as session:
        view = standings.standings(session, args.round)
        entrant = entrant_format(session).entrant
    if args.json:
        print(json.dumps(standings.standings_json(view), ensure_ascii=False, indent=1))
        return 0
    # the columns as --json names them, each defined once below under that name (but the
    # entrant's: a player in an individual event, where --json keeps the key "team")
    tie_breaks = [standings.tie_break_key(tb) for tb in view.tie_breaks]
    heads = ["rank", entrant, "match_points", *tie_breaks, "games_played"]
    rows = [
        [str(line.row.rank), line.team.name, f"{line.row.match_points:g}"]
        + [
            "" if v is None else f"{v:g}"
            for v in (line.row.tie_breaks.get(tb) for tb in view.tie_breaks)
        ]
        + [str(line.row.played)]
        for line in view.lines
    ]
    widths = [max(len(r[i]) for r in [heads, *rows]) for i in range(len(heads))]
    for r in [heads, *rows]:
        print(
            "  ".join(
                c.ljust(w) if i == 1 else c.rjust(w)
                for i, (c, w) in enumerate(zip(r, widths, strict=True))
            )
        )
    named = zip(["match_points", *tie_breaks], view.definitions.values(), strict=True)
    for key, text in named:
        print(f"{key}: {text.split(': ', 1)[-1]}")  # the text names its label: not twice
    return 0


def cmd_check_pairings(args: argparse.Namespace) -> int:
    from director.services import rounds
    from director.services.teams import list_teams

    with session_for(args.file, read_only=True) as session:
        violations = rounds.check_pairings(session)
        names = {t.id: t.name for t in list_teams(session)}
    for v in violations:
        teams = ", ".join(names.get(t, str(t)) for t in v.teams)
        print(f"round {v.round}: {teams}: {v.rule}: {v.text}")
    print(f"{shown(args.file)}: {counted(len(violations), 'violation')}")
    return 1 if violations else 0


def cmd_simulate(args: argparse.Namespace) -> int:
    from director.services.simulate import SimulationSettings, simulate_event, status_line

    entrants = _simulated_entrants(args)
    knockout = PairingSystem(args.format) is PairingSystem.KNOCKOUT
    if args.rounds is None and not knockout:
        raise UserError(
            f"--rounds N is required for a {args.format} event "
            "(a knockout's plan decides its rounds)"
        )
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 10**9)
    print(f"seed {seed}", flush=True)  # first, so any run can be reproduced
    settings = SimulationSettings(
        teams=entrants,
        format=Format.INDIVIDUAL if args.individual else Format.TANDEM,
        rounds=0 if args.rounds is None else args.rounds,  # 0: the knockout's draw decides
        system=PairingSystem(args.format),
        scoring=Scoring(args.scoring),
        seed=seed,
        match_length=args.length,
        late_entries=args.late_entries,
        withdrawals=args.withdrawals,
        forbidden_pairs=args.forbidden_pairs,
        rounds_to_play=args.play,
        plan=None if args.plan is None else bracket_plan(args.plan),
    )
    if args.forbidden_pairs > entrants * (entrants - 1) // 4:
        kind = "players" if args.individual else "teams"
        raise UserError(
            f"--forbidden-pairs {args.forbidden_pairs}: at most a quarter of the pairs of "
            f"{entrants} {kind} ({entrants * (entrants - 1) // 4}) may be forbidden"
        )
    check_new_target(args.file)
    start = time.perf_counter()
    db = simulate_event(args.file, settings)
    try:
        print(f"{shown(args.file)}: {status_line(db)} in {time.perf_counter() - start:.1f} s")
    finally:
        db.close()
    return 0


def _simulated_entrants(args: argparse.Namespace) -> int:
    """How many entrants to simulate: teams in a Tandem event, players in an individual one
    (RULES §10)."""
    if args.individual and args.teams is not None:
        raise UserError("an individual event has players: --players N, not --teams")
    if not args.individual and args.players is not None:
        raise UserError("--players is for an individual event: add --individual (RULES §10)")
    entrants: int | None = args.players if args.individual else args.teams
    if entrants is None:
        raise UserError(
            "the number of teams (--teams N) or players (--individual --players N) is required"
        )
    return entrants


SIM_MAX_TEAMS = 10_000  # a simulation is a test of the app: 10,000 teams pair in minutes
SIM_MAX_LENGTH = 25  # each simulated game is played out: a 999-point match took 52 s


SCORE = re.compile(r"^\s*([0-9]{1,4})\s*[-–:]\s*([0-9]{1,4})\s*$")  # not \d: "٥" is one


def score(text: str) -> Score:
    """An argparse type: a final score `A-B` (team A's points first), else one clear line."""
    found = SCORE.match(text)
    if found is None:
        raise argparse.ArgumentTypeError(
            f"{quoted(text)} is not a score: give team A's points, then team B's, e.g. 7-4"
        )
    return Score(int(found.group(1)), int(found.group(2)))


def cmd_result(args: argparse.Namespace) -> int:
    """Type a table's final score from its paper scoresheet (#24), or clear it."""
    from director.services.matches import list_matches
    from director.services.paper import enter_paper_result

    with session_for(args.file) as session:
        at = [m for m in list_matches(session, args.round) if m.table == args.table and m.team_b]
        if not at:
            raise UserError(f"round {args.round} has no match at table {args.table}")
        match = enter_paper_result(session, at[0].id, None if args.clear else args.score).value
    where = f"round {args.round}, table {args.table}"
    if not match.outcome.finished:
        print(f"{where}: the result from paper is cleared; the match is to be played")
        return 0
    final, result = match.outcome.final, match.outcome.result
    words = "a draw" if result is Result.DRAW else f"{match.names[result is Result.B]} wins"
    print(f"{where}: {match.names[0]} {final.a}-{final.b} {match.names[1]}, {words} (from paper)")
    return 0


def register(sub: argparse._SubParsersAction[Parser]) -> None:
    res = sub.add_parser(
        "result", help="type a table's final score from its paper scoresheet (no games)"
    )
    res.add_argument("file", help=EVENT_HELP)
    res.add_argument("--round", type=positive_int, required=True, help="the round")
    res.add_argument("--table", type=positive_int, required=True, help="the table")
    given = res.add_mutually_exclusive_group(required=True)
    given.add_argument(
        "--score", type=score, help="the final score, team A's points first (e.g. 7-4)"
    )
    given.add_argument("--clear", action="store_true", help="clear the table's result from paper")
    res.set_defaults(func=cmd_result)

    pair = sub.add_parser("pair", help="pair the next round (or show a round)")
    pair.add_argument("file", help=EVENT_HELP)
    pair.add_argument(
        "--round", type=positive_int, help="show this round's tables and match ids, pair nothing"
    )
    pair.add_argument("--preview", action="store_true", help="show the pairing, save nothing")
    pair.set_defaults(func=cmd_pair)

    st = sub.add_parser("standings", help="print the standings")
    st.add_argument("file", help=EVENT_HELP)
    st.add_argument("--round", type=positive_int, help="after this round (default: the last)")
    st.add_argument("--json", action="store_true", help="print JSON rows (keys in README.md)")
    st.set_defaults(func=cmd_standings)

    check = sub.add_parser("check-pairings", help="check every round against the pairing rules")
    check.add_argument("file", help=EVENT_HELP)
    check.set_defaults(func=cmd_check_pairings)

    sim = sub.add_parser("simulate", help="build a complete simulated event")
    add_new_event_arguments(sim)
    sim.add_argument("--teams", type=whole(1, SIM_MAX_TEAMS), help="number of teams")
    sim.add_argument(
        "--players",
        type=whole(1, SIM_MAX_TEAMS),
        help="number of players, with --individual (RULES §10)",
    )
    sim.add_argument(
        "--rounds",
        type=rounds_count,
        help="number of rounds (a knockout: not needed, its plan and field decide them)",
    )
    sim.add_argument("--seed", type=count, help="the random seed (default: a new one, printed)")
    sim.add_argument(
        "--length",
        type=whole(0, SIM_MAX_LENGTH),
        default=0,
        help=f"match length, at most {SIM_MAX_LENGTH} (default 5)",
    )
    few = whole(0, SIM_MAX_TEAMS)
    sim.add_argument("--late-entries", type=few, default=0, help="teams that join after round 1")
    sim.add_argument(
        "--withdrawals", type=few, default=0, help="teams that withdraw during the event"
    )
    sim.add_argument(
        "--forbidden-pairs", type=few, default=0, help="pairs of teams that must not meet"
    )
    sim.add_argument("--play", type=rounds_count, help="play only this many rounds")
    sim.set_defaults(func=cmd_simulate)
