"""Which rule scored a game (RULES §3 rule 4′, §5, §5′, §6.4, §6.5), as reports print it."""

from __future__ import annotations

import pytest

from director.domain.rules import End, Level, Scoring, Side
from director.domain.scored_by import level_shown, scored_by
from director.domain.scoring import Game, game_points

A = Side.A


def time(**kw: object) -> Game:
    return Game(1, 1, A, End.TIME, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("scoring", "game", "words", "level"),
    [
        (Scoring.STANDARD, time(cube=2, loser_borne_off=0),
         "time forfeit, rule 5: no checker borne off, 3 × cube", "backgammon"),
        (Scoring.STANDARD, time(cube=2, loser_borne_off=3),
         "time forfeit, rule 5: checkers borne off, 1 × cube", "single"),
        (Scoring.STANDARD, time(cube=2, loser_borne_off=0, agreed_level=Level.GAMMON),
         "time forfeit, rule 5′: agreed gammon instead of backgammon, 2 × cube", "gammon"),
        (Scoring.PIN_GAME, time(loser_borne_off=0, loser_pips=40),
         "time forfeit, rule 5: no checker borne off, 3 × pip count (RULES §6.4)", "× 3"),
        (Scoring.PIN_GAME, time(loser_borne_off=2, loser_pips=40),
         "time forfeit, rule 5: checkers borne off, 1 × pip count (RULES §6.4)", "× 1"),
        (Scoring.PIN_GAME, time(loser_borne_off=0, loser_pips=40, agreed_level=Level.SINGLE),
         "rule 5′: agreed single instead of backgammon, 1 × pip count (RULES §6.4)", "× 1"),
        (Scoring.CHASING_THE_GIRLS, time(), "time forfeit: 1 point (RULES §6.5)", "—"),
    ],
)  # fmt: skip
def test_scored_by_names_the_rule_and_the_level_it_gave(
    scoring: Scoring, game: Game, words: str, level: str
) -> None:
    assert words in scored_by(scoring, game)
    assert level_shown(scoring, game) == level


def test_the_level_shown_is_the_level_scored() -> None:
    game = time(loser_borne_off=0, loser_pips=40, agreed_level=Level.GAMMON)
    assert level_shown(Scoring.PIN_GAME, game) == "× 2"
    assert game_points(Scoring.PIN_GAME, game) == 80


def test_rules_3_an_abandoned_game_scores_nothing() -> None:
    game = Game(1, 1, A, End.BEAR_OFF, level=Level.GAMMON)
    assert scored_by(Scoring.STANDARD, game, counted=False) == "abandoned (rule 4′): scores nothing"
    assert scored_by(Scoring.STANDARD, game) == ""
