"""Which rule scored a game, and why, in words a report prints (RULES §2–§6).

The match report does not restate the rules: it asks `scored_by` for each game it lists.
"""

from __future__ import annotations

from director.domain.rules import End, Level, Scoring
from director.domain.scoring import Game, forfeit_level, time_forfeit_level

_TIMES = {Level.SINGLE: "1", Level.GAMMON: "2", Level.BACKGAMMON: "3"}


def scored_by(scoring: Scoring, game: Game, counted: bool = True) -> str:
    """The rule applied to a game that did not simply end on the board ('' when the points
    are plain cube × level): a time forfeit under rule 5 or 5′, a game abandoned under 4′."""
    if not counted:
        return "abandoned (rule 4′): scores nothing"
    if game.end is not End.TIME:
        return ""
    if scoring is Scoring.CHASING_THE_GIRLS:
        return "time forfeit: 1 point (RULES §6.5)"
    rule_level = forfeit_level(game.loser_borne_off or 0)
    unit = "pip count" if scoring is Scoring.PIN_GAME else "cube"
    section = " (RULES §6.4)" if scoring is Scoring.PIN_GAME else ""
    if game.agreed_level is not None:
        return (
            f"time forfeit, rule 5′: agreed {game.agreed_level} instead of {rule_level}, "
            f"{_TIMES[game.agreed_level]} × {unit}{section}"
        )
    if rule_level is Level.BACKGAMMON:
        return f"time forfeit, rule 5: no checker borne off, 3 × {unit}{section}"
    return f"time forfeit, rule 5: checkers borne off, 1 × {unit}{section}"


def level_shown(scoring: Scoring, game: Game) -> str:
    """The level a game scored at: conceded, played out, or what rule 5 / 5′ gave."""
    if scoring is Scoring.CHASING_THE_GIRLS or game.end is End.PASS:
        return "—"
    if game.end is End.TIME:
        level = time_forfeit_level(game)
        return f"× {_TIMES[level]}" if scoring is Scoring.PIN_GAME else str(level)
    return str(game.level or Level.SINGLE)
