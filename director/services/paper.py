"""Results from paper: a round's final match scores typed from the scoresheets (#24 point 5).

The round's result grid (`ui/result_grid.py`) and the `result` command type a table's final
score without its games. `paper_refusal` says why a match's result cannot be typed so (a
bye, a forfeit, games played at the desk); `enter_paper_result` checks the score against the
match's rules (`domain/paper.py`), writes it as the match's stored result and audits it, one
table per call, so each table is saved in its own transaction.

How it is kept: a match of two teams with no games, no forfeit and no loss on time whose
stored result is a win or a draw is a result from paper (`store.convert.paper_score`); no
column of its own is needed. The standings, crosstable, ratings and phones read the stored
result as for any match; game-level figures have no games to count.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from director.domain.changes import Changed, Changes
from director.domain.errors import UserError
from director.domain.event import MatchInfo
from director.domain.paper import paper_result
from director.domain.score import Score
from director.domain.wording import counted
from director.services import audit
from director.services.events import rounds_paired
from director.services.matches import check_version, claim, get_match, match_row, store_outcome
from director.store.values import StoredResult

ACTION = "paper result"


def paper_refusal(info: MatchInfo) -> str:
    """Why this match's final score cannot be typed from paper ('' when it can)."""
    if info.is_bye:
        return "a bye: no match was played"
    if info.forfeit_by is not None:
        return "a forfeit (no-show): undo the forfeit first to type a score"
    if info.outcome.lost_on_time is not None:
        return "lost on time at the desk: undo it there first"
    if info.games:
        played = counted(len(info.games), "game")
        return f"played game by game at the desk ({played}): correct it there"
    return ""


def enter_paper_result(
    session: Session, match_id: int, score: Score | None, *, version: int | None = None
) -> Changed[MatchInfo]:
    """Type the match's final score from its paper scoresheet (None clears a paper result)."""
    row = match_row(session, match_id)
    check_version(row, version)
    claim(session, row)
    info = get_match(session, match_id)
    refusal = paper_refusal(info)
    if refusal:
        raise UserError(refusal)
    before = _stored(info)
    if score is None:
        if before is None:
            raise UserError("this match has no result from paper to clear")
        last = rounds_paired(session)
        if info.round is not None and info.round < last:
            raise UserError(
                f"round {info.round} is over (round {last} is paired): type its right score"
            )
        row.result = StoredResult.UNFINISHED.value
        row.score_a = row.score_b = row.final_a = row.final_b = 0
    else:
        result = paper_result(info.rules, score)
        row.result = result.value
        row.score_a, row.score_b = score.a, score.b
    session.flush()
    fresh = get_match(session, match_id)
    store_outcome(row, fresh.outcome)
    after = _stored(fresh)
    audit.log(session, ACTION, f"match {match_id}", before, after, "typed from the scoresheet")
    session.flush()
    return Changed(get_match(session, match_id), Changes.match(match_id))


def _stored(info: MatchInfo) -> dict[str, object] | None:
    """What the audit keeps of a result from paper: the score and the result."""
    if not info.outcome.from_paper or not info.outcome.finished:
        return None
    score = info.outcome.score
    return {"A": score.a, "B": score.b, "result": info.outcome.result.value}
