"""RULES §2: a game that cannot have happened is refused, naming the game and the field.

Each case is one impossible game of the rule book's list; `replay` must refuse it with one
line naming its pair and board, and the services use the same check (`PairState`)."""

from __future__ import annotations

import json

import pytest

from director.domain.match import score_match
from director.domain.records import RecordError, parse_record
from director.domain.rules import End, Level, MatchRules, Scoring, Side
from director.domain.scoring import Game, game_problems

A, B = Side.A, Side.B
STD, SIMPLE, KILLER = Scoring.STANDARD, Scoring.SIMPLE_PIP_SQUEEZE, Scoring.KILLER_PIP_SQUEEZE
PIN, CHASE = Scoring.PIN_GAME, Scoring.CHASING_THE_GIRLS


def killer_bear_off(level: Level, home: int, outfield: int, back: int) -> Game:
    return Game(1, 1, A, End.BEAR_OFF, level=level, loser_home=home, loser_outfield=outfield,
                loser_in_winner_home_or_bar=back)  # fmt: skip


IMPOSSIBLE = [
    # (scoring, game, words in the problem)
    (SIMPLE, Game(1, 1, A, End.BEAR_OFF, level=Level.GAMMON, winner_left=0, loser_left=3),
     "a gammon needs a loser who has borne off no checker"),
    (SIMPLE, Game(1, 1, A, End.RESIGN, level=Level.BACKGAMMON, winner_left=4, loser_left=14),
     "a backgammon needs a loser who has borne off no checker"),
    (KILLER, killer_bear_off(Level.GAMMON, 10, 2, 0),
     "a gammon needs a loser who has borne off no checker"),
    (SIMPLE, Game(1, 1, A, End.BEAR_OFF, level=Level.SINGLE, winner_left=0, loser_left=15),
     "a played-out single needs a loser who has borne off a checker"),
    (KILLER, killer_bear_off(Level.SINGLE, 15, 0, 0),
     "a played-out single needs a loser who has borne off a checker"),
    (KILLER, killer_bear_off(Level.BACKGAMMON, 13, 2, 0),
     "a backgammon needs a loser checker on the bar or in the winner's home board"),
    (KILLER, killer_bear_off(Level.GAMMON, 13, 1, 1), "is a backgammon, not a gammon"),
    (KILLER, killer_bear_off(Level.SINGLE, 0, 0, 0), "the loser had borne off all 15"),
    (SIMPLE, Game(1, 1, A, End.BEAR_OFF, level=Level.SINGLE, winner_left=2, loser_left=5),
     "the winner of a bear-off has no checker left"),
    (STD, Game(1, 1, A, End.TIME, loser_borne_off=15), "the loser had borne off all 15"),
    (PIN, Game(1, 1, A, End.TIME, loser_borne_off=15, loser_pips=5),
     "the loser had borne off all 15"),
    (SIMPLE, Game(1, 1, A, End.PASS, cube=2, winner_left=5, loser_left=0),
     "the loser had borne off all 15"),
    (KILLER, Game(1, 1, A, End.PASS, cube=2, winner_left=0, loser_left=9),
     "the winner had borne off all 15"),
    (SIMPLE, Game(1, 1, A, End.RESIGN, level=Level.SINGLE, winner_left=0, loser_left=9),
     "the winner had borne off all 15"),
    (SIMPLE, Game(1, 1, A, End.TIME, loser_borne_off=0, winner_left=0, loser_left=15),
     "the winner had borne off all 15"),
    (SIMPLE, Game(1, 1, A, End.TIME, loser_borne_off=2, winner_left=3, loser_left=12),
     "loser_borne_off + loser_left must be 15"),
    (KILLER, killer_bear_off(Level.GAMMON, 14, 1, 1), "more than 15 checkers"),
    (KILLER, killer_bear_off(Level.SINGLE, 16, 0, 0), "must be a checker count from 0 to 15"),
    (STD, Game(1, 1, A, End.PASS, cube=64), "a pass on a 64-cube"),
    (PIN, Game(1, 1, A, End.BEAR_OFF, level=Level.SINGLE, loser_pips=0),
     "a pin-game win worth 0 pips"),
    (PIN, Game(1, 1, A, End.RESIGN, level=Level.GAMMON, loser_pips=0),
     "a pin-game win worth 0 pips"),
    # a pip count the checkers left cannot make (RULES §2)
    (PIN, Game(1, 1, A, End.BEAR_OFF, level=Level.GAMMON, loser_pips=14),
     "loser_pips 14: a gammon leaves all 15 checkers"),
    (PIN, Game(1, 1, A, End.RESIGN, level=Level.GAMMON, loser_pips=10),
     "loser_pips 10: a gammon leaves all 15 checkers"),
    (PIN, Game(1, 1, A, End.BEAR_OFF, level=Level.BACKGAMMON, loser_pips=32),
     "so from 33 to 375 pips"),
    (PIN, Game(1, 1, A, End.RESIGN, level=Level.BACKGAMMON, loser_pips=20),
     "so from 33 to 375 pips"),
    (PIN, Game(1, 1, A, End.TIME, loser_borne_off=3, loser_pips=11),
     "loser_borne_off 3 leaves 12 checkers, so from 12 to 300 pips"),
    (PIN, Game(1, 1, A, End.TIME, loser_borne_off=14, loser_pips=26), "so from 1 to 25 pips"),
    (PIN, Game(1, 1, A, End.BEAR_OFF, level=Level.GAMMON, loser_pips=271),
     "none on the bar or in the winner's home board, so from 15 to 270 pips"),
    (PIN, Game(1, 1, A, End.BEAR_OFF, level=Level.SINGLE, loser_pips=351),
     "a single leaves at most 14 checkers"),
    (PIN, Game(1, 1, A, End.BEAR_OFF, level=Level.SINGLE, loser_pips=376),
     "loser_pips must be a pip count from 1 to 375, not 376"),
    # a field that does not belong to the game's end and scoring (FORMATS)
    (STD, Game(1, 1, A, End.BEAR_OFF, level=Level.SINGLE, loser_borne_off=2),
     "loser_borne_off does not belong to a bear-off game in standard"),
    (STD, Game(1, 1, A, End.PASS, cube=2, level=Level.GAMMON),
     "level does not belong to a pass game in standard"),
    (STD, Game(1, 1, A, End.TIME, loser_borne_off=0, level=Level.GAMMON),
     "level does not belong to a time game in standard"),
    (STD, Game(1, 1, A, End.BEAR_OFF, level=Level.SINGLE, loser_pips=20),
     "loser_pips does not belong to a bear-off game in standard"),
    (SIMPLE, Game(1, 1, A, End.BEAR_OFF, level=Level.SINGLE, winner_left=0, loser_left=3,
                  loser_home=3), "loser_home does not belong to a bear-off game in simple"),
    (KILLER, Game(1, 1, A, End.PASS, cube=2, winner_left=3, loser_left=3, loser_home=3),
     "loser_home does not belong to a pass game in killer"),
    (CHASE, Game(1, 1, A, End.BEAR_OFF, loser_borne_off=0),
     "loser_borne_off does not belong to a bear-off game in chasing"),
]  # fmt: skip


