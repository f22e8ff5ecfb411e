"""Snapshots of an event's parts as plain values: what services return and pages display.

They hold ids and values, never live database objects, so a screen or a report can keep them
after the session that read them has closed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from director.domain.boards import ByBoard
from director.domain.cube import LiveCubes
from director.domain.errors import UserError
from director.domain.match import MatchOutcome
from director.domain.match_reserve import started_clock
from director.domain.pair_state import PairState, Permission
from director.domain.rules import ALL_BOARDS, EventOptions, MatchRules, Side, TimeControl
from director.domain.score import Score
from director.domain.scoring import Game

NO_TABLE = "–"


def table_label(table: int, bye: bool) -> str:
    """The table as the director and the players see it: a bye is played at no table (it is
    stored after the last one only to keep its place in the list)."""
    return NO_TABLE if bye else str(table)


@dataclass(frozen=True)
class EventInfo:
    name: str
    options: EventOptions = field(default_factory=EventOptions)
    venue: str = ""
    event_date: str = ""  # ISO date of the first day, "" if unset
    end_date: str = ""  # ISO date of the last day of an event over several days
    organiser: str = ""
    director: str = ""  # the director or arbiter, printed on every report


@dataclass(frozen=True)
class TeamInfo:
    """An entrant: a Tandem team with its two players, or an individual event's player, who
    plays board 1 under the entrant's own name (RULES §10)."""

    id: int
    name: str
    players: tuple[str, ...]  # one name per board the entrant plays, in board order
    club: str = ""
    rating: int | None = None
    seed: int = 0
    joined_round: int = 1
    withdrawn_after_round: int | None = None
    paid: bool = False
    present: bool = False
    version: int = 1
    persons: tuple[int | None, int | None] = (None, None)  # club person ids, by board

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_after_round is not None

    @property
    def by_board(self) -> ByBoard[str]:
        """The players keyed by the board each plays: boards 1 and 2 of a Tandem team, board 1
        of an individual event's player."""
        return ByBoard(tuple(enumerate(self.players, start=1)))

    def player(self, board: int) -> str:
        """The player of `board`: "" on a board of another format the entrant does not play
        (board 2 of an individual event's player: nobody); a board no format has is refused."""
        if board not in ALL_BOARDS:
            raise UserError(f"there is no board {board}")
        return self.by_board.get(board, "")


class PlayStatus(StrEnum):
    """Where a match, or a whole round, stands."""

    NOT_STARTED = "not started"
    IN_PROGRESS = "in progress"
    FINISHED = "finished"


@dataclass(frozen=True)
class MatchInfo:
    id: int
    round: int | None
    table: int
    team_a: TeamInfo
    team_b: TeamInfo | None  # None: a bye
    rules: MatchRules
    games: tuple[Game, ...]
    game_ids: tuple[int, ...]
    outcome: MatchOutcome
    forfeit_by: Side | None = None
    version: int = 1
    time_control: TimeControl = field(default_factory=TimeControl)  # as paired (#28)
    # the score when the clock's first event was logged (RULES §10: a reserve reduced by it)
    clock_start: Score = field(default_factory=Score)
    # knockout (RULES §11): its bracket, round in that bracket and slot there; None elsewhere
    bracket: str | None = None
    bracket_round: int | None = None
    slot: int | None = None

    @property
    def clock(self) -> TimeControl:
        """The time control the match's clock runs and replays with: as paired, less what a
        clock started in an individual match already under way loses (RULES §10)."""
        return started_clock(self.rules, self.time_control, self.clock_start)

    @property
    def is_bye(self) -> bool:
        return self.team_b is None

    @property
    def table_label(self) -> str:
        return table_label(self.table, self.is_bye)

    @property
    def status(self) -> PlayStatus:
        """Finished: a result, a bye or a forfeit; in progress: a game is recorded."""
        if self.is_bye or self.forfeit_by is not None or self.outcome.finished:
            return PlayStatus.FINISHED
        return PlayStatus.IN_PROGRESS if self.games else PlayStatus.NOT_STARTED

    def team(self, side: Side) -> TeamInfo | None:
        return self.team_a if side is Side.A else self.team_b

    @property
    def names(self) -> tuple[str, str]:
        return (self.team_a.name, self.team_b.name if self.team_b else "bye")

    @property
    def pair_state(self) -> PairState:
        """The pair being played: ask it about the cube and what may be recorded (RULES §4)."""
        return self.outcome.pair_state

    @property
    def cubes(self) -> LiveCubes:
        return self.outcome.pair_state.cubes

    def may_double(self, board: int) -> Permission:
        """RULES §4 for the live desk: may this board send the cube now, and why (not)."""
        return self.outcome.pair_state.may_double(board)


def round_status(matches: Iterable[MatchInfo]) -> PlayStatus:
    """A round is finished when all its matches are, not started while none has begun."""
    matches = list(matches)
    # a bye is decided when it is paired: it does not make a round "in progress"
    statuses = {m.status for m in matches if not m.is_bye} or {m.status for m in matches}
    if statuses <= {PlayStatus.FINISHED}:
        return PlayStatus.FINISHED
    if statuses == {PlayStatus.NOT_STARTED}:
        return PlayStatus.NOT_STARTED
    return PlayStatus.IN_PROGRESS
