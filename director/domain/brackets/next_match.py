"""A player's next match and where they go if they lose it (RULES §11), for the phones' "my
next match" and the draw sheet's notes.

How the rest calls it: the phones' page for a player and the desk ask
`next_match(progress, player)` on the `Progress` the rounds service computed; `match` is the
match they play now (`ready`) or wait for, `if_lost` the match a loss sends them to (another
bracket's slot, or the play-off for third), None when a loss ends their night, and
`if_lost_against` who already waits in that slot. None there means nobody is known yet: the
match feeding the other seat is not over, and it may send nobody (a bye, a withdrawal), so the
phones say the opponent is to be decided, maybe a bye, and promise no match beyond the slot.
"""

from __future__ import annotations

from dataclasses import dataclass

from director.domain.brackets.draw import (
    FIRST_LOSER,
    LATER_LOSER,
    LOSER,
    MatchKey,
    Progress,
    Status,
)


@dataclass(frozen=True, slots=True)
class NextMatch:
    match: MatchKey | None  # None: nothing left to play
    ready: bool  # the opponent is known: play now
    if_lost: MatchKey | None
    if_lost_against: int | None = None  # already in the if_lost slot; None: not known yet


def next_match(progress: Progress, player: int) -> NextMatch:
    draw = progress.draw
    for k in range(len(draw.nodes)):
        status, seated = progress.of_index(k)
        if status in (Status.READY, Status.WAITING) and player in seated:
            target = _if_lost(progress, player, k)
            waiting = None
            if target is not None:  # the slot's other seat: its player is there, or not yet
                waiting = next((p for p in progress.players[target] if p is not None), None)
            key = draw.nodes[target].key if target is not None else None
            return NextMatch(draw.nodes[k].key, status is Status.READY, key, waiting)
    return NextMatch(None, False, None)


def _if_lost(progress: Progress, player: int, k: int) -> int | None:
    draw = progress.draw
    node = draw.nodes[k]
    if node.final:
        return None
    bracket = node.key.bracket
    took = {(kind, arg): i for i, n in enumerate(draw.nodes) for kind, arg in n.inputs}
    if (LOSER, k) in took:  # a semi-final with a play-off
        return took[LOSER, k]
    won_here = any(
        progress.status[i] is Status.DONE and progress.winner[i] == player
        for i, n in enumerate(draw.nodes)
        if n.key.bracket == bracket
    )
    first = [j for j in draw.round_nodes(bracket, 1) if player in progress.players[j]]
    if first and not won_here:  # a round-1 loser, byes before or not
        target = took.get((FIRST_LOSER, first[0]))
    else:
        target = took.get((LATER_LOSER, k))
    return target
