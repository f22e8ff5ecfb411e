"""Which rule scored a game, and why, in words a report prints (RULES §2–§6).

The match report does not restate the rules: it asks `scored_by` for each game it lists.
"""

from __future__ import annotations

from director.domain.rules import End, Level, Scoring, Stake
from director.domain.scoring import Game, forfeit_level, time_forfeit_level

_TIMES = {Level.SINGLE: "1", Level.GAMMON: "2", Level.BACKGAMMON: "3"}


def scored_by(scoring: Scoring, game: Game, counted: bool = True) -> str:
    """The rule applied to a game that did not simply end on the board ('' when the points
    are plain cube × level): a time forfeit under rule 5 or 5′, a game abandoned under 4′."""
    if not counted:
        return "abandoned (rule 4′): scores nothing"
    if game.end is not End.TIME:
        return ""
    variant = scoring.variant
    if not variant.has_levels:
        return f"time forfeit: {variant.stake} (RULES {variant.section})"
    rule_level = forfeit_level(game.loser_borne_off or 0)
    unit = variant.stake  # rule 5 with the variant's stake in place of the cube (RULES §6.4)
    section = "" if unit is Stake.CUBE else f" (RULES {variant.section})"
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
    variant = scoring.variant
    if not variant.has_levels or game.end is End.PASS:
        return "—"
    if game.end is End.TIME:
        level = time_forfeit_level(game)
        return str(level) if variant.stake is Stake.CUBE else f"× {_TIMES[level]}"
    return str(game.level or Level.SINGLE)
