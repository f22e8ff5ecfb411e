"""`tandem-director club ...`: the club's register, its publishing, ratings, persons, seasons.

Publishing never guesses a person: it prints how every name of the event was matched (a
person, an alias, an explicit `--map NAME=ID`, or a new person) and writes only with `--yes`;
a name several persons carry is refused until it is mapped.
"""

from __future__ import annotations

import argparse
import contextlib
import json
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from director.cli.common import EVENT_HELP, Parser, one_transaction, session_for, shown, wrote
from director.domain.errors import UserError
from director.domain.numbers import typed_number
from director.domain.rules import Paper
from director.domain.wording import counted, quoted
from director.services.club_reports import CLUB_KINDS

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from director.services.club import EventResults, NameMatch

CLUB_HELP = "the club: a .club file, or a database URL (postgresql://USER@HOST/DB)"


@contextlib.contextmanager
def club_session(target: str, *, backup: bool = False) -> Iterator[Session]:
    """A session on the club in one transaction; the club is locked while the command runs.
    A command that replaces results (`backup`) backs the club up first, as the app's open does:
    just before its change is committed, so that a command that refuses writes nothing (no open
    mark either: the lock file tells a crash)."""
    from sqlalchemy import event

    from director.store.backup import backup_now
    from director.store.club import open_club

    db = open_club(target, make_backup=False, mark=False)
    with one_transaction(db) as session:
        if backup:  # read by a connection of its own: the club as it was before this change
            event.listen(session, "before_commit", lambda _session: backup_now(db, "open"))
        yield session