@pytest.mark.parametrize(("scoring", "game", "words"), IMPOSSIBLE)
def test_rules_2_a_game_that_cannot_have_happened_is_refused(
    scoring: Scoring, game: Game, words: str
) -> None:
    problems = game_problems(scoring, game)
    assert any(words in p for p in problems), problems


@pytest.mark.parametrize(("scoring", "game", "words"), IMPOSSIBLE)
def test_rules_2_replay_refuses_it_in_one_line_naming_pair_and_board(
    scoring: Scoring, game: Game, words: str
) -> None:
    record = {
        "format": "tandem-match", "version": 1, "match_length": 25, "scoring": scoring.value,
        "winner_required": False, "one_cube_threshold": 2, "no_cube_at_one_away": False,
        "teams": {"A": {"name": "Blue", "players": ["Ana", "Ben"]},
                  "B": {"name": "Red", "players": ["Cleo", "Dev"]}},
        "games": [{k: v.value if hasattr(v, "value") else v
                   for k, v in vars(game).items() if v is not None}],
    }  # fmt: skip
    with pytest.raises(RecordError) as info:
        parse_record(json.dumps(record))
    assert all(p.startswith("pair 1, board 1: ") for p in info.value.problems)
    assert any(words in p for p in info.value.problems)


POSSIBLE = [
    (SIMPLE, Game(1, 1, A, End.BEAR_OFF, level=Level.GAMMON, winner_left=0, loser_left=15)),
    (SIMPLE, Game(1, 1, A, End.PASS, cube=2, winner_left=14, loser_left=1)),
    (KILLER, killer_bear_off(Level.BACKGAMMON, 13, 1, 1)),
    (KILLER, killer_bear_off(Level.SINGLE, 1, 0, 1)),  # borne off some, then hit
    (STD, Game(1, 1, A, End.PASS, cube=32)),
    (STD, Game(1, 1, A, End.TIME, loser_borne_off=14)),
    (PIN, Game(1, 1, A, End.TIME, loser_borne_off=14, loser_pips=1)),
    # a resigned single before the loser bore off is an ordinary game (RULES §2)
    (SIMPLE, Game(1, 1, A, End.RESIGN, level=Level.SINGLE, winner_left=3, loser_left=15)),
    (KILLER, Game(1, 1, A, End.RESIGN, level=Level.SINGLE, winner_left=3, loser_left=15)),
    (PIN, Game(1, 1, A, End.RESIGN, level=Level.SINGLE, loser_pips=375)),
    (PIN, Game(1, 1, A, End.BEAR_OFF, level=Level.GAMMON, loser_pips=15)),
    (PIN, Game(1, 1, A, End.BEAR_OFF, level=Level.GAMMON, loser_pips=270)),
    (PIN, Game(1, 1, A, End.BEAR_OFF, level=Level.BACKGAMMON, loser_pips=33)),
    (PIN, Game(1, 1, A, End.RESIGN, level=Level.GAMMON, loser_pips=375)),
    (PIN, Game(1, 1, A, End.BEAR_OFF, level=Level.SINGLE, loser_pips=350)),
    (PIN, Game(1, 1, A, End.TIME, loser_borne_off=3, loser_pips=300)),
    (CHASE, Game(1, 1, A, End.TIME, loser_borne_off=4)),
    (CHASE, Game(1, 1, A, End.RESIGN, level=Level.SINGLE)),
]  # fmt: skip


