"""The individual match record (`.backgammon-match.json`, FORMATS.md): one match of an
individual event (RULES §10), as strict as the Tandem record and read by the same commands.

Its games carry no pair and no board: the n-th game listed is game n on board 1. A
`lost_on_time` player lost the match on time after the last game listed.
"""

from __future__ import annotations

from typing import Any

from director.domain.records import (
    MatchRecord,
    RecordError,
    RecordTeam,
    _enum,
    _is_text,
    _parse_clock,
    _parse_game,
    _shown,
    _version_and_length,
    game_json,
)
from director.domain.rules import Format, MatchRules, Scoring, Side
from director.domain.scoring import Game, game_problems
from director.domain.wording import quoted

FORMAT_NAME = "backgammon-match"
FORMAT_VERSION = 1
HEADER_KEYS = ("format", "version", "match_length", "scoring", "players", "games")
OPTIONAL_KEYS = ("lost_on_time", "clock")
NOT_IN_A_GAME = ("pair", "board")  # a game's place is its place in the list


def parse_individual(data: dict[str, Any]) -> MatchRecord:
    """Validate an individual match record already read as JSON; raise RecordError listing
    every problem, each game named by its number."""
    problems: list[str] = []
    rules = _parse_rules(data, problems)
    players = _parse_players(data, problems)
    games = _parse_games(data, problems)
    lost = _enum(Side, data, "lost_on_time", problems, "")
    clock = _parse_clock(data.get("clock", []), problems)
    if problems or rules is None or players is None:
        if rules is not None:
            for game in games:
                problems += [f"game {game.pair}: {t}" for t in game_problems(rules.scoring, game)]
        raise RecordError(problems or ["the record is incomplete"])
    record = MatchRecord(rules, players, tuple(games), clock, lost_on_time=lost)
    found = record.outcome().problems
    if found:
        raise RecordError([str(p) for p in found])
    return record


def _parse_rules(data: dict[str, Any], problems: list[str]) -> MatchRules | None:
    start = len(problems)
    for key in sorted(set(data) - set(HEADER_KEYS) - set(OPTIONAL_KEYS)):
        problems.append(f"unknown field {quoted(key)}")
    problems.extend(f"missing field {quoted(key)}" for key in HEADER_KEYS if key not in data)
    _version_and_length(data, problems, FORMAT_VERSION)
    scoring = _enum(Scoring, data, "scoring", problems, "")
    if len(problems) > start or scoring is None:
        return None
    return MatchRules(
        match_length=int(data["match_length"]), scoring=scoring, format=Format.INDIVIDUAL
    )


def _parse_players(data: dict[str, Any], problems: list[str]) -> dict[Side, RecordTeam] | None:
    if "players" not in data:
        return None  # reported as a missing field
    raw = data["players"]
    if not isinstance(raw, dict) or set(raw) != {"A", "B"}:
        problems.append('players must be an object with exactly "A" and "B"')
        return None
    players: dict[Side, RecordTeam] = {}
    for side in Side:
        player = raw[side.value]
        name = player.get("name") if isinstance(player, dict) else None
        if not (
            isinstance(player, dict)
            and set(player) == {"name"}
            and isinstance(name, str)
            and name.strip()
            and _is_text(name)
        ):
            problems.append(f"player {side}: needs a non-empty name and nothing else")
            continue
        players[side] = RecordTeam(name, (name,))
    return players if len(players) == 2 else None


def _parse_games(data: dict[str, Any], problems: list[str]) -> list[Game]:
    raw = data.get("games", [])
    if not isinstance(raw, list):
        problems.append(f"games must be a list, not {_shown(raw)}")
        return []
    games = []
    for number, item in enumerate(raw, start=1):
        placed: object = item
        if isinstance(item, dict):
            unknown = sorted(set(item) & set(NOT_IN_A_GAME))
            problems.extend(f"game {number}: unknown field {quoted(key)}" for key in unknown)
            if unknown:
                continue
            placed = {**item, "pair": number, "board": 1}
        game = _parse_game(placed, number, problems, where=f"game {number}: ")
        if game is not None:
            games.append(game)
    return games


def individual_json(record: MatchRecord) -> dict[str, Any]:
    """The record as the format's JSON object (games in the order played)."""
    data: dict[str, Any] = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "match_length": record.rules.match_length,
        "scoring": record.rules.scoring.value,
        "players": {side.value: {"name": p.name} for side, p in record.teams.items()},
        "games": [
            {k: v for k, v in game_json(g).items() if k not in NOT_IN_A_GAME} for g in record.games
        ],
    }
    if record.lost_on_time is not None:
        data["lost_on_time"] = record.lost_on_time.value
    if record.clock:
        data["clock"] = [e.to_dict() for e in record.clock]
    return data
