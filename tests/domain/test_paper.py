"""A result from paper (#24 point 5): the final score a match can end at, by its own rules."""

from __future__ import annotations

import pytest

from director.domain.match import score_match
from director.domain.paper import PaperError, game_values, paper_result
from director.domain.rules import End, Format, MatchRules, Scoring, Side
from director.domain.score import Result, Score
from director.domain.scoring import Game

TANDEM_7 = MatchRules(match_length=7)
ONE_BOARD_2 = MatchRules(match_length=2, format=Format.INDIVIDUAL)


@pytest.mark.parametrize(
    ("rules", "score", "result"),
    [
        (TANDEM_7, Score(7, 4), Result.A),
        (TANDEM_7, Score(4, 7), Result.B),
        (TANDEM_7, Score(8, 7), Result.DRAW),  # rule 4: both reached 7 in the last pair
        (TANDEM_7, Score(7, 0), Result.A),
        (TANDEM_7, Score(200, 0), Result.A),  # 6 + a backgammon on 64 (192) + a gammon
        (MatchRules(match_length=1), Score(1, 1), Result.DRAW),
        (MatchRules(match_length=1), Score(2, 0), Result.A),
        (MatchRules(match_length=5, winner_required=True), Score(2, 5), Result.B),
        (ONE_BOARD_2, Score(9, 1), Result.A),  # post-Crawford: 1–1, then 8 on a 4-cube
        (ONE_BOARD_2, Score(3, 0), Result.A),
        (MatchRules(match_length=150, scoring=Scoring.PIN_GAME), Score(150, 20), Result.A),
    ],
)
def test_a_score_a_match_can_end_at_gives_its_result(
    rules: MatchRules, score: Score, result: Result
) -> None:
    assert paper_result(rules, score) is result


@pytest.mark.parametrize(
    ("rules", "score", "reason"),
    [
        (TANDEM_7, Score(6, 6), "not over: a match to 7 ends when a team reaches 7"),
        (TANDEM_7, Score(-1, 7), "cannot be negative"),
        # the one-cube rule: a pair starting at 6 may use the cube on one board only
        (TANDEM_7, Score(390, 0), "no match to 7 ends 390–0"),
        # a pair is two games of a point or more: a match to 1 cannot end 1–0
        (MatchRules(match_length=1), Score(1, 0), "each a point or more"),
        (
            MatchRules(match_length=5, winner_required=True),
            Score(5, 6),
            "the match ends the moment a game brings a team to 5 (rule 4′, no draws)",
        ),
        (ONE_BOARD_2, Score(2, 2), "brings a player to 2 (RULES §10, no draws)"),
        (ONE_BOARD_2, Score(10, 0), "its last game cannot take it there"),  # no game scores 9 or 10
        (MatchRules(match_length=7, scoring=Scoring.CHASING_THE_GIRLS), Score(9, 3), "9–3"),
        (
            MatchRules(match_length=7, scoring=Scoring.KILLER_PIP_SQUEEZE),
            Score(7, 3),
            "enter its games at the desk",
        ),
    ],
)
def test_a_score_no_sequence_of_games_gives_is_refused_with_the_reason(
    rules: MatchRules, score: Score, reason: str
) -> None:
    with pytest.raises(PaperError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        paper_result(rules, score)


def test_the_crawford_game_has_no_cube_so_a_match_to_2_cannot_end_4_0_from_1_0() -> None:
    # 4–0 needs a 4-cube from 0–0: possible; 5–0 needs 4 from 1–0, the Crawford game: not
    assert paper_result(ONE_BOARD_2, Score(4, 0)) is Result.A
    with pytest.raises(PaperError):
        paper_result(ONE_BOARD_2, Score(5, 0))
    assert paper_result(ONE_BOARD_2, Score(5, 1)) is Result.A  # post-Crawford at 1–1


def test_a_game_scores_what_its_variant_allows() -> None:
    assert game_values(Scoring.CHASING_THE_GIRLS, True) == {1}
    assert game_values(Scoring.STANDARD, False) == {1, 2, 3}
    assert 5 not in game_values(Scoring.STANDARD, True)
    assert max(game_values(Scoring.STANDARD, True)) == 192


def test_the_scorer_takes_a_paper_score_as_the_result_with_no_games() -> None:
    outcome = score_match(TANDEM_7, (), paper=Score(7, 4))
    assert outcome.from_paper and outcome.result is Result.A
    assert outcome.final == Score(7, 4) and not outcome.lines and not outcome.problems
    assert not outcome.pair_state.match_live


def test_a_paper_score_the_rules_refuse_is_a_problem_not_a_result() -> None:
    outcome = score_match(TANDEM_7, (), paper=Score(6, 6))
    assert outcome.result is Result.UNFINISHED
    assert "not over" in str(outcome.problems[0])


def test_a_paper_score_beside_games_is_a_problem() -> None:
    game = Game(1, 1, Side.A, End.BEAR_OFF)
    outcome = score_match(TANDEM_7, (game,), paper=Score(7, 4))
    assert "has no games" in str(outcome.problems[0])
