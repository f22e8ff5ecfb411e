"""RULES §3 (end of a match), §4 (one-cube rule) and §6.3 (pip-squeeze result)."""

from __future__ import annotations

from dataclasses import replace

from director.domain.cube import Cube, CubeRegime, LiveCubes, board_may_double, pair_cube_rule
from director.domain.match import Result, Score, score_match, scored
from director.domain.rules import End, Level, MatchRules, Scoring, Side
from director.domain.scoring import Game

A, B = Side.A, Side.B


def win(pair: int, board: int, winner: Side, cube: int = 1, level: Level = Level.SINGLE) -> Game:
    return Game(pair, board, winner, End.BEAR_OFF, cube=cube, level=level)


def test_rules_3_rule_4_team_reaching_n_in_first_game_of_pair_does_not_win_yet() -> None:
    rules = MatchRules(match_length=3)
    outcome = score_match(rules, [win(1, 1, A, level=Level.BACKGAMMON)])
    assert outcome.score == Score(3, 0)
    assert outcome.result is Result.UNFINISHED
    done = score_match(rules, [win(1, 1, A, level=Level.BACKGAMMON), win(1, 2, B)])
    assert done.result is Result.A


def test_rules_3_rule_4_both_teams_reach_n_in_the_same_pair_is_a_draw() -> None:
    rules = MatchRules(match_length=3, one_cube_threshold=1)
    games = [win(1, 1, A, level=Level.BACKGAMMON), win(1, 2, B, level=Level.BACKGAMMON)]
    outcome = score_match(rules, games)
    assert outcome.result is Result.DRAW
    assert outcome.final == Score(3, 3)


def test_rules_3_final_score_may_exceed_n() -> None:
    rules = MatchRules(match_length=3)
    outcome = score_match(rules, [win(1, 1, A, cube=2, level=Level.GAMMON), win(1, 2, A)])
    assert outcome.score == Score(5, 0)
    assert outcome.result is Result.A


def test_rules_3_rule_4_prime_match_ends_at_once_and_other_game_is_abandoned() -> None:
    rules = MatchRules(match_length=3, winner_required=True)
    games = [win(1, 2, B, level=Level.BACKGAMMON), win(1, 1, A, level=Level.BACKGAMMON)]
    outcome = score_match(rules, games)
    assert outcome.result is Result.B
    assert [line.counted for line in outcome.lines] == [True, False]
    assert outcome.lines[1].points == 0
    assert outcome.score == Score(0, 3)
    assert outcome.problems == ()


def test_rules_3_rule_4_prime_finish_order_decides() -> None:
    rules = MatchRules(match_length=3, winner_required=True)
    games = [win(1, 1, A, level=Level.BACKGAMMON), win(1, 2, B, level=Level.BACKGAMMON)]
    assert score_match(rules, games).result is Result.A


def test_rules_3_a_game_after_the_match_was_decided_is_refused() -> None:
    rules = MatchRules(match_length=1)
    games = [win(1, 1, A), win(1, 2, A), win(2, 1, B)]
    outcome = score_match(rules, games)
    assert any("already decided" in str(p) and p.pair == 2 for p in outcome.problems)


def test_pairs_are_played_in_order() -> None:
    outcome = score_match(MatchRules(), [win(1, 1, A), win(2, 1, B)])
    assert any("cannot follow pair 1" in str(p) for p in outcome.problems)


def test_a_board_plays_one_game_per_pair() -> None:
    outcome = score_match(MatchRules(), [win(1, 1, A), win(1, 1, B)])
    assert any("already has a game" in str(p) for p in outcome.problems)


def test_rules_4_one_cube_pair_when_a_team_is_2_away() -> None:
    rule = pair_cube_rule(MatchRules(match_length=5), 3, 0, ("Blue", "Red"))
    assert rule.regime is CubeRegime.ONE_CUBE
    assert "team Blue is 2-away" in rule.reason


def test_rules_4_the_banner_names_every_team_that_makes_the_pair_one_cube() -> None:
    names = ("Blue", "Red")
    both = pair_cube_rule(MatchRules(match_length=5), 4, 4, names)
    assert both.reason == "one-cube pair: both teams are 1-away"
    mixed = pair_cube_rule(MatchRules(match_length=5), 3, 4, names)
    assert mixed.reason == "one-cube pair: team Red is 1-away, team Blue 2-away"
    no_cube = pair_cube_rule(MatchRules(match_length=5, no_cube_at_one_away=True), 4, 4, names)
    assert no_cube.reason == "no cube at 1-away: both teams are 1-away, neither board may double"


def test_rules_4_threshold_1_makes_2_away_free() -> None:
    rules = MatchRules(match_length=5, one_cube_threshold=1)
    assert pair_cube_rule(rules, 3, 0).regime is CubeRegime.FREE
    assert pair_cube_rule(rules, 4, 0).regime is CubeRegime.ONE_CUBE


