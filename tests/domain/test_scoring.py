"""RULES §2, §5, §6: what one game is worth, one worked example per clause."""

from __future__ import annotations

import pytest

from director.domain.rules import End, Level, MatchRules, Scoring, Side
from director.domain.scoring import (
    Game,
    agreed_level_offered,
    extra_game_points,
    game_points,
    game_problems,
    pip_points,
    required_fields,
)

STD = Scoring.STANDARD


def game(**kw: object) -> Game:
    base: dict[str, object] = {"pair": 1, "board": 1, "winner": Side.A, "end": End.BEAR_OFF}
    base.update(kw)
    return Game(**base)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("level", "cube", "points"),
    [(Level.SINGLE, 1, 1), (Level.GAMMON, 1, 2), (Level.BACKGAMMON, 1, 3), (Level.GAMMON, 4, 8)],
)
def test_rules_2_bear_off_scores_cube_times_level(level: Level, cube: int, points: int) -> None:
    assert game_points(STD, game(level=level, cube=cube)) == points


def test_rules_2_worked_backgammon_on_a_2_cube_scores_6() -> None:
    assert game_points(STD, game(level=Level.BACKGAMMON, cube=2)) == 6


def test_rules_2_worked_pass_of_an_8_offer_on_a_4_cube_scores_4() -> None:
    assert game_points(STD, game(end=End.PASS, cube=4)) == 4


def test_rules_2_pass_ignores_levels() -> None:
    assert game_points(STD, game(end=End.PASS, cube=2, level=Level.GAMMON)) == 2


def test_rules_2_resign_scores_cube_times_conceded_level() -> None:
    assert game_points(STD, game(end=End.RESIGN, level=Level.GAMMON, cube=2)) == 4


def test_rules_2_centred_cube_counts_as_1() -> None:
    assert game_points(STD, game(level=Level.SINGLE, cube=1)) == 1


@pytest.mark.parametrize("cube", [0, 3, 6, 128, -2])
def test_rules_2_cube_must_be_a_power_of_two_up_to_64(cube: int) -> None:
    problems = game_problems(STD, game(level=Level.SINGLE, cube=cube))
    assert any("power of two" in p for p in problems)


def test_rules_5_time_forfeit_scores_3_cubes_when_nothing_borne_off() -> None:
    assert game_points(STD, game(end=End.TIME, cube=2, loser_borne_off=0)) == 6


def test_rules_5_time_forfeit_scores_1_cube_when_loser_bore_off() -> None:
    assert game_points(STD, game(end=End.TIME, cube=4, loser_borne_off=3)) == 4


@pytest.mark.parametrize(("agreed", "points"), [(Level.GAMMON, 4), (Level.SINGLE, 2)])
def test_rules_5_prime_agreed_lower_forfeit(agreed: Level, points: int) -> None:
    g = game(end=End.TIME, cube=2, loser_borne_off=0, agreed_level=agreed)
    assert game_problems(STD, g) == []
    assert game_points(STD, g) == points


def test_rules_5_prime_agreed_level_must_be_lower_than_the_forfeit() -> None:
    g = game(end=End.TIME, cube=1, loser_borne_off=2, agreed_level=Level.GAMMON)
    assert any("rule 5′" in p for p in game_problems(STD, g))


def test_rules_5_time_forfeit_needs_the_borne_off_count() -> None:
    assert any("loser_borne_off" in p for p in game_problems(STD, game(end=End.TIME)))


def test_rules_6_1_simple_pip_points_loser_left_minus_winner_left() -> None:
    g = game(level=Level.SINGLE, winner_left=0, loser_left=9)
    assert pip_points(Scoring.SIMPLE_PIP_SQUEEZE, g) == 9


def test_rules_6_1_simple_pip_points_can_be_negative_after_a_pass() -> None:
    g = game(end=End.PASS, cube=1, winner_left=12, loser_left=5)
    assert pip_points(Scoring.SIMPLE_PIP_SQUEEZE, g) == -7
    assert game_points(Scoring.SIMPLE_PIP_SQUEEZE, g) == 1


@pytest.mark.parametrize(("margin", "extra"), [(14, 0), (15, 1), (29, 1), (30, 2), (-31, 2)])
def test_rules_6_1_simple_extra_points_floor_of_margin_over_15(margin: int, extra: int) -> None:
    assert extra_game_points(Scoring.SIMPLE_PIP_SQUEEZE, margin) == extra


