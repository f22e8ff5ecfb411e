"""An audit line as a sentence: its teams and matches by name, times as a clock shows them, a
game as the director says it (#24 point 4: the log showed raw JSON with nanoseconds, lists of
team ids and a forfeit as just "A").

One wording per action in `WORDINGS`; an action without one is read by `_plain`, its stored
values in words. The reason stays apart: the log shows it in a column of its own.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from director.domain.wording import isolated

if TYPE_CHECKING:
    from director.services.audit import AuditLine, MatchPlace

NS = 1_000_000_000


@dataclass(frozen=True)
class Context:
    """What a wording may name: the line, the match it is about, the teams by id."""

    line: AuditLine
    place: MatchPlace | None
    teams: Mapping[int, str]
    about: str  # the match or teams in words (services.audit.about)

    def team(self, team_id: object) -> str:
        """A team by its name, set apart for the bidi algorithm inside the sentence."""
        if isinstance(team_id, int) and not isinstance(team_id, bool):
            return isolated(self.teams.get(team_id, f"team {team_id} (since removed)"))
        return "the bye" if team_id is None else str(team_id)

    def side(self, side: object) -> str:
        """A match's side 'A' or 'B' by its team's name."""
        if self.place is not None and side in ("A", "B"):
            name = self.place.names[0 if side == "A" else 1]
            return isolated(name) if name is not None else f"team {side}"
        return f"team {side}"

    def value(self, which: str) -> Any:
        stored = self.line.before if which == "before" else self.line.after
        if not stored:
            return None
        try:
            return json.loads(stored)
        except ValueError:
            return stored


def clock_time(ns: object) -> str:
    """'4:12', '1:02:05': a clock's time left, to the second shown."""
    if not isinstance(ns, int):
        return "?"
    seconds = max(0, ns) // NS
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def game_words(game: object, c: Context) -> str:
    """'won by Blue Bar, bear-off, gammon, cube 2'."""
    if not isinstance(game, dict):
        return str(game)
    facts = [f"won by {c.side(game.get('winner'))}", str(game.get("end", "?"))]
    facts += [str(game[k]) for k in ("level", "agreed_level") if game.get(k)]
    facts.append(f"cube {game.get('cube', 1)}")
    return ", ".join(facts)


def game_place(game: object) -> str:
    if isinstance(game, dict):
        return f"Pair {game.get('pair', '?')}, board {game.get('board', '?')}"
    return "A game"


def pairings_words(value: object, c: Context) -> str:
    """'table 1: Blue Bar v Gammonites; bye: Doublers' from [[table, a, b], …] or the same as
    {"table", "team_a", "team_b"} objects."""
    if not isinstance(value, list):
        return str(value) if value else "none"
    tables = []
    for stored in value:
        item = (
            [stored.get("table"), stored.get("team_a"), stored.get("team_b")]
            if isinstance(stored, dict)
            else stored
        )
        if not isinstance(item, list) or len(item) != 3:
            tables.append(str(item))
            continue
        table, a, b = item
        tables.append(
            f"bye: {c.team(a)}" if b is None else f"table {table}: {c.team(a)} v {c.team(b)}"
        )
    return "; ".join(tables) or "none"


def _where(c: Context) -> str:
    """' at round 2, table 3 (Blue Bar v Gammonites)': the match the line is about."""
    p = c.place
    if p is None:
        return f" at {c.about}" if c.about else ""
    where = f"round {p.round}, table {p.table}" if p.round is not None else "a match of no round"
    a, b = p.names
    teams = f"{isolated(a)}, bye" if b is None else f"{isolated(a)} v {isolated(b)}"
    return f" at {where} ({teams})"


def _forfeit(c: Context) -> str:
    absent = c.value("after")
    if absent in ("A", "B"):
        winner = c.side("B" if absent == "A" else "A")
        return f"{c.side(absent)} did not show{_where(c)}: {winner} wins by forfeit"
    return f"The forfeit{_where(c)} is undone: the match is played"


def _correct(c: Context) -> str:
    before, after = c.value("before"), c.value("after")
    return (
        f"{game_place(before)} corrected{_where(c)}: {game_words(before, c)} → "
        f"{game_words(after, c)}"
    )


def _void(c: Context) -> str:
    before = c.value("before")
    return f"{game_place(before)} voided{_where(c)}: it was {game_words(before, c)}"


def _undo_game(c: Context) -> str:
    before = c.value("before")
    return f"The last game undone{_where(c)}: {game_place(before).lower()}, {game_words(before, c)}"


def _lost_on_time(c: Context) -> str:
    after = c.value("after")
    side = after.get("lost_on_time") if isinstance(after, dict) else after
    return f"{c.side(side)} lost on time{_where(c)}"


def _undo_lost_on_time(c: Context) -> str:
    before = c.value("before")
    side = before.get("lost_on_time") if isinstance(before, dict) else before
    return f"The loss on time of {c.side(side)} is undone{_where(c)}"


def _paper_words(value: object, c: Context) -> str:
    """'7–4, Blue Bar wins' from {"A": 7, "B": 4, "result": "A"}."""
    if not isinstance(value, dict):
        return "none"
    result = value.get("result")
    who = "a draw" if result == "draw" else f"{c.side(result)} wins"
    return f"{value.get('A')}–{value.get('B')}, {who}"