def test_rules_4_first_board_to_double_takes_the_cube_the_other_is_dead() -> None:
    rule = pair_cube_rule(MatchRules(match_length=5), 0, 4)
    assert board_may_double(rule, 2, None)[0]
    allowed, reason = board_may_double(rule, 2, 1)
    assert not allowed
    assert "the cube is on board 1" in reason
    assert board_may_double(rule, 1, 1)[0]  # redoubles are normal on the cube board


def test_rules_4_both_boards_using_the_cube_in_a_one_cube_pair_is_rejected() -> None:
    rules = MatchRules(match_length=5)
    games = [win(1, 1, A, cube=2), win(1, 2, A), win(2, 1, B, cube=2), win(2, 2, B, cube=2)]
    outcome = score_match(rules, games, ("Blue", "Red"))
    [problem] = outcome.problems
    assert problem.pair == 2
    assert "both boards (1 and 2)" in problem.text
    assert "one-cube pair 2" in problem.text
    assert "3–0" in problem.text  # the score when the pair started


def test_rules_4_a_passed_double_counts_as_using_the_cube() -> None:
    rules = MatchRules(match_length=5)
    games = [win(1, 1, A, cube=2), win(1, 2, A)]
    games += [Game(2, 1, B, End.PASS, cube=1), win(2, 2, B, cube=2)]
    assert score_match(rules, games).problems


def test_rules_4_cube_board_with_a_4_cube_is_fine() -> None:
    rules = MatchRules(match_length=5)
    games = [win(1, 1, A, cube=2), win(1, 2, A), win(2, 1, B, cube=4), win(2, 2, B)]
    outcome = score_match(rules, games)
    assert outcome.problems == ()
    assert outcome.score == Score(3, 5)


def test_rules_4_no_post_crawford_every_pair_at_such_a_score_is_one_cube() -> None:
    rules = MatchRules(match_length=5)
    games = [win(1, 1, A, cube=2), win(1, 2, A), win(2, 1, B), win(2, 2, B)]
    outcome = score_match(rules, games)
    assert outcome.pair_start == Score(3, 2)
    assert outcome.cube_rule.regime is CubeRegime.ONE_CUBE


def test_rules_4_no_cube_at_1_away_option() -> None:
    rules = MatchRules(match_length=5, no_cube_at_one_away=True)
    games = [win(1, 1, A, cube=2), win(1, 2, A, cube=2), win(2, 1, B, cube=2)]
    outcome = score_match(rules, games)
    assert any("no cube at 1-away" in p.text for p in outcome.problems)
    # without the option the same pair is a one-cube pair and one board may double
    assert score_match(MatchRules(match_length=5), games).problems == ()


def test_rules_4_a_1_point_match_has_no_doubling() -> None:
    outcome = score_match(MatchRules(match_length=1), [win(1, 1, A, cube=2)])
    assert any("match to 1 point has no doubling" in p.text for p in outcome.problems)


def test_rules_4_pin_game_and_chasing_have_no_cube() -> None:
    for scoring in (Scoring.PIN_GAME, Scoring.CHASING_THE_GIRLS):
        assert pair_cube_rule(MatchRules(scoring=scoring), 0, 0).regime is CubeRegime.NO_CUBE


def pip_game(pair: int, board: int, winner: Side, loser_left: int, level: Level) -> Game:
    return Game(
        pair, board, winner, End.BEAR_OFF, level=level, winner_left=0, loser_left=loser_left
    )


def test_rules_6_3_equal_adjusted_totals_leave_the_draw_standing() -> None:
    rules = MatchRules(match_length=2, scoring=Scoring.SIMPLE_PIP_SQUEEZE, one_cube_threshold=1)
    games = [pip_game(1, 1, A, 15, Level.GAMMON), pip_game(1, 2, B, 15, Level.GAMMON)]
    outcome = score_match(rules, games)
    assert outcome.decided_by is Result.DRAW
    assert outcome.pip_points == Score(15, 15)
    assert outcome.result is Result.DRAW


def test_rules_6_3_equal_adjusted_totals_leave_the_lone_winner_standing() -> None:
    rules = MatchRules(match_length=3, scoring=Scoring.KILLER_PIP_SQUEEZE)
    games = [
        # B resigns a backgammon to A on a 1-cube: 3 points, (15 - 14) x 3 = 3 pips
        Game(1, 1, A, End.RESIGN, level=Level.BACKGAMMON, winner_left=14, loser_left=15),
        # A resigns a single to B on a 2-cube: 2 points, (10 - 1) x 2 = 18 pips
        Game(1, 2, B, End.RESIGN, cube=2, level=Level.SINGLE, winner_left=1, loser_left=10),
    ]
    outcome = score_match(rules, games)
    assert outcome.problems == ()
    assert outcome.score == Score(3, 2)
    assert outcome.decided_by is Result.A  # A alone reached 3
    # margin 18 - 3 = 15 -> ceil(15 / 15) = 1 extra point to B: adjusted totals 3-3
    assert outcome.pip_points == Score(3, 18)
    assert outcome.extra == Score(0, 1)
    assert outcome.final == Score(3, 3)
    assert outcome.result is Result.A


