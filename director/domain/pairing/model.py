"""The values the pairing engines, the checker and the standings work on.

The service layer maps database rows to these frozen values; nothing here knows about rows.

- A **team** is active in round r when it has joined (``joined_round <= r``) and has not
  withdrawn before r (``withdrawn_after_round`` is None or ``>= r``). RULES §8: withdrawn
  teams are not paired from the round after their withdrawal; their results stand.
- A **match result** records one table of one round. ``team_b`` None is a bye. The outcome
  ``forfeit-A`` means team A won by forfeit (team B did not play), ``forfeit-B`` the reverse.
  A bye and a forfeit win both score a win with 0-0 game points, whatever the scores say
  (RULES §8). An ``unfinished`` match scores nothing yet but still counts as a meeting.
- **History** for pairing is the list of results of the earlier rounds: every pairing that
  was made must appear there (outcome ``unfinished`` when it has no result yet). Any pairing
  counts as a meeting, forfeits included, so a forfeit is never followed by a rematch.
- A **free win** is a bye or a forfeit win. A team with a free win is not given the bye
  while a team without one can have it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from director.domain.rules import (
    DEFAULT_TIE_BREAKS,
    EventOptions,
    LateEntry,
    MatchPointScheme,
    PairingSystem,
    RoundOne,
    TieBreak,
)


class Outcome(StrEnum):
    A = "A"  # team A won
    B = "B"  # team B won
    DRAW = "draw"
    UNFINISHED = "unfinished"
    BYE = "bye"  # team A had the bye (team_b is None)
    FORFEIT_A = "forfeit-A"  # team A won by forfeit: a win with 0-0 game points
    FORFEIT_B = "forfeit-B"  # team B won by forfeit


@dataclass(frozen=True)
class TeamEntry:
    id: int
    name: str
    seed: int
    club: str | None = None
    rating: int | None = None
    withdrawn_after_round: int | None = None  # 0 = withdrew before round 1
    joined_round: int = 1  # 1 = from the start

    def active_in(self, round_no: int) -> bool:
        """Whether the team is paired in this round (joined, and not withdrawn before it)."""
        if round_no < self.joined_round:
            return False
        return self.withdrawn_after_round is None or round_no <= self.withdrawn_after_round

    @property
    def takes_part(self) -> bool:
        """Whether the team is active in any round (a round robin schedules exactly these)."""
        w = self.withdrawn_after_round
        return w is None or w >= self.joined_round


@dataclass(frozen=True)
class MatchResult:
    round: int
    table: int
    team_a: int
    team_b: int | None  # None = bye
    score_a: int = 0
    score_b: int = 0
    outcome: Outcome = Outcome.UNFINISHED

    def __post_init__(self) -> None:
        if (self.team_b is None) != (self.outcome is Outcome.BYE):
            raise ValueError("a bye has no team B and a match with no team B is a bye")

    @property
    def winner(self) -> int | None:
        """The team that won (a bye's receiver counts), or None for a draw or no result."""
        if self.outcome in (Outcome.A, Outcome.FORFEIT_A, Outcome.BYE):
            return self.team_a
        if self.outcome in (Outcome.B, Outcome.FORFEIT_B):
            return self.team_b
        return None

    @property
    def free_winner(self) -> int | None:
        """The team that got a win without playing (bye or forfeit win), if any."""
        if self.outcome in (Outcome.BYE, Outcome.FORFEIT_A):
            return self.team_a
        if self.outcome is Outcome.FORFEIT_B:
            return self.team_b
        return None


@dataclass(frozen=True)
class Pairing:
    table: int
    team_a: int
    team_b: int | None  # None = bye

    @property
    def teams(self) -> tuple[int, ...]:
        return (self.team_a,) if self.team_b is None else (self.team_a, self.team_b)


@dataclass(frozen=True)
class RoundPairing:
    round: int
    pairings: tuple[Pairing, ...]
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class PairingOptions:
    """Everything the engines need to pair a round, mapped from the event's options.

    ``forbidden_pairs`` (Swiss only) are strong soft constraints: such a pair is made only
    when no pairing without it exists that also avoids a rematch and gives the bye to a team
    without a free win; it is then reported as a warning. ``avoid_same_club`` is a weak soft
    constraint, weighed below the score groups (see ``swiss``). ``rounds`` 0 means a Swiss
    played until one team is clear. Round robin and knockout ignore both constraints.
    """

    system: PairingSystem = PairingSystem.SWISS
    match_points: MatchPointScheme = MatchPointScheme.TWO_ONE_ZERO
    tie_breaks: tuple[TieBreak, ...] = DEFAULT_TIE_BREAKS
    round_one: RoundOne = RoundOne.BY_SEED
    random_seed: int = 0  # the seed of round one's random order
    late_entry: LateEntry = LateEntry.ZERO
    avoid_same_club: bool = False
    forbidden_pairs: frozenset[frozenset[int]] = field(default_factory=frozenset)
    rounds: int = 5
    double_round_robin: bool = False
    consolation: bool = False

    @classmethod
    def from_event(
        cls,
        event: EventOptions,
        *,
        forbidden_pairs: Iterable[Iterable[int]] = (),
        random_seed: int = 0,
    ) -> PairingOptions:
        return cls(
            system=event.pairing_system,
            match_points=event.match_points,
            tie_breaks=event.tie_breaks,
            round_one=event.round_one,
            random_seed=random_seed,
            late_entry=event.late_entry,
            avoid_same_club=event.avoid_same_club,
            forbidden_pairs=frozenset(frozenset(p) for p in forbidden_pairs),
            rounds=event.rounds,
            double_round_robin=event.double_round_robin,
            consolation=event.consolation,
        )


@dataclass(frozen=True)
class Violation:
    round: int
    teams: tuple[int, ...]
    rule: str
    text: str


@dataclass
class History:
    """Who met whom and who had a free win, from the results of earlier rounds."""

    meetings: Counter[frozenset[int]] = field(default_factory=Counter)
    first_met: dict[frozenset[int], int] = field(default_factory=dict)
    free_wins: Counter[int] = field(default_factory=Counter)
    byes: Counter[int] = field(default_factory=Counter)

    @classmethod
    def of(cls, results: Iterable[MatchResult], before_round: int | None = None) -> History:
        h = cls()
        for r in results:
            if before_round is not None and r.round >= before_round:
                continue
            if r.team_b is None:
                h.byes[r.team_a] += 1
            else:
                key = frozenset((r.team_a, r.team_b))
                h.meetings[key] += 1
                h.first_met[key] = min(h.first_met.get(key, r.round), r.round)
            winner = r.free_winner
            if winner is not None:
                h.free_wins[winner] += 1
        return h

    def met(self, a: int, b: int) -> int:
        return self.meetings.get(frozenset((a, b)), 0)


def by_seed(teams: Iterable[TeamEntry]) -> list[TeamEntry]:
    """Teams in seed order; the id breaks a tie so the order is always the same."""
    return sorted(teams, key=lambda t: (t.seed, t.id))


def numbered(pairs: Sequence[tuple[int, int | None]]) -> tuple[Pairing, ...]:
    """Tables 1, 2, ... in the given order, a bye always after the matches."""
    games = [p for p in pairs if p[1] is not None]
    byes = [p for p in pairs if p[1] is None]
    return tuple(Pairing(i, a, b) for i, (a, b) in enumerate(games + byes, start=1))
