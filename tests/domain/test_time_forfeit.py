"""RULES §5: the proposal a flag fall opens, as the pair state gives it."""

from __future__ import annotations

from director.domain.match import score_match
from director.domain.pair_state import first_pair
from director.domain.rules import End, MatchRules, Scoring, Side
from director.domain.scoring import Game

NAMES = ("Blue Bar", "Gammonites")


def test_rules_5_the_flagged_side_loses_on_the_live_cube_nothing_borne_off() -> None:
    game = first_pair(MatchRules(), NAMES).time_forfeit(2, Side.A)
    assert (game.pair, game.board, game.winner, game.end) == (1, 2, Side.B, End.TIME)
    assert (game.cube, game.loser_borne_off) == (1, 0)


def test_rules_5_the_proposal_is_for_the_pair_being_played() -> None:
    rules = MatchRules()
    games = (
        Game(1, 1, Side.A, End.BEAR_OFF, cube=1),
        Game(1, 2, Side.B, End.BEAR_OFF, cube=1),
    )
    state = score_match(rules, games, NAMES).pair_state
    assert state.time_forfeit(1, Side.B).pair == 2


def test_rules_6_5_chasing_the_girls_time_forfeit_scores_1() -> None:
    rules = MatchRules(scoring=Scoring.CHASING_THE_GIRLS)
    game = first_pair(rules, NAMES).time_forfeit(1, Side.B)
    assert (game.winner, game.cube) == (Side.A, 1)
    outcome = score_match(rules, (game,), NAMES)
    assert not outcome.problems and outcome.lines[0].points == 1