def _paper_result(c: Context) -> str:
    before, after = c.value("before"), c.value("after")
    if after is None:
        return f"The result from paper{_where(c)} cleared (it was {_paper_words(before, c)})"
    text = f"Result from paper{_where(c)}: {_paper_words(after, c)}"
    return text + (f" (was {_paper_words(before, c)})" if before is not None else "")


def _clock_adjust(c: Context) -> str:
    before, after = c.value("before"), c.value("after")
    if not isinstance(before, dict) or not isinstance(after, dict):
        return _plain(c)
    who = c.side(after.get("side"))
    text = (
        f"Board {after.get('board')}: the clock of {who} set "
        f"{clock_time(before.get('remaining_ns'))} → {clock_time(after.get('remaining_ns'))}"
    )
    if isinstance(after.get("t_ns"), int):
        text += f", {clock_time(after['t_ns'])} into the clocks"
    return text + _where(c)


def _clocks_reset(c: Context) -> str:
    lines = c.value("before")
    kept = len(lines) if isinstance(lines, list) else 0
    return f"The clocks{_where(c)} reset: their log of {kept} lines is kept in this entry"


def _pairings(what: str) -> Callable[[Context], str]:
    def words(c: Context) -> str:
        number = c.line.round_number
        after = pairings_words(c.value("after"), c)
        before = pairings_words(c.value("before"), c)
        return f"Round {number}{what}: {after} (before: {before})"

    return words


def _undo_round(c: Context) -> str:
    return f"Round {c.line.round_number} undone: its pairings deleted"


def _forbid(allowed: bool) -> Callable[[Context], str]:
    def words(c: Context) -> str:
        teams = c.about or str(c.value("after"))
        return f"{teams} may meet again" if allowed else f"{teams} must not meet"

    return words


def _edit_team(c: Context) -> str:
    before, after = c.value("before"), c.value("after")
    if not isinstance(before, dict) or not isinstance(after, dict):
        return _plain(c)
    out = []
    old, new = (isolated(str(v.get("name"))) for v in (before, after))
    if old != new:
        out.append(f"{old} renamed {new}")
    if before.get("players") != after.get("players"):
        players = ", ".join(map(str, after.get("players") or ()))
        out.append(f"the players of {after.get('name')} are now {players}")
    return "; ".join(out) or f"{after.get('name')} edited"


def _team_action(what: str) -> Callable[[Context], str]:
    def words(c: Context) -> str:
        before = c.value("before")
        name = before.get("name") if isinstance(before, dict) else c.about
        return f"{name} {what}"

    return words


def _restore(c: Context) -> str:
    after = c.value("after")
    backup = after.get("backup") if isinstance(after, dict) else c.line.target
    return f"The event was restored from the backup {backup}"


def _import(c: Context) -> str:
    return f"A match record was imported{_where(c)}"


FIELD = re.compile(r"(\w+)=('(?:[^'\\]|\\.)*'|[^,()]+)")


def _edit_event(c: Context) -> str:
    """The event's name or options: the fields that changed, from the stored descriptions."""
    before = dict(FIELD.findall(str(c.value("before") or "")))
    after = dict(FIELD.findall(str(c.value("after") or "")))
    changed = [
        f"{key.replace('_', ' ')} {before.get(key, '–')} → {value}"
        for key, value in after.items()
        if before.get(key) != value
    ]
    return "The event's options changed: " + ("; ".join(changed) or "no visible field")


def _plain(c: Context) -> str:
    """An action without a wording of its own: its name, what it is about, its values."""
    from director.services.audit import _value_text

    before, after = _value_text(c.line.before), _value_text(c.line.after)
    change = f"{before} → {after}" if before and after else before and f"was {before}" or after
    head = c.line.action[:1].upper() + c.line.action[1:]
    return f"{head}{_where(c)}" + (f": {change}" if change else "")


WORDINGS: dict[str, Callable[[Context], str]] = {
    "forfeit": _forfeit,
    "correct game": _correct,
    "void game": _void,
    "undo game": _undo_game,
    "lost on time": _lost_on_time,
    "paper result": _paper_result,
    "undo lost on time": _undo_lost_on_time,
    "clock-adjust": _clock_adjust,
    "clocks reset": _clocks_reset,
    "edit pairings": _pairings("'s pairings changed by hand"),
    "pair by hand": _pairings(" paired by hand"),
    "pair again": _pairings(" paired again by the engine"),
    "undo round": _undo_round,
    "forbid pair": _forbid(allowed=False),
    "allow pair": _forbid(allowed=True),
    "edit team": _edit_team,
    "remove team": _team_action("removed"),
    "withdraw team": _team_action("withdrawn"),
    "reinstate team": _team_action("reinstated"),
    "restore": _restore,
    "import match": _import,
    "edit event": _edit_event,
}


def sentence(
    line: AuditLine, place: MatchPlace | None, teams: Mapping[int, str], about: str
) -> str:
    """The line in words, without its time, station and reason (the log's other columns)."""
    context = Context(line, place, teams, about)
    try:
        return WORDINGS.get(line.action, _plain)(context)
    except (TypeError, ValueError, KeyError, AttributeError):  # a line of an older shape
        return _plain(context)
