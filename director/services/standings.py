"""Standings, crosstable and board statistics of the event (RULES §8)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from director.domain.errors import UserError
from director.domain.event import TeamInfo
from director.domain.pairing.model import MatchResult, Outcome
from director.domain.rules import Side, TieBreak
from director.domain.standings import (
    BoardGame,
    BoardTotals,
    CrossCell,
    StandingRow,
    board_totals,
    compute_standings,
    crosstable,
    match_points_definition,
    tie_break_definitions,
)
from director.domain.wording import counted
from director.services.events import get_event, rounds_paired
from director.services.matches import list_matches
from director.services.rounds import stored_results, team_entry
from director.services.teams import team_map


@dataclass(frozen=True)
class StandingLine:
    team: TeamInfo
    row: StandingRow


@dataclass(frozen=True)
class Standings:
    lines: tuple[StandingLine, ...]
    tie_breaks: tuple[TieBreak, ...]
    definitions: dict[str, str]  # "match points" and each tie-break, in words
    through_round: int  # the last round whose results the numbers hold (0: none yet)
    decided: int = 0  # matches of that round decided (byes and forfeits included) ...
    matches: int = 0  # ... of its matches: fewer means the round is still being played
    draws: bool = True  # whether the format's matches may end level (not in RULES §10)
    entrant: str = "team"  # who enters: "team", or "player" in an individual event

    @property
    def heading(self) -> str:
        """What the numbers are: "after round 2", "during round 3 (4 of 8 matches decided)"."""
        if not self.through_round:
            return "before round 1"
        if self.decided < self.matches:
            return (
                f"during round {self.through_round}"
                f" ({self.decided} of {self.matches} matches decided)"
            )
        return f"after round {self.through_round}"


def rounds_counted(results: list[MatchResult], through_round: int | None) -> tuple[int, int, int]:
    """The round standings are taken after, and how many of its matches are decided.

    By default the last round with a played result: a round just published (only its byes
    decided) does not count yet, so the numbers and their title stay "after" the round before.
    """
    played = {r.round for r in results if r.outcome not in (Outcome.UNFINISHED, Outcome.BYE)}
    last = through_round if through_round is not None else max(played, default=0)
    of_round = [r for r in results if r.round == last]
    decided = sum(r.outcome is not Outcome.UNFINISHED for r in of_round)
    return last, decided, len(of_round)


def standings(session: Session, through_round: int | None = None) -> Standings:
    options = get_event(session).options
    teams = team_map(session)
    results = stored_results(session)
    paired = rounds_paired(session)
    if through_round is not None and through_round > paired:
        raise UserError(
            f"there are no standings after round {through_round}: "
            f"{counted(paired, 'round')} paired so far"
        )
    last, decided, matches = rounds_counted(results, through_round)
    rows = compute_standings(
        [team_entry(t) for t in teams.values()],
        results,
        scheme=options.match_points,
        tie_breaks=options.tie_breaks,
        late_entry=options.late_entry,
        through_round=last,
    )
    record = options.match.event_format  # its entrants' word, and whether a match may draw
    definitions = {"match points": match_points_definition(options.match_points, record.draws)}
    said = tie_break_definitions(record.entrant)
    definitions |= {tb.value: said[tb] for tb in options.tie_breaks}
    return Standings(
        tuple(StandingLine(teams[r.team_id], r) for r in rows),
        options.tie_breaks,
        definitions,
        last,
        decided,
        matches,
        record.draws,
        record.entrant,
    )


def tie_break_key(tie_break: TieBreak) -> str:
    """A tie-break's key in JSON: snake_case like every other key ("points_difference")."""
    return tie_break.value.replace("-", "_")


def standings_json(view: Standings) -> list[dict[str, object]]:
    """The rows `tandem-director standings --json` prints."""
    return [
        {
            "rank": line.row.rank,
            "team": line.team.name,
            "match_points": line.row.match_points,
            **{tie_break_key(tb): line.row.tie_breaks.get(tb) for tb in view.tie_breaks},
            "games_played": line.row.played,
        }
        for line in view.lines
    ]


def event_crosstable(session: Session) -> dict[int, dict[int, CrossCell]]:
    return crosstable(stored_results(session))


def board_statistics(session: Session) -> list[BoardTotals]:
    """Per player (team and board): games won and lost, points for and against (counted games)."""
    games: list[BoardGame] = []
    for match in list_matches(session):
        if match.round is None or match.team_b is None:
            continue
        for line in match.outcome.lines:
            if not line.counted:
                continue  # abandoned under rule 4′: not played to a result
            g = line.game
            for side, team in ((Side.A, match.team_a), (Side.B, match.team_b)):
                won = g.winner is side
                games.append(
                    BoardGame(
                        round=match.round,
                        team_id=team.id,
                        board=g.board,
                        won=won,
                        points_for=line.points if won else 0,
                        points_against=0 if won else line.points,
                    )
                )
    return board_totals(games)
