"""A result from paper: a match's final score typed without its games (#24 point 5).

Paper scoresheets come to the desk at the end of a round; the director types each table's
final score. The score must be one the match can end at under its own rules (RULES §3, §4,
§6, §10): `paper_result` gives the result it means (who won, or a draw), or refuses it with
the reason. A score no sequence of games can give is refused, not guessed at: the last pair
(Tandem, rule 4) or game (rule 4′, one board) must take the match from below N to exactly
that score with games the match's scoring and cube rules allow.

The match keeps no games: its standings, crosstable and rating count it, its game-level
figures (games, cubes, boards) are absent.
"""

from __future__ import annotations

from functools import cache

from director.domain.cube import CubeRegime, unit_cube_rule
from director.domain.errors import UserError
from director.domain.rules import CHECKERS, MAX_CUBE, MatchRules, Scoring, Side, Stake
from director.domain.score import Result, Score

MAX_PIPS = CHECKERS * 25  # a checker is at most 25 pips from home (RULES §2)
PIP_GAMMON = 15  # the fewest pips a gammon leaves, and a time forfeit with none off (§2)


class PaperError(UserError):
    """A score that cannot be a match's final score, with the reason."""


@cache
def game_values(scoring: Scoring, cube: bool) -> frozenset[int]:
    """The points one game can score under this scoring, with the cube used or not."""
    variant = scoring.variant
    levels = (1, 2, 3) if variant.has_levels else (1,)
    if variant.stake is Stake.ONE_POINT:
        return frozenset({1})
    if variant.stake is Stake.PIP_COUNT:  # RULES §6.4: × 2 and × 3 need 15 pips at least
        values = set(range(1, MAX_PIPS + 1))
        values |= {2 * p for p in range(PIP_GAMMON, MAX_PIPS + 1)}
        values |= {3 * p for p in range(PIP_GAMMON, MAX_PIPS + 1)}
        return frozenset(values)
    cubes = [1 << k for k in range(MAX_CUBE.bit_length())] if cube and variant.has_cube else [1]
    return frozenset(c * level for c in cubes for level in levels)


@cache
def _two_games(scoring: Scoring, cubes: int) -> frozenset[int]:
    """The points two games can score together, `cubes` of them (0–2) using the cube."""
    plain, used = game_values(scoring, False), game_values(scoring, True)
    first = used if cubes >= 1 else plain
    second = used if cubes >= 2 else plain
    return frozenset(x + y for x in first for y in second)


def paper_result(rules: MatchRules, score: Score) -> Result:
    """The result a final score typed from paper means; `PaperError` with the reason when no
    match under these rules can end at it."""
    n = rules.match_length
    entrant = rules.event_format.entrant
    if score.a < 0 or score.b < 0:
        raise PaperError("a score cannot be negative")
    variant = rules.scoring.variant
    if variant.squeeze is not None:
        raise PaperError(
            f"a {variant.label.lower()} match's result comes from its games' pip points "
            f"(RULES {variant.section}): enter its games at the desk"
        )
    reached = [side for side in Side if score[side] >= n]
    if not reached:
        raise PaperError(f"not over: a match to {n} ends when a {entrant} reaches {n}")
    one_game_ends = rules.winner_required or not rules.event_format.pair_end_rules
    if len(reached) == 2 and one_game_ends:
        why = "rule 4′" if rules.event_format.pair_end_rules else "RULES §10"
        raise PaperError(
            f"both {entrant}s at {n} or more: the match ends the moment a game brings a "
            f"{entrant} to {n} ({why}, no draws)"
        )
    if one_game_ends:
        if not _last_game_gives(rules, score, reached[0]):
            raise PaperError(_unreachable(rules, score, "its last game"))
        return Result(reached[0].value)
    if not _last_pair_gives(rules, score):
        last = "its last pair (two games, each a point or more)"
        raise PaperError(_unreachable(rules, score, last))
    return Result.DRAW if len(reached) == 2 else Result(reached[0].value)


def _unreachable(rules: MatchRules, score: Score, last: str) -> str:
    n = rules.match_length
    return (
        f"no match to {n} ends {score.a}–{score.b}: {last} cannot take it there from below "
        f"{n} ({rules.scoring.variant.label.lower()} scoring, RULES §3)"
    )


def _may_use_cube(rules: MatchRules, start: Score, *, played: bool = False) -> CubeRegime:
    return unit_cube_rule(rules, start.a, start.b, crawford_played=played).regime


def _last_game_gives(rules: MatchRules, score: Score, winner: Side) -> bool:
    """Rule 4′ or a one-board match: a game from below N (the loser's score unchanged)."""
    n = rules.match_length
    plain, used = game_values(rules.scoring, False), game_values(rules.scoring, True)
    for value in used:
        before = score.plus(winner, -value)
        if not 0 <= before[winner] < n:
            continue
        if value in plain or _cube_allowed_before(rules, before):
            return True
    return False


def _cube_allowed_before(rules: MatchRules, before: Score) -> bool:
    """May the game that starts at `before` use the cube, in some history of the match?"""
    n = rules.match_length
    if not rules.event_format.pair_end_rules:  # RULES §10: the Crawford game, once
        # post-Crawford needs the trailer to have won the Crawford game: a point at least
        played = max(before.a, before.b) == n - 1 and min(before.a, before.b) >= 1
        return any(
            _may_use_cube(rules, before, played=p) is not CubeRegime.NO_CUBE
            for p in {False, played}
        )
    # rule 4′: the game may start its pair, or follow a game of its pair that used no cube
    starts = [before] + [
        before.plus(side, -v)
        for side in Side
        for v in game_values(rules.scoring, False)
        if before[side] - v >= 0
    ]
    return any(_may_use_cube(rules, s) is not CubeRegime.NO_CUBE for s in starts)


def _last_pair_gives(rules: MatchRules, score: Score) -> bool:
    """Rule 4: a complete pair of two games from a pair start below N on both sides. A pair
    start is 0–0 or at least 2 points in (every pair's two games score a point or more)."""
    n = rules.match_length
    most = max(game_values(rules.scoring, True)) * 2
    for a in range(min(score.a, n - 1), max(-1, score.a - most - 1), -1):
        for b in range(min(score.b, n - 1), max(-1, score.b - most - 1), -1):
            if (a, b) != (0, 0) and a + b < 2:
                continue
            regime = _may_use_cube(rules, Score(a, b))
            cubes = {CubeRegime.FREE: 2, CubeRegime.ONE_CUBE: 1}.get(regime, 0)
            if _pair_gives(rules.scoring, cubes, score.a - a, score.b - b):
                return True
    return False


def _pair_gives(scoring: Scoring, cubes: int, gain_a: int, gain_b: int) -> bool:
    if gain_a and gain_b:  # one game each
        plain, used = game_values(scoring, False), game_values(scoring, True)
        if cubes == 0:
            return gain_a in plain and gain_b in plain
        if cubes == 1:
            return (gain_a in plain and gain_b in used) or (gain_a in used and gain_b in plain)
        return gain_a in used and gain_b in used
    return (gain_a or gain_b) in _two_games(scoring, cubes)