def test_rules_6_2_worked_killer_4_point_gammon_scores_68_pip_points() -> None:
    g = game(
        level=Level.GAMMON,
        cube=2,
        loser_home=13,
        loser_outfield=2,
        loser_in_winner_home_or_bar=0,
    )
    assert game_problems(Scoring.KILLER_PIP_SQUEEZE, g) == []
    assert game_points(Scoring.KILLER_PIP_SQUEEZE, g) == 4
    assert pip_points(Scoring.KILLER_PIP_SQUEEZE, g) == (13 + 2 * 2) * 4 == 68


def test_rules_6_2_the_sources_13_checker_gammon_cannot_have_happened() -> None:
    g = game(level=Level.GAMMON, cube=2, loser_home=11, loser_outfield=2,
             loser_in_winner_home_or_bar=0)  # fmt: skip
    assert any("a gammon needs a loser" in p for p in game_problems(Scoring.KILLER_PIP_SQUEEZE, g))


def test_rules_6_2_killer_checkers_in_winner_home_or_bar_count_3() -> None:
    g = game(level=Level.BACKGAMMON, loser_home=10, loser_outfield=3, loser_in_winner_home_or_bar=2)
    assert pip_points(Scoring.KILLER_PIP_SQUEEZE, g) == (10 + 6 + 6) * 3


def test_rules_6_2_killer_other_ends_use_checkers_left_times_game_points() -> None:
    g = game(end=End.PASS, cube=2, winner_left=4, loser_left=10)
    assert pip_points(Scoring.KILLER_PIP_SQUEEZE, g) == (10 - 4) * 2


@pytest.mark.parametrize(("margin", "extra"), [(14, 0), (15, 1), (16, 2), (47, 4), (0, 0)])
def test_rules_6_2_killer_extra_points_ceil_of_margin_over_15(margin: int, extra: int) -> None:
    assert extra_game_points(Scoring.KILLER_PIP_SQUEEZE, margin) == extra


def test_rules_6_4_pin_game_scores_loser_pips_times_level() -> None:
    pin = Scoring.PIN_GAME
    assert game_points(pin, game(level=Level.SINGLE, loser_pips=37)) == 37
    assert game_points(pin, game(level=Level.GAMMON, loser_pips=80)) == 160
    assert game_points(pin, game(level=Level.BACKGAMMON, loser_pips=90)) == 270


def test_rules_6_4_pin_game_resign_scores_conceded_level_the_same_way() -> None:
    assert (
        game_points(Scoring.PIN_GAME, game(end=End.RESIGN, level=Level.GAMMON, loser_pips=50))
        == 100
    )


def test_rules_6_4_pin_game_time_forfeit_scores_pips_times_3() -> None:
    g = game(end=End.TIME, loser_borne_off=0, loser_pips=41)
    assert game_problems(Scoring.PIN_GAME, g) == []
    assert game_points(Scoring.PIN_GAME, g) == 123


def test_rules_6_4_pin_forfeit_with_something_borne_off_scores_pips_times_1() -> None:
    g = game(end=End.TIME, loser_borne_off=4, loser_pips=41)
    assert game_problems(Scoring.PIN_GAME, g) == []
    assert game_points(Scoring.PIN_GAME, g) == 41


def test_rules_6_4_pin_forfeit_needs_the_borne_off_count() -> None:
    problems = game_problems(Scoring.PIN_GAME, game(end=End.TIME, loser_pips=41))
    assert any("missing loser_borne_off" in p for p in problems)


@pytest.mark.parametrize(("agreed", "points"), [(Level.GAMMON, 82), (Level.SINGLE, 41)])
def test_rules_6_4_pin_forfeit_rule_5_prime_lowers_times_3(agreed: Level, points: int) -> None:
    g = game(end=End.TIME, loser_borne_off=0, loser_pips=41, agreed_level=agreed)
    assert game_problems(Scoring.PIN_GAME, g) == []
    assert game_points(Scoring.PIN_GAME, g) == points


def test_rules_6_4_pin_forfeit_rule_5_prime_only_when_nothing_borne_off() -> None:
    g = game(end=End.TIME, loser_borne_off=2, loser_pips=41, agreed_level=Level.SINGLE)
    assert any("must be lower" in p for p in game_problems(Scoring.PIN_GAME, g))


