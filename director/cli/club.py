"""`tandem-director club ...`: the club's register, its publishing, ratings, persons, seasons.

Publishing never guesses a person: it prints how every name of the event was matched (a
person, an alias, an explicit `--map NAME=ID`, or a new person) and writes only with `--yes`;
a name several persons carry is refused until it is mapped.
"""

from __future__ import annotations

import argparse
import contextlib
import json
from collections.abc import Iterator
from typing import TYPE_CHECKING

from director.cli.common import EVENT_HELP, Parser, shown
from director.domain.errors import UserError
from director.domain.wording import quoted

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from director.services.club import EventResults

CLUB_HELP = "the club: a .club file, or a database URL (postgresql://USER@HOST/DB)"


@contextlib.contextmanager
def club_session(target: str, *, backup: bool = False) -> Iterator[Session]:
    """A session on the club in one transaction; the club is locked while the command runs.
    A command that replaces results (`backup`) backs the club up first, as the app's open does."""
    from director.store.club import open_club

    db = open_club(target, make_backup=backup)
    try:
        with db.Session() as session, session.begin():
            yield session
    finally:
        db.close()


def _mapping(pairs: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for pair in pairs:
        name, sep, ident = pair.rpartition("=")
        ident = ident.strip().lstrip("#")
        if not sep or not name.strip() or not ident.isdigit():
            raise UserError(f"--map {quoted(pair)}: write NAME=ID (the person's id in the club)")
        out[name.strip()] = int(ident)
    return out


def _event(target: str) -> EventResults:
    from director.cli.common import session_for
    from director.services.club import event_results

    with session_for(target, read_only=True) as session:
        return event_results(session)


def cmd_new(args: argparse.Namespace) -> int:
    from director.store.club import create_club

    create_club(args.club).close()
    print(f"created the club {shown(args.club)}")
    return 0


def _publish(session: Session, results: EventResults, args: argparse.Namespace) -> bool:
    from director.services import club

    matched = club.match_names(session, results.names(), _mapping(args.map))
    print(f"{results.name} ({results.event_date}): {len(results.matches)} results")
    for m in matched:
        print(f"  {m.describe()}")
    if ambiguous := [m for m in matched if m.how == "ambiguous"]:
        raise UserError(ambiguous[0].describe() + ": map it with --map NAME=ID")
    if not args.yes:
        raise UserError("nothing published: check the matches above, then run again with --yes")
    done = club.publish(session, results, matched)
    print(f"published {done.matches} results of {done.event}"
          + (" (replacing the earlier publication)" if done.replaced else "")
          + (f", {len(done.created)} new persons" if done.created else ""))  # fmt: skip
    return True


def cmd_publish(args: argparse.Namespace) -> int:
    results = _event(args.event_file)
    with club_session(args.club, backup=args.yes) as session:
        _publish(session, results, args)
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
    for place, r in enumerate(rows, 1):
        mark = " (provisional)" if r.provisional else ""
        print(f"{place:>4}  #{r.id:<5} {r.name:<30} {rating_shown(r.rating):>8}  "
              f"{r.experience:>5}{mark}")  # fmt: skip
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
        print(f"  {e.event_date}  {e.name}: {e.matches} matches")
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


def register(sub: argparse._SubParsersAction[Parser]) -> None:
    club = sub.add_parser("club", help="the club's register: persons, ratings, seasons")
    verbs = club.add_subparsers(dest="club_command", parser_class=Parser, metavar="VERB",
                                required=True)  # fmt: skip
    new = verbs.add_parser("new", help="create a club register")
    new.add_argument("club", help="the club to create: NAME.club, or a database URL")
    new.set_defaults(func=cmd_new)
    pub = verbs.add_parser("publish", help="publish an event's results to the club")
    pub.add_argument("event_file", metavar="EVENT", help=EVENT_HELP)
    pub.add_argument("club", help=CLUB_HELP)
    for parser in (pub, rebuild := verbs.add_parser(
        "rebuild", help="rebuild the club's results from its event files")):  # fmt: skip
        parser.add_argument("--yes", action="store_true", help="write, once the matches printed "
                            "are right (without it nothing is written)")  # fmt: skip
        parser.add_argument("--map", action="append", default=[], metavar="NAME=ID",
                            help="publish NAME as the person ID (repeat it)")  # fmt: skip
    pub.set_defaults(func=cmd_publish)
    rebuild.add_argument("club", help=CLUB_HELP)
    rebuild.add_argument("events", nargs="+", metavar="EVENT", help=EVENT_HELP)
    rebuild.set_defaults(func=cmd_rebuild)
    ratings = verbs.add_parser("ratings", help="the club's rating list")
    ratings.add_argument("club", help=CLUB_HELP)
    ratings.add_argument("--json", action="store_true", help="print JSON (ratings unrounded)")
    ratings.set_defaults(func=cmd_ratings)
    person = verbs.add_parser("person", help="a person's rating, events and records")
    person.add_argument("club", help=CLUB_HELP)
    person.add_argument("name", help="the person's name, alias or id (#12)")
    person.set_defaults(func=cmd_person)
    season = verbs.add_parser("season", help="a season's standings, or add a season")
    season.add_argument("club", help=CLUB_HELP)
    season.add_argument("name", nargs="?", help="the season (default: the latest)")
    season.add_argument("--from", dest="first", metavar="YYYY-MM-DD",
                        help="add the season NAME from this day")  # fmt: skip
    season.add_argument("--to", dest="last", metavar="YYYY-MM-DD",
                        help="... to this day (both included)")  # fmt: skip
    season.set_defaults(func=cmd_season)
