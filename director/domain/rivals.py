"""Head-to-head records and the nemesis report of the club (RULES §12).

A record counts the matches two persons played over the board against each other: rated
ones and those the director marked unrated (they were played); byes and no-show forfeits were
not played and do not count. In a Tandem match each player of one team meets each player of
the other. A person's **nemesis** is the opponent against whom they have the worst record
(lowest share of wins, draws counting half) over at least `minimum` matches (3), provided
they lost to them at least once; ties go to the opponent met more often, then the lower id.
The one they **beat most** is the opponent they won against most often over at least as many
matches, provided they won at least once; ties go to the better share, then more matches.

How the rest calls it: `services/club.py` passes the club's `ClubResult`s; the person's page
shows `records_of(person)` and `head_to_head(a, b)`, the nemesis report (GUI, PDF) reads
`nemesis_report(results)`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from director.domain.rating import ClubResult, Outcome, Unrated

NEMESIS_MINIMUM = 3


@dataclass(frozen=True, slots=True)
class Record:
    """One person's record against one opponent."""

    person: int
    opponent: int
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def matches(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def share(self) -> float:
        """Wins plus half the draws, over the matches (0 when they never met)."""
        return (self.wins + self.draws / 2) / self.matches if self.matches else 0.0


def _played(r: ClubResult) -> bool:
    return r.unrated not in (Unrated.BYE, Unrated.NO_SHOW) and bool(r.side_b)


_COLUMNS = {Outcome.A_WON: (0, 1), Outcome.B_WON: (1, 0), Outcome.DRAW: (2, 2)}  # A's, B's


def _tally(results: Iterable[ClubResult]) -> dict[tuple[int, int], list[int]]:
    """(person, opponent) → [wins, losses, draws], both ways round."""
    tally: dict[tuple[int, int], list[int]] = {}
    for r in results:
        if not _played(r):
            continue
        column = _COLUMNS[r.outcome]
        for a in r.side_a:
            for b in r.side_b:
                tally.setdefault((a, b), [0, 0, 0])[column[0]] += 1
                tally.setdefault((b, a), [0, 0, 0])[column[1]] += 1
    return tally


def head_to_head(results: Iterable[ClubResult], person: int, opponent: int) -> Record:
    """The record of `person` against `opponent` (empty when they never met)."""
    w, lost, d = _tally(results).get((person, opponent), [0, 0, 0])
    return Record(person, opponent, w, lost, d)


def records_of(results: Iterable[ClubResult], person: int) -> list[Record]:
    """`person`'s record against everyone they met, most matches first."""
    out = [Record(p, o, *wld) for (p, o), wld in _tally(results).items() if p == person]
    return sorted(out, key=lambda r: (-r.matches, r.opponent))


@dataclass(frozen=True, slots=True)
class Rivals:
    person: int
    nemesis: Record | None
    beaten_most: Record | None


def nemesis_report(results: Iterable[ClubResult], minimum: int = NEMESIS_MINIMUM) -> list[Rivals]:
    """For each person who played: their nemesis and the opponent they beat most."""
    by_person: dict[int, list[Record]] = {}
    for (p, o), wld in _tally(results).items():
        by_person.setdefault(p, []).append(Record(p, o, *wld))
    report: list[Rivals] = []
    for person in sorted(by_person):
        often = [r for r in by_person[person] if r.matches >= minimum]
        lost = [r for r in often if r.losses]
        won = [r for r in often if r.wins]
        nemesis = min(lost, key=lambda r: (r.share, -r.matches, r.opponent), default=None)
        beaten = min(won, key=lambda r: (-r.wins, -r.share, -r.matches, r.opponent), default=None)
        report.append(Rivals(person, nemesis, beaten))
    return report
