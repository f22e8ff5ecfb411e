"""RULES §10: the classic Crawford rule of a one-board match, derived from its games, and an
individual match scored game by game (#28). Every worked example of §10 is a test here."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from director.domain.cube import CubeRegime, crawford_cube_rule, is_crawford_game
from director.domain.match import MatchOutcome, Result, Score, score_match
from director.domain.rules import End, Format, Level, MatchRules, Scoring, Side, Stake
from director.domain.scoring import Game
from director.domain.simulation import simulate_match

A, B = Side.A, Side.B
NAMES = ("Ana", "Ben")
TO_5 = MatchRules(match_length=5, format=Format.INDIVIDUAL)


def games(*wins: tuple[Side, int]) -> list[Game]:
    """Games in the order played: each a bear-off worth `points` (1 single, 2 gammon, 3
    backgammon) on a centred cube."""
    level = {1: Level.SINGLE, 2: Level.GAMMON, 3: Level.BACKGAMMON}
    return [
        Game(n, 1, winner, End.BEAR_OFF, level=level[points])
        for n, (winner, points) in enumerate(wins, start=1)
    ]


def scored(played: list[Game], rules: MatchRules = TO_5) -> MatchOutcome:
    return score_match(rules, played, NAMES)


def next_game(outcome: MatchOutcome, winner: Side, **fields: object) -> Game:
    base = Game(outcome.current_pair, 1, winner, End.BEAR_OFF, level=Level.SINGLE)
    return replace(base, **fields)  # type: ignore[arg-type]


# -- the worked examples of RULES §10 ---------------------------------------------------------

TO_3_2 = [(A, 1), (B, 1), (A, 1), (B, 1), (A, 1)]  # 3–2 after five singles


def test_rules_10_the_leader_reaching_4_2_makes_the_next_game_the_crawford_game() -> None:
    outcome = scored(games(*TO_3_2, (A, 1)))
    assert outcome.score == Score(4, 2) and not outcome.problems
    assert outcome.cube_rule.crawford and outcome.cube_rule.regime is CubeRegime.NO_CUBE
    assert outcome.pair_state.may_double(1) == (False, "Crawford game: Ana is 1-away")


def test_rules_10_the_trailer_winning_the_crawford_game_makes_4_3_post_crawford() -> None:
    outcome = scored(games(*TO_3_2, (A, 1), (B, 1)))
    assert outcome.score == Score(4, 3)
    assert not outcome.cube_rule.crawford and outcome.cube_rule.post_crawford
    allowed, reason = outcome.pair_state.may_double(1)
    assert allowed and "post-Crawford" in reason


def test_rules_10_a_gammon_from_2_2_to_4_2_equally_makes_the_crawford_game() -> None:
    outcome = scored(games((A, 1), (B, 1), (A, 1), (B, 1), (A, 2)))
    assert outcome.score == Score(4, 2)
    assert outcome.cube_rule.crawford
    assert not outcome.pair_state.may_double(1).allowed


def test_rules_10_double_match_point_after_the_crawford_game_may_double() -> None:
    """4–2 Crawford, the trailer wins a gammon: 4–4 is post-Crawford (doubling allowed, if
    pointless), not a second Crawford game."""
    outcome = scored(games((A, 1), (B, 1), (A, 1), (B, 1), (A, 2), (B, 2)))
    assert outcome.score == Score(4, 4) and outcome.result is Result.UNFINISHED
    assert outcome.cube_rule.post_crawford and not outcome.cube_rule.crawford
    assert outcome.pair_state.may_double(1).allowed


@pytest.mark.parametrize(
    "fields",
    [
        {"cube": 2},  # played on a 2-cube
        {"end": End.PASS, "cube": 1, "level": None},  # a double sent and passed
    ],
    ids=["cube 2", "pass"],
)
def test_rules_10_a_crawford_game_that_used_the_cube_is_refused_naming_game_and_score(
    fields: dict[str, object],
) -> None:
    before = scored(games(*TO_3_2, (A, 1)))
    crawford = next_game(before, B, **fields)
    outcome = scored([*games(*TO_3_2, (A, 1)), crawford])
    (problem,) = outcome.problems
    assert str(problem) == (
        "game 7: the cube was used in the Crawford game: Ana is 1-away "
        "(the game started at 4–2; RULES §10)"
    )
    assert outcome.score == Score(4, 2)  # the refused game scores nothing
    assert before.pair_state.refusal(crawford) == str(problem)  # the desk's words too


def test_rules_10_undoing_or_correcting_a_game_re_derives_the_crawford_game() -> None:
    played = games(*TO_3_2, (A, 1), (B, 1))
    assert scored(played).cube_rule.post_crawford
    undone = scored(played[:-1])  # undo the Crawford game: it is the Crawford game again
    assert undone.cube_rule.crawford
    corrected = [*played[:5], replace(played[5], winner=B)]  # 3–3: nobody is 1-away
    outcome = scored(corrected)
    assert outcome.score == Score(3, 3)
    assert not outcome.cube_rule.crawford and not outcome.cube_rule.post_crawford


def test_rules_10_a_match_to_1_has_no_doubling_and_no_crawford_game() -> None:
    rules = replace(TO_5, match_length=1)
    rule = scored([], rules).cube_rule
    assert rule.regime is CubeRegime.NO_CUBE and "1 point" in rule.reason
    assert not rule.crawford
    assert not is_crawford_game(rules, 0, 0, played=False)


def test_rules_10_a_match_to_2_starts_with_nobody_1_away() -> None:
    rules = replace(TO_5, match_length=2)
    assert scored([], rules).pair_state.may_double(1).allowed
    assert scored(games((B, 1)), rules).cube_rule.crawford


def test_the_crawford_reason_names_the_trailer_when_the_trailer_is_1_away() -> None:
    rule = crawford_cube_rule(TO_5, 1, 4, NAMES)
    assert rule.reason == "Crawford game: Ben is 1-away"


def test_tandem_keeps_its_one_cube_rule_at_the_same_score() -> None:
    """Tandem pairs at 4–2 are one-cube pairs (RULES §4); there is no Crawford game there."""
    tandem = replace(TO_5, format=Format.TANDEM)
    rule = score_match(
        tandem,
        [Game(1, 1, A, End.BEAR_OFF, cube=4, level=Level.SINGLE), Game(1, 2, B, End.PASS)],
    ).cube_rule
    assert rule.regime is CubeRegime.ONE_CUBE and not rule.crawford


# -- an individual match, game by game ------------------------------------------------------


def test_rules_10_games_follow_one_another_on_one_board() -> None:
    """#28: score_match refused a second game on board 1 ('a pair starts only when both games
    of the one before are recorded')."""
    outcome = scored(games((A, 1), (B, 1), (A, 2)))
    assert not outcome.problems
    assert outcome.score == Score(3, 1) and outcome.current_pair == 4


