"""How the desk words a match's state: sides, players, result, final score."""

from __future__ import annotations

from collections.abc import Callable

from director.domain.event import MatchInfo
from director.domain.match import MatchOutcome, Result
from director.domain.rules import Side
from director.domain.wording import isolated


def side_name(match: MatchInfo, side: Side) -> str:
    return match.names[0] if side is Side.A else match.names[1]


def board_players(match: MatchInfo, board: int) -> tuple[str, str]:
    """The two players of a board: A1 v B1 or A2 v B2."""
    b = match.team_b.player(board) if match.team_b else "—"
    return match.team_a.player(board), b


def board_sides(
    match: MatchInfo, board: int, shorten: Callable[[str], str] = str
) -> tuple[str, str]:
    """'Ana (Blue Bar)' for side A and B of a board; `shorten` cuts each name. A one-board
    match's players are its entrants (RULES §10): just 'Ana'."""
    a, b = (isolated(shorten(name)) for name in board_players(match, board))
    if match.rules.event_format.one_board:
        return a, b
    name_a, name_b = (isolated(shorten(name)) for name in match.names)
    return f"{a} ({name_a})", f"{b} ({name_b})"


def seat(match: MatchInfo, side: Side, board: int) -> str:
    """Where a player sits: 'A1' on board 1 of a Tandem match, 'A' in a one-board match."""
    return side.value if match.rules.event_format.one_board else f"{side.value}{board}"


def unit_title(match: MatchInfo, number: int) -> str:
    """'Pair 3' or 'Game 3': what the match is a sequence of, as its format says."""
    return f"{match.rules.event_format.unit.capitalize()} {number}"


def result_text(outcome: MatchOutcome, names: tuple[str, str]) -> str:
    """'Blue Bar wins 5–3', 'draw 5–6', with the pip-squeeze adjustment when there is one."""
    if not outcome.finished:
        return "in play"
    final = outcome.final
    if outcome.result is Result.DRAW:
        head = f"Draw, {final}"
    else:
        winner = names[0] if outcome.result is Result.A else names[1]
        head = f"{isolated(winner)} wins {final}"
    if outcome.rules.scoring.variant.squeeze is not None:
        head += (
            f" (game points {outcome.score}, pip points {outcome.pip_points},"
            f" extra game points {outcome.extra})"
        )
    return head
