"""The team list CSV (FORMATS.md): parse with a reason for every bad row, export safely.

Format: UTF-8 (a BOM is accepted), a header row, comma or semicolon separated,
`team,player1,player2[,club][,rating][,seed]`.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from director.domain.errors import UserError
from director.domain.numbers import typed_number
from director.domain.wording import quoted

COLUMNS = ("team", "player1", "player2", "club", "rating", "seed")
REQUIRED = COLUMNS[:3]
# an individual event's list (RULES §10, FORMATS): one player per entrant, the player's name
# the entrant's name
PLAYER_COLUMNS = ("player", "club", "rating", "seed")
PLAYER_REQUIRED = PLAYER_COLUMNS[:1]
MAX_NAME = 100
MAX_FILE_BYTES = 5_000_000
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
PROGRESS_STEP = 500  # rows between two progress reports of a long list
Progress = Callable[[int, int], None]  # (rows done, rows in all)


# Characters that show nothing but make two equal-looking names differ: zero-width spaces, the
# word joiner, the BOM, and the bidirectional marks, embeddings, overrides and isolates (which
# can also reorder what a name shows). Joiners (U+200C, U+200D) stay: scripts and emoji use them.
INVISIBLE = frozenset(
    "\u200b\u2060\ufeff\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e"
    "\u2066\u2067\u2068\u2069\u00ad"
)
_SPACES = re.compile(r"\s+")


def clean_name(value: str) -> str:
    """A name as it is stored: NFC, no invisible characters, single spaces, trimmed."""
    if value.isascii():  # most names: nothing to normalise or drop
        return _SPACES.sub(" ", value).strip()
    text = unicodedata.normalize("NFC", value)
    text = "".join(ch for ch in text if ch not in INVISIBLE)
    return _SPACES.sub(" ", text).strip()


def name_key(value: str) -> str:
    """What two names are compared by: equal keys are the same name to a reader. Compatibility
    forms (full-width letters, ligatures) fold to their plain letters, case folds (ß = ss),
    and every format character goes (so also the joiners)."""
    if value.isascii():
        return _SPACES.sub(" ", value).strip().lower()
    text = unicodedata.normalize("NFKC", clean_name(value)).casefold()
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    return unicodedata.normalize("NFKC", _SPACES.sub(" ", text).strip())


def name_problem(label: str, value: str) -> str | None:
    """Why a typed or imported name cannot be stored, or None (check before `clean_name`)."""
    if value.isascii() and value.isprintable():
        return None
    if any(unicodedata.category(ch) == "Cc" for ch in value):  # C0, DEL and C1
        return f"{label} contains a control character"
    if any("\ud800" <= ch <= "\udfff" for ch in value):  # half of a pasted emoji, say
        return f"{label} contains a character that is not valid text"
    return None


def player_problem(players: Sequence[str], taken: Mapping[str, str]) -> str | None:
    """FORMATS: a player appears once in a team and in one team of the event (names compared
    as `name_key` does). `taken` maps each other team's players, by key, to that team's name."""
    first, second = (name_key(p) for p in players)
    if first == second:
        return f"player {quoted(players[0])} cannot play both boards of one team"
    for player in players:
        team = taken.get(name_key(player))
        if team is not None:
            return f"player {quoted(player)} already plays for team {quoted(team)}"
    return None


def _refuse_the_other_formats_list(header: list[str], one_board: bool) -> None:
    """A team list for an individual event, or a player list for a Tandem one, is told so in
    one line (RULES §10), not as a column it lacks."""
    other = REQUIRED if one_board else PLAYER_REQUIRED
    own = PLAYER_REQUIRED if one_board else REQUIRED
    if all(name in header for name in other) and not any(name in header for name in own):
        entrants, kind, other_kind = (
            ("players", "player", "team") if one_board else ("teams", "team", "player")
        )
        raise UserError(
            f"this event's entrants are {entrants}: it needs a {kind} list "
            f"({LIST_HEADER[one_board]}), not a {other_kind} list"
        )


# each list's header, as FORMATS.md writes it (a one-board event's first)
LIST_HEADER = {
    True: "player[,club][,rating][,seed]",
    False: "team,player1,player2[,club][,rating][,seed]",
}


@dataclass(frozen=True)
class TeamRow:
    line: int
    team: str
    player1: str
    player2: str
    club: str = ""
    rating: int | None = None
    seed: int | None = None

    @property
    def players(self) -> tuple[str, ...]:
        """The names by board, from board 1: an individual event's row has its one player."""
        return tuple(name for name in (self.player1, self.player2) if name)


