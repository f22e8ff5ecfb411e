"""How the desk words a match's state: sides, players, result, final score."""

from __future__ import annotations

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


def board_sides(match: MatchInfo, board: int) -> tuple[str, str]:
    """'Ana (Blue Bar)' for side A and B of a board."""
    a, b = board_players(match, board)
    name_a, name_b = (isolated(name) for name in match.names)
    return f"{isolated(a)} ({name_a})", f"{isolated(b)} ({name_b})"


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
