"""What every sub-command shares: the one-line error parser, file reading, a session."""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, NoReturn

from director.domain.errors import UserError
from director.domain.numbers import ASCII_DIGITS, typed_decimal
from director.domain.rules import MAX_MATCH_LENGTH
from director.domain.wording import QUOTED, quoted

if TYPE_CHECKING:  # the command line starts fast: heavy modules load only when used
    from sqlalchemy.orm import Session

    from director.domain.brackets.plan import BracketPlan
    from director.store.engine import EventDatabase

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # Ctrl+C: the shells' status for a command stopped by SIGINT (128 + 2)
EVENT_HELP = "the event: a .tandem file, or a database URL (postgresql://USER@HOST/DB)"
NEW_EVENT_HELP = "the event file to create (NAME.tandem) or a database URL"


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        """One clear line instead of argparse's usage block; a value argparse quotes ("invalid
        choice: '…'") is cut as every message cuts what it quotes."""
        message = _ARGPARSE_QUOTE.sub(lambda found: quoted(found[1]), message)
        unknown = "unrecognized arguments: "  # argparse names them bare, joined by spaces
        if message.startswith(unknown):
            words = message.removeprefix(unknown).split(" ")
            message = unknown + " ".join(w if len(w) <= QUOTED else quoted(w) for w in words)
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see --help)\n")


_ARGPARSE_QUOTE = re.compile(f"'([^']{{{QUOTED + 1},}})'")


def read_text(path: str, what: str, limit: int) -> str:
    from director.store.files import read_limited

    try:
        return read_limited(path, what, limit).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UserError(f"{path} is not UTF-8 text: not {what}") from None


@contextlib.contextmanager
def session_for(target: str, read_only: bool = False) -> Iterator[Session]:
    """A session on the event; a write takes the app's lock (refused while the app has it).

    A command that refuses writes nothing (the README's promise): an older file is upgraded on
    a copy, which takes the file's name only with the command's committed change."""
    from director.store.engine import open_database, open_event

    db = (
        open_database(target, read_only=True)
        if read_only
        else open_event(target, make_backup=False, deferred=True)
    )
    with one_transaction(db) as session:
        yield session


@contextlib.contextmanager
def one_transaction(db: EventDatabase) -> Iterator[Session]:
    """A session on an opened event or club in one transaction; the database closed after."""
    try:
        with db.Session() as session, session.begin():
            yield session
        db.put_upgrade_in_place()
    finally:
        db.close()


def wrote(out: str, message: str) -> None:
    """Say what was written: on stderr when the file itself went to stdout (`-`)."""
    print(message, file=sys.stderr if out == "-" else sys.stdout)


def shown(target: str) -> str:
    """A file name as it is, a server address without its password (never print one)."""
    from director.store.engine import display_target

    return display_target(target)


# --- the parser --------------------------------------------------------------------------


MAX_ID = 2**31 - 1  # the largest INTEGER every back end stores: ids, counts, seeds
MAX_ROUNDS = 99
MAX_BASE_SECONDS = 24 * 3600
MAX_INCREMENT_SECONDS = 3600