@dataclass(frozen=True)
class BadRow:
    line: int
    reason: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.reason}"


@dataclass(frozen=True)
class ParsedTeamList:
    rows: tuple[TeamRow, ...]
    bad: tuple[BadRow, ...]


def decode(data: bytes) -> str:
    if len(data) > MAX_FILE_BYTES:
        raise UserError(
            f"the file is larger than {MAX_FILE_BYTES // 1_000_000} MB: not a team list"
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UserError(
            f"the file is not UTF-8 (byte {exc.start + 1}): save it as UTF-8 CSV and try again"
        ) from None


def parse_team_list(
    text: str,
    existing_names: Iterable[str] = (),
    progress: Progress | None = None,
    existing_players: Mapping[str, str] | None = None,
    one_board: bool = False,
) -> ParsedTeamList:
    """Every row, good or bad; a bad row says why. Team names must be unique and a player may
    play for one team only, also against the event (`existing_players`: key → team name).
    `progress(rows done, rows)` is told every `PROGRESS_STEP` rows (and may raise to stop)."""
    text = text.removeprefix("\ufeff")
    if "\x00" in text:
        raise UserError("the file contains NUL bytes: it is not a text CSV file")
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise UserError("the file is empty: a header row team,player1,player2 is required")
    delimiter = ";" if lines[0].count(";") > lines[0].count(",") else ","
    try:
        records = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True))
    except csv.Error as exc:
        raise UserError(f"the file is not valid CSV: {exc}") from None
    header = [cell.strip().lower() for cell in records[0]]
    columns, required = (PLAYER_COLUMNS, PLAYER_REQUIRED) if one_board else (COLUMNS, REQUIRED)
    _refuse_the_other_formats_list(header, one_board)
    missing = [name for name in required if name not in header]
    if missing:
        raise UserError(f"the header row lacks {', '.join(missing)} (needs {','.join(required)})")
    unknown = [name for name in header if name not in columns]
    if unknown:
        raise UserError(f"unknown column {quoted(unknown[0])}: columns are {','.join(columns)}")
    twice = [name for i, name in enumerate(header) if name in header[:i]]
    if twice:
        raise UserError(f"the header row is wrong: column {quoted(twice[0])} appears twice")
    registered = {name_key(name) for name in existing_names}
    seen: dict[str, int] = {}  # this file's entrants so far, by key: their line
    taken = dict(existing_players or {})
    taken_here: dict[str, int] = {}  # this file's players so far, by key: their team's line
    rows: list[TeamRow] = []
    bad: list[BadRow] = []
    total = len(records) - 1
    for number, record in enumerate(records[1:], start=2):
        if progress is not None and (number - 2) % PROGRESS_STEP == 0:
            progress(number - 2, total)
        if not any(cell.strip() for cell in record):
            continue
        row, reason = _parse_row(number, header, record, (registered, seen), one_board)
        if row is not None and not one_board:
            reason = player_problem((row.player1, row.player2), taken) or ""
            keys = [name_key(p) for p in row.players]
            first = next((k for k in keys if k in taken), None)  # the player it names
            if "already plays" in reason and first in taken_here:
                reason += f" (line {taken_here[first]} of this file)"
        if row is None or reason:
            bad.append(BadRow(number, reason))
        else:
            seen[name_key(row.team)] = number
            players = {name_key(p): row.team for p in (row.player1, row.player2) if p}
            taken |= players
            taken_here |= dict.fromkeys(players, number)
            rows.append(row)
    return ParsedTeamList(tuple(rows), tuple(bad))


