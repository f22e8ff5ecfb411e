"""The live cube at the desk: offer, take, withdraw (RULES §2, §4).

Whether a board may double is the domain's answer (`PairState.may_double`); this module only
keeps each board's cube while its game is played, so it survives a crash of the desk.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from director.domain.changes import Changed, Changes
from director.domain.errors import UserError
from director.domain.event import MatchInfo
from director.domain.rules import Side
from director.domain.wording import quoted
from director.services.matches import check_version, claim, get_match, match_row, pair_row
from director.store import convert


def cube_action(
    session: Session,
    match_id: int,
    board: int,
    action: str,
    side: Side | None = None,
    *,
    version: int | None = None,
) -> Changed[MatchInfo]:
    """The live cube at the desk: `offer` (by side), `take`, `withdraw`.

    A pass ends the game: the desk records the game `PairState.pass_game` gives. A withdrawn
    offer (a mis-click) never happened: the pair's cube board is derived without it.
    """
    row = match_row(session, match_id)
    check_version(row, version)
    claim(session, row)  # two desks on one cube: the second is told, not silently overruled
    info = get_match(session, match_id)
    cube = info.cubes.of(board)
    if action == "offer":
        if side is None:
            raise UserError("an offer needs the doubling side")
        allowed, reason = info.may_double(board)
        if not allowed:
            raise UserError(reason)
        cube = cube.offer(side)
    elif action == "take":
        cube = cube.take()
    elif action == "withdraw":
        cube = cube.withdraw()
    else:
        raise UserError(f"unknown cube action {quoted(action)}")
    convert.write_cube(pair_row(session, row, info.outcome.current_pair), board, cube)
    session.flush()
    return Changed(get_match(session, match_id), Changes.match(match_id))