def test_rules_6_4_pin_game_has_no_cube() -> None:
    problems = game_problems(Scoring.PIN_GAME, game(level=Level.SINGLE, cube=2, loser_pips=5))
    assert any("without a doubling cube" in p for p in problems)
    passed = game_problems(Scoring.PIN_GAME, game(end=End.PASS, loser_pips=5))
    assert any("without a doubling cube" in p for p in passed)


def test_rules_6_5_chasing_the_girls_every_game_scores_1() -> None:
    chase = Scoring.CHASING_THE_GIRLS
    assert game_points(chase, game(level=Level.BACKGAMMON)) == 1
    assert game_points(chase, game(end=End.TIME, loser_borne_off=0)) == 1


def test_rules_6_5_chasing_the_girls_has_no_cube() -> None:
    problems = game_problems(Scoring.CHASING_THE_GIRLS, game(level=Level.SINGLE, cube=2))
    assert any("without a doubling cube" in p for p in problems)


@pytest.mark.parametrize(
    ("scoring", "end", "needed"),
    [
        (Scoring.STANDARD, End.BEAR_OFF, "level"),
        (Scoring.SIMPLE_PIP_SQUEEZE, End.BEAR_OFF, "loser_left"),
        (Scoring.KILLER_PIP_SQUEEZE, End.BEAR_OFF, "loser_home"),
        (Scoring.KILLER_PIP_SQUEEZE, End.RESIGN, "winner_left"),
        (Scoring.PIN_GAME, End.BEAR_OFF, "loser_pips"),
    ],
)
def test_formats_missing_fields_for_the_scoring_are_named(
    scoring: Scoring, end: End, needed: str
) -> None:
    assert any(needed in p for p in game_problems(scoring, game(end=end)))


# A time forfeit with nothing borne off, every field any scoring asks for filled in.
FLAGGED = {"loser_borne_off": 0, "winner_left": 3, "loser_left": 15, "loser_pips": 40}


@pytest.mark.parametrize("scoring", list(Scoring))
@pytest.mark.parametrize("option", [True, False])
def test_rules_5_prime_is_offered_exactly_where_the_domain_accepts_it(
    scoring: Scoring, option: bool
) -> None:
    """RULES §5, §6.4, §6.5: the agreed-level field is offered at a time forfeit in an event
    with rule 5′ under every scoring that has levels (pin game too), and nowhere else."""
    rules = MatchRules(match_length=150, scoring=scoring, agreed_lower_forfeit=option)
    for end in End:
        assert agreed_level_offered(rules, end) is (option and end is End.TIME and (
            scoring is not Scoring.CHASING_THE_GIRLS))  # fmt: skip
    fields = {k: v for k, v in FLAGGED.items() if k in required_fields(scoring, End.TIME)}
    agreed = game(end=End.TIME, agreed_level=Level.GAMMON, **fields)
    accepted = game_problems(scoring, agreed) == []
    assert accepted is (scoring is not Scoring.CHASING_THE_GIRLS)
    if option:  # offered is what the domain then accepts
        assert agreed_level_offered(rules, End.TIME) is accepted


def test_each_problem_names_the_field_it_is_about_so_a_form_needs_no_reading_of_words() -> None:
    """A form puts a problem beside its field by the field the domain gives (#17: by code, not
    by text); a problem of the game as a whole names none. The words stay as they were."""
    missing = game_problems(STD, Game(1, 1, Side.A, End.BEAR_OFF))
    assert [(p, p.field) for p in missing] == [
        ("missing level for a bear-off game in standard", "level")
    ]
    simple = Scoring.SIMPLE_PIP_SQUEEZE
    flagged = Game(1, 1, Side.A, End.TIME, loser_borne_off=3, winner_left=4, loser_left=3)
    assert [p.field for p in game_problems(simple, flagged)] == ["loser_borne_off"]
    (cube,) = game_problems(STD, Game(1, 1, Side.A, End.PASS, cube=64))
    assert cube.field == "cube" and "no 128 to offer" in cube
    loser = Game(1, 1, Side.A, End.RESIGN, level=Level.SINGLE, winner_left=3, loser_left=20)
    assert [p.field for p in game_problems(simple, loser)] == ["loser_left"]
    (board,) = game_problems(STD, Game(1, 3, Side.A, End.BEAR_OFF, level=Level.SINGLE))
    assert board == "board must be 1 or 2, not 3" and board.field is None
