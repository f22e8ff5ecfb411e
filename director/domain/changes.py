"""What a change changed: the areas of the event and the matches it touched.

A service that changes the event returns what it changed with its answer, as a `Changed`
(Anki's operations return `OpChanges`): the caller never names it. A change made at this
station (`ui.context.EventContext.change` emits the service's `Changes`) and one another
station made (`services.sync.changes_since`) are told to the pages as the same `Changes`, so a
page decides from one typed value what it reads again, never from a string it parses.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

T_co = TypeVar("T_co", covariant=True)


class Area(enum.Enum):
    EVENT = "event"  # the event's name, header and options
    TEAMS = "teams"  # teams and their players
    ROUNDS = "rounds"  # rounds paired, published, undone; tables and byes
    RESULTS = "results"  # games, cubes and scores of matches (which ones: `Changes.matches`)
    CLOCKS = "clocks"  # clock events and adjustments
    AUDIT = "audit"  # the audit log (every change writes one)
    SLIPS = "slips"  # the players' result slips and tokens


# what a page that lists teams, rounds or the event reads; a match's games change none of them
STRUCTURE = frozenset({Area.EVENT, Area.TEAMS, Area.ROUNDS})


@dataclass(frozen=True)
class Changes:
    areas: frozenset[Area] = frozenset()
    matches: frozenset[int] = frozenset()  # the matches whose games, cubes or clocks changed
    # the matches whose result slips changed, where it matters which (the phones' pages)
    slips: frozenset[int] = frozenset()

    @classmethod
    def of(cls, *areas: Area, matches: Iterable[int] = (), slips: Iterable[int] = ()) -> Changes:
        return cls(frozenset(areas), frozenset(matches), frozenset(slips))

    @classmethod
    def match(cls, match_id: int) -> Changes:
        """A game, cube action or no-show of one match."""
        return cls.of(Area.RESULTS, matches=(match_id,))

    @classmethod
    def clock(cls, match_id: int) -> Changes:
        """A clock event or adjustment of one match."""
        return cls.of(Area.CLOCKS, matches=(match_id,))

    def __or__(self, other: Changes) -> Changes:
        return Changes(
            self.areas | other.areas, self.matches | other.matches, self.slips | other.slips
        )

    def __bool__(self) -> bool:
        return bool(self.areas or self.matches or self.slips)

    def touches(self, *areas: Area) -> bool:
        return not self.areas.isdisjoint(areas)

    def structure(self) -> bool:
        """The event, its teams or its rounds changed: lists of them are read again."""
        return not self.areas.isdisjoint(STRUCTURE)

    def concerns(self, match_id: int) -> bool:
        """What a view of one match reads again: its own games, or the structure around it."""
        return match_id in self.matches or self.structure()

    def only_matches(self) -> frozenset[int] | None:
        """The matches changed when nothing but matches changed (a page may then read only
        those); None when more changed."""
        if not self.matches or not self.areas <= {Area.RESULTS, Area.CLOCKS, Area.AUDIT}:
            return None
        return self.matches


@dataclass(frozen=True)
class Changed(Generic[T_co]):
    """A service's answer and what its change changed (Anki's `OpChangesWithId` and kin)."""

    value: T_co
    changes: Changes
