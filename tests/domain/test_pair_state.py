"""The pair being played (RULES §1, §3, §4): its cube board, derived, and what it allows."""

from __future__ import annotations

from director.domain.cube import Cube, CubeRegime, LiveCubes
from director.domain.match import Result, Score, score_match
from director.domain.rules import (
    End,
    EventOptions,
    Level,
    MatchRules,
    PairingSystem,
    Side,
    rules_for_match,
)
from director.domain.scoring import Game

A, B = Side.A, Side.B
FIVE = MatchRules(match_length=5)


def win(pair: int, board: int, winner: Side, cube: int = 1, level: Level = Level.SINGLE) -> Game:
    return Game(pair, board, winner, End.BEAR_OFF, cube=cube, level=level)


def at_3_0() -> list[Game]:
    """Pair 1 gives A 3 points: pair 2 starts with A 2-away, a one-cube pair."""
    return [win(1, 1, A, cube=2), win(1, 2, A)]


def test_rules_4_the_cube_board_is_the_board_whose_game_used_the_cube() -> None:
    state = score_match(FIVE, [*at_3_0(), win(2, 2, B, cube=2)]).pair_state
    assert state.regime is CubeRegime.ONE_CUBE
    assert state.cube_board == 2
    assert state.may_double(1) == (
        False,
        "one-cube pair: team A is 2-away; the cube is on board 2, dead here",
    )


def test_rules_4_a_live_offer_makes_its_board_the_cube_board() -> None:
    live = {2: LiveCubes.at({1: Cube().offer(B)})}
    state = score_match(FIVE, at_3_0(), live=live).pair_state
    assert state.cube_board == 1
    allowed, reason = state.may_double(2)
    assert not allowed and "the cube is on board 1, dead here" in reason
    taken = score_match(FIVE, at_3_0(), live={2: LiveCubes.at({1: Cube(2, A)})}).pair_state
    assert taken.cube_board == 1


def test_rules_4_a_withdrawn_offer_never_happened() -> None:
    live = {2: LiveCubes.at({1: Cube().offer(B).withdraw()})}
    state = score_match(FIVE, at_3_0(), live=live).pair_state
    assert state.cube_board is None
    assert state.may_double(2).allowed and state.may_double(1).allowed


def test_rules_4_the_other_board_recording_a_doubled_game_under_a_live_offer_is_refused() -> None:
    live = {2: LiveCubes.at({1: Cube().offer(B)})}
    state = score_match(FIVE, at_3_0(), live=live).pair_state
    [problem] = state.problems_of(win(2, 2, B, cube=2))
    assert (problem.pair, problem.board) == (2, 2)
    assert "both boards (1 and 2) used the cube in one-cube pair 2" in problem.text
    assert state.problems_of(win(2, 2, B)) == []
    # the same words as replay gives for the record with both games
    [replayed] = score_match(FIVE, [*at_3_0(), win(2, 1, B, cube=2), win(2, 2, B, cube=2)]).problems
    assert replayed == problem


def test_rules_4_correcting_the_doubled_game_re_derives_the_cube_board() -> None:
    state = score_match(FIVE, [*at_3_0(), win(2, 1, B)]).pair_state
    assert state.cube_board is None and state.may_double(2).allowed


def test_rules_4_a_live_cube_of_an_earlier_pair_does_not_count() -> None:
    live = {1: LiveCubes.at({2: Cube(2, A)})}
    assert score_match(FIVE, at_3_0(), live=live).pair_state.cube_board is None


def test_the_pair_state_says_which_boards_and_the_match_are_live() -> None:
    state = score_match(FIVE, [win(1, 2, A)]).pair_state
    assert state.number == 1 and state.match_live
    assert state.board_live(1) and not state.board_live(2)
    assert state.may_double(2) == (False, "board 2's game of this pair is recorded")
    over = score_match(MatchRules(match_length=1), [win(1, 1, A), win(1, 2, A)]).pair_state
    assert not over.match_live and not over.board_live(1)
    assert over.may_double(1) == (False, "the match is over")
    assert (
        over.problems_of(win(2, 1, B))[0].text
        == "the match was already decided (team A won at 2–0)"
    )


