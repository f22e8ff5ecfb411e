"""A knockout paired match by match (RULES §11): the event's draw from its stored matches, and
the matches to pair now.

The draw is `domain.brackets.draw.Draw(plan, field)`: the plan is the event's
(`services/brackets.py`), the field its entrants in seed order, read back from the main
bracket's stored round 1 once it is paired (so a seed changed later moves nobody). Each stored
match is found in the draw by its bracket, round and slot; its result (a forfeit a win for the
opponent) goes into `Draw.progress`, with the withdrawn entrants, and every match whose two
players are known and that is not stored yet is ready to pair: a bracket's next match is paired
as soon as both matches that feed it are finished, not when a whole round is.

An event round is a pairing's batch: the matches paired (announced, printed) together. Each new
match takes the lowest table no unfinished match holds; a bye is played at no table (it is
stored after the batch's matches to keep its place in the list). A paired match not started
yet whose player has withdrawn becomes a bye for the other (audited); a started one waits for
its result (a forfeit) like any other.

How the rest calls it: `services/rounds.py` previews and writes a knockout's next batch here;
the draw sheets, the projector, the phones and the Rounds page read `draw_state`.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from director.domain.brackets.draw import Draw, MatchKey, Progress, Result, Status, Vacant
from director.domain.brackets.plan import BracketPlan, plan_to_json
from director.domain.errors import UserError
from director.domain.event import TeamInfo
from director.domain.pairing.knockout import bracket_order
from director.domain.rules import PairingSystem
from director.services import audit
from director.services.brackets import plan_of, started_match_ids
from director.services.events import event_row
from director.services.teams import list_teams
from director.store import models
from director.store.values import StoredResult


@dataclass(frozen=True, slots=True)
class StoredMatch:
    id: int
    key: MatchKey
    team_a: int
    team_b: int | None
    table: int
    result: str
    forfeit: bool
    started: bool
    final: tuple[int, int] = (0, 0)  # the stored scoreline's final points (a, b)

    @property
    def finished(self) -> bool:
        return self.result in (StoredResult.A.value, StoredResult.B.value)


@dataclass(frozen=True, slots=True)
class NewMatch:
    key: MatchKey
    team_a: int
    team_b: int | None  # None: a bye
    length: int
    table: int


@dataclass(frozen=True, slots=True)
class ByeNow:
    """A paired match not started whose player `gone` withdrew: `team` goes through."""

    match_id: int
    key: MatchKey
    team: int
    gone: int


@dataclass(frozen=True)
class DrawState:
    plan: BracketPlan
    draw: Draw
    progress: Progress
    stored: dict[MatchKey, StoredMatch]
    teams: dict[int, TeamInfo]


@dataclass(frozen=True)
class ReadyMatches:
    new: tuple[NewMatch, ...]
    byes: tuple[ByeNow, ...]
    waiting: str  # why nothing is ready ("" when something is)
    complete: bool  # every bracket is played out


def paired_by_match(session: Session) -> bool:
    """A knockout with a stored plan, or one not paired yet (its first pairing stores the plan
    its options read as). A knockout paired round by round before plans were stored goes on so."""
    event = event_row(session)
    if event.pairing_system != PairingSystem.KNOCKOUT.value:
        return False
    return bool(event.bracket_plan) or session.scalar(select(models.Round.id).limit(1)) is None


def _stored(session: Session) -> list[StoredMatch]:
    started = started_match_ids(session)
    m = models.Match
    rows = session.execute(
        select(
            m.id,
            m.bracket,
            m.bracket_round,
            m.slot,
            m.team_a_id,
            m.team_b_id,
            m.table_no,
            m.result,
            m.forfeit_by,
            m.final_a,
            m.final_b,
        ).order_by(m.id)  # fmt: skip
    )
    out = []
    for mid, bracket, rnd, slot, a, b, table, result, forfeit, fa, fb in rows:
        if bracket is None or rnd is None or slot is None:
            raise UserError(f"match {mid} has no place in a bracket: it cannot be paired on")
        key = MatchKey(bracket, rnd, slot)
        out.append(StoredMatch(mid, key, a, b, table, result, forfeit is not None,
                               mid in started, (fa, fb)))  # fmt: skip
    return out


def _field(plan: BracketPlan, stored: list[StoredMatch], teams: dict[int, TeamInfo]) -> list[int]:
    """The entrants, best seed first: from the main bracket's stored round 1 (its positions in
    standard bracket order), or the teams' seeds before it is paired."""
    main = plan.brackets[0].name
    first = {s.key.number: s for s in stored if s.key.bracket == main and s.key.round == 1}
    if not first:
        active = [t for t in teams.values() if t.withdrawn_after_round is None
                  and t.joined_round <= 1]  # fmt: skip
        if any(t.present for t in active):  # RULES §8 check-in: the teams present
            active = [t for t in active if t.present]
        return [t.id for t in sorted(active, key=lambda t: (t.seed, t.id))]
    size = 2 * len(first)
    if sorted(first) != list(range(1, len(first) + 1)) or size & (size - 1):
        raise UserError("the main bracket's round 1 is not a whole bracket: it cannot go on")
    order = bracket_order(size)
    by_seed: dict[int, int] = {}
    for slot, s in first.items():
        by_seed[order[2 * slot - 2]] = s.team_a
        if s.team_b is not None:
            by_seed[order[2 * slot - 1]] = s.team_b
    if sorted(by_seed) != list(range(1, len(by_seed) + 1)):
        raise UserError("the main bracket's round 1 is not in standard bracket order")
    return [by_seed[seed] for seed in sorted(by_seed)]


