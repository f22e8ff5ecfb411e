"""Rows to domain values and back: the only place that knows both shapes.

A row is an ORM object or a plain row with the same names (SQLAlchemy's, or the first look's
from the standard library: `store/first_look.py`), so this module loads no SQLAlchemy."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from director.domain.boards import ByBoard
from director.domain.cube import Cube, LiveCubes
from director.domain.event import EventInfo, MatchInfo, TeamInfo
from director.domain.match import scored
from director.domain.match_reserve import clock_start_score
from director.domain.rules import (
    ALL_BOARDS,
    ClockMode,
    End,
    EventOptions,
    Format,
    LateEntry,
    Level,
    MatchPointScheme,
    MatchRules,
    PairingSystem,
    Paper,
    RoundOne,
    Scoring,
    Side,
    TieBreak,
    TimeControl,
)
from director.domain.score import Result, Score
from director.domain.scoring import COUNTS, Game

if TYPE_CHECKING:
    from sqlalchemy import Row

    from director.store import models


def event_options(row: models.Event) -> EventOptions:
    return EventOptions(
        match=MatchRules(
            match_length=row.match_length,
            scoring=Scoring(row.scoring),
            winner_required=row.winner_required,
            one_cube_threshold=row.one_cube_threshold,
            no_cube_at_one_away=row.no_cube_at_one_away,
            agreed_lower_forfeit=row.agreed_lower_forfeit,
            format=Format(row.format),
        ),
        time_control=TimeControl(row.time_base_s, row.time_increment_s, ClockMode(row.clock_mode)),
        pairing_system=PairingSystem(row.pairing_system),
        rounds=row.rounds,
        round_one=RoundOne(row.round_one),
        late_entry=LateEntry(row.late_entry),
        avoid_same_club=row.avoid_same_club,
        double_round_robin=row.double_round_robin,
        consolation=row.consolation,
        match_points=MatchPointScheme(row.match_points),
        tie_breaks=tuple(TieBreak(t) for t in row.tie_breaks.split(",") if t),
        paper=Paper(row.paper),
    )


def event_info(row: models.Event) -> EventInfo:
    return EventInfo(
        row.name, event_options(row), row.venue, row.event_date,
        row.end_date, row.organiser, row.director,
    )  # fmt: skip


def write_event_options(row: models.Event, options: EventOptions) -> None:
    m, t = options.match, options.time_control
    row.match_length = m.match_length
    row.scoring = m.scoring.value
    row.winner_required = m.winner_required
    row.one_cube_threshold = m.one_cube_threshold
    row.no_cube_at_one_away = m.no_cube_at_one_away
    row.agreed_lower_forfeit = m.agreed_lower_forfeit
    row.format = m.format.value
    row.time_base_s = t.base_seconds
    row.time_increment_s = t.increment_seconds
    row.clock_mode = t.mode.value
    row.pairing_system = options.pairing_system.value
    row.rounds = options.rounds
    row.round_one = options.round_one.value
    row.late_entry = options.late_entry.value
    row.avoid_same_club = options.avoid_same_club
    row.double_round_robin = options.double_round_robin
    row.consolation = options.consolation
    row.match_points = options.match_points.value
    row.tie_breaks = ",".join(t.value for t in options.tie_breaks)
    row.paper = options.paper.value


def team_info(
    row: models.Team | Row[Any],
    players: dict[int, str] | None = None,
    persons: dict[int, int | None] | None = None,
) -> TeamInfo:
    """A team from its ORM row, or from a plain team row with its players' names (and club
    person ids) by board."""
    names = players if players is not None else {p.board: p.name for p in row.players}
    if persons is None:
        persons = {} if players is not None else {p.board: p.person_id for p in row.players}
    return TeamInfo(
        id=row.id,
        name=row.name,
        players=tuple(names[board] for board in sorted(names)),
        club=row.club,
        rating=row.rating,
        seed=row.seed,
        joined_round=row.joined_round,
        withdrawn_after_round=row.withdrawn_after_round,
        paid=row.paid,
        present=row.present,
        version=row.version,
        persons=(persons.get(1), persons.get(2)),
    )


def game_value(row: models.Game | Row[Any]) -> Game:
    """A game from its ORM row or from a plain result row with the same columns."""
    return Game(
        pair=row.pair_number,
        board=row.board,
        winner=Side(row.winner),
        end=End(row.end),
        cube=row.cube,
        level=Level(row.level) if row.level else None,
        agreed_level=Level(row.agreed_level) if row.agreed_level else None,
        **{name: getattr(row, name) for name in COUNTS},
    )


def write_game(row: models.Game, game: Game) -> None:
    row.pair_number = game.pair
    row.board = game.board
    row.winner = game.winner.value
    row.end = game.end.value
    row.cube = game.cube
    row.level = game.level.value if game.level else None
    row.agreed_level = game.agreed_level.value if game.agreed_level else None
    for name in COUNTS:
        setattr(row, name, getattr(game, name))


def match_rules(match: models.Match) -> MatchRules:
    """The rules the match was paired with (#28), rule 4′ as it applies to it included (a
    knockout round forces it on), whatever the event's options say now."""
    return MatchRules(
        match_length=match.match_length,
        scoring=Scoring(match.scoring),
        winner_required=match.winner_required,
        one_cube_threshold=match.one_cube_threshold,
        no_cube_at_one_away=match.no_cube_at_one_away,
        agreed_lower_forfeit=match.agreed_lower_forfeit,
        format=Format(match.format),
    )