def test_rules_10_the_match_ends_the_moment_a_player_reaches_n() -> None:
    outcome = scored(games((A, 2), (A, 2), (A, 1)))
    assert outcome.result is Result.A and outcome.score == Score(5, 0)
    late = scored(games((A, 2), (A, 2), (A, 1), (B, 1)))
    (problem,) = late.problems
    assert str(problem) == "game 4: the match was already decided (player Ana won at 5–0)"


def test_rules_10_a_second_board_is_refused() -> None:
    outcome = scored([Game(1, 2, A, End.BEAR_OFF, level=Level.SINGLE)])
    (problem,) = outcome.problems
    assert str(problem) == "game 1: board 2 is not a board of this match (board 1; RULES §10)"


def test_rules_10_no_game_ends_on_time_a_flag_loses_the_match() -> None:
    outcome = scored([Game(1, 1, A, End.TIME, loser_borne_off=0)])
    (problem,) = outcome.problems
    assert "a flag loses the match, not the game" in str(problem)
    assert str(problem).endswith("(RULES §10)")


def test_rules_10_games_out_of_order_are_refused_in_game_words() -> None:
    (problem,) = scored([Game(2, 1, A, End.BEAR_OFF, level=Level.SINGLE)]).problems
    assert str(problem).startswith("game 2: game 2 cannot follow game 1")


def test_rules_10_pip_squeeze_adds_its_extra_points_at_the_match_end() -> None:
    rules = replace(TO_5, scoring=Scoring.SIMPLE_PIP_SQUEEZE)
    played = [
        Game(n, 1, A, End.BEAR_OFF, level=Level.GAMMON, winner_left=0, loser_left=15)
        for n in (1, 2, 3)
    ]
    outcome = scored(played, rules)
    assert outcome.score == Score(6, 0) and outcome.pip_points == Score(45, 0)
    assert outcome.extra == Score(3, 0) and outcome.final == Score(9, 0)
    assert outcome.result is Result.A


def test_rules_10_pin_game_scores_pips_and_has_no_cube_nor_crawford_cube() -> None:
    rules = replace(TO_5, scoring=Scoring.PIN_GAME, match_length=150)
    outcome = scored([Game(1, 1, B, End.BEAR_OFF, level=Level.SINGLE, loser_pips=40)], rules)
    assert outcome.score == Score(0, 40)
    assert not outcome.pair_state.may_double(1).allowed
    cubed = [Game(1, 1, B, End.BEAR_OFF, cube=2, level=Level.SINGLE, loser_pips=40)]
    assert scored(cubed, rules).problems


def test_rules_10_chasing_the_girls_counts_games_without_a_cube() -> None:
    rules = replace(TO_5, scoring=Scoring.CHASING_THE_GIRLS, match_length=3)
    outcome = scored([Game(n, 1, A, End.BEAR_OFF) for n in (1, 2, 3)], rules)
    assert outcome.score == Score(3, 0) and outcome.result is Result.A
    at_2 = scored([Game(n, 1, A, End.BEAR_OFF) for n in (1, 2)], rules)
    assert at_2.cube_rule.regime is CubeRegime.NO_CUBE
    assert "no doubling cube" in at_2.cube_rule.reason


# -- property tests: no sequence of games allows doubling in a Crawford game ------------------

