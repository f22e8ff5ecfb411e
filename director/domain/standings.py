"""Standings, crosstable and board statistics (RULES §8). Pure: values in, values out.

Match points: a win (a bye, a forfeit win and a late entrant's bye-equivalent round included)
scores the scheme's win points, a draw its draw points, a loss nothing; an unfinished match
scores nothing yet. Teams are ranked on match points, then on the event's tie-breaks in its
order; each tie-break's definition is in ``TIE_BREAK_DEFINITIONS``. Teams still equal on every
criterion keep a strict order (seed, then id) and are flagged ``tied_with_previous``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from director.domain.pairing.model import MatchResult, Outcome, TeamEntry
from director.domain.rules import (
    ALL_BOARDS,
    DEFAULT_TIE_BREAKS,
    LateEntry,
    MatchPointScheme,
    TieBreak,
)
from director.domain.wording import entrant_words

TIE_BREAK_DEFINITIONS: dict[TieBreak, str] = {
    TieBreak.BUCHHOLZ: (
        "Buchholz: the sum of the match points of every opponent met, forfeits included; "
        "a bye (or a late entrant's bye-equivalent round) counts as an opponent with the "
        "team's own match points."
    ),
    TieBreak.POINTS_DIFFERENCE: (
        "Points difference: game points won minus game points lost in all matches; "
        "a bye or a forfeit counts 0-0."
    ),
    TieBreak.POINTS_FOR: (
        "Points for: game points won in all matches; a bye or a forfeit counts 0."
    ),
    TieBreak.HEAD_TO_HEAD: (
        "Head-to-head: among the teams still tied on everything before it, the match points "
        "each scored in the matches between them."
    ),
    TieBreak.SEED: "Seed: the lower seed number ranks higher.",
}


def tie_break_definitions(entrant: str = "team") -> dict[TieBreak, str]:
    """Each tie-break's definition in the words of the event's entrants (RULES §10)."""
    return {tb: entrant_words(text, entrant) for tb, text in TIE_BREAK_DEFINITIONS.items()}


def match_points_definition(scheme: MatchPointScheme, draws: bool = True) -> str:
    """The match points in words; `draws`: whether the format's matches may end level."""
    draw = f"draw {scheme.draw:g}, " if draws else ""
    return (
        f"Match points: win {scheme.win:g}, {draw}loss 0; a bye or a forfeit "
        "win scores a win with 0-0 game points."
    )


def result_legend(draws: bool = True) -> str:
    """The crosstable's result letters (W, D, L), the draw left out where there is none."""
    return "W win, D draw, L loss" if draws else "W win, L loss"


@dataclass(frozen=True)
class StandingRow:
    rank: int  # strict: 1, 2, 3, ... even through ties
    team_id: int
    match_points: float
    tie_breaks: dict[TieBreak, float | None]  # in the event's order; head-to-head None = unused
    tied_with_previous: bool  # equal to the row above on match points and every tie-break
    played: int  # matches played or forfeited (byes not included)
    wins: int
    draws: int
    losses: int
    byes: int  # byes and late-entry bye-equivalent rounds (each scored as a win)
    points_for: int
    points_against: int
    withdrawn: bool
    # a result of its own in a round counted: a match (a forfeit too) or a bye. A team that
    # never checked in has none: it is listed apart, after the teams that played, unplaced
    took_part: bool = True

    @property
    def note(self) -> str:
        """What every standings table says after the team's name: "withdrawn", "did not
        play" (listed apart, unplaced), or nothing."""
        if self.withdrawn:
            return "withdrawn"
        return "" if self.took_part else "did not play"

    @property
    def place(self) -> str:
        """The rank as every standings table shows it (screen, projector, paper, phones): the
        strict rank, with "=" when the team is equal to the one above on every criterion; "–"
        for a team that has not taken part."""
        if not self.took_part:
            return "–"
        return f"{self.rank}=" if self.tied_with_previous else str(self.rank)


_PLAYED = frozenset((Outcome.A, Outcome.B, Outcome.DRAW))  # played to a result: game points
_A_WINS = frozenset((Outcome.A, Outcome.FORFEIT_A))