def whole(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from `low` to `high`, else one clear line."""

    def parse(text: str) -> int:
        value = text.strip()
        digits = value.removeprefix("-")
        # 0-9 only, no exponent, no "+": "1e9", "" are refused, and "²" (int() raised on it
        # after str.isdigit passed it) and "٣" (read as 3)
        if not ASCII_DIGITS.fullmatch(digits):
            raise argparse.ArgumentTypeError(f"{quoted(text)} is not a whole number")
        if digits != value or (len(digits) <= 12 and int(digits) < low):  # negative, or small
            raise argparse.ArgumentTypeError(
                f"{quoted(text)} is not a whole number of at least {low}"
            )
        if len(digits) > 12 or int(digits) > high:  # 5,000 digits: int() refuses them
            raise argparse.ArgumentTypeError(f"{quoted(text)} is too large: at most {high}")
        return int(digits)

    return parse


positive_int = whole(1, MAX_ID)
count = whole(0, MAX_ID)
match_length = whole(1, MAX_MATCH_LENGTH)
rounds_count = whole(0, MAX_ROUNDS)


def rate(text: str) -> float:
    value = typed_decimal(text)  # float() read "٠.٣" as 0.3
    if value is None:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a number")
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{quoted(text)} must be between 0 and 1")
    return value


# BASE is minutes (`2`, `2m`), minutes and seconds (`2:00`) or seconds (`120s`); INC is seconds
# (0-9 only: \d matches "٢", which int() reads as 2)
_BASE = re.compile(r"(?:(?P<min>[0-9]+)m?|(?P<mm>[0-9]+):(?P<ss>[0-5][0-9])|(?P<sec>[0-9]+)s)")
_INC = re.compile(r"(?P<inc>[0-9]+)s?")
TIME_HELP = (
    "the time control BASE+INC, as chess writes it: BASE in minutes (2, 2m), minutes:seconds "
    "(2:00) or seconds (120s), then the increment or delay in seconds: 2+12, 2:00+12 and "
    "120s+12 all mean 2 minutes + 12 s a move (default 2+12)"
)


def time_control(text: str) -> tuple[int, int]:
    """`--time`: (base seconds, increment seconds) from chess notation (see TIME_HELP)."""
    base, sep, inc = text.replace(" ", "").partition("+")
    b, i = _BASE.fullmatch(base), _INC.fullmatch(inc)
    if not sep or b is None or i is None:
        raise argparse.ArgumentTypeError(
            f"{quoted(text)} is not BASE+INC: write minutes + seconds, e.g. 2+12 (2 min + 12 s), "
            "2:00+12 or 120s+12"
        )
    if len(base) > 8 or len(inc) > 6:  # a pasted 20-digit number is not a time control
        raise argparse.ArgumentTypeError(f"{quoted(text)}: the numbers are far too large")
    if b["min"] is not None:
        seconds = int(b["min"]) * 60
    elif b["mm"] is not None:
        seconds = int(b["mm"]) * 60 + int(b["ss"])
    else:
        seconds = int(b["sec"])
    if seconds > MAX_BASE_SECONDS:
        raise argparse.ArgumentTypeError(f"{quoted(text)}: the base time is at most 24 hours")
    if int(i["inc"]) > MAX_INCREMENT_SECONDS:
        raise argparse.ArgumentTypeError(
            f"{quoted(text)}: the increment or delay is at most 1 hour"
        )
    return seconds, int(i["inc"])


def time_control_text(base_seconds: int, increment_seconds: int) -> str:
    """How the CLI says back a time control: `2 min + 12 s`, `1:30 min + 15 s`, `45 s + 5 s`."""
    minutes, seconds = divmod(base_seconds, 60)
    if base_seconds < 60:
        base = f"{base_seconds} s"
    elif seconds:
        base = f"{minutes}:{seconds:02d} min"
    else:
        base = f"{minutes} min"
    return f"{base} + {increment_seconds} s"


def add_new_event_arguments(parser: argparse.ArgumentParser) -> None:
    """What `new` and `simulate` both ask: where the event goes, its pairing and scoring."""
    from director.domain.rules import PairingSystem, Scoring

    parser.add_argument("file", help=NEW_EVENT_HELP)
    parser.add_argument(
        "--format",
        choices=[p.value for p in PairingSystem],
        default="swiss",
        help="the pairing system (default swiss)",
    )
    parser.add_argument(
        "--individual",
        action="store_true",
        help="an individual event: one board, player against player, the Crawford rule "
        "(RULES §10; default Tandem)",
    )
    parser.add_argument(
        "--scoring",
        choices=[s.value for s in Scoring],
        default="standard",
        help="the scoring variant (RULES §6; default standard)",
    )
    parser.add_argument("--plan", help=PLAN_HELP)


PLAN_HELP = (
    "knockout: the bracket plan, a ready-made one (single, consolation, "
    "progressive-consolation, consolation-last-chance) or a plan's JSON file (RULES §11)"
)


def bracket_plan(text: str) -> BracketPlan:
    """A ready-made plan by its name, or a plan's JSON file (strict: a bad field is named)."""
    from director.domain.brackets.plan import MAX_PLAN_BYTES, PLANS, plan_from_json

    for plan in PLANS:
        if plan.name == text:
            return plan
    if not os.path.exists(text):
        names = ", ".join(p.name for p in PLANS)
        raise UserError(f"--plan: {quoted(text)} is neither a ready-made plan ({names}) nor a file")
    return plan_from_json(read_text(text, "a bracket plan", MAX_PLAN_BYTES))