GAME = st.tuples(st.sampled_from(Side), st.sampled_from([1, 2, 3]), st.sampled_from([1, 2, 4]))


@settings(max_examples=400, deadline=None)
@given(length=st.integers(2, 11), plan=st.lists(GAME, max_size=40))
def test_no_sequence_of_games_allows_doubling_in_a_crawford_game_and_always_after(
    length: int, plan: list[tuple[Side, int, int]]
) -> None:
    """Play the games the rules allow (a cube only where doubling is allowed): the game after a
    player first reaches N − 1 never allows doubling, every game before (nobody 1-away) and
    after it always does, and a cube used in the Crawford game is always refused."""
    rules = replace(TO_5, match_length=length)
    played: list[Game] = []
    crawford_seen = False
    for winner, points, cube in plan:
        outcome = scored(played, rules)
        if outcome.finished:
            break
        state = outcome.pair_state
        first_1_away = max(outcome.score.a, outcome.score.b) == length - 1 and not crawford_seen
        assert state.cube_rule.crawford is first_1_away
        assert state.may_double(1).allowed is not first_1_away
        assert state.cube_rule.post_crawford is crawford_seen
        level = {1: Level.SINGLE, 2: Level.GAMMON, 3: Level.BACKGAMMON}[points]
        game = Game(state.number, 1, winner, End.BEAR_OFF, cube=cube, level=level)
        if first_1_away:
            assert state.refusal(game) if cube > 1 else not state.refusal(game)
            game = replace(game, cube=1)
            crawford_seen = True
        assert not state.refusal(game)
        played.append(game)
    assert not scored(played, rules).problems


# -- a flag loses the match (RULES §10) -------------------------------------------------------


def test_rules_10_a_flag_loses_the_match_and_raises_the_winner_to_n() -> None:
    played = games((A, 1), (B, 2), (B, 1))  # 1–3
    outcome = score_match(TO_5, played, NAMES, lost_on_time=B)
    assert not outcome.problems
    assert outcome.result is Result.A and outcome.score == Score(5, 3)
    assert outcome.final == Score(5, 3) and outcome.lost_on_time is B
    assert not outcome.pair_state.match_live


def test_rules_10_a_pip_squeeze_match_lost_on_time_adds_no_extra_points() -> None:
    rules = replace(TO_5, scoring=Scoring.KILLER_PIP_SQUEEZE)
    big = Game(1, 1, B, End.BEAR_OFF, level=Level.GAMMON, loser_home=0, loser_outfield=15,
               loser_in_winner_home_or_bar=0)  # fmt: skip
    outcome = score_match(rules, [big], NAMES, lost_on_time=B)
    assert outcome.pip_points == Score(0, 60) and outcome.extra == Score()
    assert outcome.result is Result.A and outcome.final == Score(5, 2)
    assert score_match(rules, [big], NAMES).pair_state.match_live  # 0–2: not over without it


def test_a_flag_after_the_match_ended_or_in_tandem_is_refused() -> None:
    over = score_match(TO_5, games((A, 3), (A, 2)), NAMES, lost_on_time=A)
    assert [str(p) for p in over.problems] == [
        "the match was already decided (player Ana won at 5–0)"
    ]
    tandem = score_match(replace(TO_5, format=Format.TANDEM), [], NAMES, lost_on_time=A)
    assert [str(p) for p in tandem.problems] == [
        "a flag loses a game in a Tandem match, not the match (RULES §5)"
    ]


def test_each_game_line_says_whether_it_was_the_crawford_game() -> None:
    outcome = scored(games(*TO_3_2, (A, 1), (B, 1), (B, 1)))
    assert [line.crawford for line in outcome.lines] == [False] * 6 + [True, False]


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    scoring=st.sampled_from(Scoring),
    length=st.integers(1, 9),
)
def test_simulated_individual_matches_obey_the_rules_in_every_scoring(
    seed: int, scoring: Scoring, length: int
) -> None:
    """The simulator plays one board per game under the Crawford rule: every match it plays
    ends with a winner, no draw, with no game refused (`simulate --individual` builds on it)."""
    rules = replace(
        TO_5,
        scoring=scoring,
        match_length=length * (30 if scoring.variant.stake is Stake.PIP_COUNT else 1),
    )
    played = simulate_match(rules, random.Random(seed))
    outcome = scored(played, rules)
    assert not outcome.problems and outcome.result in (Result.A, Result.B)
    assert {g.board for g in played} == {1}
    assert [g.pair for g in played] == list(range(1, len(played) + 1))
    assert sum(line.crawford for line in outcome.lines) <= 1


def test_the_scoreline_labels_the_crawford_and_post_crawford_games() -> None:
    """The desk, the sheet and the phones read one word for the game being played."""
    assert scored(games(*TO_3_2)).pair_state.crawford_label == ""
    assert scored(games(*TO_3_2, (A, 1))).pair_state.crawford_label == "Crawford"
    assert scored(games(*TO_3_2, (A, 1), (B, 1))).pair_state.crawford_label == "post-Crawford"
    tandem = replace(TO_5, format=Format.TANDEM)
    assert score_match(tandem, []).pair_state.crawford_label == ""