def _parse_row(
    number: int,
    header: list[str],
    record: list[str],
    names: tuple[set[str], Mapping[str, int]],
    one_board: bool = False,
) -> tuple[TeamRow | None, str]:
    """The row, or None and every reason it is bad (joined by "; "): a list corrected one
    reason at a time went back and forth between the desk and the spreadsheet. `names`: the
    keys of the entrants registered in the event, and of this file's so far with their line
    (a name registered and one written twice are told apart: the director fixes another)."""
    registered, seen = names
    if len(record) > len(header):
        return None, f"{len(record)} cells but the header has {len(header)}"
    cells = {name: (record[i].strip() if i < len(record) else "") for i, name in enumerate(header)}
    problems: list[str] = []
    if one_board:  # the player is the entrant: its name is the entrant's, on board 1
        cells["team"] = cells.pop("player")
    required = ("team",) if one_board else REQUIRED
    entrant = "player" if one_board else "team"
    for name in ("team", "player1", "player2", "club"):
        if name not in cells:
            continue
        label = entrant if name == "team" else name
        problem = name_problem(label, cells[name])
        if problem:
            problems.append(problem)
            continue
        cells[name] = clean_name(cells[name])
        if len(cells[name]) > MAX_NAME:
            problems.append(f"{label} is longer than {MAX_NAME} characters")
        elif name in required and not cells[name]:
            problems.append(f"{label} is empty")
    key = name_key(cells["team"]) if cells["team"] else ""
    if key in registered:
        problems.append(f"{entrant} {quoted(cells['team'])} is already registered")
    elif key in seen:
        problems.append(
            f"{entrant} {quoted(cells['team'])} appears twice in this file "
            f"(first on line {seen[key]})"
        )
    if one_board:
        cells |= {"player1": cells["team"], "player2": ""}
    numbers: dict[str, int | None] = {}
    for name in ("rating", "seed"):
        raw = cells.get(name, "")
        numbers[name] = None
        if not raw:
            continue
        numbers[name] = typed_number(raw, signed=True)
        if numbers[name] is None:
            problems.append(f"{name} {quoted(raw)} is not a whole number")
    seed = numbers["seed"]
    if seed is not None and seed < 1:
        problems.append("seed must be 1 or more")
    if problems:
        return None, "; ".join(problems)
    row = TeamRow(
        number,
        cells["team"],
        cells["player1"],
        cells["player2"],
        cells.get("club", ""),
        numbers["rating"],
        seed,
    )
    return row, ""


def safe_cell(value: object) -> str:
    """A cell a spreadsheet will show as text, never run as a formula."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def write_team_list(rows: Iterable[TeamRow], one_board: bool = False) -> str:
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(PLAYER_COLUMNS if one_board else COLUMNS)
    for row in rows:
        names = (row.team,) if one_board else (row.team, row.player1, row.player2)
        writer.writerow(safe_cell(v) for v in (*names, row.club, row.rating, row.seed))
    return out.getvalue()


def seeds_by_rating(rows: Sequence[tuple[int | None, int | None]], top: int = 0) -> list[int]:
    """The seed of each (rating, seed) row: a row's own seed stands; the others are seeded
    after `top` and every seed given, the highest rating first, rated teams before unrated
    ones, equal ratings (and the unrated) in their order in the list."""
    top = max([top, *(seed for _, seed in rows if seed is not None)])
    unseeded = [i for i, (_, seed) in enumerate(rows) if seed is None]
    unseeded.sort(key=lambda i: (rows[i][0] is None, -(rows[i][0] or 0), i))
    out = [seed if seed is not None else 0 for _, seed in rows]
    for offset, i in enumerate(unseeded, start=1):
        out[i] = top + offset
    return out