def _mapping(pairs: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for pair in pairs:
        name, sep, ident = pair.rpartition("=")
        person = typed_number(ident.strip().lstrip("#"))  # "²" raised, "٣" was #3
        if not sep or not name.strip() or person is None:
            raise UserError(f"--map {quoted(pair)}: write NAME=ID (the person's id in the club)")
        out[name.strip()] = person
    return out


def _event(target: str, *, finished: bool = True) -> EventResults:
    """The event's results (`finished`: every match finished), or only its players' names."""
    from director.services.club import event_players, event_results

    with session_for(target, read_only=True) as session:
        return event_results(session) if finished else event_players(session)


def cmd_new(args: argparse.Namespace) -> int:
    from director.store.club import create_club

    create_club(args.club).close()
    print(f"created the club {shown(args.club)}")
    return 0


def _matched(
    session: Session,
    results: EventResults,
    args: argparse.Namespace,
    nothing: str,
    *,
    linking: bool = False,
) -> list[NameMatch]:
    """Every name's match, printed; refused while a name is ambiguous, or without --yes.
    Linking (no results read) matches every registered player."""
    from director.services import club

    matched = club.match_event(session, results, _mapping(args.map), every_player=linking)
    if linking:
        print(f"{results.name}: {counted(len(results.players), 'player')}")
    else:
        print(f"{results.name} ({results.event_date}): {counted(len(results.matches), 'result')}")
    for m in matched:
        print(f"  {m.describe()}")
    if ambiguous := [m for m in matched if m.how == "ambiguous"]:
        raise UserError(ambiguous[0].describe() + ": map it with --map NAME=ID")
    if not args.yes:
        raise UserError(f"nothing {nothing}: check the matches above, then run again with --yes")
    return matched


def _publish(session: Session, results: EventResults, args: argparse.Namespace) -> bool:
    from director.services import club

    done = club.publish(session, results, _matched(session, results, args, "published"))
    print(f"published {counted(done.matches, 'result')} of {done.event}"
          + (" (replacing the earlier publication)" if done.replaced else "")
          + (f", {counted(len(done.created), 'new person')}" if done.created else ""))  # fmt: skip
    return True


def cmd_publish(args: argparse.Namespace) -> int:
    _mapping(args.map)  # a malformed --map is refused before the club is opened
    results = _event(args.event_file)
    with club_session(args.club, backup=args.yes) as session:
        _publish(session, results, args)
    return 0


def cmd_link(args: argparse.Namespace) -> int:
    """The event's players get their persons' ids (new names become persons in the club):
    from then on the event publishes by them, whatever names the club gains."""
    from director.services.club import add_person
    from director.services.teams import link_persons

    results = _event(args.event_file, finished=False)
    with club_session(args.club, backup=args.yes) as session:
        ids = {
            m.name: m.person if m.person is not None else add_person(session, m.name)
            for m in _matched(session, results, args, "linked", linking=True)
        }
    with session_for(args.event_file) as session:
        link_persons(session, ids)
    print(f"stored {counted(len(ids), 'person id')} in the event")
    return 0


def cmd_seed(args: argparse.Namespace) -> int:
    """The event's teams take their players' club ratings and are seeded by them."""
    from director.services.club import person_ratings
    from director.services.teams import seed_by_club_rating

    with club_session(args.club) as session:
        ratings = person_ratings(session)
    with session_for(args.event_file) as session:
        teams = seed_by_club_rating(session, ratings).value
    for team in sorted(teams, key=lambda t: t.seed):
        rating = "" if team.rating is None else str(team.rating)
        print(f"{team.seed:>4}  {team.name:<30} {rating:>6}")
    return 0


def cmd_rebuild(args: argparse.Namespace) -> int:
    """The club's results rebuilt from its event files: each publishes again, in one go."""
    from director.services.club import withdraw_all

    every = [_event(e) for e in args.events]
    with club_session(args.club, backup=args.yes) as session:
        withdraw_all(session)
        for results in every:
            _publish(session, results, args)
    return 0


def cmd_ratings(args: argparse.Namespace) -> int:
    from director.domain.rating import shown as rating_shown
    from director.services.club import rating_list

    with club_session(args.club) as session:
        rows = rating_list(session)
    if args.json:
        print(json.dumps({"rows": [
            {"id": r.id, "name": r.name, "rating": r.rating, "experience": r.experience,
             "provisional": r.provisional} for r in rows
        ]}, ensure_ascii=False))  # fmt: skip
        return 0
    if not rows:
        print("no one is rated in this club yet: `tandem-director club publish EVENT CLUB` rates "
              "an event's players")  # fmt: skip
        return 0
    print(f"{'#':>4}  {'id':<6} {'name':<30} {'rating':>8}  experience")
    for place, r in enumerate(rows, 1):
        mark = " (provisional)" if r.provisional else ""
        print(f"{place:>4}  #{r.id:<5} {r.name:<30} {rating_shown(r.rating):>8}  "
              f"{r.experience:>10}{mark}")  # fmt: skip
    return 0


def cmd_person(args: argparse.Namespace) -> int:
    from director.domain.rating import shown as rating_shown
    from director.services.club import find_person, person_view

    with club_session(args.club) as session:
        view = person_view(session, find_person(session, args.name))
    names = view.names
    print(
        f"#{view.id} {view.name}" + (f" (also {', '.join(view.aliases)})" if view.aliases else "")
    )
    if view.standing is None:
        print("no rated match yet")
    else:
        s = view.standing
        print(f"rating {rating_shown(s.rating)}, experience {s.experience}, {s.matches} rated"
              + (" (provisional)" if s.provisional else ""))  # fmt: skip
    for e in view.events:
        print(f"  {e.event_date}  {e.name}: {counted(e.matches, 'match', 'matches')}")
    for r in view.records:
        print(f"  against {names.get(r.opponent, r.opponent)}: {r.wins}-{r.losses}"
              + (f"-{r.draws}" if r.draws else ""))  # fmt: skip
    if view.rivals is not None:
        if (n := view.rivals.nemesis) is not None:
            print(f"nemesis: {names[n.opponent]} ({n.wins}-{n.losses})")
        if (b := view.rivals.beaten_most) is not None:
            print(f"beaten most: {names[b.opponent]} ({b.wins}-{b.losses})")
    return 0


def cmd_season(args: argparse.Namespace) -> int:
    from director.services.club import add_season, person_names, season_table

    if (args.first is None) != (args.last is None):
        raise UserError("a new season needs both --from and --to")
    with club_session(args.club) as session:
        if args.first is not None:
            if args.name is None:
                raise UserError("a new season needs a NAME")
            add_season(session, args.name, args.first, args.last)
            print(f"added the season {args.name.strip()}: {args.first} to {args.last}")
            return 0
        season, rows = season_table(session, args.name)
        names = person_names(session)
    print(f"{season.name}: {season.first} to {season.last}")
    for r in rows:
        place = f"{r.place}=" if r.shared else str(r.place)
        print(f"{place:>5}  {names[r.person]:<30} {r.points:>6g}  {r.rating:8.2f}")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from director.services.club_reports import club_report
    from director.store.files import atomic_write

    with club_session(args.club) as session:
        data = club_report(session, args.kind, club_name=_club_name(args.club),
                           person=args.person, season=args.season, paper=args.paper)  # fmt: skip
    atomic_write(args.out, data)
    wrote(args.out, f"wrote {args.out}")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    """The club file's integrity and foreign-key checks, read-only (the backups' own check)."""
    from pathlib import Path

    from director.store.club import check_club_file
    from director.store.integrity import CLUB, file_problems
    from director.store.targets import is_url

    if is_url(args.club):
        raise UserError("a club on a database server is checked on the server: ask who runs it")
    path = Path(args.club)
    check_club_file(path)
    problems = file_problems(path, CLUB)
    for line in problems:
        print(line)
    print(f"{args.club}: {counted(len(problems), 'problem') if problems else 'OK'}")
    return 1 if problems else 0


def _club_name(target: str) -> str:
    """What heads the club's pages: its file's name, or its database's."""
    from pathlib import PurePath

    return PurePath(shown(target).rsplit("/", 1)[-1].split("?")[0]).stem or "Club"


_YES = ("--yes", {"action": "store_true", "help": "write, once the matches printed are right "
                                                 "(without it nothing is written)"})  # fmt: skip
_MAP = ("--map", {"action": "append", "default": [], "metavar": "NAME=ID",
                  "help": "take NAME as the person ID (repeat it)"})  # fmt: skip
_CLUB = ("club", {"help": CLUB_HELP})
_EVENT = ("event_file", {"metavar": "EVENT", "help": EVENT_HELP})

# each verb: its name, help, function and arguments (argparse's name and keywords)
VERBS: tuple[tuple[str, str, Callable[[argparse.Namespace], int],
                   tuple[tuple[str, dict[str, Any]], ...]], ...] = (
    ("new", "create a club register", cmd_new,
     (("club", {"help": "the club to create: NAME.club, or a database URL"}),)),
    ("publish", "publish an event's results to the club", cmd_publish,
     (_EVENT, _CLUB, _YES, _MAP)),
    ("link", "store the club's person ids in an event's players (they publish by them)",
     cmd_link, (_EVENT, _CLUB, _YES, _MAP)),
    ("seed", "seed an event's teams by their players' club ratings (before round 1)", cmd_seed,
     (_EVENT, _CLUB)),
    ("rebuild", "rebuild the club's results from its event files", cmd_rebuild,
     (_CLUB, ("events", {"nargs": "+", "metavar": "EVENT", "help": EVENT_HELP}), _YES, _MAP)),
    ("check", "check the club file's integrity (read-only)", cmd_check, (_CLUB,)),
    ("ratings", "the club's rating list", cmd_ratings,
     (_CLUB, ("--json", {"action": "store_true", "help": "print JSON (ratings unrounded)"}))),
    ("person", "a person's rating, events and records", cmd_person,
     (_CLUB, ("name", {"help": "the person's name, alias or id (#12)"}))),
    ("season", "a season's standings, or add a season", cmd_season,
     (_CLUB, ("name", {"nargs": "?", "help": "the season (default: the latest)"}),
      ("--from", {"dest": "first", "metavar": "YYYY-MM-DD",
                  "help": "add the season NAME from this day"}),
      ("--to", {"dest": "last", "metavar": "YYYY-MM-DD",
                "help": "... to this day (both included)"}))),
    ("report", "print the rating list, a season's standings or a person's card to a PDF",
     cmd_report,
     (_CLUB, ("kind", {"choices": CLUB_KINDS, "help": "which document"}),
      ("out", {"metavar": "OUT.pdf", "help": "the PDF to write (- for standard output)"}),
      ("--person", {"metavar": "NAME", "help": "the person's name, alias or id (person)"}),
      ("--season", {"metavar": "NAME", "help": "the season (season; default: the latest)"}),
      ("--paper", {"choices": [p.value for p in Paper], "default": Paper.A4.value,
                   "help": "the paper size"}))),
)  # fmt: skip


def register(sub: argparse._SubParsersAction[Parser]) -> None:
    club = sub.add_parser("club", help="the club's register: persons, ratings, seasons")
    verbs = club.add_subparsers(dest="club_command", parser_class=Parser, metavar="VERB",
                                required=True)  # fmt: skip
    for name, text, func, arguments in VERBS:
        verb = verbs.add_parser(name, help=text)
        for flag, keywords in arguments:
            verb.add_argument(flag, **keywords)
        verb.set_defaults(func=func)
