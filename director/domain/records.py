"""The match record (`.tandem-match.json`): parse, validate, replay (FORMATS.md). An
individual match record (`.backgammon-match.json`) is read by `individual_record.py`, which
`parse_record` hands it to by its `format`.

`parse_record` turns JSON text into a `MatchRecord` or raises `RecordError` carrying one line
per problem, each naming the game (pair and board) and the rule broken. `replay_json` is the
exact output contract of `tandem-director replay FILE --json`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeGuard, TypeVar

from director.domain.clock import ClockError, ClockEvent
from director.domain.errors import UserError
from director.domain.match import MatchOutcome, score_match
from director.domain.rules import (
    MAX_MATCH_LENGTH,
    ONE_CUBE_THRESHOLDS,
    End,
    Level,
    MatchRules,
    Scoring,
    Side,
)
from director.domain.scoring import COUNTS, Game, game_problems
from director.domain.wording import QUOTED, cut, quoted

FORMAT_NAME = "tandem-match"
FORMAT_VERSION = 1
HEADER_KEYS = (
    "format",
    "version",
    "match_length",
    "scoring",
    "winner_required",
    "one_cube_threshold",
    "no_cube_at_one_away",
    "teams",
    "games",
)
GAME_INT_KEYS = ("pair", "board", "cube", *COUNTS)
OPTIONAL_KEYS = ("clock",)  # the match's clock log (RULES §7); replay ignores it
E = TypeVar("E", bound=StrEnum)
TEAM_KEYS = frozenset(("name", "players"))
GAME_KEYS = frozenset((*GAME_INT_KEYS, "winner", "end", "level", "agreed_level"))
MAX_PROBLEMS_SHOWN = 30
# What a match can hold: 999 points (the longest match) of games worth at least 1 point ends in
# at most 2 × 999 games plus draws-free pin plays; a two-hour match's clocks log a press a
# second per board. A record of 10**6 games took 91 s to refuse.
MAX_GAMES = 5_000
MAX_CLOCK_EVENTS = 100_000
MAX_RECORD_BYTES = 32_000_000


class RecordError(UserError):
    """An invalid match record; `problems` holds one line per problem."""

    def __init__(self, problems: list[str]) -> None:
        shown = problems[:MAX_PROBLEMS_SHOWN]
        if len(problems) > MAX_PROBLEMS_SHOWN:  # a person reads the first ones, not 100,000
            shown.append(f"... and {len(problems) - MAX_PROBLEMS_SHOWN} more problems")
        super().__init__("\n".join(shown))
        self.problems = problems


@dataclass(frozen=True)
class RecordTeam:
    name: str
    players: tuple[str, ...]  # a team's two, by board; an individual record's one player


@dataclass(frozen=True)
class MatchRecord:
    rules: MatchRules
    teams: dict[Side, RecordTeam]
    games: tuple[Game, ...] = field(default_factory=tuple)
    clock: tuple[ClockEvent, ...] = field(default_factory=tuple)  # optional, in logged order
    lost_on_time: Side | None = None  # RULES §10: an individual match lost on time

    def outcome(self) -> MatchOutcome:
        names = (self.teams[Side.A].name, self.teams[Side.B].name)
        return score_match(self.rules, self.games, names, lost_on_time=self.lost_on_time)


def parse_record(text: str) -> MatchRecord:
    """Parse and validate a match record; raise RecordError listing every problem."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError([f"not valid JSON: {exc.msg} at line {exc.lineno}"]) from None
    except (RecursionError, ValueError):  # nested too deep, or a number too long for int()
        raise RecordError(["not a match record: nested too deeply or a number too long"]) from None
    if not isinstance(data, dict):
        raise RecordError(["a match record is a JSON object"])
    from director.domain import individual_record  # it reads this module's parts

    if data.get("format") == individual_record.FORMAT_NAME:
        return individual_record.parse_individual(data)
    problems: list[str] = []
    for key, limit in (("games", MAX_GAMES), ("clock", MAX_CLOCK_EVENTS)):
        if isinstance(data.get(key), list) and len(data[key]) > limit:
            raise RecordError(
                [f"{len(data[key]):,} {key} entries: a match holds at most {limit:,}"]
            )
    rules = _parse_rules(data, problems)
    teams = _parse_teams(data, problems)
    games = _parse_games(data, problems)
    clock = _parse_clock(data.get("clock", []), problems)
    if problems or rules is None or teams is None:
        # still name what is wrong inside the games that did parse, so one run shows it all
        if rules is not None:
            for game in games:
                problems += [f"{game.where}: {text}" for text in game_problems(rules.scoring, game)]
        raise RecordError(problems or ["the record is incomplete"])
    record = MatchRecord(rules, teams, tuple(games), clock)
    found = record.outcome().problems
    if found:
        raise RecordError([str(p) for p in found])
    return record


