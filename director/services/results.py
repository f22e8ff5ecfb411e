"""Matches and their results: one import for the pages and commands that use them all.

The homes: `matches` (reads, create, the stored scoreline), `games` (record, correct, undo,
import, forfeit), `live_cube` (offer, take, withdraw). The rules are the domain's: a pass is
`PairState.pass_game`, what may be recorded is `PairState.problems_of`.
"""

from __future__ import annotations

from director.domain.errors import ConflictError
from director.domain.event import MatchInfo
from director.domain.scoring import Game
from director.services.games import (
    correct_game,
    correction,
    record_game,
    record_games,
    set_forfeit,
    undo_last_game,
)
from director.services.live_cube import cube_action
from director.services.matches import (
    CHANGED_ELSEWHERE,
    create_match,
    get_match,
    list_matches,
    new_match_row,
    rescore_match,
    stored_differences,
)

__all__ = [
    "CHANGED_ELSEWHERE",
    "ConflictError",
    "MatchInfo",
    "correct_game",
    "correction",
    "create_match",
    "cube_action",
    "get_match",
    "list_matches",
    "new_match_row",
    "pass_game",
    "record_game",
    "record_games",
    "rescore_match",
    "set_forfeit",
    "stored_differences",
    "undo_last_game",
]


def pass_game(match: MatchInfo, board: int) -> Game:
    """The game a pass on this board ends (the domain's rule: `PairState.pass_game`)."""
    return match.pair_state.pass_game(board)
