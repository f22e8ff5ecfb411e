"""RULES §3: a correction that ends the match sooner voids the games recorded after the end."""

from __future__ import annotations

from director.domain.correction import correct
from director.domain.match import Result, Score
from director.domain.rules import End, Level, MatchRules, Side
from director.domain.scoring import Game

A, B = Side.A, Side.B


def win(pair: int, board: int, winner: Side, level: Level = Level.SINGLE) -> Game:
    return Game(pair, board, winner, End.BEAR_OFF, cube=1, level=level)


# a match to 3: A leads 2-0 after pair 1, B wins pair 2 (2-2), A wins pair 3 (4-2)
GAMES = (
    win(1, 1, A),
    win(1, 2, A),
    win(2, 1, B),
    win(2, 2, B),
    win(3, 1, A),
    win(3, 2, A),
)


def test_a_correction_that_ends_the_match_sooner_voids_the_later_pairs() -> None:
    rules = MatchRules(match_length=3)
    # pair 1 board 1 was really a gammon: A has 3 after pair 1 and wins there (rule 4)
    fixed = correct(rules, GAMES, 0, win(1, 1, A, Level.GAMMON))
    assert fixed.voided == (2, 3, 4, 5)
    assert fixed.games == (win(1, 1, A, Level.GAMMON), GAMES[1])
    assert fixed.problems == []
    assert fixed.outcome.result is Result.A
    assert fixed.outcome.score == Score(3, 0)


def test_under_rule_4_the_other_game_of_the_deciding_pair_is_kept() -> None:
    rules = MatchRules(match_length=3)
    # pair 1 board 2 finished second: correcting board 1 (finished first) still keeps it
    games = (GAMES[1], GAMES[0], *GAMES[2:])
    fixed = correct(rules, games, 0, win(1, 2, A, Level.GAMMON))
    assert fixed.voided == (2, 3, 4, 5)
    assert len(fixed.games) == 2


def test_under_rule_4_prime_the_abandoned_game_of_the_deciding_pair_stays_in_the_record() -> None:
    rules = MatchRules(match_length=3, winner_required=True)
    games = (win(1, 1, A), win(1, 2, B), win(2, 1, A), win(2, 2, A))
    fixed = correct(rules, games, 0, win(1, 1, A, Level.BACKGAMMON))
    assert fixed.voided == (2, 3)
    assert [line.counted for line in fixed.outcome.lines] == [True, False]
    assert fixed.outcome.result is Result.A


def test_a_correction_that_does_not_end_the_match_voids_nothing() -> None:
    rules = MatchRules(match_length=3)
    fixed = correct(rules, GAMES, 5, win(3, 2, A, Level.GAMMON))
    assert fixed.voided == ()
    assert fixed.games == (*GAMES[:5], win(3, 2, A, Level.GAMMON))
    assert fixed.outcome.score == Score(5, 2)


def test_a_correction_breaking_another_rule_is_still_a_problem_not_a_void() -> None:
    rules = MatchRules(match_length=3)
    # pair 3 starts at 2-2 (a one-cube pair): a correction giving board 2 a doubled game
    # too breaks RULES §4, which is refused, never voided
    games = (*GAMES[:4], Game(3, 1, A, End.BEAR_OFF, cube=2, level=Level.SINGLE), GAMES[5])
    fixed = correct(rules, games, 5, Game(3, 2, A, End.BEAR_OFF, cube=2, level=Level.SINGLE))
    assert fixed.voided == ()
    assert any("both boards" in p for p in fixed.problems)