def _parse_clock(raw: object, problems: list[str]) -> tuple[ClockEvent, ...]:
    """The optional clock log: each entry as the store keeps it (kind, t_ns, board, side,
    value). Only its shape is checked: replaying the games does not need it."""
    if not isinstance(raw, list):
        problems.append("clock must be a list of clock events")
        return ()
    events = []
    for n, item in enumerate(raw, 1):
        try:
            if not isinstance(item, dict):
                raise ClockError("not an object")
            events.append(ClockEvent.from_dict(item))
        except ClockError as exc:
            problems.append(f"clock event {n}: {exc}")
    return tuple(events)


def _parse_rules(data: dict[str, Any], problems: list[str]) -> MatchRules | None:
    """The header, strictly typed (FORMATS: `true` is not 1, `2.0` is not 2, null is no value)."""
    start = len(problems)
    for key in sorted(set(data) - set(HEADER_KEYS) - set(OPTIONAL_KEYS)):
        problems.append(f"unknown field {quoted(key)}")
    for key in HEADER_KEYS:
        if key not in data:
            problems.append(f"missing field {quoted(key)}")
    if "format" in data and data["format"] != FORMAT_NAME:
        problems.append(f"format must be {FORMAT_NAME!r}, not {_shown(data['format'])}")
    _version_and_length(data, problems, FORMAT_VERSION)
    scoring = _enum(Scoring, data, "scoring", problems, "")
    for key in ("winner_required", "no_cube_at_one_away"):
        if key in data and not isinstance(data[key], bool):
            problems.append(f"{key} must be true or false, not {_shown(data[key])}")
    threshold = data.get("one_cube_threshold")
    if "one_cube_threshold" in data and not (
        _is_int(threshold) and threshold in ONE_CUBE_THRESHOLDS
    ):
        problems.append(f"one_cube_threshold must be 1 or 2, not {_shown(threshold)}")
    if len(problems) > start or scoring is None:
        return None
    return MatchRules(
        match_length=int(data["match_length"]),
        scoring=scoring,
        winner_required=bool(data["winner_required"]),
        one_cube_threshold=int(data["one_cube_threshold"]),
        no_cube_at_one_away=bool(data["no_cube_at_one_away"]),
    )


def _shown(value: object) -> str:
    """A value as the record wrote it: null, true, 2.0, "2" (a long one cut, as `cut` does)."""
    if isinstance(value, str) and len(value) > QUOTED:  # never 30 MB turned to JSON to be cut
        return f"{json.dumps(value[:QUOTED], ensure_ascii=False)}… ({len(value):,} characters)"
    try:
        return cut(json.dumps(value, ensure_ascii=False))
    except (TypeError, ValueError):
        return quoted(value)


def _parse_teams(data: dict[str, Any], problems: list[str]) -> dict[Side, RecordTeam] | None:
    if "teams" not in data:
        return None  # reported as a missing field
    raw = data["teams"]
    if not isinstance(raw, dict) or not {"A", "B"} <= set(raw):
        problems.append('teams must be an object with exactly "A" and "B"')
        return None
    problems.extend(f"teams: unknown field {quoted(key)}" for key in sorted(set(raw) - {"A", "B"}))
    teams: dict[Side, RecordTeam] = {}
    for side in Side:
        team = _parse_team(raw[side.value], f"team {side}: ", problems)
        if team is not None:
            teams[side] = team
    return teams if len(teams) == 2 else None


def _parse_team(team: object, where: str, problems: list[str]) -> RecordTeam | None:
    """A team object: exactly `name` and `players` (two names), each name non-empty text."""
    if not isinstance(team, dict):
        problems.append(f"{where}must be an object with name and players, not {_shown(team)}")
        return None
    start = len(problems)
    problems.extend(f"{where}unknown field {quoted(key)}" for key in sorted(set(team) - TEAM_KEYS))
    problems.extend(f"{where}missing field {quoted(key)}" for key in sorted(TEAM_KEYS - set(team)))
    if "name" in team:
        _check_name(team["name"], f"{where}name", problems)
    players = team.get("players")
    if "players" in team and not (isinstance(players, list) and len(players) == 2):
        problems.append(f"{where}players must be a list of two names, not {_shown(players)}")
    elif isinstance(players, list):
        for n, player in enumerate(players, 1):
            _check_name(player, f"{where}player {n}'s name", problems)
    if len(problems) > start:
        return None
    assert isinstance(team["name"], str) and isinstance(players, list)
    return RecordTeam(team["name"], tuple(players))


def _check_name(value: object, what: str, problems: list[str]) -> None:
    if not isinstance(value, str) or not _is_text(value):
        problems.append(f"{what} must be text, not {_shown(value)}")
    elif not value.strip():
        problems.append(f"{what} is empty")


def _parse_games(data: dict[str, Any], problems: list[str]) -> list[Game]:
    if "games" not in data:
        return []  # reported as a missing field
    raw = data["games"]
    if not isinstance(raw, list):
        problems.append(f"games must be a list, not {_shown(raw)}")
        return []
    games = []
    for index, item in enumerate(raw, start=1):
        game = _parse_game(item, index, problems)
        if game is not None:
            games.append(game)
    return games