def draw_state(session: Session) -> DrawState:
    """The event's draw and where every match of it stands."""
    event = event_row(session)
    if event.pairing_system != PairingSystem.KNOCKOUT.value:
        raise UserError("only a knockout has brackets")
    plan = plan_of(event)
    teams = {t.id: t for t in list_teams(session)}
    stored = _stored(session)
    field = _field(plan, stored, teams)
    if len(field) < 2:
        raise UserError("a knockout needs at least two entrants")
    draw = Draw(plan, field)
    results = []
    for s in stored:
        if s.finished and s.team_b is not None:
            winner = s.team_a if s.result == StoredResult.A.value else s.team_b
            results.append(Result(s.key, winner, s.forfeit))
    busy = {p for s in stored if not s.finished and s.started for p in (s.team_a, s.team_b)}
    gone = sorted(
        (t for t in teams.values() if t.withdrawn_after_round is not None and t.id not in busy),
        key=lambda t: (t.withdrawn_after_round or 0, t.id),
    )
    progress = draw.progress(results, [t.id for t in gone])
    return DrawState(plan, draw, progress, {s.key: s for s in stored}, teams)


def ready_matches(session: Session, state: DrawState | None = None) -> ReadyMatches:
    """What pairing now writes: each match whose players are known and is not stored yet, and
    each unstarted stored match a withdrawal made a bye."""
    state = draw_state(session) if state is None else state
    progress, stored = state.progress, state.stored
    busy_tables: set[int] = set()
    byes: list[ByeNow] = []
    for key, s in stored.items():
        status, players, winner = progress.of(key)
        if status is Status.BYE and s.team_b is not None and not s.finished:
            assert winner is not None
            gone = s.team_b if winner == s.team_a else s.team_a
            byes.append(ByeNow(s.id, key, winner, gone))
        elif s.team_b is not None and not s.finished:
            busy_tables.add(s.table)
    new: list[NewMatch] = []
    table = 0
    for i, node in enumerate(state.draw.nodes):
        status, (a, b) = progress.of_index(i)
        if node.key in stored or status not in (Status.READY, Status.BYE):
            continue
        if status is Status.READY:
            table += 1
            while table in busy_tables:
                table += 1
        assert a is not None or b is not None
        first, second = (a, b) if a is not None else (b, None)
        assert first is not None
        new.append(NewMatch(node.key, first, second if status is Status.READY else None,
                            node.length, table if status is Status.READY else 0))  # fmt: skip
    last = table
    new = [n if n.team_b is not None else _at(n, (last := last + 1)) for n in new]
    waiting = ""
    if not new and not byes:
        open_tables = sorted(s.table for s in stored.values()
                             if s.team_b is not None and not s.finished)  # fmt: skip
        if progress.complete:
            waiting = "every bracket is played out: no match is left to pair"
        else:
            tables = ", ".join(f"table {t}" for t in open_tables)
            waiting = f"no match is ready to pair: waiting for the results at {tables}"
    return ReadyMatches(tuple(new), tuple(byes), waiting, progress.complete)


