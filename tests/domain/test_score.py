"""`Score`, `Result` and `Problem`: the values every part of a match speaks in."""

from __future__ import annotations

from director.domain.rules import Side
from director.domain.score import Problem, Result, Score


def test_a_score_is_read_and_added_to_by_side() -> None:
    score = Score().plus(Side.A, 2).plus(Side.B, 1).plus(Side.A, 4)
    assert (score[Side.A], score[Side.B]) == (6, 1)
    assert score == Score(6, 1)  # a value: the additions made a new one each time
    assert Score() == Score(0, 0)


def test_a_score_is_written_as_the_formats_and_the_screen_want() -> None:
    assert Score(5, 3).as_dict() == {"A": 5, "B": 3}  # FORMATS: replay --json
    assert str(Score(5, 3)) == "5–3"


def test_results_are_the_record_format_s_words() -> None:
    assert [r.value for r in Result] == ["A", "B", "draw", "unfinished"]


def test_a_problem_names_its_game_when_it_has_one() -> None:
    assert str(Problem("cube 3 is not a power of two", 2, 1)) == (
        "pair 2, board 1: cube 3 is not a power of two"
    )
    assert str(Problem("the record has no games")) == "the record has no games"