def test_rules_6_3_a_game_point_draw_is_broken_by_the_adjusted_totals() -> None:
    rules = MatchRules(match_length=2, scoring=Scoring.KILLER_PIP_SQUEEZE, one_cube_threshold=1)
    games = [
        Game(1, 1, A, End.BEAR_OFF, level=Level.GAMMON, loser_home=15, loser_outfield=0,
             loser_in_winner_home_or_bar=0),  # 2 points, 15 x 2 = 30 pips
        Game(1, 2, B, End.RESIGN, level=Level.GAMMON, winner_left=14, loser_left=15),  # 2, 2
    ]  # fmt: skip
    outcome = score_match(rules, games)
    assert outcome.problems == ()
    assert outcome.decided_by is Result.DRAW  # both reached 2 in the same pair
    # margin 28 -> ceil(28 / 15) = 2 extra points: 4-2, the draw is broken
    assert outcome.pip_points == Score(30, 2)
    assert outcome.final == Score(4, 2)
    assert outcome.result is Result.A


def test_rules_6_3_pip_extra_can_overturn_the_game_point_winner() -> None:
    rules = MatchRules(match_length=5, scoring=Scoring.KILLER_PIP_SQUEEZE)
    b_pass = {"end": End.PASS, "cube": 2, "winner_left": 2, "loser_left": 15}
    games = [
        Game(1, 1, B, **b_pass),  # type: ignore[arg-type]
        Game(1, 2, A, End.BEAR_OFF, level=Level.SINGLE, loser_home=1, loser_outfield=0,
             loser_in_winner_home_or_bar=0),
        Game(2, 1, B, **b_pass),  # type: ignore[arg-type]
        Game(2, 2, A, End.BEAR_OFF, cube=4, level=Level.SINGLE, loser_home=1, loser_outfield=0,
             loser_in_winner_home_or_bar=0),
    ]  # fmt: skip
    outcome = score_match(rules, games)
    assert outcome.problems == ()
    assert outcome.score == Score(5, 4)
    assert outcome.decided_by is Result.A
    # B: 2 x (15 - 2) x 2 = 52 pip points; A: 1 x 1 + 1 x 4 = 5; margin 47 -> 4 extra points
    # (a single on a 4-cube: a gammon would need all 15 of the loser's checkers on the board)
    assert outcome.pip_points == Score(5, 52)
    assert outcome.extra == Score(0, 4)
    assert outcome.final == Score(5, 8)
    assert outcome.result is Result.B


def test_rules_6_3_a_game_after_the_end_is_refused_naming_the_adjusted_result() -> None:
    """Once the match is over its score is the adjusted totals, in messages too (#25)."""
    rules = MatchRules(match_length=2, scoring=Scoring.KILLER_PIP_SQUEEZE, one_cube_threshold=1)
    games = [
        Game(1, 1, A, End.BEAR_OFF, level=Level.GAMMON, loser_home=15, loser_outfield=0,
             loser_in_winner_home_or_bar=0),
        Game(1, 2, B, End.RESIGN, level=Level.GAMMON, winner_left=14, loser_left=15),
        Game(2, 1, B, End.RESIGN, level=Level.SINGLE, winner_left=3, loser_left=15),
    ]  # fmt: skip
    outcome = score_match(rules, games, ("Blue", "Red"))
    assert outcome.final == Score(4, 2)
    assert [str(p) for p in outcome.problems] == [
        "pair 2, board 1: the match was already decided (team Blue won at 4–2)"
    ]


def test_a_match_scored_again_with_the_same_values_is_remembered_and_any_change_scores_it() -> None:
    """`scored` is `score_match` remembered by every argument's value: a listing read again
    after one result scores only the match that changed, and reads the same outcome."""
    rules = MatchRules(match_length=3)
    games = (win(1, 1, A, level=Level.GAMMON), win(1, 2, B))
    live = ((2, LiveCubes().with_board(1, Cube(2, B))),)
    first = scored(rules, games, ("Ann", "Bo"), live)
    assert first == score_match(rules, games, ("Ann", "Bo"), dict(live))
    # equal values, other objects (a listing read again): remembered, not scored again, and
    # its lines carry the games given, as the desk finds a game's line by identity
    again = tuple(replace(game) for game in games)
    second = scored(rules, again, ("Ann", "Bo"), live)
    assert second == first and second.pair_state is first.pair_state
    assert [line.game for line in second.lines] == list(again)
    assert all(line.game is game for line, game in zip(second.lines, again, strict=True))
    for changed in (
        scored(rules, (*games[:1], win(1, 2, A)), ("Ann", "Bo"), live),  # one game's winner
        scored(rules, games, ("Ann", "Bo")),  # the live cube of pair 2 gone
        scored(MatchRules(match_length=5), games, ("Ann", "Bo"), live),
        scored(rules, games, ("Ann", "Bo"), live, lost_on_time=A),
    ):
        assert changed is not first and changed != first
    assert scored(rules, games, ("Ann", "Cy"), live).pair_state != first.pair_state  # names