def _at(n: NewMatch, table: int) -> NewMatch:
    return NewMatch(n.key, n.team_a, n.team_b, n.length, table)


def pair_ready(session: Session, number: int) -> ReadyMatches:
    """Write the ready matches as event round `number` (a pairing's batch), and the byes that
    withdrawals made (audited). The first pairing stores the plan the event is paired by."""
    from director.services.matches import match_row, new_match_row  # matches reads rounds' kin

    event = event_row(session)
    if not event.bracket_plan:
        event.bracket_plan = plan_to_json(plan_of(event))
    ready = ready_matches(session)
    if not ready.new and not ready.byes:
        raise UserError(ready.waiting)
    for bye in ready.byes:
        row = match_row(session, bye.match_id)
        before = (row.team_a_id, row.team_b_id)
        row.team_a_id, row.team_b_id = bye.team, None
        row.result = StoredResult.BYE.value
        audit.log(session, "withdrawn: bye", f"match {row.id} ({bye.key})", before,
                  (bye.team, None), f"team {bye.gone} has withdrawn")  # fmt: skip
    if ready.new:
        rnd = models.Round(number=number, published=True)
        session.add(rnd)
        session.flush()
        for n in ready.new:
            place = (n.key.bracket, n.key.round, n.key.number)
            new_match_row(session, n.team_a, n.team_b, rnd.id, n.table, knockout=True,
                          place=place, length=n.length)  # fmt: skip
    session.flush()
    return ready


def check_draw_stored(session: Session) -> list[tuple[int, str]]:
    """The independent checker (`domain/brackets/checker.py`) over the stored matches: each
    problem with the event round of the match it names (0 when it names none). The field is
    the entrants of the main bracket's round 1 by their seeds, not by where they were placed."""
    from director.domain.brackets.checker import DrawnMatch, check_draw

    event = event_row(session)
    plan = plan_of(event)
    teams = {t.id: t for t in list_teams(session)}
    stored = _stored(session)
    main = plan.brackets[0].name
    entrants = {p for s in stored if s.key.bracket == main and s.key.round == 1
                for p in (s.team_a, s.team_b) if p is not None}  # fmt: skip
    field = sorted(entrants, key=lambda t: (teams[t].seed, t))
    m, r = models.Match, models.Round
    rows = session.execute(select(m.id, m.match_length, r.number).join(r, m.round_id == r.id))
    length = {mid: (n, rnd) for mid, n, rnd in rows}
    drawn = []
    for s in stored:
        if s.team_b is None:
            continue  # a bye is no match
        winner = None
        if s.finished:
            winner = s.team_a if s.result == StoredResult.A.value else s.team_b
        drawn.append(DrawnMatch(s.key.bracket, s.key.round, s.key.number, s.team_a, s.team_b,
                                length[s.id][0], winner))  # fmt: skip
    withdrawn = [t.id for t in teams.values() if t.withdrawn_after_round is not None]
    round_of = {str(s.key): length[s.id][1] for s in stored}
    return [(round_of.get(text.split(":", 1)[0], 0), text)
            for text in check_draw(plan, field, drawn, withdrawn)]  # fmt: skip


@dataclass(frozen=True, slots=True)
class BracketLine:
    """One match of a bracket as the desk and the projector show it."""

    key: MatchKey
    round_title: str  # "Semi-final · to 11"
    status: Status
    names: tuple[str | Vacant, str | Vacant]  # each entrant's name, or why there is none
    score: str  # "7 – 3", "forfeit", "" unplayed
    table: int | None  # while paired and not finished
    winner: str  # "" until decided
    match_id: int | None  # the stored match
    scores: tuple[str, str] = ("", "")  # each entrant's: "7", "+" a forfeit win, "" unplayed
    started: bool = False  # a game or the clock has begun at its table
    feeds: MatchKey | None = None  # the match its winner plays next in this bracket

    @property
    def ready(self) -> bool:
        """Both feeders finished and not started yet: to pair, or paired and to start."""
        return self.status is Status.READY and not self.started