@dataclass
class _Tally:
    points: float = 0.0
    points_for: int = 0
    points_against: int = 0
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    opponents: list[int] = field(default_factory=list)
    mutual: list[tuple[int, float]] = field(default_factory=list)  # (opponent, points scored)


def _tally(
    teams: Sequence[TeamEntry],
    results: Iterable[MatchResult],
    scheme: MatchPointScheme,
    late_entry: LateEntry,
    through_round: int,
) -> dict[int, _Tally]:
    tallies = {t.id: _Tally() for t in teams}
    if late_entry is LateEntry.BYE_EQUIVALENT:
        for t in teams:
            missed = max(0, min(t.joined_round - 1, through_round))
            tallies[t.id].byes += missed
            tallies[t.id].points += missed * scheme.win
    win, draw = scheme.win, scheme.draw  # read once: a property of an enum, per result
    unfinished, played, a_wins = Outcome.UNFINISHED, _PLAYED, _A_WINS
    for r in results:
        outcome = r.outcome
        if r.round > through_round or outcome is unfinished:
            continue
        team_a, team_b = r.team_a, r.team_b
        a = tallies.get(team_a)
        if a is None:
            raise _unlisted(r, team_a)
        if team_b is None:
            a.byes += 1
            a.points += win
            continue
        b = tallies.get(team_b)
        if b is None:
            raise _unlisted(r, team_b)
        a.opponents.append(team_b)
        b.opponents.append(team_a)
        a.played += 1
        b.played += 1
        if outcome in played:
            a.points_for += r.score_a
            a.points_against += r.score_b
            b.points_for += r.score_b
            b.points_against += r.score_a
        if outcome is Outcome.DRAW:
            a.draws += 1
            b.draws += 1
            pa = pb = draw
        else:
            a_won = outcome in a_wins
            winner, loser = (a, b) if a_won else (b, a)
            winner.wins += 1
            loser.losses += 1
            pa, pb = (win, 0.0) if a_won else (0.0, win)
        a.points += pa
        b.points += pb
        a.mutual.append((team_b, pa))
        b.mutual.append((team_a, pb))
    return tallies


def _unlisted(result: MatchResult, team: int) -> ValueError:
    return ValueError(f"a round {result.round} result names team {team}, not listed")


def compute_standings(
    teams: Sequence[TeamEntry],
    results: Iterable[MatchResult],
    *,
    scheme: MatchPointScheme = MatchPointScheme.TWO_ONE_ZERO,
    tie_breaks: Sequence[TieBreak] = DEFAULT_TIE_BREAKS,
    late_entry: LateEntry = LateEntry.ZERO,
    through_round: int | None = None,
) -> list[StandingRow]:
    """The standings of ``teams`` after ``through_round`` (default: the last round played)."""
    results = list(results)
    if through_round is None:
        through_round = max((r.round for r in results), default=0)
    tallies = _tally(teams, results, scheme, late_entry, through_round)
    seeds = {t.id: t.seed for t in teams}
    buchholz = {
        tid: sum(tallies[o].points for o in t.opponents) + t.byes * t.points
        for tid, t in tallies.items()
    }
    value_of: dict[TieBreak, Callable[[int], float]] = {
        TieBreak.BUCHHOLZ: buchholz.__getitem__,
        TieBreak.POINTS_DIFFERENCE: lambda tid: (
            tallies[tid].points_for - tallies[tid].points_against
        ),
        TieBreak.POINTS_FOR: lambda tid: tallies[tid].points_for,
        TieBreak.SEED: seeds.__getitem__,
    }
    head_to_head: dict[int, float] = {}

    def split(group: list[int], key: Callable[[int], float]) -> list[list[int]]:
        values = {tid: key(tid) for tid in group}
        group.sort(key=values.__getitem__)
        out: list[list[int]] = [[group[0]]]
        for tid in group[1:]:
            if values[tid] == values[out[-1][-1]]:
                out[-1].append(tid)
            else:
                out.append([tid])
        return out

    groups = split([t.id for t in teams], lambda tid: -tallies[tid].points) if teams else []
    for tb in tie_breaks:
        refined: list[list[int]] = []
        for group in groups:
            if len(group) == 1:
                refined.append(group)
            elif tb is TieBreak.HEAD_TO_HEAD:
                members = set(group)
                for tid in group:
                    head_to_head[tid] = sum(p for o, p in tallies[tid].mutual if o in members)
                refined.extend(split(group, lambda tid: -head_to_head[tid]))
            elif tb is TieBreak.SEED:
                refined.extend(split(group, seeds.__getitem__))
            else:
                refined.extend(split(group, _descending(value_of[tb])))
        groups = refined

    by_id = {t.id: t for t in teams}

    def took_part(tid: int) -> bool:
        return not through_round or tallies[tid].played > 0 or tallies[tid].byes > 0

    # the teams that never took part, after the others (a group of them stays apart too)
    absent = [[tid for tid in group if not took_part(tid)] for group in groups]
    groups = [[tid for tid in g if took_part(tid)] for g in groups] + absent
    groups = [group for group in groups if group]
    rows: list[StandingRow] = []
    for group in groups:
        group.sort(key=lambda tid: (seeds[tid], tid))
        for i, tid in enumerate(group):
            t = tallies[tid]
            values: dict[TieBreak, float | None] = {
                tb: head_to_head.get(tid) if tb is TieBreak.HEAD_TO_HEAD else value_of[tb](tid)
                for tb in tie_breaks
            }
            w = by_id[tid].withdrawn_after_round
            rows.append(
                StandingRow(
                    rank=len(rows) + 1,
                    team_id=tid,
                    match_points=t.points,
                    tie_breaks=values,
                    tied_with_previous=i > 0,
                    played=t.played,
                    wins=t.wins,
                    draws=t.draws,
                    losses=t.losses,
                    byes=t.byes,
                    points_for=t.points_for,
                    points_against=t.points_against,
                    withdrawn=w is not None and w <= through_round,
                    took_part=took_part(tid),
                )
            )
    return rows