@pytest.mark.parametrize(("scoring", "game"), POSSIBLE)
def test_rules_2_the_games_next_to_the_impossible_ones_are_accepted(
    scoring: Scoring, game: Game
) -> None:
    assert game_problems(scoring, game) == []


def test_rules_6_5_chasing_the_girls_records_only_winner_and_end() -> None:
    rules = MatchRules(match_length=3, scoring=CHASE)
    games = [Game(1, 1, A, End.BEAR_OFF), Game(1, 2, B, End.RESIGN), Game(2, 1, A, End.TIME)]
    outcome = score_match(rules, games)
    assert outcome.problems == ()
    assert [line.points for line in outcome.lines] == [1, 1, 1]


@pytest.mark.parametrize(
    ("game", "words"),
    [
        (Game(1, 1, A, End.BEAR_OFF, level=Level.GAMMON), "chasing the girls has no gammons"),
        (Game(1, 1, A, End.RESIGN, level=Level.BACKGAMMON), "chasing the girls has no gammons"),
        (Game(1, 1, A, End.TIME, loser_borne_off=0, agreed_level=Level.SINGLE),
         "rule 5′ does not apply in chasing the girls"),
        (Game(1, 1, A, End.TIME, agreed_level=Level.SINGLE),
         "rule 5′ does not apply in chasing the girls"),
    ],
)  # fmt: skip
def test_rules_6_5_a_gammon_or_an_agreed_level_is_refused_in_chasing(
    game: Game, words: str
) -> None:
    assert any(words in p for p in game_problems(CHASE, game))


def test_rules_6_5_a_single_may_be_written_down() -> None:
    assert game_problems(CHASE, Game(1, 1, A, End.BEAR_OFF, level=Level.SINGLE)) == []
