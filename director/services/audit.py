"""The audit log: corrections, overrides, restores, each with its reason."""

from __future__ import annotations

import json
import os
import re
import socket
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from director.store import models


def station_name() -> str:
    return os.environ.get("TANDEM_STATION") or socket.gethostname()


def log(
    session: Session,
    action: str,
    target: str,
    before: Any = None,
    after: Any = None,
    reason: str = "",
) -> None:
    session.add(
        models.AuditEntry(
            station=station_name(),
            action=action,
            target=target,
            before="" if before is None else json.dumps(before, ensure_ascii=False, default=str),
            after="" if after is None else json.dumps(after, ensure_ascii=False, default=str),
            reason=reason,
        )
    )


MATCH_TARGET = re.compile(r"^match (\d+)\b")
ROUND_TARGET = re.compile(r"^round (\d+)\b")
TEAM_TARGET = re.compile(r"^teams? (\d+)(?: and (\d+))?$")  # 'team 3', 'teams 1 and 4'


@dataclass(frozen=True)
class AuditLine:
    at: datetime
    station: str
    action: str
    target: str
    before: str
    after: str
    reason: str

    @property
    def when(self) -> str:
        """The time on this computer's clock ('2026-12-01 19:42:07'); stored in UTC."""
        at = self.at if self.at.tzinfo is not None else self.at.replace(tzinfo=UTC)
        return at.astimezone().strftime("%Y-%m-%d %H:%M:%S")

    def row(
        self, places: dict[int, MatchPlace], teams: dict[int, str] | None = None
    ) -> tuple[str, str, str, str]:
        """The line in words: when, station, what happened as a sentence, the reason."""
        from director.services.audit_words import sentence

        place = places.get(self.match_id) if self.match_id is not None else None
        what = sentence(self, place, teams or {}, about(self, places, teams))
        return self.when, self.station, _shortened(what), _shortened(self.reason)

    @property
    def match_id(self) -> int | None:
        """The match the line is about ('match 12 game 40', 'match 12 clock'), if any."""
        found = MATCH_TARGET.match(self.target)
        return int(found.group(1)) if found else None

    @property
    def round_number(self) -> int | None:
        """The round the line is about ('round 3': a pairing edit, an undone round), if any."""
        found = ROUND_TARGET.match(self.target)
        return int(found.group(1)) if found else None

    @property
    def change(self) -> str:
        """'before → after' in words: a game as 'pair 1, board 2: B, bear-off, gammon, cube 2'."""
        before, after = _value_text(self.before), _value_text(self.after)
        if before and after:
            return f"{before} → {after}"
        return before and f"was {before}" or after


SHORT = 400  # characters of a change or reason a row shows (a re-paired round is long)


def _shortened(value: str) -> str:
    if len(value) <= SHORT:
        return value
    return f"{value[:SHORT]}… ({len(value) - SHORT} more characters)"


def _value_text(stored: str) -> str:
    if not stored:
        return ""
    try:
        value = json.loads(stored)
    except ValueError:
        return stored
    if isinstance(value, dict) and {"pair", "board", "winner", "end"} <= value.keys():
        facts = [str(value["winner"]), str(value["end"])]
        facts += [str(value[k]) for k in ("level", "agreed_level") if value.get(k)]
        facts.append(f"cube {value.get('cube', 1)}")
        return f"pair {value['pair']}, board {value['board']}: " + ", ".join(facts)
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def entries(
    session: Session, *, match: int | None = None, round: int | None = None
) -> list[AuditLine]:
    """The audit log, oldest first; only what is about one match, or one round (its pairing
    edits and every change to its matches), when asked."""
    rows = session.scalars(select(models.AuditEntry).order_by(models.AuditEntry.id))
    lines = [
        AuditLine(r.at, r.station, r.action, r.target, r.before, r.after, r.reason) for r in rows
    ]
    if match is not None:
        lines = [line for line in lines if line.match_id == match]
    if round is not None:
        in_round = {m.id for m in match_places(session) if m.round == round}
        lines = [line for line in lines if line.round_number == round or line.match_id in in_round]
    return lines


@dataclass(frozen=True)
class MatchPlace:
    id: int
    round: int | None
    table: int
    names: tuple[str, str | None]  # team B's None: a bye

    @property
    def label(self) -> str:
        """'round 2, table 3: Blue Bar v Gammonites' (a bye: 'round 2: Blue Bar, bye')."""
        where = f"round {self.round}" if self.round is not None else "no round"
        if self.names[1] is None:
            return f"{where}: {self.names[0]}, bye"
        return f"{where}, table {self.table}: {self.names[0]} v {self.names[1]}"


def match_places(session: Session) -> list[MatchPlace]:
    """Every match's round, table and teams in one query: what the audit names a match by."""
    names = team_names(session)
    m = models.Match
    query = (
        select(m.id, models.Round.number, m.table_no, m.team_a_id, m.team_b_id)
        .outerjoin(models.Round, m.round_id == models.Round.id)
        .order_by(models.Round.number, m.table_no, m.id)
    )
    return [
        MatchPlace(match_id, number, table, (names[a], names[b] if b is not None else None))
        for match_id, number, table, a, b in session.execute(query)
    ]


def team_names(session: Session) -> dict[int, str]:
    return dict(session.execute(select(models.Team.id, models.Team.name)).all())


def about(
    line: AuditLine, places: dict[int, MatchPlace], teams: dict[int, str] | None = None
) -> str:
    """What a line is about in the director's words: the match by its round, table and teams
    (a match since deleted, by its number), a team by its name, else the stored target."""
    found = TEAM_TARGET.match(line.target)
    if found and teams is not None:
        ids = [int(g) for g in found.groups() if g is not None]
        return " and ".join(teams.get(i, f"team {i}") for i in ids)
    if line.match_id is None:
        return line.target
    place = places.get(line.match_id)
    rest = line.target[len(f"match {line.match_id}") :].strip()
    text = place.label if place else f"match {line.match_id} (no longer paired)"
    return f"{text} ({rest})" if rest else text