def test_a_complete_pair_moves_the_state_to_the_next_pair() -> None:
    state = score_match(FIVE, at_3_0()).pair_state
    assert (state.number, state.start, state.boards_done) == (2, Score(3, 0), frozenset())


def test_rules_2_a_pass_is_the_doubler_winning_the_value_before_the_offer() -> None:
    live = {1: LiveCubes.at({2: Cube(2, A).offer(A)})}
    state = score_match(FIVE, [], live=live).pair_state
    assert state.pass_game(2) == Game(1, 2, A, End.PASS, cube=2)


def test_rules_2_side_identity_two_teams_of_one_name_keep_the_one_cube_rule() -> None:
    """Teams are sides, never names: 3–0 with both teams called "Twins" is still one-cube."""
    names = ("Twins", "Twins")
    outcome = score_match(FIVE, [*at_3_0(), win(2, 1, B, cube=2), win(2, 2, B, cube=2)], names)
    [problem] = outcome.problems
    assert "both boards (1 and 2)" in problem.text
    # B (0 points) 5-away and A 2-away: the closer team decides, whatever the names
    assert score_match(FIVE, at_3_0(), names).pair_state.regime is CubeRegime.ONE_CUBE
    b_close = [win(1, 1, B, cube=2), win(1, 2, B)]
    assert score_match(FIVE, b_close, names).pair_state.regime is CubeRegime.ONE_CUBE


def test_rules_4_the_abandoned_game_is_checked_a_pass_in_a_1_point_match() -> None:
    rules = MatchRules(match_length=1, winner_required=True)
    outcome = score_match(rules, [win(1, 1, A), Game(1, 2, B, End.PASS, cube=1)])
    [problem] = outcome.problems
    assert (problem.pair, problem.board) == (1, 2)
    assert "a match to 1 point has no doubling" in problem.text


def test_rules_4_the_abandoned_game_is_checked_a_cube_at_1_away_with_no_cube() -> None:
    rules = MatchRules(match_length=3, winner_required=True, no_cube_at_one_away=True)
    games = [win(1, 1, A, level=Level.GAMMON), win(1, 2, B), win(2, 1, A), win(2, 2, B, cube=2)]
    [problem] = score_match(rules, games).problems
    assert (problem.pair, problem.board) == (2, 2)
    assert "no cube at 1-away" in problem.text


def test_rules_4_the_abandoned_game_is_checked_both_boards_doubled() -> None:
    rules = MatchRules(match_length=5, winner_required=True)
    games = [*at_3_0(), win(2, 1, A, cube=2), win(2, 2, B, cube=2)]
    [problem] = score_match(rules, games).problems
    assert (problem.pair, problem.board) == (2, 2)
    assert "both boards (1 and 2)" in problem.text
    clean = score_match(rules, [*at_3_0(), win(2, 1, A, cube=2), win(2, 2, B)])
    assert clean.problems == () and not clean.lines[-1].counted


def test_rules_3_rule_4_prime_is_always_on_in_knockout() -> None:
    swiss = EventOptions(match=FIVE)
    assert not rules_for_match(swiss, knockout=False).winner_required
    assert rules_for_match(swiss, knockout=True).winner_required
    knockout = EventOptions(match=FIVE, pairing_system=PairingSystem.KNOCKOUT)
    ko_rules = rules_for_match(knockout, knockout=True)
    assert ko_rules == MatchRules(match_length=5, winner_required=True)
    games = [win(1, 1, A, cube=2, level=Level.BACKGAMMON), win(1, 2, B)]
    assert score_match(ko_rules, games).decided_by is Result.A
    assert not score_match(ko_rules, games).lines[-1].counted
