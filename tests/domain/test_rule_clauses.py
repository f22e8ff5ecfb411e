"""RULES clauses that had no test of their own: §4 threshold 1 with no cube at 1-away, §5′ as
an option, §6 rule 4′, time and resign in both pip squeezes."""

from __future__ import annotations

import pytest

from director.domain.cube import CubeRegime, pair_cube_rule
from director.domain.match import Result, Score, score_match
from director.domain.rules import End, Level, MatchRules, Scoring, Side
from director.domain.scoring import Game, game_points, pip_points

A, B = Side.A, Side.B
SIMPLE, KILLER = Scoring.SIMPLE_PIP_SQUEEZE, Scoring.KILLER_PIP_SQUEEZE


def test_rules_4_threshold_1_with_no_cube_at_1_away() -> None:
    rules = MatchRules(match_length=5, one_cube_threshold=1, no_cube_at_one_away=True)
    assert pair_cube_rule(rules, 3, 0).regime is CubeRegime.FREE  # 2-away: free at threshold 1
    no_cube = pair_cube_rule(rules, 4, 0)
    assert no_cube.regime is CubeRegime.NO_CUBE
    assert "no cube at 1-away: team A is 1-away" in no_cube.reason
    games = [Game(1, 1, A, End.BEAR_OFF, cube=2, level=Level.GAMMON), Game(1, 2, B, End.PASS)]
    games.append(Game(2, 2, B, End.PASS, cube=1))  # 4-1: pair 2 starts with A 1-away
    [problem] = score_match(rules, games).problems
    assert (problem.pair, problem.board) == (2, 2) and "no cube at 1-away" in problem.text


def test_rules_5_prime_is_an_option_of_the_match_rules() -> None:
    agreed = Game(1, 1, A, End.TIME, cube=2, loser_borne_off=0, agreed_level=Level.GAMMON)
    on = score_match(MatchRules(agreed_lower_forfeit=True), [agreed])
    assert on.problems == () and on.score == Score(4, 0)
    [problem] = score_match(MatchRules(agreed_lower_forfeit=False), [agreed]).problems
    assert str(problem) == (
        "pair 1, board 1: this event does not apply rule 5′: an agreed level is refused (RULES §5)"
    )


@pytest.mark.parametrize("scoring", [SIMPLE, KILLER])
def test_rules_6_rule_4_prime_in_a_pip_squeeze_the_abandoned_game_scores_no_pip_points(
    scoring: Scoring,
) -> None:
    rules = MatchRules(match_length=2, scoring=scoring, winner_required=True, one_cube_threshold=1)
    first = Game(1, 1, A, End.RESIGN, level=Level.GAMMON, winner_left=5, loser_left=15)
    abandoned = Game(1, 2, B, End.RESIGN, level=Level.GAMMON, winner_left=3, loser_left=15)
    outcome = score_match(rules, [first, abandoned])
    assert outcome.problems == ()
    assert [line.counted for line in outcome.lines] == [True, False]
    assert outcome.lines[1].pip_points == 0
    per_game = 10 if scoring is SIMPLE else 10 * 2
    assert outcome.pip_points == Score(per_game, 0)
    assert outcome.result is Result.A


@pytest.mark.parametrize(
    ("scoring", "game", "points", "pips"),
    [
        # time: 3 × cube with nothing borne off; pips = loser left - winner left
        (SIMPLE, Game(1, 1, A, End.TIME, cube=2, loser_borne_off=0, winner_left=6, loser_left=15),
         6, 9),
        (KILLER, Game(1, 1, A, End.TIME, cube=2, loser_borne_off=0, winner_left=6, loser_left=15),
         6, 9 * 6),
        # time with checkers borne off: 1 × cube
        (SIMPLE, Game(1, 1, A, End.TIME, cube=1, loser_borne_off=5, winner_left=2, loser_left=10),
         1, 8),
        (KILLER, Game(1, 1, A, End.TIME, cube=1, loser_borne_off=5, winner_left=2, loser_left=10),
         1, 8),
        # rule 5′ in a pip squeeze: the agreed level's points multiply the killer pips
        (KILLER, Game(1, 1, A, End.TIME, cube=1, loser_borne_off=0, agreed_level=Level.SINGLE,
                      winner_left=3, loser_left=15), 1, 12),
        # resign: cube × conceded level; position ignored
        (SIMPLE, Game(1, 1, B, End.RESIGN, cube=2, level=Level.SINGLE, winner_left=9,
                      loser_left=4), 2, -5),
        (KILLER, Game(1, 1, B, End.RESIGN, cube=2, level=Level.SINGLE, winner_left=9,
                      loser_left=4), 2, -10),
        (KILLER, Game(1, 1, B, End.RESIGN, cube=1, level=Level.BACKGAMMON, winner_left=1,
                      loser_left=15), 3, 42),
    ],
)  # fmt: skip
def test_rules_6_time_and_resign_in_both_pip_squeezes(
    scoring: Scoring, game: Game, points: int, pips: int
) -> None:
    assert score_match(MatchRules(match_length=25, scoring=scoring), [game]).problems == ()
    assert game_points(scoring, game) == points
    assert pip_points(scoring, game) == pips