def match_time_control(match: models.Match) -> TimeControl:
    """The time control the match was paired with (#28)."""
    return TimeControl(match.time_base_s, match.time_increment_s, ClockMode(match.clock_mode))


def write_match_rules(match: models.Match, rules: MatchRules, clock: TimeControl) -> None:
    """Keep with the match the rules it is paired with: those it is scored and timed by."""
    match.format = rules.format.value
    match.match_length = rules.match_length
    match.scoring = rules.scoring.value
    match.winner_required = rules.winner_required
    match.one_cube_threshold = rules.one_cube_threshold
    match.no_cube_at_one_away = rules.no_cube_at_one_away
    match.agreed_lower_forfeit = rules.agreed_lower_forfeit
    match.time_base_s = clock.base_seconds
    match.time_increment_s = clock.increment_seconds
    match.clock_mode = clock.mode.value


def live_cubes(pair: models.Pair | Row[Any]) -> LiveCubes:
    """The pair's cube on every board, built at once: a listing reads thousands of pairs, and
    one board replaced at a time made and checked three board mappings a pair."""

    def side(value: str | None) -> Side | None:
        return Side(value) if value else None

    def cube(board: int) -> Cube:
        value, owner, offered = (getattr(pair, column) for column in _CUBE_ATTRS[board])
        return Cube(int(value), side(owner), side(offered))

    return LiveCubes(ByBoard.each(ALL_BOARDS, cube))


_CUBE_COLUMNS = ("value", "owner", "offered_by")
# the columns cube{board}_value, _owner, _offered_by of each board
_CUBE_ATTRS = {board: tuple(f"cube{board}_{c}" for c in _CUBE_COLUMNS) for board in ALL_BOARDS}


def live_cube_columns() -> tuple[Any, ...]:
    """The pair's columns of every board's live cube, by board: value, owner, offered by."""
    from director.store import models

    return tuple(getattr(models.Pair, f"cube{b}_{c}") for b in ALL_BOARDS for c in _CUBE_COLUMNS)


def write_cube(pair: models.Pair, board: int, cube: Cube) -> None:
    if board not in ALL_BOARDS:
        raise ValueError(f"there is no board {board}")
    owner = cube.owner.value if cube.owner else None
    offered = cube.offered_by.value if cube.offered_by else None
    for column, value in zip(_CUBE_COLUMNS, (cube.value, owner, offered), strict=True):
        setattr(pair, f"cube{board}_{column}", value)


PAPER_RESULTS = frozenset({Result.A.value, Result.B.value, Result.DRAW.value})


def paper_score(row: models.Match) -> Score | None:
    """The final score typed from paper, if the match has one (#24): a result stored on a
    match of two teams that has no games, no forfeit and no loss on time. No column of its
    own: the stored scoreline, a cache of the games elsewhere, is the result here (and
    `check` tests it against the match's rules, `domain/paper.py`)."""
    if row.team_b_id is None or row.forfeit_by or row.lost_on_time:
        return None
    if row.result not in PAPER_RESULTS:
        return None
    return Score(row.score_a, row.score_b)


def match_info(
    row: models.Match,
    teams: dict[int, TeamInfo],
    round_number: int | None,
    *,
    game_rows: Sequence[models.Game | Row[Any]] | None = None,
    pair_rows: Sequence[models.Pair | Row[Any]] | None = None,
) -> MatchInfo:
    """The match as a value; `game_rows`/`pair_rows` (in seq and number order) spare a big
    listing from building an ORM object per game."""
    if game_rows is None:
        game_rows = row.games
    if pair_rows is None:
        pair_rows = row.pairs
    rules = match_rules(row)
    games = tuple(game_value(g) for g in game_rows)
    team_a = teams[row.team_a_id]
    team_b = teams[row.team_b_id] if row.team_b_id is not None else None
    names = (team_a.name, team_b.name if team_b else "bye")
    live = tuple((p.number, live_cubes(p)) for p in pair_rows)
    lost = Side(row.lost_on_time) if row.lost_on_time else None
    paper = paper_score(row) if not games else None
    outcome = scored(rules, games, names, live, lost, paper)  # unchanged: not scored again
    return MatchInfo(
        id=row.id,
        round=round_number,
        table=row.table_no,
        team_a=team_a,
        team_b=team_b,
        rules=rules,
        games=games,
        game_ids=tuple(g.id for g in game_rows),
        outcome=outcome,
        forfeit_by=Side(row.forfeit_by) if row.forfeit_by else None,
        version=row.version,
        time_control=match_time_control(row),
        clock_start=clock_start_score(outcome, sum(g.clock_seq == 0 for g in game_rows)),
        bracket=row.bracket,
        bracket_round=row.bracket_round,
        slot=row.slot,
    )
