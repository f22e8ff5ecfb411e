"""A match's games: record, correct, undo, import several at once, a forfeit.

Every change goes through the domain's `score_match` before it is written: a game the rule
book forbids is refused in the words `replay` uses (pair, board, the rule), and nothing is
written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, replace

from sqlalchemy.orm import Session

from director.domain.changes import Changed, Changes
from director.domain.correction import Correction, correct
from director.domain.cube import Cube
from director.domain.errors import ConflictError, UserError
from director.domain.event import MatchInfo
from director.domain.match import MatchOutcome, score_match
from director.domain.rules import Side
from director.domain.scoring import Game
from director.domain.wording import counted
from director.services import audit, clocks
from director.services.matches import (
    CHANGED_ELSEWHERE,
    check_version,
    claim,
    get_match,
    match_row,
    pair_row,
    result_taken_back,
    store_outcome,
)
from director.store import convert, models


def _checked(info: MatchInfo, games: tuple[Game, ...]) -> MatchOutcome:
    """The match scored with these games and the live cubes of the pair being played."""
    live = {info.outcome.current_pair: info.cubes}
    lost = info.outcome.lost_on_time
    outcome = score_match(info.rules, games, info.names, live, lost_on_time=lost)
    if outcome.problems:
        raise UserError("; ".join(str(p) for p in outcome.problems))
    return outcome


def _playable(info: MatchInfo) -> None:
    if info.is_bye or info.forfeit_by is not None:
        raise UserError("this match is a bye or a forfeit: it has no games")
    if info.outcome.from_paper and info.outcome.finished:
        raise UserError(
            f"its result {info.outcome.score} was typed from paper: clear it in the round's "
            "result grid (Enter results…) before recording games"
        )


def check_game(info: MatchInfo, game: Game) -> tuple[Game, MatchOutcome]:
    """What `record_game` checks before it writes, reading nothing: the match takes games, it
    is not over, and the rules accept `game` as its next one (refused in the desk's words).
    The game with the pair being played, and the match's outcome with it."""
    _playable(info)
    if not info.pair_state.match_live:
        raise UserError(f"the match is over ({info.outcome.result}): no more games")
    game = replace(game, pair=info.pair_state.number)
    return game, _checked(info, (*info.games, game))


def record_game(
    session: Session,
    match_id: int,
    game: Game,
    *,
    version: int | None = None,
    clock_ns: tuple[int | None, int | None] = (None, None),
    read: MatchInfo | None = None,
) -> Changed[MatchInfo]:
    """Record the next finished game of a match. `game.pair` is taken from the match.

    `read`: the match as the caller read it in this transaction. It is used instead of a read
    of its own when its version is the row's as the claim takes it: the claim's
    `UPDATE ... WHERE version` then proves nothing changed the match since (a change made
    after `read` was built moved the version, and the claim is refused)."""
    row = match_row(session, match_id)
    check_version(row, version)
    known = read if read is not None and (read.id, read.version) == (row.id, row.version) else None
    claim(session, row)  # before reading the games: they cannot change under us after it
    info = known or get_match(session, match_id)
    game, outcome = check_game(info, game)
    pair = pair_row(session, row, game.pair)
    seq = max((g.seq for g in row.games), default=0) + 1  # the claimed match's games
    game_row = models.Game(pair_id=pair.id, seq=seq, clock_seq=clocks.next_seq(session, row.id))
    convert.write_game(game_row, game)
    game_row.clock_a_ns, game_row.clock_b_ns = clock_ns
    row.games.append(game_row)
    convert.write_cube(pair, game.board, Cube())  # the board's game is over: its live cube too
    store_outcome(row, outcome)
    session.flush()
    return Changed(_read_again(row, info), Changes.match(match_id))


def _read_again(row: models.Match, before: MatchInfo) -> MatchInfo:
    """The match as `get_match` reads it after a change of its games in this transaction
    (`before`: as read before the change): its teams and round are `before`'s, not read again."""
    teams = {t.id: t for t in (before.team_a, before.team_b) if t is not None}
    return convert.match_info(row, teams, before.round)


def correct_game(
    session: Session,
    game_id: int,
    corrected: Game,
    reason: str,
    *,
    version: int | None = None,
    voids: Sequence[int] = (),
) -> Changed[MatchInfo]:
    """Replace a recorded game; the whole match is re-checked and the change audited.

    A correction that ends the match sooner voids the games recorded after the new end
    (`domain.correction`): the caller names them in `voids` (the ids the director was shown),
    and they are removed with the correction in the same audited change. A correction that
    would void other games than those named is refused, naming them."""
    if not reason.strip():
        raise UserError("a correction needs a reason for the audit log")
    found = session.get(models.Game, game_id)
    if found is None:
        if version is not None:
            # it was on screen: another station undid it (in a match this cannot tell)
            raise ConflictError(CHANGED_ELSEWHERE)
        raise UserError(f"there is no game {game_id}")
    row = match_row(session, found.match_id)
    check_version(row, version)
    claim(session, row)
    # read the game again now that the match is ours: another station may have changed it
    game_row = session.get(models.Game, game_id, populate_existing=True)
    if game_row is None:
        raise ConflictError(CHANGED_ELSEWHERE, Changes.match(row.id))
    info = get_match(session, row.id)
    before = convert.game_value(game_row)
    corrected = replace(corrected, pair=before.pair, board=before.board)
    fixed = correction(info, game_id, corrected)
    if fixed.problems:
        raise UserError("; ".join(fixed.problems))
    voided = [info.game_ids[i] for i in fixed.voided]
    if set(voided) != set(voids):
        raise UserError(
            "this correction ends the match sooner: it voids the later games "
            f"{fixed.voided_text(info.names)}; confirm voiding them to save it"
            if voided
            else "the games this correction was to void are no longer after the end of the match"
        )
    convert.write_game(game_row, corrected)
    note = reason.strip()
    if voided:
        note += f"; voids {counted(len(voided), 'later game')}: "
        note += fixed.voided_text(info.names)
    audit.log(
        session,
        "correct game",
        f"match {row.id} game {game_id}",
        asdict(before),
        asdict(corrected),
        note,
    )
    _void(session, row, voided, f"voided by the correction of game {game_id}: {reason.strip()}")
    store_outcome(row, fixed.outcome)
    session.flush()
    return Changed(get_match(session, row.id), Changes.match(row.id))


def correction(info: MatchInfo, game_id: int, corrected: Game) -> Correction:
    """What correcting this game does to the match (the domain's answer): its outcome and the
    later games it voids. The desk shows it before saving; `correct_game` writes it."""
    index = info.game_ids.index(game_id)
    original = info.games[index]
    corrected = replace(corrected, pair=original.pair, board=original.board)
    live = {info.outcome.current_pair: info.cubes}
    lost = info.outcome.lost_on_time
    return correct(info.rules, info.games, index, corrected, info.names, live, lost)


def _void(session: Session, row: models.Match, game_ids: Sequence[int], reason: str) -> None:
    """Remove voided games (each audited) and the pairs they leave empty."""
    for game_id in game_ids:
        game_row = next(g for g in row.games if g.id == game_id)
        game = convert.game_value(game_row)
        row.games.remove(game_row)
        target = f"match {row.id} game {game_id}"
        audit.log(session, "void game", target, asdict(game), None, reason)
    session.flush()
    left = {g.pair_number for g in row.games}
    for pair in [p for p in row.pairs if p.number not in left]:
        row.pairs.remove(pair)


def record_lost_on_time(
    session: Session, match_id: int, loser: Side, *, version: int | None = None
) -> Changed[MatchInfo]:
    """RULES §10: `loser`'s match reserve ran out: an individual match is lost on time after
    the games recorded, the winner's score raised to the match's length. (A Tandem flag loses
    a game, rule 5: it is recorded as the game's end.) `undo_last_game` takes it back."""
    row = match_row(session, match_id)
    check_version(row, version)
    claim(session, row)
    info = get_match(session, match_id)
    _playable(info)
    if not info.pair_state.match_live:
        raise UserError(f"the match is over ({info.outcome.result}): nobody can lose it on time")
    live = {info.outcome.current_pair: info.cubes}
    outcome = score_match(info.rules, info.games, info.names, live, lost_on_time=loser)
    if outcome.problems:
        raise UserError("; ".join(str(p) for p in outcome.problems))
    row.lost_on_time = loser.value
    store_outcome(row, outcome)
    audit.log(session, "lost on time", f"match {match_id}", None, {"lost_on_time": loser.value})
    session.flush()
    return Changed(get_match(session, match_id), Changes.match(match_id))


def undo_last_game(
    session: Session, match_id: int, reason: str = "undo", *, version: int | None = None
) -> Changed[MatchInfo]:
    """Take back what was recorded last: a match lost on time (RULES §10), else its last game."""
    row = match_row(session, match_id)
    check_version(row, version)
    if row.lost_on_time is not None:
        claim(session, row)
        lost = row.lost_on_time
        row.lost_on_time = None
        result_taken_back(row)
        session.flush()
        store_outcome(row, get_match(session, match_id).outcome)
        audit.log(
            session, "undo lost on time", f"match {match_id}", {"lost_on_time": lost}, None, reason
        )
        session.flush()
        return Changed(get_match(session, match_id), Changes.match(match_id))
    if not row.games:
        raise UserError("this match has no game to undo")
    claim(session, row)
    last = row.games[-1]
    before = convert.game_value(last)
    row.games.remove(last)
    result_taken_back(row)
    session.flush()
    info = get_match(session, match_id)
    pair = next((p for p in row.pairs if p.number == before.pair), None)
    if pair is not None and not any(g.pair == before.pair for g in info.games):
        row.pairs.remove(pair)
    store_outcome(row, info.outcome)
    audit.log(session, "undo game", f"match {match_id}", asdict(before), None, reason)
    session.flush()
    return Changed(get_match(session, match_id), Changes.match(match_id))


def record_games(session: Session, match_id: int, games: Sequence[Game]) -> Changed[MatchInfo]:
    """Record several finished games at once (an import, a simulation), validated as a whole.

    The games keep their own pair numbers and follow the match's recorded games; a game
    abandoned under rule 4′ is kept (it scores nothing), so a match record round-trips.
    """
    row = match_row(session, match_id)
    claim(session, row)
    info = get_match(session, match_id)
    _playable(info)
    outcome = _checked(info, (*info.games, *games))
    seq = max((g.seq for g in row.games), default=0)
    clock_seq = clocks.next_seq(session, row.id)
    for game in games:
        pair = pair_row(session, row, game.pair)
        seq += 1
        game_row = models.Game(pair_id=pair.id, seq=seq, clock_seq=clock_seq)
        convert.write_game(game_row, game)
        row.games.append(game_row)
    store_outcome(row, outcome)
    session.flush()
    return Changed(get_match(session, match_id), Changes.match(match_id))


def set_forfeit(
    session: Session, match_id: int, absent: Side | None, reason: str
) -> Changed[MatchInfo]:
    """A team that did not show loses 0-0 (None clears it)."""
    row = match_row(session, match_id)
    if row.games and absent is not None:
        raise UserError("games are recorded in this match: it cannot be a forfeit")
    row.forfeit_by = absent.value if absent else None
    if absent is None:
        result_taken_back(row)
    info = get_match(session, match_id)
    store_outcome(row, info.outcome)
    audit.log(session, "forfeit", f"match {match_id}", None, row.forfeit_by, reason)
    session.flush()
    return Changed(get_match(session, match_id), Changes.match(match_id))