def _parse_game(
    item: object, index: int, problems: list[str], where: str | None = None
) -> Game | None:
    if not isinstance(item, dict):
        problems.append(f"game {index}: must be an object")
        return None
    if where is None:
        pair, board = item.get("pair"), item.get("board")
        named = _is_int(pair) and _is_int(board)
        where = (f"pair {pair}, board {board}" if named else f"game {index}") + ": "
    start = len(problems)
    problems.extend(f"{where}unknown field {quoted(key)}" for key in sorted(set(item) - GAME_KEYS))
    for key in ("pair", "board", "winner", "end", "cube"):
        if key not in item:
            problems.append(f"{where}missing field {quoted(key)}")
    for key in GAME_INT_KEYS:
        if key in item and not _is_int(item[key]):
            problems.append(f"{where}{key} must be a whole number, not {_shown(item[key])}")
    winner = _enum(Side, item, "winner", problems, where)
    end = _enum(End, item, "end", problems, where)
    level = _enum(Level, item, "level", problems, where)
    agreed = _enum(Level, item, "agreed_level", problems, where)
    if len(problems) > start or winner is None or end is None:
        return None
    ints = {key: item[key] for key in GAME_INT_KEYS if key in item}
    return Game(winner=winner, end=end, level=level, agreed_level=agreed, **ints)


def _is_text(value: str) -> bool:
    """JSON's \\ud800 escapes give lone surrogates: no text file or database can hold them."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _enum(
    kind: type[E], data: dict[str, Any], name: str, problems: list[str], where: str
) -> E | None:
    """The field's value as one of `kind`; a field left out is None (a missing required one
    is reported where the keys are checked), a field present as null is a problem."""
    if name not in data:
        return None
    value = data[name]
    try:
        if isinstance(value, str):
            return kind(value)
    except ValueError:
        pass
    allowed = " | ".join(member.value for member in kind)
    problems.append(f"{where}{name} {_shown(value)} is not one of {allowed}")
    return None


def record_json(record: MatchRecord) -> str:
    """The record as its format's JSON text (games in finish order)."""
    if record.rules.event_format.one_board:
        from director.domain.individual_record import individual_json

        return json.dumps(individual_json(record), indent=2, ensure_ascii=False) + "\n"
    data: dict[str, Any] = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "match_length": record.rules.match_length,
        "scoring": record.rules.scoring.value,
        "winner_required": record.rules.winner_required,
        "one_cube_threshold": record.rules.one_cube_threshold,
        "no_cube_at_one_away": record.rules.no_cube_at_one_away,
        "teams": {
            side.value: {"name": team.name, "players": list(team.players)}
            for side, team in record.teams.items()
        },
        "games": [game_json(game) for game in record.games],
    }
    if record.clock:
        # an adjustment's reason goes with it; other events keep the five keys they had
        data["clock"] = [
            {k: v for k, v in e.to_dict().items() if k != "reason" or v} for e in record.clock
        ]
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def game_json(game: Game) -> dict[str, Any]:
    out: dict[str, Any] = {
        "pair": game.pair,
        "board": game.board,
        "winner": game.winner.value,
        "end": game.end.value,
    }
    if game.level is not None:
        out["level"] = game.level.value
    out["cube"] = game.cube
    for key in COUNTS:
        value = getattr(game, key)
        if value is not None:
            out[key] = value
    if game.agreed_level is not None:
        out["agreed_level"] = game.agreed_level.value
    return out


def replay_data(outcome: MatchOutcome) -> dict[str, Any]:
    """FORMATS.md: the object `replay --json` prints; a one-board match names each game by
    its number and says whether it was the Crawford game (RULES §10)."""
    one_board = outcome.rules.event_format.one_board
    return {
        "games": [
            {
                **(
                    {"game": line.game.pair}
                    if one_board
                    else {"pair": line.game.pair, "board": line.game.board}
                ),
                "winner": line.game.winner.value,
                "points": line.points,
                "pip_points": line.pip_points,
                "counted": line.counted,
                "score": line.score.as_dict(),
                **({"crawford": line.crawford} if one_board else {}),
            }
            for line in outcome.lines
        ],
        "score": outcome.score.as_dict(),
        "pip_points": outcome.pip_points.as_dict(),
        "extra": outcome.extra.as_dict(),
        "final": outcome.final.as_dict(),
        "result": outcome.result.value,
    }


def _version_and_length(data: dict[str, Any], problems: list[str], version: int) -> None:
    """The header fields both match records share: the format's version and the length."""
    if "version" in data and not (_is_int(data["version"]) and data["version"] == version):
        problems.append(
            f"version {_shown(data['version'])} is not supported (this app reads {version})"
        )
    length = data.get("match_length")
    if "match_length" in data and not (_is_int(length) and 1 <= length <= MAX_MATCH_LENGTH):
        problems.append(
            f"match_length must be a whole number of points from 1 to {MAX_MATCH_LENGTH}, "
            f"not {_shown(length)}"
        )