def _descending(value: Callable[[int], float]) -> Callable[[int], float]:
    return lambda tid: -value(tid)


@dataclass(frozen=True)
class CrossCell:
    """One team's match in one round, from that team's side."""

    opponent: int | None  # None = bye
    result: str  # "W", "D", "L", "bye", "+" (forfeit win), "-" (forfeit loss), "?" (unfinished)
    points_for: int
    points_against: int


def crosstable(results: Iterable[MatchResult]) -> dict[int, dict[int, CrossCell]]:
    """team id → round → that team's cell. Rounds a team did not play have no cell."""
    table: dict[int, dict[int, CrossCell]] = defaultdict(dict)
    for r in results:
        if r.team_b is None:
            table[r.team_a][r.round] = CrossCell(None, "bye", 0, 0)
            continue
        codes = {
            Outcome.A: ("W", "L"),
            Outcome.B: ("L", "W"),
            Outcome.DRAW: ("D", "D"),
            Outcome.FORFEIT_A: ("+", "-"),
            Outcome.FORFEIT_B: ("-", "+"),
            Outcome.UNFINISHED: ("?", "?"),
        }[r.outcome]
        forfeit = r.outcome in (Outcome.FORFEIT_A, Outcome.FORFEIT_B)
        sa, sb = (0, 0) if forfeit else (r.score_a, r.score_b)
        table[r.team_a][r.round] = CrossCell(r.team_b, codes[0], sa, sb)
        table[r.team_b][r.round] = CrossCell(r.team_a, codes[1], sb, sa)
    return dict(table)


@dataclass(frozen=True)
class BoardGame:
    """One game played on one board by one team's player."""

    round: int
    team_id: int
    board: int  # 1 or 2
    won: bool
    points_for: int
    points_against: int

    def __post_init__(self) -> None:
        if self.board not in ALL_BOARDS:
            raise ValueError(f"board must be one of {ALL_BOARDS}, not {self.board}")


@dataclass(frozen=True)
class BoardTotals:
    team_id: int
    board: int
    games: int
    won: int
    lost: int
    points_for: int
    points_against: int


def board_totals(games: Iterable[BoardGame]) -> list[BoardTotals]:
    """Totals per (team, board), sorted by team id then board."""
    acc: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    for g in games:
        a = acc[(g.team_id, g.board)]
        a[0] += 1
        a[1 if g.won else 2] += 1
        a[3] += g.points_for
        a[4] += g.points_against
    return [BoardTotals(t, b, *v) for (t, b), v in sorted(acc.items())]