@dataclass(frozen=True, slots=True)
class BracketView:
    name: str
    title: str  # "Main bracket"
    lines: tuple[BracketLine, ...]
    places: tuple[tuple[str, str], ...]  # ("1", name), ("3=", name), … as known
    rounds: tuple[tuple[str, int], ...] = ()  # each round's heading and number of matches


def entry_scores(match: StoredMatch | None, players: tuple[int | None, int | None],
                 winner: int | None) -> tuple[str, str]:  # fmt: skip
    """Each entrant's final score in a finished `match` ("+" a forfeit win, "" the forfeit's
    loser), as the draw sheets, the phones and the Rounds page show it; ("", "") before.

    From the stored scoreline, as the standings read it (`rounds.stored_results`): every write
    re-scores its match before it commits, so no match is scored again from its games here
    (at 256 players that took most of a refresh of the Rounds page)."""
    if match is None or match.team_b is None or winner is None:
        return "", ""
    out = []
    for p in players:
        final = match.final[0] if match.team_a == p else match.final[1]
        out.append(("+" if p == winner else "") if match.forfeit else str(final))
    return out[0], out[1]


def places_lines(progress: Progress, bracket: str, name: dict[int, str]) -> list[tuple[str, str]]:
    """(place, name) of a bracket as known: 1 once complete, 2, 3 (3= shared), 4."""
    places = progress.places(bracket)
    out: list[tuple[str, str]] = []
    if places.winner is not None and places.complete:
        out.append(("1", name[places.winner]))
    if places.runner_up is not None:
        out.append(("2", name[places.runner_up]))
    third = "3=" if len(places.third) > 1 else "3"
    out += [(third, name[p]) for p in places.third]
    if places.fourth is not None:
        out.append(("4", name[places.fourth]))
    return out


def bracket_views(session: Session) -> list[BracketView]:
    """Every bracket of a knockout, match by match, for the Rounds page and the projector;
    empty outside a knockout paired by match or before its first pairing."""
    if not paired_by_match(session) or session.scalar(select(models.Match.id).limit(1)) is None:
        return []
    state = draw_state(session)
    draw, progress = state.draw, state.progress
    name = {t.id: t.name for t in state.teams.values()}
    out = []
    for bracket in state.plan.brackets:
        if bracket.name not in draw.rounds:
            continue
        # each round's title once: a title reads the rounds after it
        titles = {
            r: draw.round_title(bracket.name, r) for r in range(1, draw.rounds[bracket.name] + 1)
        }
        lines = []
        for i, node in enumerate(draw.nodes):
            if node.key.bracket != bracket.name:
                continue
            status, players = progress.of_index(i)
            if status is Status.EMPTY:
                continue
            stored = state.stored.get(node.key)
            names = tuple(seat if isinstance(seat, Vacant) else name[seat]
                          for seat in progress.seats(i))  # fmt: skip
            winner = progress.winner[i] if status is Status.DONE else None
            scores = entry_scores(stored, players, winner)
            score = ""
            if stored is not None and stored.team_b is not None and status is Status.DONE:
                score = ("forfeit" if stored.forfeit else
                         f"{stored.final[0]} – {stored.final[1]}")  # fmt: skip
            words = titles[node.key.round] if not node.third_place else "Play-off for third"
            parent = draw.nodes[node.parent].key if node.parent is not None else None
            lines.append(BracketLine(
                node.key, f"{words} · to {node.length}", status, (names[0], names[1]), score,
                stored.table if stored is not None and status is Status.READY else None,
                name[winner] if winner is not None else "",
                stored.id if stored is not None else None, scores,
                stored is not None and stored.started, parent,
            ))  # fmt: skip
        heads = []
        for r in range(1, draw.rounds[bracket.name] + 1):
            nodes = draw.round_nodes(bracket.name, r)
            length = draw.nodes[nodes[0]].length
            heads.append((f"{titles[r]} · to {length}", len(nodes)))
        label = bracket.name[:1].upper() + bracket.name[1:].replace("-", " ")
        places = tuple(places_lines(progress, bracket.name, name))
        out.append(
            BracketView(bracket.name, f"{label} bracket", tuple(lines), places, tuple(heads))
        )
    return out
